"""Strategic knowledge of Rummy 4x3x2's (docs/rules/rummy432.md): the ladder's heuristics,
the coach's reasons and the evaluation that cuts the expert's rollouts short.

Suits never matter in this game, only ranks (and each rank's card value), so the
heuristics work on a hand's 13 rank counts.

* **greedy** (level 1): take the face-up card when it makes or grows a group, otherwise
  draw; throw the card whose rank has the least group potential (a loose card of a rank
  far from a group, the higher value first); finish as soon as it is allowed.
* **planner** (level 2): card counting.  For every rank it counts the *live* cards
  (neither in its hand, nor buried in the discard pile, nor seen taken by an opponent;
  buried cards partly come back when a reshuffle is near) and turns them into the chance
  of completing that rank's group in the turns left.  A hand's potential is a sum over
  ranks of grouped cards, shape bonuses (bigger groups win, rule 2), card values (rule 3,
  and loose high cards hurt when nobody completes, rule 5) and the loose cards weighted
  by the chance they never group; so dead ranks go first.  Draw against take is decided
  by the expected potential after the draw; taking costs a little (everyone sees what
  you collect); it never throws a rank the next player visibly collects when another
  throw is nearly as good, prefers throwing a card it took earlier (hides its plans),
  finishes with the best shape and value, and on a last turn (after a finish, or when
  the last run-out ends the round) maximises the final hand exactly.
* ``evaluate``: every seat's hand in a sampled state is scored by the fewest cards it
  still needs (a small exact search over group targets, with the cards still
  obtainable), its shape and value once complete; a softmax gives each seat's chance to
  win the round, and the round scores turn that into a chance to win the game.
* ``sample_state`` (two players): the search's worlds deal the opponent's hidden cards
  by what the player saw it do this round, remembered from the player's own successive
  views: ranks it drew rather than take or threw are unlikely, a rank it took one card
  of comes with a hidden partner, and among a few such deals the one that best explains
  its latest throw (by the planner's own scores) is kept, with a light pairing swap.
  Measured on planner positions, this matches the opponent's real count of loose cards
  (about 3 of 8), where the plain conditioning made it nearly complete (a third of the
  sampled hands could already finish, which no real hand could).
  ``HAND_MODEL = 1`` deals the hidden ranks from a learned model instead
  (``agents/games/rummy432_hand.py``): it predicts the opponent's hidden cards a little
  better, but the expert does not play better with it, so it is off
  (``docs/results/expert/rummy432_v0_hand_model.md``).
  ``FILTER`` (a number of chains) deals them from a tracker of the opponent's whole round
  instead (``agents/games/rummy432_filter.py``): trajectories weighed by the planner's
  chance of every pick and throw the opponent made.  That is the exact posterior under a
  planner opponent's own policy, yet it predicts the hidden cards no better than the
  hand-set inference, at many times the cost, so it is off too
  (``docs/results/expert/rummy432_v0_tracker.md``).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from cardenvs.core.cards import card_str
from cardenvs.core.game import Game
from cardenvs.rummy432.rules import Rummy432Game
from cardenvs.rummy432.state import (
    DRAW,
    FINISH0,
    GROUP,
    GROUP_SIZES,
    GROUPED,
    NEXT_GROUP,
    OVER,
    RANK_VALUES,
    TAKE,
    THROW,
    THROW0,
    Rummy432View,
    State,
    hand_values,
    is_complete,
    rank_counts,
    shape_of,
)

from ..policy import GameAgents, Knowledge
from . import rummy432_filter as _filter
from . import rummy432_hand as _hand

# --------------------------------------------------------------------- rank tables
# The rules' tables (cardenvs.rummy432.state): GROUP[pack][count] is the size of the
# group a rank with that many cards forms (0 = none), NEXT_GROUP[pack][count] the
# smallest allowed group size above the count (0 = none), GROUPED[pack][count] whether
# that count is fully grouped (0 included).
#: greedy potential of a rank by count: grouped cards + loose cards times the share of
#: the next group they already reach
_GREEDY_POT = {
    p: tuple(
        GROUP[p][c] + (c - GROUP[p][c]) * (c / NEXT_GROUP[p][c] if NEXT_GROUP[p][c] else 0.0)
        for c in range(6)
    )
    for p in GROUP_SIZES
}
#: shape bonus of a group by size (bigger groups win, rule 2); only mixed has a choice
_SHAPE = {"mixed": (0.0, 0.0, 0.0, 0.45, 0.9, 0.9), "three": (0.0,) * 6, "four": (0.0,) * 6}
#: rough number of turns a round lasts for one player, per pack (caps the horizon)
_HORIZON = {"mixed": 5.0, "three": 8.0, "four": 12.0}

_RANK_NAMES = ("aces", "2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s", "10s", "jacks", "queens", "kings")
_RANK_ONE = ("ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king")
_NUMBER = ("no", "one", "two", "three", "four", "five")
_GROUP_NAME = {1: "a single", 2: "a pair", 3: "a three", 4: "four"}

# planner weights (units: one grouped card = 1)
W_LOOSE = 1.0  # a loose card that never groups
W_PARTIAL = 0.9  # share of a future group's cards credited now
W_VALUE = 0.02  # per value point of a grouped card (rule 3)
W_LOOSE_VALUE = 0.012  # per value point of a loose card (rule 5), times the end weight
W_FEED = 0.25  # throwing a rank the next player visibly collects
W_KNOWN = 0.01  # throwing a card you took earlier hides your plans
W_FINISH = 3.0  # finishing now
W_KEEP_HIGH = 0.05  # keep high singles: high pairs win the frequent ties of equal shapes
G_VALUE_TIE = 0.001  # greedy: among equally loose cards, throw the higher value (it counts against)
W_OUTS = 1.0  # share of unseen cards that let the hand finish next turn
W_PASSED = 0.15  # weight of a rank the opponent drew rather than take
W_THREW = 0.3  # weight of a rank the opponent threw
INFER_SWAPS = 0.5  # conditioning swaps on top of the inferred deal (more makes its hand too good)
LIK_SAMPLES = 6  # opponent hands drawn per sampled world, one kept by how well it explains its last throw
LIK_BETA = 6.0  # sharpness of that likelihood (planner score units)
HAND_MODEL = 0.0  # 1: deal the opponent's hidden cards by the learned hand model (measured: no better, off)
FILTER = 0  # chains of the opponent tracker (agents/games/rummy432_filter.py); 0 = off
FILTER_STEPS = 4  # its Metropolis-Hastings moves per chain and opponent turn
FILTER_BETA = 6.0  # sharpness of its opponent model (planner score units)
FILTER_EPS = 0.05  # share of a uniform choice in that model


def _shape_key(shape: tuple[int, ...]) -> float:
    """A number that orders shapes like rule 2 (largest groups first, lexicographic)."""
    k = 0.0
    f = 1.0
    for s in shape:
        k += s * f
        f *= 0.1
    return k


def _final_score(cnt: list[int], pack: str) -> float:
    """The final judgement of a hand as one number (complete > shape > value)."""
    gv, lv = hand_values(cnt, pack)
    if is_complete(cnt, pack):
        return 100.0 + 10.0 * _shape_key(shape_of(cnt, pack)) + gv / 200.0
    return (gv - lv) / 200.0


def _at_least(k: int, p: float, t: float) -> float:
    """P(at least ``k`` hits in ``t`` tries of chance ``p``) (binomial, ``t`` real)."""
    if k <= 0:
        return 1.0
    if p <= 0.0 or t <= 0.0:
        return 0.0
    if p >= 1.0:
        return 1.0
    q = 1.0 - p
    q_t = q**t
    miss = q_t
    if k >= 2:
        miss += t * p * q_t / q
    if k >= 3:
        miss += t * (t - 1) / 2 * p * p * q_t / (q * q)
    if k >= 4:
        miss += t * (t - 1) * (t - 2) / 6 * p**3 * q_t / q**3
    return max(0.0, min(1.0, 1.0 - miss))


def _plural(r: int) -> str:
    return _RANK_NAMES[r]


# ------------------------------------------------------------------ view analysis
class _Ctx:
    """What the planner derives from a View: counts, live cards, horizon, threats."""

    __slots__ = (
        "view",
        "pack",
        "cnt",
        "buried",
        "held",
        "live",
        "unseen",
        "horizon",
        "end_weight",
        "next_seat",
        "next_collects",
        "final",
        "terms",
    )

    def __init__(self, view: Rummy432View) -> None:
        self.view = view
        pack = self.pack = view.pack
        n = view.num_players
        me = view.seat
        self.cnt = rank_counts(view.hand)
        buried = [0] * 13
        for c in view.discard:
            if c != view.discard_top or view.phase != "pick":
                buried[c >> 2] += 1
        self.buried = buried
        held = [0] * 13  # cards of each rank seen taken by opponents (still held)
        for s in range(n):
            if s != me:
                for c in view.known[s]:
                    held[c >> 2] += 1
        self.held = held
        top = view.discard_top if view.phase == "pick" else -1
        unseen = [
            4 - self.cnt[r] - buried[r] - held[r] - (1 if top >= 0 and top >> 2 == r else 0)
            for r in range(13)
        ]
        limit = view.run_out_limit
        reshuffles = 99 if limit is None else max(0, limit - view.run_outs - 1)
        # buried cards come back at the next reshuffle, if there is one and it is near
        w_back = 0.0
        if reshuffles > 0:
            w_back = max(0.0, 1.0 - view.pile_size / (3.0 * n)) * 0.6
        self.live = [max(0.0, unseen[r] + w_back * buried[r]) for r in range(13)]
        self.unseen = max(1.0, float(sum(unseen)) + w_back * sum(buried))
        # turns left to me: the pile and what the reshuffles still bring, shared by all seats
        cards_left = view.pile_size + min(reshuffles, 2) * max(len(view.discard) - 1, 0)
        self.horizon = min(_HORIZON[pack], cards_left / n)
        # how much the "nobody completes" judgement (rule 5) weighs: hard packs, near the end
        near_end = 1.0 if reshuffles == 0 and view.pile_size <= 2 * n else 0.0
        self.end_weight = {"mixed": 0.3, "three": 0.6, "four": 1.0}[pack] + near_end
        # the seat that can take what I throw next
        if view.finished_by >= 0:
            left = view.last_turns_left
            self.next_seat = left[1] if len(left) > 1 else -1
        else:
            self.next_seat = (me + 1) % n
        nc = [0] * 13
        if self.next_seat >= 0 and self.next_seat != me:
            for c in view.known[self.next_seat]:
                nc[c >> 2] += 1
        self.next_collects = nc
        # my last move of the round: after a finish, or drawing the pile's last card on the last run-out
        self.final = view.finished_by >= 0 and view.finished_by != me
        if (
            view.phase == "throw"
            and view.taken < 0
            and view.pile_size == 0
            and limit is not None
            and view.run_outs + 1 >= limit
        ):
            self.final = True
            self.next_seat = -1
        self.terms = [self._rank_terms(r) for r in range(13)]

    def _rank_terms(self, r: int) -> tuple[float, ...]:
        """Planner potential of holding 0..5 cards of rank ``r``."""
        pack = self.pack
        g_of, nxt_of, shape = GROUP[pack], NEXT_GROUP[pack], _SHAPE[pack]
        v = RANK_VALUES[r]
        live = self.live[r]
        p = live / self.unseen
        t = self.horizon * 1.6  # the discard pile offers more looks than the draws alone
        out = [0.0] * 6
        lv = W_LOOSE_VALUE * self.end_weight
        for c in range(1, 6):
            g = g_of[c]
            loose = c - g
            val = g * (1.0 + W_VALUE * v) + shape[g]
            nxt = nxt_of[c]
            q = _at_least(nxt - c, p, t) if nxt and nxt - c <= live + 1e-9 else 0.0
            if loose:
                val += q * (nxt - g) * W_PARTIAL * (1.0 + W_VALUE * v) - (1.0 - q) * loose * W_LOOSE
                val -= loose * v * lv
                val += loose * v * W_KEEP_HIGH
            elif nxt and q > 0:  # a group that may still grow (mixed: 2 -> 3 -> 4)
                val += q * (shape[nxt] - shape[g]) * 0.6
            out[c] = val
        return tuple(out)

    def outs(self, cnt: list[int]) -> float:
        """Share of the unseen cards that would let a hand of ``hand_size`` cards finish next turn."""
        ok = GROUPED[self.pack]
        live = self.live
        bads = [r for r in range(13) if not ok[cnt[r]]]
        if len(bads) > 2:
            return 0.0
        spare = [r for r in range(13) if cnt[r] and ok[cnt[r]] and ok[cnt[r] - 1]]
        acc = 0.0
        for r in range(13):
            lr = live[r]
            if lr <= 0:
                continue
            c1 = cnt[r] + 1
            nb = [s for s in bads if s != r]
            if not ok[c1]:
                nb.append(r)
            if not nb:
                good = ok[c1 - 1] or any(s != r for s in spare)
            elif len(nb) == 1:
                b = nb[0]
                good = ok[(c1 if b == r else cnt[b]) - 1]
            else:
                good = False
            if good:
                acc += lr
        return acc / self.unseen

    def live_count(self, r: int) -> int:
        v = self.view
        top = 1 if v.phase == "pick" and v.discard_top >= 0 and v.discard_top >> 2 == r else 0
        return 4 - self.cnt[r] - self.buried[r] - self.held[r] - top


class _Memory:
    """What one seat saw of its opponent's play in the current round (2 players)."""

    __slots__ = ("round", "turn", "phase", "throw_hand", "passed", "threw", "opp_throw", "opp_took",
                 "filt", "throw_known", "throw_pile", "throw_run_outs")

    def __init__(self, rnd: int) -> None:
        self.round = rnd
        self.turn = -1
        self.phase = ""
        self.throw_hand: tuple[int, ...] | None = None
        #: rank -> turn the opponent drew rather than take a card of it (it held none)
        self.passed: dict[int, int] = {}
        #: rank -> turn the opponent threw a card of it (it kept no group of it)
        self.threw: dict[int, int] = {}
        #: the opponent's latest throw (-1 = none known) and the card it took that turn
        self.opp_throw = -1
        self.opp_took = -1
        #: the opponent tracker (None: off, or lost track this round)
        self.filt: _filter.OpponentTracker | None = None
        #: at the player's latest throw: the opponent's known cards, the pile size, the run-outs
        self.throw_known: tuple[int, ...] = ()
        self.throw_pile = 0
        self.throw_run_outs = 0


