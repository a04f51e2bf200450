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
