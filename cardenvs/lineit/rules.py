"""Line-it (docs/rules/lineit.md): the legality core.

Legality, applying a move, the result, the views and :class:`LineItGame`, the game's
public face.  The vocabulary (cards, action ids, the state, the View) is in
:mod:`.state`; the observation in :mod:`.encoding`, JSON and move notation in
:mod:`.serialization`, the text picture in :mod:`.render`.

Action ids (``NUM_ACTIONS = 414``):

* ``0..102``    ``pick <card> line``
* ``103..205``  ``pick <card> hand``
* ``206..308``  ``pick <card> new``
* ``309..411``  ``play <card>``
* ``412``       ``score``
* ``413``       ``pass``

Rule choices where the text leaves room (also in the env docstring):

* A step whose only legal action would be ``pass`` is skipped (docs/rules/lineit.md Decision): the
  play step when no hand card fits the line, the score step when the line is empty, and
  in the final phase a player whose hand holds no card that fits.  The pick step is never
  skipped (it is compulsory and always has a legal pick).
* ``pick <c> new`` is legal only when ``c`` fits neither the line nor the hand; an empty
  line takes any card, so ``new`` never applies to it.
* A Bet fits a line holding no Bet (whatever its numbers); a second Bet never fits.  Any
  card, Bet included, may go to a hand holding fewer than 2 cards.
* ``score`` ends the turn (it is the last step).
* A card that starts a line through ``new`` counts 1 for its colour (no claim).
* The final phase starts at the start of a round that cannot fill its market, so its
  first player is that round's (already moved one seat on).
* Final phase: ``picks_left`` counts the seats still to act in the final phase (current
  included, skipped seats counted until passed over), so ``current`` is
  ``(first + n - picks_left) % n`` in every phase but ``over``.  A final ``play`` ends that
  player's final turn.  If nobody can play, every line is scored at once.  Lines are scored
  at the end in seat order 0..n-1 (order does not matter).
* At ``over``: ``current`` is ``null`` in JSON (-1 in the API), ``picks_left`` 0, every line
  empty, market and deck empty; hand cards stay in the hands (worth nothing).
* ``played_hand`` is true only in the ``score`` step of a turn in which a hand card was
  played (the play step happens at most once, so it is informational).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from cardenvs.core.game import Game, shuffle_unseen

from . import encoding, render, serialization
from .picture import picture as _picture
from .state import (
    A_HAND,
    A_NEW,
    A_PASS,
    A_PLAY,
    A_SCORE,
    ACTIONS,
    BL_DECK,
    BL_DISCARD,
    BL_HAND,
    BL_LINE,
    BL_MARKET,
    DECK,
    FINAL,
    HAND_LIMIT,
    K_HAND,
    K_LINE,
    K_PLAY,
    K_SCORE,
    L_DISCARD,
    L_HAND,
    L_JACKPOT,
    L_LINE,
    L_MARKET,
    L_SCORED,
    MAX_PLAYERS,
    NUM_ACTIONS,
    NUM_NUMBERS,
    OVER,
    PHASES,
    PICK,
    PLAY,
    SCORE,
    LineItView,
    LineStats,
    State,
    bet_slot,
    colour_of,
    market_size,
    score,
)

__all__ = [
    "LineItGame", "LineItView", "State", "apply_action", "infos", "legal_actions", "new_state", "returns",
    "sample_state", "scores", "view",
]


# --------------------------------------------------------------------------- legality
def legal_actions(state: State) -> list[int]:
    """Legal ids of the player to move, ascending (cached on the state until it moves)."""
    acts = state.legal
    if acts is not None:
        return acts
    st, ph = state, state.phase
    seat = st.current
    if ph == PICK:
        fits = st.stats[seat].fits
        room = len(st.hands[seat]) < HAND_LIMIT
        line_ids, hand_ids, new_ids = [], [], []
        for c in set(st.market):
            f = fits(c)
            if f:
                line_ids.append(c - 1)
            if room:
                hand_ids.append(A_HAND + c - 1)
            elif not f:
                new_ids.append(A_NEW + c - 1)
        acts = sorted(line_ids) + sorted(hand_ids) + sorted(new_ids)
    elif ph in (PLAY, FINAL):
        fits = st.stats[seat].fits
        acts = sorted({A_PLAY + c - 1 for c in st.hands[seat] if fits(c)})
        acts.append(A_PASS)
    elif ph == SCORE:
        acts = [A_SCORE, A_PASS]
    else:
        acts = []
    state.legal = acts
    return acts


# ------------------------------------------------------------------------- card moves
def _to_line(st: State, seat: int, c: int) -> None:
    """Append ``c`` (taken from where it was) to ``seat``'s line, claiming a jackpot on a
    colour's third card."""
    line = st.lines[seat]
    line.append(c)
    k = st.stats[seat].add(c, len(line))
    if c <= NUM_NUMBERS:
        st.loc[c] = L_LINE + seat
        st.line_pos[c] = len(line)
    else:
        st.bet_loc[bet_slot(c, BL_LINE + seat)] += 1
    if k >= 0:
        pile = st.jackpots[k]
        if pile:
            code = L_SCORED + seat
            loc = st.loc
            for x in pile:
                loc[x] = code
            st.scored[seat].extend(pile)
            st.jackpots[k] = []


