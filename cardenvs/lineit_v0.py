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
| observation | "flat" | "flat", "planes", "action_features" | what the `"observation"` entry holds: the flat vector (Observation), or a learner's layout (Learner observations) |

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

## Learner observations

`observation="planes"` or `observation="action_features"` (default `"flat"`: the vector
above, unchanged) gives the `"observation"` entry another layout of the same player's
information, for learners (`cardenvs.core.observers`, encoders in
`cardenvs/lineit/features.py`).  Both are built from the player's View alone, so
re-dealing what the player cannot see changes neither (tested), and every entry lies
in its column's range (the `Box` bounds).  They are not decoded back (`decode` reads
the flat vector).

### `planes`: `Box(0, 1, (86, 103), float32)`

`planes` lays the cards out by value: one column per card kind (numbers 1..100, then B3, B4, B5), a channel per place a card can be, where each line ends and which cards it accepts, and the position's scalars as constant channels, so the room a line has is the run of `fits` ones beyond its `line_end`.

| channel | start | size | range | description |
|---|---|---|---|---|
| deck | 0 | 1 | 0..1 | 1 if the card is in the deck (a Bet: copies there / 2) |
| market | 1 | 1 | 0..1 | 1 if the card is in the market (a Bet: copies / 2) |
| line | 2 | 5 | 0..1 | per seat s (seat-relative): 1 if the card is in s's line |
| line_end | 7 | 5 | 0..1 | per seat s: 1 at the last number card of s's line |
| fits | 12 | 5 | 0..1 | per seat s: 1 if the card may go at the end of s's line now |
| hand | 17 | 5 | 0..1 | per seat s: 1 if the card is in s's hand (a Bet: copies / 2) |
| jackpot | 22 | 1 | 0..1 | 1 if the number card lies under its colour's jackpot |
| scored | 23 | 1 | 0..1 | 1 if the number card is in a scoring pile |
| discarded | 24 | 1 | 0..1 | 1 if the card is discarded (a Bet: copies / 2) |
| colour | 25 | 4 | 0..1 | constant per column: the number card's colour red, blue, green, yellow (0 for Bets) |
| value | 29 | 1 | 0..1 | constant per column: number / 100; a Bet: its value / 5 |
| num_players | 30 | 4 | 0..1 | constant: one-hot seat count 2..5 |
| phase | 34 | 5 | 0..1 | constant: one-hot pick, play, score, final, over |
| current | 39 | 5 | 0..1 | constant: one-hot seat-relative player to move (all 0 when over) |
| first | 44 | 5 | 0..1 | constant: one-hot seat-relative first player of the round |
| picks_left | 49 | 1 | 0..1 | constant: players still to act this round / 5 |
| played_hand | 50 | 1 | 0..1 | constant: 1 if the player to move played a hand card this turn |
| deck_size | 51 | 1 | 0..1 | constant: cards in the deck / 106 |
| jackpot_size | 52 | 4 | 0..1 | constant: cards under the red, blue, green, yellow jackpots / 25 |
| direction | 56 | 10 | 0..1 | constant: per seat s, 1 in slot 2s if s's line ascends, in 2s+1 if it descends |
| line_numbers | 66 | 5 | 0..1 | constant: per seat, number cards in the line, min(count, 20) / 20 |
| bet_owed | 71 | 5 | 0..1 | constant: per seat, number cards the line's Bet still needs / 5 |
| score | 76 | 5 | -1..1 | constant: per seat, score (scoring pile + tokens) / 50, clipped to [-1, 1] |
| hand_size | 81 | 5 | 0..1 | constant: per seat, cards in hand / 2 |

### `action_features`: `Box((414, 51), float32)`

Row `a` describes action `a` for the player to move; the rows of illegal actions (all
of them when the player is not to move) are zero.  `action_features` describes what each legal move does: the card, whether it fits, the gap it leaves, the room and the deck cards still beyond the line's end after it, a jackpot it claims, what a `new` or `score` banks and settles, what it leaves the next seat; then the position's facts (columns from `phase` on), the same on every legal row.

