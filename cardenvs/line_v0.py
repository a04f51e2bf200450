"""Line: spatial rummy on a shared 4x4 grid, 2-4 players (docs/rules/line.md).

Every player adds cards to one shared grid of 4 rows of 4 squares; each row must stay
finishable as a run (four consecutive ranks of one suit, ace low) or a set (four of a
rank).  Four jokers stand in for any card a row needs, at most one per row.  On a turn
a player plays a card, upgrades a joker out of a full row, or shifts a card into a
complete run; only when none of these is possible do they take the top discard (if it
can go down) or draw.  Filling a row earns one bonus turn (never chained).  The game
ends when the grid is full, or when a forced player cannot take and the pile is empty;
the lowest hand total wins.

| property | value |
|---|---|
| import | `from cardenvs import line_v0` |
| agents | `player_0` .. `player_{n-1}`, n = 2..4 (default 2) |
| actions | `Discrete(4014)` |
| observation | `Box(453,)` float32 plus `action_mask` int8 (4014,) |
| rewards | +1 sole winner, 0 each sharer of the win, -1 the others (only at the end) |
| rules | `cardenvs.line.rules.LineGame` |
| Parallel API | No (AEC only: one player acts at a time) |

## Options

| option | default | allowed | meaning |
|---|---|---|---|
| num_players | 2 | 2..4 | seats |
| joker_points | 25 | 0..100 | value of a joker left in hand at the end |
| render_mode | None | None, "ansi", "human", "rgb_array" | text rendering, or `rgb_array`: `render()` returns an `(H, W, 3)` uint8 picture of the table |
| render_viewer | None | None or a seat | render only that seat's hand |
| illegal_action | "raise" | "raise", "terminate" | stepping an illegal action: raise `IllegalActionError` and change nothing, or (PettingZoo classic's policy) end the game with `illegal_reward` to the offender, 0 to the others, and `infos[a]["illegal_action_by"]` |
| illegal_reward | -1.0 | a number | the offender's reward under `illegal_action="terminate"` |
| observation | "flat" | "flat", "planes", "action_features" | what the `"observation"` entry holds: the flat vector (Observation), or a learner's layout (Learner observations) |

`reset(seed=..., options={"state": <position JSON>})` starts from a position; the JSON's
`num_players` and `options` must match the environment's.

## Observation

Seat-relative slots (slot 0 = me, slot 1 = next seat, ...); the same size for every
seat count and option.  `LineGame.decode(obs)` gives back the `LineView` losslessly.

| field | start | size | description |
|---|---|---|---|
| phase | 0 | 4 | one-hot: turn, place_drawn, discard, over |
| bonus_turn | 4 | 1 | 1 if the current turn is a bonus turn |
| num_players | 5 | 3 | one-hot: 2, 3, 4 players |
| seat | 8 | 4 | one-hot: the viewer's seat |
| to_move | 12 | 4 | one-hot: seat to move, relative to the viewer (0 = me); in phase over the last mover |
| joker_points | 16 | 1 | option joker_points (value of a joker in hand) |
| rows | 17 | 212 | row r card c at r*53+c: 1 if the card is in that row (c=52 joker) |
| hand | 229 | 53 | count of each card kind in my hand (joker 0..4) |
| pending | 282 | 53 | one-hot: the drawn card that must go down (phase place_drawn) |
| discard_top | 335 | 53 | one-hot: the face-up top of the discard pile |
| discard_depth | 388 | 52 | per real card: 1 if top of the discard pile, 2 below it, ...; 0 if not there |
| discard_jokers | 440 | 4 | depths of the jokers in the discard pile, ascending, 0 padding |
| draw_size | 444 | 1 | number of cards in the draw pile |
| hand_sizes | 445 | 4 | hand size per seat, relative (slot 0 = me), 0 for absent seats |
| known_jokers | 449 | 4 | jokers known to be in each seat's hand, relative (slot 0 = me) |

Card kinds: real card `(rank-1)*4 + suit` (suits c d h s, ranks A..K), joker 52.
A joker is "known" in a hand after an upgrade freed it into that hand; each joker the
player later plays, shifts in or discards makes one known joker forgotten.  Hidden:
the other hands (except known jokers) and the draw pile order.

## Learner observations

`observation="planes"` or `observation="action_features"` (default `"flat"`: the vector
above, unchanged) gives the `"observation"` entry another layout of the same player's
information, for learners (`cardenvs.core.observers`, encoders in
`cardenvs/line/features.py`).  Both are built from the player's View alone, so
re-dealing what the player cannot see changes neither (tested), and every entry lies
in its column's range (the `Box` bounds).  They are not decoded back (`decode` reads
the flat vector).

### `planes`: `Box(0, 1, (66, 4, 13), float32)`

`planes` lays the 52 real cards out as suit x rank: where each card is (my hand, each row, the discard pile and its depth, the pending card, unseen), what each row accepts by a play and by any move (the rows' states), the cards' values; the jokers, the rows' kinds and fill, and the position's scalars as constant channels.

| channel | start | size | range | description |
|---|---|---|---|---|
| hand | 0 | 1 | 0..1 | 1 if the card is in my hand |
| row | 1 | 4 | 0..1 | per row: 1 if the card is in that row |
| discard | 5 | 1 | 0..1 | 1 if the card is in the discard pile |
| discard_depth | 6 | 1 | 0..1 | 1 / depth in the discard pile (top 1, below it 1/2, ...); 0 if not there |
| discard_top | 7 | 1 | 0..1 | 1 if the card is the face-up top of the discard pile |
| pending | 8 | 1 | 0..1 | 1 if the card is the drawn card that must go down |
| unseen | 9 | 1 | 0..1 | 1 if the card is in no place I can see (the pile, other hands) |
| row_play | 10 | 4 | 0..1 | per row: 1 if a play may put the card into that row |
| row_fit | 14 | 4 | 0..1 | per row: 1 if the card has any move there (play, upgrade, shift) |
| value | 18 | 1 | 0..1 | constant per card: its hand value / 10 |
| my_jokers | 19 | 1 | 0..1 | constant: jokers in my hand / 4 |
| row_joker | 20 | 4 | 0..1 | constant: per row, 1 if it holds the joker |
| row_count | 24 | 4 | 0..1 | constant: per row, cards in it / 4 |
| row_kind | 28 | 8 | 0..1 | constant: per row r, 1 in slot 2r if its real cards make it a run, in 2r+1 if a set (both 0 while undecided) |
| joker_play | 36 | 4 | 0..1 | constant: per row, 1 if a play may put a joker into it |
| discard_jokers | 40 | 1 | 0..1 | constant: jokers in the discard pile / 4 |
| unseen_jokers | 41 | 1 | 0..1 | constant: jokers I cannot place / 4 |
| pending_joker | 42 | 1 | 0..1 | constant: 1 if the drawn card that must go down is a joker |
| top_joker | 43 | 1 | 0..1 | constant: 1 if the top of the discard pile is a joker |
| phase | 44 | 4 | 0..1 | constant: one-hot turn, place_drawn, discard, over |
| bonus_turn | 48 | 1 | 0..1 | constant: 1 if the current turn is a bonus turn |
| num_players | 49 | 3 | 0..1 | constant: one-hot 2, 3, 4 players |
| to_move | 52 | 4 | 0..1 | constant: one-hot seat-relative seat to move (in phase over: the last mover) |
| joker_points | 56 | 1 | 0..1 | constant: option joker_points / 100 |
| draw_size | 57 | 1 | 0..1 | constant: cards in the draw pile / 56 |
| hand_sizes | 58 | 4 | 0..1 | constant: seat-relative hand sizes / 8 |
| known_jokers | 62 | 4 | 0..1 | constant: seat-relative jokers known to be in each hand / 4 |

### `action_features`: `Box((4014, 42), float32)`

Row `a` describes action `a` for the player to move; the rows of illegal actions (all
of them when the player is not to move) are zero.  `action_features` describes what each legal move does: the hand points it sheds, the row it fills and whether that earns a bonus turn or ends the game; what it leaves me (hand size and total, how many of my cards still have a move, what the stuck ones are worth) and what it leaves the next seat (rows one card short and the unseen cards that fill them, the unseen cards that fit anywhere); then the position's facts (columns from `phase` on), the same on every legal row.

| column | start | size | range | description |
|---|---|---|---|---|
| kind | 0 | 6 | 0..1 | the move: play, upgrade, shift, take, draw, discard |
| joker | 6 | 1 | 0..1 | 1 if the card the move plays, shifts in or discards is a joker |
| shed | 7 | 1 | -1..1 | hand points the move takes out of my hand, less the points it brings in (an upgrade's joker, a shifted-out card), / 25, clipped to [-1, 1] |
| pending | 8 | 1 | 0..1 | 1 if the move places the drawn card that must go down |
| row_count | 9 | 1 | 0..1 | cards in the move's row after it / 4 (0 for draw and discard) |
| fills | 10 | 1 | 0..1 | 1 if the move fills its row |
| earns_bonus | 11 | 1 | 0..1 | 1 if it fills a row on a turn that is not a bonus turn (a bonus turn follows) |
| row_had_joker | 12 | 1 | 0..1 | 1 if the move's row held the joker |
| joker_to_hand | 13 | 1 | 0..1 | upgrade: 1 if the freed joker goes to my hand |
| joker_to_row | 14 | 1 | 0..1 | upgrade: 1 if the freed joker goes to another row |
| grid_after | 15 | 1 | 0..1 | squares filled after the move / 16 |
| ends_game | 16 | 1 | 0..1 | 1 if the move fills the last square |
| hand_after | 17 | 1 | 0..1 | cards in my hand after the move / 8 |
| total_after | 18 | 1 | 0..1 | my hand total after the move / 100, clipped to 1 |
| mobile_after | 19 | 1 | 0..1 | cards of my hand after the move that have a move on the grid / 8 |
| stuck_after | 20 | 1 | 0..1 | hand points of those that have none / 100, clipped to 1 |
| short_rows_after | 21 | 1 | 0..1 | rows one card short after the move / 4 |
| threat_after | 22 | 1 | 0..1 | unseen cards that a play could put into those rows / 20, clipped to 1 |
| open_after | 23 | 1 | 0..1 | unseen cards (jokers included) that a play could put somewhere after the move / 40, clipped to 1 |
| card_value | 24 | 1 | 0..1 | the card the move plays, takes or discards: its value / 10 (a joker: 1) |
| discard_fits | 25 | 1 | 0..1 | discard: 1 if a play could put the card into a row (the next seat may take it) |
| phase | 26 | 3 | 0..1 | position: one-hot turn, place_drawn, discard |
| bonus_turn | 29 | 1 | 0..1 | position: 1 if this is a bonus turn |
| players | 30 | 1 | 0..1 | position: (seats - 2) / 2 |
| draw_size | 31 | 1 | 0..1 | position: cards in the draw pile / 56 |
| hand_size | 32 | 1 | 0..1 | position: cards in my hand / 8 |
| hand_total | 33 | 1 | 0..1 | position: my hand total / 100, clipped to 1 |
| my_jokers | 34 | 1 | 0..1 | position: jokers in my hand / 4 |
| next_hand | 35 | 1 | 0..1 | position: cards in the next seat's hand / 8 |
| next_jokers | 36 | 1 | 0..1 | position: jokers known to be in the next seat's hand / 4 |
| fewest_other | 37 | 1 | 0..1 | position: the smallest other hand / 8 |
| grid | 38 | 1 | 0..1 | position: squares filled / 16 |
| unseen | 39 | 1 | 0..1 | position: cards I cannot place / 56 |
| mobile | 40 | 1 | 0..1 | position: cards of my hand with a move now / 8 |
| joker_points | 41 | 1 | 0..1 | position: option joker_points / 100 |

## Actions

Rows are 0..3 here and `r1`..`r4` in text.  Upgrade slot k = 0..2 is the k-th other
row in ascending order (e.g. for row 1: rows 0, 2, 3), slot 3 is the hand.  Shift pair
p indexes `cardenvs.line.rules.SHIFT_PAIRS`: the 728 pairs (in, out) of distinct card
kinds of one suit, or with exactly one joker, sorted ascending.

| actions | ids | meaning |
|---|---|---|
| play | 0..211 | `play <card> rN`: id = card*4 + row; also places a drawn card that must go down |
| upgrade | 212..1043 | `upgrade <card> rN joker rM/hand`: id = 212 + (card*4 + row)*4 + slot, real cards only |
| shift | 1044..3955 | `shift <card> rN out <card>`: id = 1044 + pair*4 + row |
| take | 3956..3959 | `take rN`: id = 3956 + row (the top discard into that row) |
| draw | 3960..3960 | `draw` |
| discard | 3961..4013 | `discard <card>`: id = 3961 + card (phase discard) |

## Rewards

At the end each seat's hand total is the sum of card values (A 1, 2-10 face, J Q K 10,
joker `joker_points`).  Lowest total wins; ties go to fewer cards; still tied, shared.
+1 to a sole winner, 0 to each sharer, -1 to every other player.  Zero before the end.

## Infos

Empty while the game runs.  At the end, per seat: `hand_total`, `hand_size` and
`winners` (list of winning seats).

## Rule decisions (where docs/rules/line.md leaves room)

* The drawn card that must go down (`pending`) is visible to every seat.
* `over` is also the phase of a position where the player to move is forced, cannot
  take and the pile is empty; loading such a position with phase `turn` is refused.
* JSON hands hold at most 7 cards, 8 only for the player in phase `discard`.
* A JSON position must be reachable in its phase: `place_drawn` needs a pending card
  that can go down and a hand with no play/upgrade/shift (the player was forced);
  `discard` needs 8 cards of which one is unplayable and the other 7 give no move;
  `over` needs a full grid or a stuck player to move; `turn` needs a legal move.
* Known jokers are not in the position format (docs/rules/): `state_json()` adds the optional key `known_jokers` (per seat) when any are known, and a position without it knows none.
* `sample_state` keeps what is public: a player who drew or is stuck holds no card
  with a move; a player to move with an empty pile and no take holds one.
* An upgrade's freed joker may go to any other row with an empty square and no joker
  (a joker never makes a row unfinishable).

## Version history

| version | change |
|---|---|
| line_v0 | first version |
"""

from __future__ import annotations

from cardenvs.core.env import CardGameEnv, wrapped_env_fn
from cardenvs.line.rules import LineGame

__all__ = ["env", "raw_env"]


class raw_env(CardGameEnv):
    """The Line AEC environment without wrappers (see the module docstring)."""

    game_class = LineGame
    metadata = {
        "render_modes": ["human", "ansi", "rgb_array"],
        "name": "line_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }


env = wrapped_env_fn(raw_env)