# ----------------------------------------------------------------------- knowledge
class Rummy432Knowledge(Knowledge):
    """Heuristics, reasons and evaluation of Rummy 4x3x2's."""

    env_name = "rummy432_v0"

    def __init__(self) -> None:
        #: round number of the latest decision scored at level 2 (the search's root): a
        #: rollout that gets past that round is judged by the round's result alone
        self._root_round = 0
        self._root_seat = -1
        self._conditioned: Any = None
        #: seat -> what this player saw of its opponent's play this round (2 players)
        self._memory: dict[int, _Memory] = {}

    # ------------------------------------------------------------------- scores
    def scores(self, game: Game[Any, Any], view: Rummy432View, legal: list[int], level: int) -> np.ndarray:
        """Greedy scores at level 1, the planner's at level 2 (which also remembers, with
        two players, what this view tells of the opponent's play)."""
        if level <= 1:
            return self._greedy(view, legal)
        self._root_round = view.round
        self._root_seat = view.seat
        if view.num_players == 2 and view.current == view.seat:
            self._remember(view, _rules(game))
        return self._planner(_Ctx(view), legal)

    def _remember(self, view: Rummy432View, game: Rummy432Game) -> None:
        """Keep what the player's own successive views tell of the opponent's play.

        Only the player's own observations are used: the card it threw last turn (its
        hand then and now), whether the opponent took it (it is now among the
        opponent's known cards) or passed it and drew, and the opponent's throw (the
        face-up card when the player's turn starts).  Idempotent for a repeated view.
        """
        seat = view.seat
        m = self._memory.get(seat)
        if m is None or m.round != view.round or view.turn < m.turn:
            m = self._memory[seat] = _Memory(view.round)
        if view.turn == m.turn and view.phase == m.phase:
            return  # the same decision again (the coach, a re-seeded agent)
        opp = 1 - seat
        if view.phase == "pick":
            known_opp = {c >> 2 for c in view.known[opp]}
            # the card this player threw last turn, if it can be told from its two views
            thrown = -1
            if m.throw_hand is not None and view.turn == m.turn + 2:
                gone = [c for c in m.throw_hand if c not in view.hand]
                thrown = gone[0] if len(gone) == 1 else -1
                if thrown in view.discard and thrown != view.discard_top:
                    m.passed[thrown >> 2] = view.turn  # drew rather than take it: held none
            elif view.turn == 1 and view.finished_by < 0:
                buried = [c for c in view.discard if c != view.discard_top]
                if len(buried) == 1:
                    m.passed[buried[0] >> 2] = view.turn  # the opening face-up card, passed
            top = view.discard_top
            if top >= 0 and view.turn >= 1 and (top >> 2) not in known_opp:
                m.threw[top >> 2] = view.turn
            # the opponent's last throw, and the card it took this turn (if it took)
            m.opp_throw = top if top >= 0 and view.turn >= 1 and view.finished_by < 0 else -1
            m.opp_took = thrown if thrown >= 0 and thrown in view.known[opp] else -1
            m.throw_hand = None
            if FILTER:
                self._filter_turn(game, view, m, thrown)
        else:
            m.throw_hand = view.hand
            m.throw_known, m.throw_pile, m.throw_run_outs = view.known[opp], view.pile_size, view.run_outs
            if m.filt is not None:
                m.filt.see(frozenset(view.hand) | frozenset(view.discard))
                if not m.filt.alive():
                    m.filt = None
        m.turn = view.turn
        m.phase = view.phase

    def _filter_turn(self, game: Rummy432Game, view: Rummy432View, m: _Memory, thrown: int) -> None:
        """Move the opponent tracker on by the opponent's turn this pick view shows (start
        it at the round's first view; drop it when the views do not connect)."""
        opp = 1 - view.seat
        y = view.discard_top
        f = m.filt
        hand = set(view.hand)
        seen = frozenset(hand | set(view.discard))  # what the player sees now

        def score(v: Rummy432View, legal: list[int]) -> np.ndarray:
            return self._planner(_Ctx(v), legal)

        def fresh(unseen: list[int]) -> _filter.OpponentTracker:
            rng = np.random.default_rng([view.round, view.seat, view.turn, *view.hand])
            return _filter.OpponentTracker(game, view.seat, unseen, int(FILTER), int(FILTER_STEPS),
                                           FILTER_BETA, FILTER_EPS, score, rng)

        def turn(pv: Rummy432View, took: bool, exact: bool) -> _filter.Turn:
            vis = frozenset(hand | set(pv.discard))
            return _filter.Turn(pv, vis, took, y, view.finished_by == opp, exact)

        if view.turn == 0:
            f = fresh([c for c in range(52) if c not in hand and c not in view.discard])
        elif view.turn == 1 and y >= 0:
            # the opponent opened the round: it took or passed the first face-up card
            took = len(view.known[opp]) == 1
            buried = [c for c in view.discard if c != y]
            first = view.known[opp][0] if took else (buried[0] if len(buried) == 1 else -1)
            f = None
            if first >= 0:
                f = fresh([c for c in range(52) if c not in hand and c != first])
                pv = _filter.opponent_pick_view(view, first, took, y, (), view.pile_size + (0 if took else 1),
                                                view.run_outs, 0)
                f.add_turn(turn(pv, took, True), seen)
        elif f is not None and thrown >= 0 and y >= 0:
            took = thrown in view.known[opp]
            exact = view.run_outs == m.throw_run_outs and m.throw_pile > 0
            pile = m.throw_pile if exact else view.pile_size + (0 if took else 1)
            pv = _filter.opponent_pick_view(view, thrown, took, y, m.throw_known, pile, m.throw_run_outs,
                                            view.turn - 1)
            f.add_turn(turn(pv, took, exact), seen)
        else:
            f = None  # the views do not connect: the hand-set inference deals
        if f is not None:
            f.see(seen)  # chains extended but not moved may still hold a card seen now
            if not f.alive():
                f = None
        m.filt = f

    def round_memory(self, view: Rummy432View) -> _Memory | None:
        """What this player saw of its opponent's play in ``view``'s round (``None``: nothing
        remembered, or only of an earlier round)."""
        m = self._memory.get(view.seat)
        return m if m is not None and m.round == view.round else None

    # greedy ------------------------------------------------------------------
    def _greedy(self, view: Rummy432View, legal: list[int]) -> np.ndarray:
        pack = view.pack
        cnt = rank_counts(view.hand)
        out = np.zeros(len(legal))
        if view.phase == "pick":
            top = view.discard_top
            g = GROUP[pack]
            joins = top >= 0 and cnt[top >> 2] > 0 and g[cnt[top >> 2] + 1] > g[cnt[top >> 2]]
            for i, a in enumerate(legal):
                out[i] = (1.0 if joins else -1.0) if a == TAKE else 0.0
            return out
        pot = _GREEDY_POT[pack]
        for i, a in enumerate(legal):
            fin = a >= FINISH0
            card = a - (FINISH0 if fin else THROW0)
            r = card >> 2
            c = cnt[r]
            harm = pot[c] - pot[c - 1] - G_VALUE_TIE * RANK_VALUES[r]
            out[i] = -harm + (10.0 if fin else 0.0)
        return out

    # planner -----------------------------------------------------------------
    def _planner(self, ctx: _Ctx, legal: list[int]) -> np.ndarray:
        view = ctx.view
        out = np.zeros(len(legal))
        if view.phase == "pick":
            if ctx.final:
                return self._final_pick(ctx, legal)
            # take what makes or grows a group, else draw (measured: weighing the take
            # against the expected draw did worse); a dead rank is not worth showing
            top = view.discard_top
            g = GROUP[ctx.pack]
            c = ctx.cnt[top >> 2] if top >= 0 else 0
            joins = c > 0 and g[c + 1] > g[c]
            gain = ctx.terms[top >> 2][c + 1] - ctx.terms[top >> 2][c] if top >= 0 else 0.0
            for i, a in enumerate(legal):
                out[i] = (1.0 + gain if joins else -1.0) if a == TAKE else 0.0
            return out
        if ctx.final:
            cnt = ctx.cnt
            for i, a in enumerate(legal):
                fin = a >= FINISH0
                card = a - (FINISH0 if fin else THROW0)
                cnt[card >> 2] -= 1
                out[i] = _final_score(cnt, ctx.pack) + (0.001 if fin else 0.0)
                cnt[card >> 2] += 1
            return out
        seen: dict[tuple[int, bool, bool], int] = {}
        known_me = set(view.known[view.seat])
        for i, a in enumerate(legal):
            fin = a >= FINISH0
            card = a - (FINISH0 if fin else THROW0)
            out[i] = self._throw_value(ctx, card, fin)
            if not fin and W_OUTS:
                ctx.cnt[card >> 2] -= 1
                out[i] += W_OUTS * ctx.outs(ctx.cnt)
                ctx.cnt[card >> 2] += 1
            if card in known_me:
                out[i] += W_KNOWN
            key = (card >> 2, fin, card in known_me)
            dup = seen.get(key, 0)  # suits never matter: same rank, same move
            seen[key] = dup + 1
            out[i] -= 1e-4 * dup
        return out

    def _throw_value(self, ctx: _Ctx, card: int, fin: bool) -> float:
        r = card >> 2
        cnt = ctx.cnt
        c = cnt[r]
        terms = ctx.terms
        val = terms[r][c - 1] - terms[r][c]
        if fin:
            cnt[r] -= 1
            gv, _ = hand_values(cnt, ctx.pack)
            val += W_FINISH + _shape_key(shape_of(cnt, ctx.pack)) * 0.5 + gv * 0.002
            cnt[r] += 1
        if ctx.next_collects[r]:
            val -= W_FEED * (0.6 + 0.4 * ctx.next_collects[r])
        return val

    def _final_pick(self, ctx: _Ctx, legal: list[int]) -> np.ndarray:
        """Last turn: the exact final judgement after the best throw, expected over draws."""
        cnt = ctx.cnt
        pack = ctx.pack
        out = np.zeros(len(legal))

        def best_after(keep: int) -> float:
            best = -1e9
            for r in range(13):
                c = cnt[r]
                if c == 0 or (r == keep and c == 1):
                    continue
                cnt[r] -= 1
                s = _final_score(cnt, pack)
                cnt[r] += 1
                best = max(best, s)
            return best

        for i, a in enumerate(legal):
            if a == TAKE:
                r = ctx.view.discard_top >> 2
                cnt[r] += 1
                out[i] = best_after(r) - 0.01
                cnt[r] -= 1
            else:
                acc = tot = 0.0
                for r in range(13):
                    u = ctx.live[r]
                    if u <= 0:
                        continue
                    cnt[r] += 1
                    acc += u * best_after(-1)
                    cnt[r] -= 1
                    tot += u
                out[i] = acc / tot if tot else best_after(-1)
        return out

    # ------------------------------------------------------------------- reason
    def reason(self, game: Game[Any, Any], view: Rummy432View, action: int) -> str:
        """Why ``action`` is played in ``view``, in words a player understands (the coach)."""
        ctx = _Ctx(view)
        pack = ctx.pack
        cnt = ctx.cnt
        if action == DRAW:
            return self._reason_draw(ctx)
        if action == TAKE:
            return self._reason_take(ctx)
        fin = action >= FINISH0
        card = action - (FINISH0 if fin else THROW0)
        r = card >> 2
        name = card_str(card)
        cnt[r] -= 1
        kept_complete = is_complete(cnt, pack)
        shape = shape_of(cnt, pack)
        cnt[r] += 1
        if fin or (kept_complete and ctx.final):
            txt = "+".join(str(s) for s in shape)
            head = f"finish {name}" if fin else f"throw {name}"
            if ctx.final:
                return f"{head}: your last turn, and every card you keep is in a group ({txt})"
            return f"{head}: every other card is in a group ({txt}); the others get one last turn"
        extra = ""
        if card in view.known[view.seat]:
            extra = "; it was the card you took, so throwing it hides what you collect"
        if ctx.next_collects[r]:
            extra += f"; careful, player {ctx.next_seat} took {_plural(r)} and can take it"
        if kept_complete:
            return f"throw {name}: the cards you keep are all in groups, but you wait to improve them{extra}"
        if ctx.final:
            return self._reason_last_throw(ctx, card, extra)
        return self._reason_throw(ctx, card, extra)

    def _reason_last_throw(self, ctx: _Ctx, card: int, extra: str) -> str:
        """A throw on the player's last turn that keeps an incomplete hand."""
        view, cnt, pack, name = ctx.view, ctx.cnt, ctx.pack, card_str(card)
        best, best_card = -1e9, card
        for x in view.hand:
            if x != view.taken:
                cnt[x >> 2] -= 1
                sc = _final_score(cnt, pack)
                cnt[x >> 2] += 1
                if sc > best + 1e-9:
                    best, best_card = sc, x
        cnt[card >> 2] -= 1
        mine = _final_score(cnt, pack)
        cnt[card >> 2] += 1
        if best >= 100.0:
            return (
                f"throw {name}: your last turn, and throwing {card_str(best_card)} "
                "instead would complete your hand"
            )
        if mine >= best - 1e-9:
            return (
                f"throw {name}: your last turn and no throw completes your hand; "
                f"this keeps the most value{extra}"
            )
        return f"throw {name}: your last turn; throwing {card_str(best_card)} would keep more value{extra}"

    def _reason_throw(self, ctx: _Ctx, card: int, extra: str) -> str:
        """A throw that keeps an incomplete hand, before the player's last turn."""
        r, name, pack = card >> 2, card_str(card), ctx.pack
        c = ctx.cnt[r]
        g = GROUP[pack]
        if g[c - 1] < g[c]:
            what = _GROUP_NAME.get(g[c], f"a group of {g[c]}")
            return f"throw {name}: breaks {what} of {_plural(r)}, a costly throw{extra}"
        live = ctx.live_count(r)
        need = NEXT_GROUP[pack][c] - c if NEXT_GROUP[pack][c] else 0
        if c - g[c] > 0 and (need == 0 or live < need):
            why = []
            if ctx.buried[r]:
                why.append(f"{_NUMBER[ctx.buried[r]]} buried in the discard pile")
            if ctx.held[r]:
                why.append(f"{_NUMBER[ctx.held[r]]} taken by opponents")
            if need == 0:
                return f"throw {name}: a spare {_RANK_ONE[r]}, already more than a group can use{extra}"
            because = " and ".join(why) if why else "not enough left"
            return f"throw {name}: {_plural(r)} are dead ({because}), this card can't join a group{extra}"
        if c - g[c] > 0:
            v = RANK_VALUES[r]
            hi = " and high cards left loose count against you" if v >= 8 else ""
            few = "only " if live <= 1 else ""
            return (
                f"throw {name}: a loose {_RANK_ONE[r]} with {few}{_NUMBER[min(live, 5)]} "
                f"live card{'s' if live != 1 else ''} left to match it{hi}{extra}"
            )
        return f"throw {name}: the {_RANK_ONE[r]} that hurts your groups least{extra}"

    def _reason_draw(self, ctx: _Ctx) -> str:
        view = ctx.view
        top = view.discard_top
        if top < 0:
            return "draw: there is no face-up card to take"
        r = top >> 2
        c = ctx.cnt[r]
        g = GROUP[ctx.pack]
        if c == 0:
            return (
                f"draw: the face-up {card_str(top)} joins none of your ranks; "
                "a blind draw keeps your plans hidden"
            )
        if g[c + 1] <= g[c]:
            if NEXT_GROUP[ctx.pack][c] == 0 or g[c + 1] == g[c] == g[4]:
                return (
                    f"draw: one more {_RANK_ONE[r]} would be loose, "
                    f"the face-up {card_str(top)} doesn't help"
                )
            return (
                f"draw: {card_str(top)} brings {_plural(r)} closer but makes no group yet, "
                "and taking it shows what you collect"
            )
        return (
            f"draw: hides your plans, but taking {card_str(top)} would make "
            f"{_GROUP_NAME.get(g[c + 1], 'a group')} of {_plural(r)}, a sure step"
        )

    def _reason_take(self, ctx: _Ctx) -> str:
        view = ctx.view
        top = view.discard_top
        if top < 0:
            return "take: the only move"
        name = card_str(top)
        r = top >> 2
        cnt = ctx.cnt
        c = cnt[r]
        pack = ctx.pack
        g = GROUP[pack]
        cnt[r] += 1
        can_finish = False
        ok = GROUPED[pack]
        for s in range(13):
            if cnt[s] and not (s == r and cnt[s] == 1):
                cnt[s] -= 1
                if all(ok[x] for x in cnt):
                    can_finish = True
                cnt[s] += 1
        cnt[r] -= 1
        tail = " (everyone sees it)" if view.pile_size > 0 else " (the face-down pile is empty)"
        if can_finish:
            return f"take {name}: with it every card but one is in a group, you can finish{tail}"
        if g[c + 1] > g[c]:
            what = {2: "a pair", 3: "a three", 4: "four"}[g[c + 1]]
            return f"take {name}: makes {what} of {_plural(r)}{tail}"
        if c:
            return f"take {name}: your {_NUMBER[c + 1]} {_plural(r)} get closer to a group{tail}"
        if view.pile_size == 0:
            return f"take {name}: the face-down pile is empty, taking is the only move"
        return f"take {name}: a new rank; it shows what you collect and joins nothing{tail}"

    # ------------------------------------------------------------------ sampling
    def sample_state(self, game: Game[Any, Any], view: Rummy432View, rng: np.random.Generator) -> State:
        """A state consistent with ``view`` whose opponent hand follows what was seen of it.

        With two players the opponent's hidden cards are re-dealt from the unseen cards
        (its hidden cards and the face-down pile, so the state stays consistent with the
        view): ranks it passed (drew rather than take) or threw this round are unlikely,
        and a rank it took a single card of comes with a hidden partner (it takes what
        joins a group).  Everything comes from the player's own observations.
        """
        game = _rules(game)
        state = game.sample_state(view, rng)
        if view.num_players != 2 or view.phase == "over":
            return state
        opp = 1 - view.seat
        known = state.known[opp]
        hidden = [c for c in state.hands[opp] if c not in known]
        if not hidden:
            return state
        m = self.round_memory(view)
        pool = hidden + state.pile
        if FILTER and m is not None and m.filt is not None and m.filt.alive():
            hand = m.filt.draw(rng)
            hand_set = set(hand)
            if (len(hand) == len(state.hands[opp]) and hand_set.issuperset(known)
                    and hand_set.difference(known).issubset(pool)):
                rest = [c for c in pool if c not in hand_set]
                state.hands[opp] = list(hand)
                state.counts[opp] = rank_counts(hand)
                state.pile = [rest[i] for i in rng.permutation(len(rest))]
                state.legal = None
                return state
        z = None
        w = _hand.weights(game.pack, game.hand_size) if HAND_MODEL else None
        if w is not None:
            phi, unseen = _hand.features(view, m)
            z = _hand.log_weights(w, phi, unseen, len(hidden))
        new_hand, new_pile = self._redeal_opponent(game, state, view.seat, pool, len(hidden), m, rng, z)
        state.hands[opp] = new_hand
        state.counts[opp] = rank_counts(new_hand)
        state.pile = new_pile
        swaps = int(INFER_SWAPS) + int(rng.random() < INFER_SWAPS - int(INFER_SWAPS))
        if swaps:
            _condition_opponents(game, state, view.seat, swaps)
        if state.finished_by != opp and is_complete(state.counts[opp], game.pack):
            _break_hand(state, opp)  # it would have finished: its hand is incomplete
        return state

    def _redeal_opponent(
        self,
        game: Rummy432Game,
        state: State,
        me: int,
        pool: list[int],
        k: int,
        m: _Memory | None,
        rng: np.random.Generator,
        z: np.ndarray | None = None,
    ) -> tuple[list[int], list[int]]:
        """``(hand, pile)``: the opponent's known cards plus ``k`` of ``pool`` drawn by what
        ``m`` saw of its play (by the learned hand model's log-weights ``z`` when given),
        the best of a few draws at explaining its last throw."""
        known = state.known[1 - me]
        logw = np.log(_pool_weights(pool, known, m))
        forced_ranks = [r for r, c in enumerate(rank_counts(known)) if c == 1]
        y = m.opp_throw if m is not None else -1
        tries = LIK_SAMPLES if y >= 0 and LIK_SAMPLES > 1 else 1
        deals: list[tuple[list[int], list[int]]] = []
        liks = np.zeros(tries)
        for t in range(tries):
            counts = _hand.sample_counts(z, k, rng) if z is not None else None
            if counts is not None:
                take = set(_hand.deal(pool, counts, rng))
            else:
                keys = logw + rng.gumbel(size=len(pool))
                forced = 0
                for r in forced_ranks:
                    if forced < k:
                        cands = [i for i, c in enumerate(pool) if c >> 2 == r]
                        if cands:
                            keys[max(cands, key=lambda i: keys[i])] = np.inf
                            forced += 1
                take = set(np.argsort(-keys, kind="stable")[:k].tolist())
            new_hand = list(known) + [pool[i] for i in sorted(take)]
            deals.append((new_hand, [pool[i] for i in range(len(pool)) if i not in take]))
            if tries > 1:
                liks[t] = self._throw_likelihood(game, state, me, new_hand, y, m.opp_took if m else -1)
        pick = 0
        if tries > 1:
            tot = liks.sum()
            pick = int(rng.choice(tries, p=liks / tot)) if tot > 0 else int(rng.integers(tries))
        return deals[pick]

    def _throw_likelihood(self, game: Rummy432Game, state: State, me: int, hand: list[int], y: int,
                          took: int) -> float:
        """How likely the planner would have thrown ``y`` holding ``hand`` + ``y`` (its last throw)."""
        opp = 1 - me
        s2 = state.clone()
        s2.hands[opp] = hand + [y]
        if y in s2.discard:
            s2.discard.remove(y)
        elif y in s2.hands[me]:
            s2.hands[me].remove(y)
            if y in s2.known[me]:
                s2.known[me].remove(y)
        s2.phase = THROW
        s2.current = opp
        s2.taken = took if took in hand else -1
        s2.refresh()
        legal = game.legal_actions(s2)
        if len(legal) <= 1:
            return 1.0
        sc = self._planner(_Ctx(game.view(s2, opp)), legal)
        sc = np.exp(LIK_BETA * (sc - sc.max()))
        ry = y >> 2
        hit = sum(sc[i] for i, a in enumerate(legal) if a < FINISH0 and (a - THROW0) >> 2 == ry)
        return float(hit / sc.sum())

    # ------------------------------------------------------------------ rollouts
    def search_here(
        self, game: Game[Any, Any], view: Rummy432View, legal: list[int], prior: np.ndarray
    ) -> bool:
        """The expert searches which card to throw; the pick (take or draw), a turn where
        it can finish (it finishes, as the planner does) and the exact last turn of a
        round are left to the planner (measured: searching the pick did not beat the
        planner's rule, and searching whether to finish lost races, most of all against
        greedy)."""
        if any(a >= FINISH0 for a in legal):
            return False
        return view.phase == "throw" and view.finished_by < 0 and not (
            view.taken < 0
            and view.pile_size == 0
            and view.run_out_limit is not None
            and view.run_outs + 1 >= view.run_out_limit
        )

    def rollout_action(self, game: Game[Any, Any], state: State, rng: np.random.Generator) -> int:
        """The planner's move on the mover's own view of the (sampled) state.

        Greedy rollouts mis-judged throws (every seat in them played unlike the real
        players); the planner only reads the mover's view, so the rollouts stay honest.
        """
        game = _rules(game)
        legal = game.legal_actions(state)
        if len(legal) == 1 or (self._root_round and state.round > self._root_round):
            return legal[0]  # past the searched round: the moves no longer matter
        if state is not self._conditioned:
            # a fresh sample: opponents kept what groups and threw the rest, so their
            # hidden cards are better than a random deal; the finisher is complete
            self._conditioned = state
            if game.num_players != 2:  # with two players done when sampled
                _condition_opponents(game, state, self._root_seat)
            if state.finished_by >= 0:
                _repair_finisher(game, state)
        sc = self._planner(_Ctx(game.view(state, state.current)), legal)
        return legal[int(np.argmax(sc))]

    # ----------------------------------------------------------------- evaluate
    def evaluate(self, game: Game[Any, Any], state: State, player: int) -> float:
        """Chance-based value in [-1, 1] of a sampled state for ``player``: each seat's
        fewest missing cards and shape give its chance to win the round, and the round
        scores turn that into a chance to win the game."""
        game = _rules(game)
        n = game.num_players
        if state.phase == OVER:
            return float(game.returns(state)[player])
        if self._root_round and state.round > self._root_round:
            # the searched round is over: value its result, the next rounds are even
            return _game_value(state.scores, [1.0 / n] * n, player, game.rounds_to_win, n)
        pack = game.pack
        hs = game.hand_size
        # cards each rank still offers: the pile, the face-up card, the buried ones if a reshuffle comes
        avail = [0] * 13
        for c in state.pile:
            avail[c >> 2] += 1
        if state.discard:
            avail[state.discard[-1] >> 2] += 1
            limit = game.run_out_limit
            if limit is None or state.run_outs + 1 < limit:
                for c in state.discard[:-1]:
                    avail[c >> 2] += 1
        strength = []
        for p in range(n):
            cnt = state.counts[p]
            need = _needed(cnt, avail, pack, hs)
            if need == 0:
                # the best complete hand it holds (or keeps after its throw)
                s = 4.0 + 1.2 * (_best_complete_key(cnt, pack, hs) - 2.0)
            else:
                gv, lv = hand_values(cnt, pack)
                s = -1.1 * need + (gv - lv) * 0.004
            strength.append(s)
        if state.finished_by >= 0:
            # the round ends within a turn each: only complete hands matter
            strength = [s if s >= 4.0 - 1.2 * 2 else s - 2.0 for s in strength]
        m = max(strength)
        ex = [math.exp(1.5 * (s - m)) for s in strength]
        tot = sum(ex)
        win = [e / tot for e in ex]
        return _game_value(state.scores, win, player, game.rounds_to_win, n)