def _score_line(st: State, seat: int) -> None:
    """Settle the Bet, discard the first three number cards, bank the rest."""
    stats = st.stats[seat]
    if stats.bet:
        st.tokens[seat].append(stats.bet_token())
        st.discarded.append(stats.bet)
        _move_bet(st, stats.bet, BL_LINE + seat, BL_DISCARD)
    loc, line_pos = st.loc, st.line_pos
    discard = stats.num - stats.banked()
    code = L_SCORED + seat
    i = 0
    for c in st.lines[seat]:
        if c > NUM_NUMBERS:
            continue
        line_pos[c] = 0
        if i < discard:
            loc[c] = L_DISCARD
            st.discarded.append(c)
        else:
            loc[c] = code
            st.scored[seat].append(c)
        i += 1
    st.lines[seat] = []
    st.stats[seat] = LineStats()


def _move_bet(st: State, c: int, src: int, dst: int) -> None:
    """Count a copy of Bet ``c`` moved from place ``src`` to place ``dst`` (``BL_*``)."""
    st.bet_loc[bet_slot(c, src)] -= 1
    st.bet_loc[bet_slot(c, dst)] += 1


def _leftovers(st: State, cards: list[int], src: int) -> None:
    """Cards leaving market or deck (place ``src``): numbers under their jackpot, Bets discarded."""
    loc = st.loc
    for c in cards:
        if c > NUM_NUMBERS:
            st.discarded.append(c)
            _move_bet(st, c, src, BL_DISCARD)
        else:
            loc[c] = L_JACKPOT
            st.jackpots[colour_of(c)].append(c)


def _start_round(st: State) -> None:
    """Reveal a market, or start the final phase when the deck cannot fill one."""
    n = st.n
    st.played_hand = False
    st.current = st.first
    st.picks_left = n
    size = market_size(n)
    if len(st.deck) < size:
        _leftovers(st, st.deck, BL_DECK)
        st.deck = []
        st.phase = FINAL
        _final_skip(st)
        return
    m = st.deck[:size]
    st.deck = st.deck[size:]
    st.market = m
    loc = st.loc
    for c in m:
        if c <= NUM_NUMBERS:
            loc[c] = L_MARKET
        else:
            _move_bet(st, c, BL_DECK, BL_MARKET)
    st.phase = PICK


