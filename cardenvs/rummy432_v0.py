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
