"""Rummy 4x3x2's value of a sampled state, which cuts the expert's rollouts short.

Every seat's hand is scored by the fewest cards it still needs (a small exact search over
group targets, with the cards still obtainable), its shape and value once complete; a
softmax gives each seat's chance to win the round, and the round scores turn that into a
chance to win the game.
"""

from __future__ import annotations

import math

from cardenvs.rummy432.rules import Rummy432Game
from cardenvs.rummy432.state import GROUP_SIZES, GROUPED, OVER, State, hand_values, shape_of

from .context import shape_key


def evaluate(game: Rummy432Game, state: State, player: int, root_round: int = 0) -> float:
    """Chance-based value in [-1, 1] of a sampled state for ``player``: each seat's
    fewest missing cards and shape give its chance to win the round, and the round
    scores turn that into a chance to win the game.  ``root_round``: the round a search is
    deciding in (0: none); a state past it is valued by its result alone."""
    n = game.num_players
    if state.phase == OVER:
        return float(game.returns(state)[player])
    if root_round and state.round > root_round:
        # the searched round is over: value its result, the next rounds are even
        return game_value(state.scores, [1.0 / n] * n, player, game.rounds_to_win, n)
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
    return game_value(state.scores, win, player, game.rounds_to_win, n)


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
        return shape_key(shape_of(cnt, pack))
    best = 0.0
    ok = GROUPED[pack]
    for r in range(13):
        if cnt[r]:
            cnt[r] -= 1
            if all(ok[x] for x in cnt):
                best = max(best, shape_key(shape_of(cnt, pack)))
            cnt[r] += 1
    return best


def game_value(scores: list[int], win: list[float], me: int, rtw: int, n: int) -> float:
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

__all__ = ["evaluate", "game_value"]