def _end_turn(st: State) -> None:
    """Pass the turn on; the last pick of a round ends the round."""
    st.played_hand = False
    st.picks_left -= 1
    if st.picks_left == 0:
        _leftovers(st, st.market, BL_MARKET)
        st.market = []
        st.first = (st.first + 1) % st.n
        _start_round(st)
    else:
        st.current = (st.current + 1) % st.n
        st.phase = PICK


def _after_play_step(st: State) -> None:
    """Enter the score step, or end the turn when the line is empty (pass only)."""
    if st.lines[st.current]:
        st.phase = SCORE
    else:
        _end_turn(st)


def _final_skip(st: State) -> None:
    """Skip final-phase seats that could only pass; score every line at the end."""
    n = st.n
    while st.picks_left > 0 and not st.hand_fits(st.current):
        st.picks_left -= 1
        st.current = (st.current + 1) % n
    if st.picks_left == 0:
        for s in range(n):
            if st.lines[s]:
                _score_line(st, s)
        st.phase = OVER
        st.current = -1


def _pick(st: State, seat: int, kind: int, c: int) -> None:
    """``pick c line|hand|new``, then the play step (or what follows when it is skipped)."""
    st.market.remove(c)
    if c > NUM_NUMBERS:
        st.bet_loc[bet_slot(c, BL_MARKET)] -= 1
    if kind == K_LINE:
        _to_line(st, seat, c)
    elif kind == K_HAND:
        st.hands[seat].append(c)
        if c <= NUM_NUMBERS:
            st.loc[c] = L_HAND + seat
        else:
            st.bet_loc[bet_slot(c, BL_HAND + seat)] += 1
    else:
        _score_line(st, seat)
        _to_line(st, seat, c)
    if st.hand_fits(seat):
        st.phase = PLAY
    else:
        _after_play_step(st)


def _final_turn_over(st: State, seat: int) -> None:
    """A final-phase player has played or passed: on to the next who can play."""
    st.picks_left -= 1
    st.current = (seat + 1) % st.n
    _final_skip(st)


def apply_action(st: State, a: int) -> None:
    """Advance ``st`` by the legal action id ``a`` (unchecked: see :meth:`LineItGame.apply`)."""
    st.legal = None
    seat = st.current
    kind, c = ACTIONS[a]
    if kind < K_PLAY:
        _pick(st, seat, kind, c)
    elif kind == K_PLAY:
        st.hands[seat].remove(c)
        if c > NUM_NUMBERS:
            st.bet_loc[bet_slot(c, BL_HAND + seat)] -= 1
        _to_line(st, seat, c)
        if st.phase == FINAL:
            _final_turn_over(st, seat)
        else:
            st.played_hand = True
            st.phase = SCORE
    elif kind == K_SCORE:
        _score_line(st, seat)
        _end_turn(st)
    elif st.phase == PLAY:  # pass
        _after_play_step(st)
    elif st.phase == SCORE:
        _end_turn(st)
    else:  # pass in the final phase
        _final_turn_over(st, seat)


# ---------------------------------------------------------------------------- results
def scores(state: State) -> list[int]:
    """Current score of each seat: scoring pile count + bet tokens."""
    return [score(state.scored[s], state.tokens[s]) for s in range(state.n)]


def returns(state: State) -> list[float]:
    """+1 sole winner, 0 each sharer of the best score, -1 others; zeros before the end."""
    if state.phase != OVER:
        return [0.0] * state.n
    sc = scores(state)
    best = max(sc)
    winners = sc.count(best)
    return [(1.0 if winners == 1 else 0.0) if x == best else -1.0 for x in sc]


def infos(state: State) -> list[dict[str, Any]]:
    """At the end: ``score``, ``scored_cards``, ``token_total`` per seat; ``{}`` before."""
    if state.phase != OVER:
        return [{} for _ in range(state.n)]
    return [
        {"score": score(state.scored[s], state.tokens[s]),
         "scored_cards": len(state.scored[s]), "token_total": sum(state.tokens[s])}
        for s in range(state.n)
    ]