def _pool_weights(pool: list[int], known: list[int], m: _Memory | None) -> np.ndarray:
    """Weight of each card of ``pool`` for the opponent's hidden hand: ranks it passed or
    threw this round are unlikely, unless it took a card of that rank since."""
    w = np.ones(len(pool))
    if m is not None:
        collects = {c >> 2 for c in known}  # a rank it took since: the evidence is stale
        for i, c in enumerate(pool):
            r = c >> 2
            if r in collects:
                continue
            if r in m.passed:
                w[i] *= W_PASSED
            if r in m.threw:
                w[i] *= W_THREW
    return w


def _rules(game: Game[Any, Any]) -> Rummy432Game:
    """The Rummy rules object (the agents pass the game of the table they play)."""
    if not isinstance(game, Rummy432Game):
        raise TypeError(f"Rummy432Knowledge needs a Rummy432Game, got {type(game).__name__}")
    return game


def _condition_opponents(game: Rummy432Game, state: State, me: int, most: int = 4) -> None:
    """Swap each opponent's hidden loose cards with face-down cards that group, once per
    turn it has played (at most), as a player keeping pairs would have."""
    pack = game.pack
    g = GROUP[pack]
    n = game.num_players
    pile = state.pile
    if not pile:
        return
    turns = state.turn // n + 1
    for p in range(n):
        if p == me or p == state.finished_by:
            continue
        hand = state.hands[p]
        cnt = state.counts[p]
        known = state.known[p]
        for _ in range(min(turns, most)):
            done = False
            for i, x in enumerate(hand):
                rx = x >> 2
                if cnt[rx] != 1 or x in known:
                    continue
                for j, y in enumerate(pile):
                    ry = y >> 2
                    if ry != rx and cnt[ry] and g[cnt[ry] + 1] > g[cnt[ry]]:
                        hand[i], pile[j] = y, x
                        cnt[rx] -= 1
                        cnt[ry] += 1
                        done = True
                        break
                if done:
                    break
            if not done:
                break