| column | start | size | range | description |
|---|---|---|---|---|
| kind | 0 | 6 | 0..1 | the move: pick to line, pick to hand, pick new, play, score, pass |
| bet | 6 | 1 | 0..1 | 1 if the card is a Bet |
| bet_value | 7 | 1 | 0..1 | the Bet's value / 5 |
| card | 8 | 1 | 0..1 | the number card / 100 |
| fits | 9 | 1 | 0..1 | 1 if the card fits my line now |
| to_line | 10 | 1 | 0..1 | 1 if the card ends at the end of my line (line, play, new) |
| gap | 11 | 1 | 0..1 | numbers skipped between my line's last card and this one, over the values beyond it in that direction (0 if my line has no number) |
| room_after | 12 | 1 | 0..1 | values beyond my line's end after the move in its direction / 99 (no direction yet: the larger side) |
| live_after | 13 | 1 | 0..1 | deck cards beyond my line's end after the move / cards in the deck (no direction: the larger side) |
| live_count | 14 | 1 | 0..1 | those deck cards, min(count, 50) / 50 |
| sets_direction | 15 | 1 | 0..1 | 1 if the move gives my line its direction |
| claims | 16 | 1 | 0..1 | 1 if the card is the third of its colour in my line: it claims that jackpot |
| jackpot | 17 | 1 | 0..1 | cards under the jackpot of the card's colour / 25 |
| colour_count | 18 | 1 | 0..1 | my line's number cards of the card's colour after the move, min(count, 3) / 3 |
| bet_progress | 19 | 1 | 0..1 | 1 if the card goes on my line after a Bet that still needs cards |
| banked | 20 | 1 | 0..1 | new and score: number cards the scored line banks, min(count, 20) / 20 |
| token | 21 | 1 | -1..1 | new and score: the token the scored line's Bet settles / 5 (signed) |
| hand_after | 22 | 1 | 0..1 | cards in my hand after the move / 2 |
| hand_fit_after | 23 | 1 | 0..1 | cards of my hand that fit my line after the move / 2 |
| next_fits | 24 | 1 | 0..1 | 1 if the card fits the next seat's line |
| next_claims | 25 | 1 | 0..1 | if the card would claim a jackpot for the next seat: that jackpot's cards / 25 |
| market_claims | 26 | 1 | 0..1 | picks: the largest jackpot (cards / 25) the next seat could claim with a market card this pick leaves |
| phase | 27 | 4 | 0..1 | position: one-hot pick, play, score, final |
| players | 31 | 1 | 0..1 | position: (seats - 2) / 3 |
| picks_left | 32 | 1 | 0..1 | position: players still to act this round / 5 |
| market_size | 33 | 1 | 0..1 | position: cards in the market / 7 |
| deck_size | 34 | 1 | 0..1 | position: cards in the deck / 106 |
| my_score | 35 | 1 | -1..1 | position: my score / 50, clipped to [-1, 1] |
| lead | 36 | 1 | -1..1 | position: my score less the best other score, / 20, clipped to [-1, 1] |
| line_numbers | 37 | 1 | 0..1 | position: number cards in my line, min(count, 20) / 20 |
| line_room | 38 | 1 | 0..1 | position: values beyond my line's end in its direction / 99 |
| line_live | 39 | 1 | 0..1 | position: deck cards beyond my line's end / cards in the deck |
| line_direction | 40 | 2 | 0..1 | position: 1 if my line ascends, 1 if it descends |
| line_bet | 42 | 1 | 0..1 | position: my line's Bet value / 5 (0 without one) |
| line_owed | 43 | 1 | 0..1 | position: number cards my line's Bet still needs / 5 |
| line_banked | 44 | 1 | 0..1 | position: what scoring my line now banks, min(count, 20) / 20 |
| hand_size | 45 | 1 | 0..1 | position: cards in my hand / 2 |
| hand_fit | 46 | 1 | 0..1 | position: cards of my hand that fit my line / 2 |
| next_numbers | 47 | 1 | 0..1 | position: number cards in the next seat's line, min(count, 20) / 20 |
| next_room | 48 | 1 | 0..1 | position: values beyond the next seat's line end / 99 |
| next_live | 49 | 1 | 0..1 | position: deck cards beyond the next seat's line end / cards in the deck |
| rounds_left | 50 | 1 | 0..1 | position: rounds the deck still fills, deck / (seats + 2) / 25, clipped to 1 |

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
