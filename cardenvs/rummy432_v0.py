"""Rummy 4x3x2's (``rummy432_v0``): collect groups of one rank, PettingZoo AEC.

Rules: docs/rules/rummy432.md (the rules for a player, as this project plays them).  Each turn a player
picks up one card (``draw`` from the face-down pile or ``take`` the face-up top
discard), then throws one face up (``throw``) or throws it and finishes (``finish``,
only when every card kept is in an allowed group).  After a finish every other player
has exactly one more turn, in seat order, and may finish too; then every hand is
judged.  Round winners score 1; the first to ``rounds_to_win`` rounds wins the game.
One episode is the whole game (every round).

```python
from cardenvs import rummy432_v0
env = rummy432_v0.env(num_players=4, pack="mixed", hand_size=8, render_mode="ansi")
env.reset(seed=0)
```

## Properties

| property | value |
|---|---|
| import | `from cardenvs import rummy432_v0` |
| agents | `player_0` … `player_{n-1}`, n = 2..5 (default 4) |
| action space | `Discrete(106)` |
| observation | `{"observation": Box(float32, (514,)), "action_mask": Box(int8, (106,))}` |
| turn order | seat order; round r is dealt by seat `(n - 1 + r - 1) % n`, the seat left of the dealer (next seat) starts |
| episode | the whole game: rounds until someone has won `rounds_to_win` |
| rewards | at the end only: +1 sole winner, 0 each sharer, -1 others |
| Parallel API | No (AEC only: one player acts at a time) |

## Options

| option | default | allowed | meaning |
|---|---|---|---|
| num_players | 4 | 2, 3, 4, 5 | seats at the table (the seed's table: four seats of 8 cards each) |
| pack | "mixed" | "four", "three", "mixed" | group sizes allowed: four = {4}, three = {3}, mixed = {2, 3, 4} |
| hand_size | 8 | four: 8, 12; three: 6, 9, 12; mixed: 6, 8, 9, 12 | cards per hand between turns; 12 only with 2 or 3 players |
| run_out_limit | 3 | 2, 3, 4, 5, None | the round ends (and is judged) at the end of the turn of this run-out of the face-down pile; None = never |
| rounds_to_win | 3 | 1..10 | rounds to win the game (1 = one round per episode) |
| max_turns_per_round | 1000 | 1..1000000 | turn cap: a round is judged after this many completed turns (termination guarantee) |
| illegal_action | "raise" | "raise", "terminate" | stepping an illegal action: raise `IllegalActionError` and change nothing, or (PettingZoo classic's policy) end the game with `illegal_reward` to the offender, 0 to the others, and `infos[a]["illegal_action_by"]` |
| illegal_reward | -1.0 | a number | the offender's reward under `illegal_action="terminate"` |
| observation | "flat" | "flat", "planes", "action_features" | what the `"observation"` entry holds: the flat vector (Observation), or a learner's layout (Learner observations) |

Any other value or combination raises `OptionError` (a `ValueError`) naming the allowed
values, e.g. `pack="four", hand_size=9` or `hand_size=12, num_players=4`.

Rendering: `render_mode` is `None`, `"ansi"` (text), `"human"` (prints the text) or
`"rgb_array"` (`render()` returns an `(H, W, 3)` uint8 picture of the table: your cards at
the bottom grouped by rank, the others across the top with the discards they took);
`render_viewer` (a seat, or `None` for every hand face up) chooses whose view is drawn.

## Observation

Float32, the same size (514) for every option and seat count.  Seat-relative slots:
slot 0 is the viewer, slot 1 the next seat, …; slots of absent seats stay 0.  Counts and
options are raw numbers.  `Rummy432Game.decode(obs)` (the vector, or the dict
`env.last()` gives) returns the viewer's full `Rummy432View` (`encode(decode(o)) == o`;
`view.options` rebuilds the table).  Nothing of opponents' hands beyond the cards they
took from the discard (`known`), and nothing of the pile's order, is shown.

The `Box` is per entry (`game.observation_bounds()`) and tight under the options: every
entry is at least 0, and its high is its largest value at this table: the option entries
their value, `my_seat` `n - 1`, `round` `n * (rounds_to_win - 1) + 1`, `turn`
`max_turns_per_round`, `run_outs` `run_out_limit` (`max_turns_per_round` when None),
`pile_size` `52 - n * hand_size - 1`, `scores` `rounds_to_win`, `hand_sizes`
`hand_size + 1`; and 1 where that largest value is 0 (slots of absent seats, the other
packs, `run_out_limit` None), so no entry has `low == high`.  Every observation of every
loadable state lies inside.

| field | start | size | description |
|---|---|---|---|
| num_players | 0 | 1 | number of seats, 2..5 |
| my_seat | 1 | 1 | the viewer's absolute seat 0..4 |
| pack | 2 | 3 | one-hot option pack: four, three, mixed |
| hand_size | 5 | 1 | option hand_size: cards held between turns |
| run_out_limit | 6 | 1 | option run_out_limit 2..5; 0 = never |
| rounds_to_win | 7 | 1 | option rounds_to_win |
| max_turns_per_round | 8 | 1 | option max_turns_per_round (the turn cap) |
| phase | 9 | 3 | one-hot: pick, throw, over |
| current | 12 | 5 | one-hot seat-relative seat to move (slot 0 = me); zeros when over |
| dealer | 17 | 5 | one-hot seat-relative dealer of this round |
| round | 22 | 1 | round number, from 1 |
| turn | 23 | 1 | turns completed in this round |
| pile_size | 24 | 1 | cards in the face-down pile |
| run_outs | 25 | 1 | run-outs so far this round |
| finished_by | 26 | 5 | one-hot seat-relative first finisher; zeros if nobody finished |
| last_turns_left | 31 | 5 | seat-relative: 1 if that seat still has its last turn (in progress included) |
| scores | 36 | 5 | seat-relative rounds won; 0 for empty slots |
| hand_sizes | 41 | 5 | seat-relative cards held; 0 for empty slots |
| hand | 46 | 52 | my cards, by card id |
| discard_top | 98 | 52 | one-hot face-up top of the discard pile; zeros if it is empty |
| discard | 150 | 52 | every card in the discard pile (top included): thrown, not taken back |
| taken | 202 | 52 | one-hot card taken from the discard this turn (cannot be thrown); zeros if none |
| known | 254 | 260 | 5 seat-relative slots x 52: cards each seat took from the discard and still holds |

Card ids: `(rank - 1) * 4 + suit`, suits `c d h s` (so `Ac` = 0, `Kd` = 49).

## Learner observations

`observation="planes"` or `observation="action_features"` (default `"flat"`: the vector
above, unchanged) gives the `"observation"` entry another layout of the same player's
information, for learners (`cardenvs.core.observers`, encoders in
`cardenvs/rummy432/features.py`).  Both are built from the player's View alone, so
re-dealing what the player cannot see changes neither (tested), and every entry lies
in its column's range (the `Box` bounds).  They are not decoded back (`decode` reads
the flat vector).

### `planes`: `Box(0, 1, (64, 13), float32)`

`planes` has one column per rank (suits never matter here): my count of each rank (also one-hot), whether it is grouped, the ranks in the discard pile, its top, the card taken this turn, each seat's visibly taken cards, the unseen cards of each rank, and the position's scalars as constant channels.

| channel | start | size | range | description |
|---|---|---|---|---|
| mine | 0 | 1 | 0..1 | my cards of the rank / 4 |
| mine_count | 1 | 4 | 0..1 | one-hot: I hold 1, 2, 3, 4 cards of the rank |
| grouped | 5 | 1 | 0..1 | 1 if my cards of the rank are all in a group (pack's sizes) |
| discard | 6 | 1 | 0..1 | cards of the rank in the discard pile (top included) / 4 |
| discard_top | 7 | 1 | 0..1 | 1 at the rank of the face-up top of the discard pile |
| taken | 8 | 1 | 0..1 | 1 at the rank of the card I took from the discard this turn |
| known | 9 | 5 | 0..1 | per seat s (seat-relative): cards of the rank s took from the discard and holds / 4 |
| unseen | 14 | 1 | 0..1 | cards of the rank in no place I can see (the pile, hidden in hands) / 4 |
| value | 15 | 1 | 0..1 | constant per column: the rank's card value / 10 |
| next_group | 16 | 1 | 0..1 | the smallest allowed group size above my count of the rank / 4 (0 = none) |
| num_players | 17 | 4 | 0..1 | constant: one-hot seat count 2..5 |
| pack | 21 | 3 | 0..1 | constant: one-hot option pack: four, three, mixed |
| hand_size | 24 | 1 | 0..1 | constant: option hand_size / 12 |
| rounds_to_win | 25 | 1 | 0..1 | constant: option rounds_to_win / 10 |
| phase | 26 | 3 | 0..1 | constant: one-hot pick, throw, over |
| current | 29 | 5 | 0..1 | constant: one-hot seat-relative seat to move (zeros when over) |
| dealer | 34 | 5 | 0..1 | constant: one-hot seat-relative dealer of this round |
| round | 39 | 1 | 0..1 | constant: round number / the most rounds a game can last |
| turn | 40 | 1 | 0..1 | constant: turns completed in this round, min(turns, 100) / 100 |
| pile_size | 41 | 1 | 0..1 | constant: cards in the face-down pile / 52 |
| run_outs | 42 | 1 | 0..1 | constant: run-outs this round, min(count, 5) / 5 |
| run_out_limit | 43 | 1 | 0..1 | constant: option run_out_limit / 5 (0 = never) |
| finished_by | 44 | 5 | 0..1 | constant: one-hot seat-relative first finisher (zeros if nobody finished) |
| last_turns_left | 49 | 5 | 0..1 | constant: seat-relative, 1 if that seat still has its last turn |
| scores | 54 | 5 | 0..1 | constant: seat-relative rounds won / rounds_to_win |
| hand_sizes | 59 | 5 | 0..1 | constant: seat-relative cards held / 13 |

### `action_features`: `Box((106, 45), float32)`

Row `a` describes action `a` for the player to move; the rows of illegal actions (all
of them when the player is not to move) are zero.  `action_features` describes what each legal move does to my hand: its rank's count before and after, the hand's loose cards, groups, shape and values after it, the unseen cards that would then let it finish, what it tells or gives the next seat; then the position's facts (columns from `phase` on), the same on every legal row.  For `take` the hand after is after its best throw (fewest loose cards, then most grouped value); for `draw`, whose card is hidden, the chance that it lets me finish.

| column | start | size | range | description |
|---|---|---|---|---|
| kind | 0 | 4 | 0..1 | the move: draw, take, throw, finish |
| value | 4 | 1 | 0..1 | throw/finish: the card's value / 10; take: the top discard's value / 10 |
| count_before | 5 | 1 | 0..1 | throw/finish/take: my cards of that rank before the move / 4 |
| grouped_before | 6 | 1 | 0..1 | 1 if those cards were all in a group |
| count_after | 7 | 1 | 0..1 | my cards of that rank after the move / 4 |
| grouped_after | 8 | 1 | 0..1 | 1 if they are all in a group after the move (none left counts as grouped) |
| dead | 9 | 1 | 0..1 | cards of that rank out of my reach after the move: in the discard pile below its top or visibly held by another seat, / 4 |
| unseen | 10 | 1 | 0..1 | cards of that rank I cannot see after the move (the pile, hidden hands) / 4 |
| next_collects | 11 | 1 | 0..1 | cards of that rank the next seat visibly holds / 3, clipped to 1 |
| feeds | 12 | 1 | 0..1 | throw/finish: 1 if the next seat could take it to make or grow a group it visibly holds |
| complete_after | 13 | 1 | 0..1 | 1 if my hand after the move is complete (take: after its best throw) |
| loose_after | 14 | 1 | 0..1 | loose cards of my hand after the move / 13 |
| groups_after | 15 | 1 | 0..1 | groups in my hand after the move / 6 |
| largest_after | 16 | 1 | 0..1 | size of my largest group after the move / 4 |
| second_after | 17 | 1 | 0..1 | size of my second-largest group after the move / 4 |
| grouped_value_after | 18 | 1 | 0..1 | value of my grouped cards after the move / 130 |
| loose_value_after | 19 | 1 | 0..1 | value of my loose cards after the move / 130 |
| outs_after | 20 | 1 | 0..1 | unseen cards that would let my hand after the move finish on my next pick, min(count, 20) / 20 |
| live_after | 21 | 1 | 0..1 | unseen cards of the ranks in my hand after the move that would group one more of its cards, min(count, 30) / 30 |
| dead_loose_after | 22 | 1 | 0..1 | loose cards of my hand after the move whose rank has no unseen card left / 13 |
| finish_chance | 23 | 1 | 0..1 | draw: share of the unseen cards with which I could finish this turn |
| improve_chance | 24 | 1 | 0..1 | draw: share of the unseen cards that would group one more of my cards |
| takes_from_next | 25 | 1 | 0..1 | take: 1 if the top discard's rank is one the next seat visibly collects |
| phase | 26 | 2 | 0..1 | position: one-hot pick, throw |
| players | 28 | 1 | 0..1 | position: (seats - 2) / 3 |
| pack | 29 | 3 | 0..1 | position: one-hot option pack: four, three, mixed |
| hand_size | 32 | 1 | 0..1 | position: option hand_size / 12 |
| pile_size | 33 | 1 | 0..1 | position: cards in the face-down pile / 52 |
| run_outs | 34 | 1 | 0..1 | position: run-outs this round / run_out_limit (0 when there is no limit) |
| turn | 35 | 1 | 0..1 | position: turns completed in this round, min(turns, 50) / 50 |
| my_score | 36 | 1 | 0..1 | position: my rounds won / rounds_to_win |
| best_other | 37 | 1 | 0..1 | position: the most rounds won by another seat / rounds_to_win |
| finished | 38 | 1 | 0..1 | position: 1 if someone has finished (these are the last turns) |
| my_loose | 39 | 1 | 0..1 | position: loose cards in my hand now / 13 |
| my_complete | 40 | 1 | 0..1 | position: 1 if my hand now is complete |
| my_outs | 41 | 1 | 0..1 | position: pick: unseen cards that would let me finish this turn, min(count, 20) / 20 |
| next_hand | 42 | 1 | 0..1 | position: cards the next seat holds / 13 |
| next_known | 43 | 1 | 0..1 | position: cards the next seat visibly took and holds / 9, clipped to 1 |
| discard_size | 44 | 1 | 0..1 | position: cards in the discard pile / 52 |

## Actions

| actions | ids | meaning |
|---|---|---|
| draw | 0..0 | pick up the top card of the face-down pile (not when it is empty) |
| take | 1..1 | pick up the face-up top discard (everyone sees it) |
| throw | 2..53 | `throw <card>`, card id = id - 2: throw it face up, the turn ends |
| finish | 54..105 | `finish <card>`, card id = id - 54: throw it and finish; only if the cards kept are all in allowed groups |

Text: `draw` · `take` · `throw 7h` · `finish 7h` (`10h` is read as `Th`).  The card just
taken from the discard can be neither thrown nor the finishing throw.  A player facing
an empty face-down pile can only `take`.

## Rules decided here (docs/rules/rummy432.md and its Decisions)

* Grouping: each rank's cards form one group of the largest allowed size they reach
  (three-pack: four of a rank = a group of 3 and 1 loose; mixed: 4 of a rank = a group
  of 4); the rest are loose.  A hand is complete when nothing is loose.
* Run-outs: at the end of a turn in which the face-down pile became empty (the player
  drew its last card) one run-out is counted; if `run_out_limit` is reached the round
  ends there and is judged; otherwise all of the discard pile but its top (the card just
  thrown) is shuffled, with the env's generator, into a new pile (possibly empty).
* After a finish every other seat, in seat order from the finisher's left, has one last
  turn; a finish during a last turn changes nothing else (every final hand is judged on
  its own, declared or not).
* Judging: complete beats incomplete; among complete hands the group sizes sorted
  largest first compare lexicographically, then the card-value sum; still level =
  shared.  Nobody complete: grouped value minus loose value, best wins, level = shared.
* Several players reaching `rounds_to_win` in the same round share the game.

## Termination guarantee

A round ends by a finish, by `run_out_limit`, or at the latest after
`max_turns_per_round` completed turns (default 1000), when it is judged exactly as at a
run-out end (also in the middle of the last turns after a finish, like a run-out end).  The cap is needed whatever `run_out_limit` is: with an empty pile or
players who always take, no run-out ever happens.  Every round has at least one winner,
so a game lasts at most `n * (rounds_to_win - 1) + 1` rounds, hence at most
`2 * max_turns_per_round * (n * (rounds_to_win - 1) + 1)` agent steps.  The env never
truncates (`truncations` stay False).

## Rewards

At the end of the game only: +1 to the sole winner, 0 to each of several sharing the
win, -1 to everyone else.  Zero on every other step.

## Infos

After a step that ends a round, every seat's info is `{"round_result": {...}}` with
`round` (number), `ended_by` (`"finish"`, `"run_outs"` or `"turn_cap"`), `winners`
(seats), `finished_by` (seat or None), `hands` (per seat: `cards`, `shape` = group sizes
largest first, `complete`, `value` = grouped minus loose value, `grouped_value`,
`loose_value`), `scores` (after the round), `game_over`, and at the end `game_winners`.
Every other step gives `{}`.

## State JSON

the position format (docs/rules/).  Optional extra keys, written by `state_json()`: `round` (round
number, default 1) and `turn` (turns completed in this round, default `run_outs`); and
`options.max_turns_per_round` (only written when not 1000).  `last_turns_left` lists
the seats still owed a last turn, the seat whose last turn is in progress first.  When
the game is over `phase` is `"over"`, `current` is null, and the rest shows the last
round as it was judged.  The position format, with a worked example, is in
`docs/rules/rummy432.md`.

`reset(options={"state": ...})` takes the object or its JSON text and refuses, with an
`InvalidStateError` saying what is allowed, any inconsistent position: every count and
seat is an int (not a bool or float); `turn` is below `max_turns_per_round` (at most it
once the game is over); `run_outs` is below `run_out_limit` (at most it when over), with
no limit below `max_turns_per_round` (at most one per turn; at most the cap when over),
and never above `turn`; `round` is at most `sum(scores) + 1` while the game runs (every
round gives at least one point) and at most `sum(scores) - (seats at rounds_to_win) + 1`
once it is over.  `round` and `turn` may be left out: they then read as 1 and 0 and are
not checked against the scores or `run_outs`.

## Version history

| version | change |
|---|---|
| v0 | first release |
"""

from __future__ import annotations

from cardenvs.core.env import CardGameEnv, wrapped_env_fn
from cardenvs.rummy432.rules import Rummy432Game


class raw_env(CardGameEnv):
    """Rummy 4x3x2's AEC environment (see the module docstring for the spec)."""

    game_class = Rummy432Game
    metadata = {
        "render_modes": ["human", "ansi", "rgb_array"],
        "name": "rummy432_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }


env = wrapped_env_fn(raw_env)

__all__ = ["env", "raw_env"]