def _break_hand(state: State, p: int) -> None:
    """Swap one of seat ``p``'s hidden cards with a face-down card of a rank it lacks."""
    hand, cnt, known = state.hands[p], state.counts[p], state.known[p]
    pile = state.pile
    for j in range(len(pile) - 1, -1, -1):
        y = pile[j]
        if cnt[y >> 2]:
            continue
        for i, x in enumerate(hand):
            if x not in known:
                hand[i], pile[j] = y, x
                cnt[x >> 2] -= 1
                cnt[y >> 2] += 1
                return
        return


def _repair_finisher(game: Rummy432Game, state: State) -> None:
    """Make a sampled finisher's hand complete (everyone knows it is) by swaps with the pile.

    ``sample_state`` deals the finisher unseen cards at random; this hill-climbs the
    loose-card count by swapping its unknown cards with face-down cards.
    """
    p = state.finished_by
    cnt = state.counts[p]
    pack = game.pack
    ok = GROUPED[pack]
    if all(ok[c] for c in cnt) or state.phase == OVER:
        return
    g = GROUP[pack]
    hand = state.hands[p]
    known = set(state.known[p])
    pile = state.pile

    def loose() -> int:
        return sum(c - g[c] for c in cnt)

    for _ in range(12):
        cur = loose()
        if cur == 0:
            return
        best = None
        best_l = cur
        out_cards = [c for c in hand if c not in known and not ok[cnt[c >> 2]]]
        for i, x in enumerate(hand):
            if x not in out_cards:
                continue
            for j, y in enumerate(pile):
                if y >> 2 == x >> 2:
                    continue
                cnt[x >> 2] -= 1
                cnt[y >> 2] += 1
                lo = loose()
                cnt[y >> 2] -= 1
                cnt[x >> 2] += 1
                if lo < best_l:
                    best_l, best = lo, (i, j)
        if best is None:
            return
        i, j = best
        x, y = hand[i], pile[j]
        hand[i], pile[j] = y, x
        cnt[x >> 2] -= 1
        cnt[y >> 2] += 1


