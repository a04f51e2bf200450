"""Line-it (PettingZoo AEC), docs/rules/lineit.md: build ascending or descending lines of
number cards, bank them, chase colour jackpots and win Bets.

| property | value |
|---|---|
| import | `from cardenvs import lineit_v0` |
| agents | `player_0` .. `player_{n-1}`, n = 2..5 (default 2) |
| action space | `Discrete(414)` (ids name cards, never market slots) |
| observation | `Dict(observation=Box(2175,) float32, action_mask=Box(414,) int8)` |
| information | everything but the deck order is public (every hand card came from the face-up market) |
| options | `num_players` only |
| Parallel API | No (AEC only: one player acts at a time) |

## Options

| option | default | allowed | meaning |
|---|---|---|---|
| num_players | 2 | 2..5 | seats |
| illegal_action | "raise" | "raise", "terminate" | stepping an illegal action: raise `IllegalActionError` and change nothing, or (PettingZoo classic's policy) end the game with `illegal_reward` to the offender, 0 to the others, and `infos[a]["illegal_action_by"]` |
| illegal_reward | -1.0 | a number | the offender's reward under `illegal_action="terminate"` |

Rendering: `render_mode` is `None`, `"ansi"` (text), `"human"` (prints the text) or
`"rgb_array"` (`render()` returns an `(H, W, 3)` uint8 picture of the table: market,
each player's line, hand, tokens and score, the jackpots; the deck face down).

## Cards
Number cards 1..100, colour by n mod 4: 1 red (heart), 2 blue (diamond), 3 green
(leaf), 0 yellow (star). Bets `B3`, `B4`, `B5`, two identical copies of each. Move
notation: `pick 57 line` · `pick 57 hand` · `pick 57 new` · `pick B4 line` · `play 57` ·
`score` · `pass`.

## Observation
Seat-relative (slot 0 = the viewer, slot 1 = the next seat, ...; slots of absent seats are
0). The observation is lossless: `LineItGame.decode(obs)` rebuilds the view, and every
card's place is in it (the deck's cards are known as a set, their order is the only
hidden thing). Counts and values are raw numbers (not scaled). A line's order is given
by `card_line_pos` (numbers) and `line_bet_pos` (its Bet, whose kind is the
`bet_location` line slot); lines of any length (up to 101 cards) fit.

| field | start | size | description |
|---|---|---|---|
| num_players | 0 | 4 | one-hot seat count 2..5 |
| my_seat | 4 | 5 | one-hot absolute seat of the viewer |
| phase | 9 | 5 | one-hot: pick, play, score, final, over |
| current | 14 | 5 | one-hot seat-relative player to move (all 0 when over) |
| first | 19 | 5 | one-hot seat-relative first player of the round |
| picks_left | 24 | 1 | players still to act this round / final phase, current included |
| played_hand | 25 | 1 | 1 if the player to move played a hand card this turn |
| deck_size | 26 | 1 | cards in the deck |
| jackpot_size | 27 | 4 | cards under the red, blue, green, yellow jackpots |
| card_location | 31 | 1900 | per number card n=1..100 (block (n-1)*19) one-hot: deck, market, line s0..s4, hand s0..s4, jackpot (of its colour), scored s0..s4, discarded (s = seat-relative) |
| card_line_pos | 1931 | 100 | per number card: 1-based position in its line (Bet counted), 0 if not in a line |
| bet_location | 2031 | 39 | per Bet kind B3,B4,B5 (block of 13) copies in: deck, market, line s0..s4, hand s0..s4, discarded |
| line_bet_pos | 2070 | 5 | per seat: 1-based position of the Bet in the line, 0 if none |
| line_length | 2075 | 5 | per seat: cards in the line (Bet included) |
| line_numbers | 2080 | 5 | per seat: number cards in the line |
| line_direction | 2085 | 15 | per seat one-hot: unset, ascending, descending |
| line_last | 2100 | 5 | per seat: last number card of the line, 0 if none |
| line_colours | 2105 | 20 | per seat: number cards of red, blue, green, yellow in the line |
| bet_after | 2125 | 5 | per seat: number cards placed after the line's Bet (0 if no Bet) |
| hand_size | 2130 | 5 | per seat: cards in hand |
| scored_count | 2135 | 5 | per seat: cards in the scoring pile |
| tokens | 2140 | 30 | per seat: count of bet tokens -5, -4, -3, +3, +4, +5 |
| score | 2170 | 5 | per seat: scoring pile + token sum |

## Actions

| actions | ids | meaning |
|---|---|---|
| pick line | 0..102 | `pick <card> line`: card index k = card-1 (k 0..99 numbers 1..100, 100..102 B3,B4,B5) put at the end of the line |
| pick hand | 103..205 | `pick <card> hand`: 103 + k, put in the hand (fewer than 2 cards there) |
| pick new | 206..308 | `pick <card> new`: 206 + k, only if the card fits neither line nor hand: score the line, the card starts a new one |
| play | 309..411 | `play <card>`: 309 + k, a hand card that fits goes to the line |
| score | 412..412 | `score` the line (ends the turn) |
| pass | 413..413 | `pass`: skip the play or score step, or play nothing in the final phase |

## Turn structure and rule decisions
* A turn: pick (compulsory), then play (only offered when a hand card fits the line),
  then score (only offered when the line is not empty). **Decision (docs/rules/lineit.md):** a step
  whose only legal move would be `pass` is skipped, also in the final phase (a player
  with no fitting hand card is passed over; if nobody can play, every line is scored at
  once and the game ends).
* `new` is legal only for a card fitting neither the line nor the hand; an empty line
  takes any card. A Bet fits any line without a Bet; a second Bet never fits. Any card,
  Bet included, may go to a hand holding fewer than 2 cards. `score` ends the turn.
* Direction: set by the first two number cards (Bets ignored); later numbers must be
  strictly beyond the last number. The number card that makes exactly the third card of
  its colour in the current line claims that colour's jackpot (4th, 5th don't; a new line
  counts afresh; a card starting a line through `new` counts 1).
* Scoring a line: the Bet is settled (+value token when at least its value number cards
  were placed after it, else -value) and discarded; the first three number cards are
  discarded, the rest banked.
* End of a round: market leftovers go away, numbers under the jackpot of their colour,
  Bets to the discard; the first player moves one seat. A round that cannot fill the
  market (deck < players + 2) starts the final phase instead: the deck goes away the
  same way, then from that round's first player (already moved on one seat) each player may `play` one fitting hand
  card (a jackpot claim counts) or `pass`, then every line is scored.
* JSON (`state_json()`, `reset(options={"state": ...})`): the position format (docs/rules/); in the final
  phase `picks_left` counts the seats still to act (current included); at `over`,
  `current` is `null` and `picks_left` 0.

## Rewards
At the end: score = scoring-pile cards + bet tokens; +1 to a sole winner, 0 to each
player sharing the best score, -1 to the others. 0 on every other step.

## Infos
`{}` while the game runs; at the end per seat `{"score", "scored_cards", "token_total"}`.

## Version history

| version | change |
|---|---|
| lineit_v0 | first version |
"""

from cardenvs.core.env import CardGameEnv, wrapped_env_fn
from cardenvs.lineit.rules import LineItGame


class raw_env(CardGameEnv):
    """Line-it AEC environment (see the module docstring)."""

    game_class = LineItGame
    metadata = {"render_modes": ["human", "ansi", "rgb_array"], "name": "lineit_v0",
                "is_parallelizable": False, "render_fps": 1}


env = wrapped_env_fn(raw_env)