# ------------------------------------------------------------------------------ views
def view(state: State, player: int) -> LineItView:
    """Everything but the deck order (Line-it hides nothing else)."""
    st = state
    return LineItView(
        num_players=st.n, seat=player, deck_size=len(st.deck),
        market=tuple(sorted(st.market)),
        lines=tuple(tuple(x) for x in st.lines),
        hands=tuple(tuple(sorted(x)) for x in st.hands),
        jackpots=tuple(tuple(sorted(x)) for x in st.jackpots),
        scored=tuple(tuple(sorted(x)) for x in st.scored),
        tokens=tuple(tuple(sorted(x)) for x in st.tokens),
        discarded=tuple(sorted(st.discarded)),
        first=st.first, current=-1 if st.phase == OVER else st.current,
        phase=PHASES[st.phase], picks_left=st.picks_left, played_hand=st.played_hand,
    )


def sample_state(view: LineItView, rng: np.random.Generator) -> State:
    """A full state fitting ``view``: the deck's cards in an order drawn with ``rng``."""
    deck = view.deck_cards()
    return State.of_view(view, [deck[i] for i in rng.permutation(len(deck))])


def new_state(n: int, rng: np.random.Generator) -> State:
    """Shuffle the 106 cards with ``rng`` and reveal round 1's market."""
    order = rng.permutation(len(DECK))
    st = State.build(n, [DECK[i] for i in order.tolist()], [], [[] for _ in range(n)],
                     [[] for _ in range(n)], [[] for _ in range(4)], [[] for _ in range(n)],
                     [[] for _ in range(n)], [], 0, 0, PICK, n, False)
    _start_round(st)
    return st