def _needed(cnt: list[int], avail: list[int], pack: str, hs: int) -> int:
    """Fewest cards to draw for a complete hand of ``hs`` cards (99 if out of reach)."""
    sizes = GROUP_SIZES[pack]
    inf = 99
    dp = [inf] * (hs + 1)
    dp[0] = 0
    for r in range(13):
        c = cnt[r]
        a = avail[r]
        opts = [(0, 0)]
        for t in sizes:
            need = t - c if t > c else 0
            if need <= a:
                opts.append((t, need))
        if c == 0 and len(opts) == 1:
            continue
        new = dp[:]
        for t, need in opts:
            if t == 0:
                continue
            for s in range(hs - t, -1, -1):
                if dp[s] < inf and dp[s] + need < new[s + t]:
                    new[s + t] = dp[s] + need
        dp = new
    return dp[hs]


def _best_complete_key(cnt: list[int], pack: str, hs: int) -> float:
    """Shape key of the complete hand in ``cnt`` (with an extra card thrown if it has one)."""
    total = sum(cnt)
    if total == hs:
        return _shape_key(shape_of(cnt, pack))
    best = 0.0
    ok = GROUPED[pack]
    for r in range(13):
        if cnt[r]:
            cnt[r] -= 1
            if all(ok[x] for x in cnt):
                best = max(best, _shape_key(shape_of(cnt, pack)))
            cnt[r] += 1
    return best


