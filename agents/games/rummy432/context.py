"""What the Rummy 4x3x2's heuristics read from a View: rank counts, live cards, the horizon,
threats (:class:`Context`), and the rank tables and judgements they share.

Suits never matter in this game, only ranks (and each rank's card value), so everything
here works on a hand's 13 rank counts.  The rules' tables (``cardenvs.rummy432.state``):
``GROUP[pack][count]`` is the size of the group a rank with that many cards forms (0 =
none), ``NEXT_GROUP[pack][count]`` the smallest allowed group size above the count (0 =
none), ``GROUPED[pack][count]`` whether that count is fully grouped (0 included).
"""

from __future__ import annotations

from cardenvs.rummy432.state import (
    GROUP,
    GROUPED,
    NEXT_GROUP,
    RANK_VALUES,
    Rummy432View,
    hand_values,
    is_complete,
    rank_counts,
    shape_of,
)

#: shape bonus of a group by size (bigger groups win, rule 2); only mixed has a choice
SHAPE = {"mixed": (0.0, 0.0, 0.0, 0.45, 0.9, 0.9), "three": (0.0,) * 6, "four": (0.0,) * 6}
#: rough number of turns a round lasts for one player, per pack (caps the horizon)
HORIZON = {"mixed": 5.0, "three": 8.0, "four": 12.0}

# the planner's weights of a rank's potential (units: one grouped card = 1)
W_LOOSE = 1.0  # a loose card that never groups
W_PARTIAL = 0.9  # share of a future group's cards credited now
W_VALUE = 0.02  # per value point of a grouped card (rule 3)
W_LOOSE_VALUE = 0.012  # per value point of a loose card (rule 5), times the end weight
W_KEEP_HIGH = 0.05  # keep high singles: high pairs win the frequent ties of equal shapes


def shape_key(shape: tuple[int, ...]) -> float:
    """A number that orders shapes like rule 2 (largest groups first, lexicographic)."""
    k = 0.0
    f = 1.0
    for s in shape:
        k += s * f
        f *= 0.1
    return k


def final_score(cnt: list[int], pack: str) -> float:
    """The final judgement of a hand as one number (complete > shape > value).

    Remembered by rank counts (the last turns of the search's rollouts judge the same
    hands over and over).
    """
    key: tuple[str | int, ...] = (pack, *cnt)
    found = _FINAL.get(key)
    if found is not None:
        return found
    gv, lv = hand_values(cnt, pack)
    if is_complete(cnt, pack):
        value = 100.0 + 10.0 * shape_key(shape_of(cnt, pack)) + gv / 200.0
    else:
        value = (gv - lv) / 200.0
    if len(_FINAL) >= _TERMS_MAX:
        _FINAL.clear()
    _FINAL[key] = value
    return value


#: :func:`final_score` by (pack, rank counts)
_FINAL: dict[tuple[str | int, ...], float] = {}


def at_least(k: int, p: float, t: float) -> float:
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


class Context:
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
        self.horizon = min(HORIZON[pack], cards_left / n)
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
        # a rank's terms depend on a handful of numbers that repeat from view to view (the
        # search's rollouts build thousands of contexts): they are computed once each
        key = (pack, self.unseen, self.horizon, self.end_weight)
        live = self.live
        self.terms = [
            _TERMS.get(key + (RANK_VALUES[r], live[r])) or _rank_terms(*key, RANK_VALUES[r], live[r])
            for r in range(13)
        ]

    def outs(self, cnt: list[int]) -> float:
        """Share of the unseen cards that would let a hand of ``hand_size`` cards finish next turn."""
        ok = GROUPED[self.pack]
        bads = [r for r in range(13) if not ok[cnt[r]]]
        nbad = len(bads)
        if nbad > 2:
            return 0.0
        live = self.live
        # ranks with a spare card: grouped now and still grouped without one of them
        spare = [r for r in range(13) if cnt[r] and ok[cnt[r]] and ok[cnt[r] - 1]]
        acc = 0.0
        for r in range(13):
            lr = live[r]
            if lr <= 0:
                continue
            c1 = cnt[r] + 1
            # the ranks left ungrouped once a card of rank r is drawn: the others, and r itself
            bad_r = not ok[c1]
            others = nbad - 1 if r in bads else nbad
            left = others + bad_r
            if left == 0:
                good = ok[c1 - 1] or any(s != r for s in spare)
            elif left == 1:
                if bad_r:
                    good = ok[c1 - 1]
                else:
                    b = bads[0] if bads[0] != r else bads[1]
                    good = ok[cnt[b] - 1]
            else:
                good = False
            if good:
                acc += lr
        return acc / self.unseen

    def live_count(self, r: int) -> int:
        v = self.view
        top = 1 if v.phase == "pick" and v.discard_top >= 0 and v.discard_top >> 2 == r else 0
        return 4 - self.cnt[r] - self.buried[r] - self.held[r] - top


#: the planner's terms of a rank, by (pack, unseen, horizon, end_weight, value, live)
_TERMS: dict[tuple[str, float, float, float, int, float], tuple[float, ...]] = {}
#: the most entries :data:`_TERMS` keeps before it starts afresh (a bound on its memory)
_TERMS_MAX = 200_000


def _rank_terms(pack: str, unseen: float, horizon: float, end_weight: float, v: int,
                live: float) -> tuple[float, ...]:
    """Planner potential of holding 0..5 cards of a rank of value ``v`` with ``live`` cards
    still to come among ``unseen``, over ``horizon`` turns (remembered in :data:`_TERMS`)."""
    g_of, nxt_of, shape = GROUP[pack], NEXT_GROUP[pack], SHAPE[pack]
    p = live / unseen
    t = horizon * 1.6  # the discard pile offers more looks than the draws alone
    out = [0.0] * 6
    lv = W_LOOSE_VALUE * end_weight
    for c in range(1, 6):
        g = g_of[c]
        loose = c - g
        val = g * (1.0 + W_VALUE * v) + shape[g]
        nxt = nxt_of[c]
        q = at_least(nxt - c, p, t) if nxt and nxt - c <= live + 1e-9 else 0.0
        if loose:
            val += q * (nxt - g) * W_PARTIAL * (1.0 + W_VALUE * v) - (1.0 - q) * loose * W_LOOSE
            val -= loose * v * lv
            val += loose * v * W_KEEP_HIGH
        elif nxt and q > 0:  # a group that may still grow (mixed: 2 -> 3 -> 4)
            val += q * (shape[nxt] - shape[g]) * 0.6
        out[c] = val
    if len(_TERMS) >= _TERMS_MAX:
        _TERMS.clear()
    terms = _TERMS[(pack, unseen, horizon, end_weight, v, live)] = tuple(out)
    return terms


__all__ = ["HORIZON", "SHAPE", "Context", "at_least", "final_score", "shape_key"]