# ------------------------------------------------------------------------------- game
class LineItGame(Game[State, LineItView]):
    """Line-it for 2..5 players (docs/rules/lineit.md).

    The methods are the public face of the game; each hands the work to the function
    of its module (rules here, :mod:`.encoding`, :mod:`.serialization`, :mod:`.render`).
    """

    name = "lineit"
    env_name = "lineit_v0"
    min_players = 2
    max_players = MAX_PLAYERS
    default_players = 2
    OPTIONS = {}
    num_actions = NUM_ACTIONS
    UNSEEN_TOP = 0  # a market is the deck's front
    OBS_FIELDS = encoding.OBS_FIELDS

    # ------------------------------------------------------------------ the rules
    def new_state(self, rng: np.random.Generator) -> State:
        """Shuffle the 106 cards with ``rng`` and reveal round 1's market."""
        return new_state(self.num_players, rng)

    def clone(self, state: State) -> State:
        """An independent copy of ``state``."""
        return state.clone()

    def current_player(self, state: State) -> int:
        """Seat to move, -1 when over."""
        return -1 if state.phase == OVER else state.current

    def is_terminal(self, state: State) -> bool:
        """Whether the game is over."""
        return state.phase == OVER

    def legal_actions(self, state: State) -> list[int]:
        """Legal ids of the player to move, ascending (cached on the state)."""
        return legal_actions(state)

    def legal_mask(self, state: State) -> np.ndarray:
        """int8 mask of the legal ids."""
        mask = bytearray(NUM_ACTIONS)
        for a in legal_actions(state):
            mask[a] = 1
        return np.frombuffer(mask, np.int8)

    def apply(self, state: State, action: int, rng: np.random.Generator | None = None) -> None:
        """Advance ``state`` by ``action`` (checked first; illegal raises, state unchanged)."""
        legal = state.legal
        if legal is None:
            legal = legal_actions(state)
        if type(action) is not int or action not in legal:
            action = self.check_action(state, action)
        apply_action(state, action)

    def scores(self, state: State) -> list[int]:
        """Current score of each seat: scoring pile count + bet tokens."""
        return scores(state)

    def redraw_unseen(self, state: State, rng: np.random.Generator) -> None:
        """Shuffle the deck in place with ``rng``: its order is all Line-it hides (hands,
        market, jackpots and piles are face up).  The card indexes do not change: every
        deck card is at ``L_DECK`` whatever its place in the deck."""
        shuffle_unseen(state.deck, rng)

    def chance_owner(self, state: State, action: int) -> int | None:
        """Nobody's: what a step may reveal is a market every seat drafts from."""
        return None

    def has_chance(self, state: State, action: int) -> bool:
        """Whether the step may end a round that reveals a market from the deck: any
        step of the round's last turn while the deck can fill a market (Line-it's
        ``apply`` uses no ``rng``; a deck too small to fill one goes to the jackpots
        whatever its order)."""
        return (state.phase in (PICK, PLAY, SCORE) and state.picks_left == 1
                and len(state.deck) >= market_size(state.n))

    def returns(self, state: State) -> list[float]:
        """+1 sole winner, 0 each sharer of the best score, -1 others; zeros before the end."""
        return returns(state)

    def max_game_length(self) -> int:
        """``3n * floor(106 / (n + 2)) + n`` moves: a round shows ``n + 2`` new cards of the
        106 and gives each seat one turn of at most three steps (pick, play or pass, score or
        pass); the final phase gives each seat at most one play or pass.  (Random play: at
        most 146 for n = 2, the bound 158.)"""
        n = self.num_players
        return 3 * n * (106 // (n + 2)) + n

    def infos(self, state: State) -> list[dict[str, Any]]:
        """At the end: ``score``, ``scored_cards``, ``token_total`` per seat; ``{}`` before."""
        return infos(state)

    # ---------------------------------------------------------- information sets
    def view(self, state: State, player: int) -> LineItView:
        """Everything but the deck order (Line-it hides nothing else)."""
        return view(state, player)

    def public_view(self, state: State) -> LineItView:
        """A seat's View with ``seat`` -1: a spectator sees what the seats see (only the deck
        order is hidden, from everyone)."""
        return dataclasses.replace(view(state, 0), seat=-1)

    def sample_state(self, view: LineItView, rng: np.random.Generator) -> State:
        """A full state fitting ``view``: the deck's cards in an order drawn with ``rng``."""
        return sample_state(view, rng)

    @classmethod
    def encode(cls, view: LineItView) -> np.ndarray:
        """Observation of a view (the layout of :data:`encoding.LAYOUT`)."""
        return encoding.encode(view)

    @classmethod
    def decode(cls, observation: Any) -> LineItView:
        """The view an observation (vector or ``env.last()`` dict) encodes."""
        return encoding.decode(observation)

    def observe(self, state: State, player: int) -> np.ndarray:
        """``encode(view(state, player))``, written straight from the state by the same writer."""
        return encoding.observe(state, player)

    # ------------------------------------------------------------------ notation
    def action_to_str(self, action: int) -> str:
        """Move text of an id: ``pick 57 line``, ``play B4``, ``score``, ``pass``."""
        return serialization.action_to_str(action)

    def str_to_action(self, text: str) -> int:
        """Id of move text in the game's notation; :class:`NotationError` when malformed."""
        return serialization.str_to_action(text)

    def to_json(self, state: State) -> dict[str, Any]:
        """The state in the position format (docs/rules/)."""
        return serialization.to_json(state)

    def from_json(self, obj: Any) -> State:
        """Read and validate a position (dict or JSON text); :class:`InvalidStateError`."""
        return serialization.from_json(obj, self.num_players)

    def render(self, state: State, viewer: int | None = None) -> str:
        """Text of the table; every hand is public, ``viewer`` is marked ``(you)``."""
        return render.render(state, viewer)

    def picture(self, state: State, viewer: int | None = None) -> Any:
        """The table as a :class:`cardenvs.core.picture.Picture` (for ``rgb_array``)."""
        return _picture(self, state, viewer)