def _game_value(scores: list[int], win: list[float], me: int, rtw: int, n: int) -> float:
    """Expected reward in [-1, 1] for ``me``: this round by ``win``, later rounds even."""
    lead = max((s for p, s in enumerate(scores) if p != me), default=0)
    a = rtw - scores[me]
    b = rtw - lead
    p_me = win[me]
    p_lead = max((win[p] for p in range(n) if p != me and scores[p] == lead), default=0.0)
    w = _race(a - 1, b) * p_me + _race(a, b - 1) * p_lead + _race(a, b) * max(0.0, 1.0 - p_me - p_lead)
    # chance level is 1/n: map it to the mean reward of a random seat
    return max(-1.0, min(1.0, 2.0 * w - 1.0))


_RACE: dict[tuple[int, int], float] = {}


def _race(a: int, b: int) -> float:
    """Chance to win ``a`` rounds before the leading opponent wins ``b`` (even rounds)."""
    if a <= 0:
        return 1.0 if b > 0 else 0.5
    if b <= 0:
        return 0.0
    key = (a, b)
    v = _RACE.get(key)
    if v is None:
        v = 0.5 * _race(a - 1, b) + 0.5 * _race(a, b - 1)
        _RACE[key] = v
    return v


__all__ = ["Rummy432Knowledge"]


#: the game's entry in the agents package (named by its registry entry in cardenvs.registry)
SPEC = GameAgents(
    knowledge=Rummy432Knowledge,
    cast=("Rosie", "Dev", "Mags", "Theo"),
    expert_budget={"simulations": 40, "depth": 30, "max_candidates": 2, "paired": True},
)
