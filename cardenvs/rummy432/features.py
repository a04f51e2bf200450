"""Rummy 4x3x2's learner observations: per-rank planes and per-action facts (from the View only).

Two designs besides the flat vector (:mod:`.encoding`), chosen with
``observation="planes"`` or ``observation="action_features"`` (see
:mod:`cardenvs.core.observers`; the tables are printed in ``cardenvs/rummy432_v0.py``):

* :func:`planes`: ``(64, 13)`` float32, one column per rank (suits never matter in this
  game): my count of each rank (and as one-hot), whether it forms a group, the ranks in
  the discard pile, its top, the card taken this turn, each seat's visibly taken
  cards, the cards of each rank still unseen, the rank's value, and the scalars of the
  position as constant channels.
* :func:`action_features`: ``(len(legal), 45)`` float32 for the legal actions: what the
  move does to my hand (its rank's count before and after, the hand's loose cards,
  groups, shape and values after it, and the unseen cards that would then let it
  finish), what it tells or gives the next seat, and the position's facts (phase,
  pile, scores, my hand now), repeated on every row.  For ``take`` the hand "after"
  is after the best throw that follows (the fewest loose cards, then the most grouped
  value); for ``draw``, whose card is hidden, the chance that it lets me finish.

Everything is computed from a :class:`Rummy432View` (the player's information set), so
re-dealing the cards the player cannot see changes nothing here (tested).  Every entry
lies in its column's bounds (tested on random games).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from cardenvs.core.game import ObsLayout

from .state import (
    DRAW,
    FINISH0,
    GROUP,
    GROUPED,
    MAX_SEATS,
    NEXT_GROUP,
    PACKS,
    PHASE_NAMES,
    RANK_VALUES,
    TAKE,
    THROW0,
    Rummy432View,
    max_rounds,
    rank_counts,
)

#: columns of a plane: the 13 ranks, Ace first
PLANE_SHAPE = (13,)
S = MAX_SEATS

PLANES = ObsLayout([
    ("mine", 1, "my cards of the rank / 4"),
    ("mine_count", 4, "one-hot: I hold 1, 2, 3, 4 cards of the rank"),
    ("grouped", 1, "1 if my cards of the rank are all in a group (pack's sizes)"),
    ("discard", 1, "cards of the rank in the discard pile (top included) / 4"),
    ("discard_top", 1, "1 at the rank of the face-up top of the discard pile"),
    ("taken", 1, "1 at the rank of the card I took from the discard this turn"),
    ("known", S, "per seat s (seat-relative): cards of the rank s took from the discard and holds / 4"),
    ("unseen", 1, "cards of the rank in no place I can see (the pile, hidden in hands) / 4"),
    ("value", 1, "constant per column: the rank's card value / 10"),
    ("next_group", 1, "the smallest allowed group size above my count of the rank / 4 (0 = none)"),
    ("num_players", 4, "constant: one-hot seat count 2..5"),
    ("pack", 3, "constant: one-hot option pack: four, three, mixed"),
    ("hand_size", 1, "constant: option hand_size / 12"),
    ("rounds_to_win", 1, "constant: option rounds_to_win / 10"),
    ("phase", 3, "constant: one-hot pick, throw, over"),
    ("current", S, "constant: one-hot seat-relative seat to move (zeros when over)"),
    ("dealer", S, "constant: one-hot seat-relative dealer of this round"),
    ("round", 1, "constant: round number / the most rounds a game can last"),
    ("turn", 1, "constant: turns completed in this round, min(turns, 100) / 100"),
    ("pile_size", 1, "constant: cards in the face-down pile / 52"),
    ("run_outs", 1, "constant: run-outs this round, min(count, 5) / 5"),
    ("run_out_limit", 1, "constant: option run_out_limit / 5 (0 = never)"),
    ("finished_by", S, "constant: one-hot seat-relative first finisher (zeros if nobody finished)"),
    ("last_turns_left", S, "constant: seat-relative, 1 if that seat still has its last turn"),
    ("scores", S, "constant: seat-relative rounds won / rounds_to_win"),
    ("hand_sizes", S, "constant: seat-relative cards held / 13"),
], low=0.0, high=1.0)

ACTION_FEATURES = ObsLayout([
    ("kind", 4, "the move: draw, take, throw, finish"),
    ("value", 1, "throw/finish: the card's value / 10; take: the top discard's value / 10"),
    ("count_before", 1, "throw/finish/take: my cards of that rank before the move / 4"),
    ("grouped_before", 1, "1 if those cards were all in a group"),
    ("count_after", 1, "my cards of that rank after the move / 4"),
    ("grouped_after", 1, "1 if they are all in a group after the move (none left counts as grouped)"),
    ("dead", 1, "cards of that rank out of my reach after the move: in the discard pile below its top "
                "or visibly held by another seat, / 4"),
    ("unseen", 1, "cards of that rank I cannot see after the move (the pile, hidden hands) / 4"),
    ("next_collects", 1, "cards of that rank the next seat visibly holds / 3, clipped to 1"),
    ("feeds", 1, "throw/finish: 1 if the next seat could take it to make or grow a group it visibly holds"),
    ("complete_after", 1, "1 if my hand after the move is complete (take: after its best throw)"),
    ("loose_after", 1, "loose cards of my hand after the move / 13"),
    ("groups_after", 1, "groups in my hand after the move / 6"),
    ("largest_after", 1, "size of my largest group after the move / 4"),
    ("second_after", 1, "size of my second-largest group after the move / 4"),
    ("grouped_value_after", 1, "value of my grouped cards after the move / 130"),
    ("loose_value_after", 1, "value of my loose cards after the move / 130"),
    ("outs_after", 1, "unseen cards that would let my hand after the move finish on my next pick, "
                      "min(count, 20) / 20"),
    ("live_after", 1, "unseen cards of the ranks in my hand after the move that would group one more of "
                      "its cards, min(count, 30) / 30"),
    ("dead_loose_after", 1, "loose cards of my hand after the move whose rank has no unseen card left / 13"),
    ("finish_chance", 1, "draw: share of the unseen cards with which I could finish this turn"),
    ("improve_chance", 1, "draw: share of the unseen cards that would group one more of my cards"),
    ("takes_from_next", 1, "take: 1 if the top discard's rank is one the next seat visibly collects"),
    ("phase", 2, "position: one-hot pick, throw"),
    ("players", 1, "position: (seats - 2) / 3"),
    ("pack", 3, "position: one-hot option pack: four, three, mixed"),
    ("hand_size", 1, "position: option hand_size / 12"),
    ("pile_size", 1, "position: cards in the face-down pile / 52"),
    ("run_outs", 1, "position: run-outs this round / run_out_limit (0 when there is no limit)"),
    ("turn", 1, "position: turns completed in this round, min(turns, 50) / 50"),
    ("my_score", 1, "position: my rounds won / rounds_to_win"),
    ("best_other", 1, "position: the most rounds won by another seat / rounds_to_win"),
    ("finished", 1, "position: 1 if someone has finished (these are the last turns)"),
    ("my_loose", 1, "position: loose cards in my hand now / 13"),
    ("my_complete", 1, "position: 1 if my hand now is complete"),
    ("my_outs", 1, "position: pick: unseen cards that would let me finish this turn, min(count, 20) / 20"),
    ("next_hand", 1, "position: cards the next seat holds / 13"),
    ("next_known", 1, "position: cards the next seat visibly took and holds / 9, clipped to 1"),
    ("discard_size", 1, "position: cards in the discard pile / 52"),
], low=0.0, high=1.0)

_P = {f.name: f.start for f in PLANES.fields}
_A = {f.name: f.start for f in ACTION_FEATURES.fields}
NUM_PLANES = PLANES.size
NUM_FEATURES = ACTION_FEATURES.size
_RANK_VALUE = np.array(RANK_VALUES, np.float32) / 10


def _finishing_ranks(cnt: list[int], ok: tuple[bool, ...]) -> list[int]:
    """Ranks ``x`` such that a hand of counts ``cnt`` with one more card of rank ``x`` can
    throw a card and keep only grouped cards (so it can finish)."""
    bad = [r for r in range(13) if not ok[cnt[r]]]
    if len(bad) > 2:
        return []
    out = []
    for x in range(13):
        if cnt[x] >= 4:
            continue
        c2 = cnt[:]
        c2[x] += 1
        still = [r for r in bad if r != x]
        if not ok[c2[x]]:
            still.append(x)
        if len(still) > 1:
            continue
        if still:
            if ok[c2[still[0]] - 1]:
                out.append(x)
        elif any(c2[r] and ok[c2[r] - 1] for r in range(13)):
            out.append(x)
    return out


class _Hand:
    """A hand's judgement from its rank counts (the rules' grouping, :mod:`.state`)."""

    __slots__ = ("loose", "groups", "largest", "second", "gv", "lv")

    def __init__(self, cnt: list[int], pack: str) -> None:
        g = GROUP[pack]
        sizes = sorted((g[c] for c in cnt if g[c]), reverse=True)
        self.groups = len(sizes)
        self.largest = sizes[0] if sizes else 0
        self.second = sizes[1] if len(sizes) > 1 else 0
        gv = lv = loose = 0
        for r in range(13):
            c = cnt[r]
            if c:
                gv += g[c] * RANK_VALUES[r]
                lv += (c - g[c]) * RANK_VALUES[r]
                loose += c - g[c]
        self.loose, self.gv, self.lv = loose, gv, lv


class _Table:
    """What the encoders share of one View: my rank counts, what is visible of each rank,
    and the cards still unseen."""

    __slots__ = ("view", "n", "me", "nxt", "pack", "ok", "cnt", "discard", "others", "unseen",
                 "next_known", "unseen_total")

    def __init__(self, view: Rummy432View) -> None:
        self.view = view
        self.n = view.num_players
        self.me = view.seat
        self.nxt = (view.seat + 1) % view.num_players
        self.pack = view.pack
        self.ok = GROUPED[view.pack]
        self.cnt = rank_counts(view.hand)
        self.discard = rank_counts(view.discard)
        self.others = [0] * 13
        for s in range(self.n):
            if s != self.me:
                for c in view.known[s]:
                    self.others[c >> 2] += 1
        self.next_known = rank_counts(view.known[self.nxt])
        self.unseen = [4 - self.cnt[r] - self.discard[r] - self.others[r] for r in range(13)]
        self.unseen_total = sum(self.unseen)

    def outs(self, cnt: list[int], unseen: list[int]) -> int:
        """Unseen cards whose rank lets a hand of counts ``cnt`` finish after picking it."""
        return sum(unseen[x] for x in _finishing_ranks(cnt, self.ok))

    def live(self, cnt: list[int]) -> tuple[int, int]:
        """``(unseen cards that would group one more card of a hand of counts cnt, loose
        cards of ranks with no unseen card left)``."""
        g = GROUP[self.pack]
        live = dead = 0
        unseen = self.unseen
        for r in range(13):
            c = cnt[r]
            if not c:
                continue
            if c < 4 and g[c + 1] > g[c]:
                live += unseen[r]
            if not unseen[r]:
                dead += c - g[c]
        return live, dead


def _seat_slot(s: int, me: int, n: int) -> int:
    return (s - me) % n


def planes(view: Rummy432View) -> np.ndarray:
    """The ``(64, 13)`` planes of a view (layout :data:`PLANES`)."""
    t = _Table(view)
    n, me = t.n, t.me
    p = _P
    out = np.zeros((NUM_PLANES, 13), np.float32)
    cnt = np.array(t.cnt, np.float32)
    out[p["mine"]] = cnt / 4
    for r in range(13):
        c = t.cnt[r]
        if c:
            out[p["mine_count"] + c - 1, r] = 1.0
            out[p["grouped"], r] = float(t.ok[c])
        out[p["next_group"], r] = NEXT_GROUP[t.pack][c] / 4
    out[p["discard"]] = np.array(t.discard, np.float32) / 4
    if view.discard_top >= 0:
        out[p["discard_top"], view.discard_top >> 2] = 1.0
    if view.taken >= 0:
        out[p["taken"], view.taken >> 2] = 1.0
    for s in range(n):
        row = out[p["known"] + _seat_slot(s, me, n)]
        for c in view.known[s]:
            row[c >> 2] += 0.25
    out[p["unseen"]] = np.array(t.unseen, np.float32) / 4
    out[p["value"]] = _RANK_VALUE
    out[p["num_players"] + n - 2] = 1.0
    out[p["pack"] + PACKS.index(view.pack)] = 1.0
    out[p["hand_size"]] = view.hand_size / 12
    out[p["rounds_to_win"]] = view.rounds_to_win / 10
    out[p["phase"] + PHASE_NAMES.index(view.phase)] = 1.0
    if view.current >= 0:
        out[p["current"] + _seat_slot(view.current, me, n)] = 1.0
    out[p["dealer"] + _seat_slot(view.dealer, me, n)] = 1.0
    out[p["round"]] = view.round / max_rounds(n, view.rounds_to_win)
    out[p["turn"]] = min(view.turn, 100) / 100
    out[p["pile_size"]] = view.pile_size / 52
    out[p["run_outs"]] = min(view.run_outs, 5) / 5
    out[p["run_out_limit"]] = (view.run_out_limit or 0) / 5
    if view.finished_by >= 0:
        out[p["finished_by"] + _seat_slot(view.finished_by, me, n)] = 1.0
    for s in view.last_turns_left:
        out[p["last_turns_left"] + _seat_slot(s, me, n)] = 1.0
    for s in range(n):
        r = _seat_slot(s, me, n)
        out[p["scores"] + r] = view.scores[s] / view.rounds_to_win
        out[p["hand_sizes"] + r] = view.hand_sizes[s] / 13
    return out


def _hand_columns(f: np.ndarray, h: _Hand) -> None:
    a = _A
    f[a["complete_after"]] = float(h.loose == 0)
    f[a["loose_after"]] = h.loose / 13
    f[a["groups_after"]] = h.groups / 6
    f[a["largest_after"]] = h.largest / 4
    f[a["second_after"]] = h.second / 4
    f[a["grouped_value_after"]] = h.gv / 130
    f[a["loose_value_after"]] = h.lv / 130


def _position_block(view: Rummy432View, t: _Table, ctx: np.ndarray) -> int:
    """The position's columns, the same on every row (from ``phase`` on): the phase, the
    players, the pack, the hand and the pile, the run-outs and the turn, the scores, whether
    someone finished, my loose cards and outs, the next player's hand and known cards, and
    the discard pile.  Returns my outs (the unseen cards that would finish my hand; 0 when
    not picking)."""
    a = _A
    n = t.n
    pick = view.phase == "pick"
    ctx[a["phase"] + (0 if pick else 1)] = 1.0
    ctx[a["players"]] = (n - 2) / 3
    ctx[a["pack"] + PACKS.index(t.pack)] = 1.0
    ctx[a["hand_size"]] = view.hand_size / 12
    ctx[a["pile_size"]] = view.pile_size / 52
    ctx[a["run_outs"]] = min(view.run_outs / view.run_out_limit, 1.0) if view.run_out_limit else 0.0
    ctx[a["turn"]] = min(view.turn, 50) / 50
    rtw = view.rounds_to_win
    ctx[a["my_score"]] = view.scores[t.me] / rtw
    ctx[a["best_other"]] = max(view.scores[s] for s in range(n) if s != t.me) / rtw
    ctx[a["finished"]] = float(view.finished_by >= 0)
    now = _Hand(t.cnt, t.pack)
    ctx[a["my_loose"]] = now.loose / 13
    ctx[a["my_complete"]] = float(now.loose == 0)
    outs_now = t.outs(t.cnt, t.unseen) if pick else 0
    ctx[a["my_outs"]] = min(outs_now, 20) / 20
    ctx[a["next_hand"]] = view.hand_sizes[t.nxt] / 13
    ctx[a["next_known"]] = min(len(view.known[t.nxt]) / 9, 1.0)
    ctx[a["discard_size"]] = len(view.discard) / 52
    return outs_now


def _take_block(view: Rummy432View, t: _Table, f: np.ndarray) -> tuple[int, list[int], list[int], int]:
    """A take's own columns: the count of the taken card's rank after it, whether that rank
    is then grouped, whether the next player collects it.  Returns the rank, the hand after
    the best throw that follows (not of the card just taken), the unseen cards and the dead
    cards of the rank after it."""
    a = _A
    ok, pack = t.ok, t.pack
    f[a["kind"] + 1] = 1.0
    r = view.discard_top >> 2
    after = t.cnt[:]
    after[r] += 1
    f[a["count_after"]] = after[r] / 4
    f[a["grouped_after"]] = float(ok[min(after[r], 5)])
    f[a["takes_from_next"]] = float(t.next_known[r] > 0)
    best: tuple[int, int] | None = None
    best_cnt = after
    for x in range(13):
        if after[x] == 0 or (x == r and after[x] == 1):
            continue
        c2 = after[:]
        c2[x] -= 1
        h = _Hand(c2, pack)
        key = (-h.loose, h.gv)
        if best is None or key > best:
            best, best_cnt = key, c2
    # the taken card was visible: nothing unseen changes
    return r, best_cnt, t.unseen, t.discard[r] - 1 + t.others[r]


def _throw_block(t: _Table, r: int, f: np.ndarray) -> tuple[list[int], int]:
    """A throw's (or a finish's) own columns: the count of the thrown rank after it, whether
    it is then grouped, whether it feeds the next player's group.  Returns the hand after it
    and the dead cards of the rank (the thrown card becomes the top, reachable)."""
    a = _A
    hand_after = t.cnt[:]
    hand_after[r] -= 1
    f[a["count_after"]] = hand_after[r] / 4
    f[a["grouped_after"]] = float(t.ok[hand_after[r]])
    nk = t.next_known[r]
    f[a["feeds"]] = float(nk > 0 and GROUP[t.pack][min(nk + 1, 5)] > GROUP[t.pack][nk])
    return hand_after, t.discard[r] + t.others[r]


def _rank_block(t: _Table, r: int, hand_after: list[int], unseen_after: list[int], dead_after: int,
                f: np.ndarray) -> None:
    """The columns of the rank a take or a throw moves and of the hand it leaves: the rank's
    value, count and grouping before, its dead and unseen cards, how many of it the next
    player collects; the hand's columns after, its outs, live cards and dead loose cards."""
    a = _A
    cnt = t.cnt
    f[a["value"]] = RANK_VALUES[r] / 10
    f[a["count_before"]] = cnt[r] / 4
    f[a["grouped_before"]] = float(t.ok[cnt[r]])
    f[a["dead"]] = max(dead_after, 0) / 4
    f[a["unseen"]] = unseen_after[r] / 4
    f[a["next_collects"]] = min(t.next_known[r] / 3, 1.0)
    _hand_columns(f, _Hand(hand_after, t.pack))
    f[a["outs_after"]] = min(t.outs(hand_after, unseen_after), 20) / 20
    live, dead = t.live(hand_after)
    f[a["live_after"]] = min(live, 30) / 30
    f[a["dead_loose_after"]] = dead / 13


def action_features(view: Rummy432View, legal: Sequence[int]) -> np.ndarray:
    """``(len(legal), 45)``: the :data:`ACTION_FEATURES` rows of the legal actions of
    ``view``'s player (who must be the one to move): the position's columns
    (:func:`_position_block`) on every row; a draw's chances; a take's (:func:`_take_block`)
    or a throw's (:func:`_throw_block`) own columns, then its rank's and the hand's it
    leaves (:func:`_rank_block`)."""
    t = _Table(view)
    a = _A
    out = np.zeros((len(legal), NUM_FEATURES), np.float32)
    ctx = out[0] if len(legal) else np.zeros(NUM_FEATURES, np.float32)
    outs_now = _position_block(view, t, ctx)
    start = a["phase"]
    out[1:, start:] = ctx[start:]
    done: dict[int, int] = {}  # rank -> the row of a throw of that rank (its other throws share it)
    kind = a["kind"]
    for i, act in enumerate(legal):
        f = out[i]
        if act == DRAW:
            f[kind] = 1.0
            if t.unseen_total:
                f[a["finish_chance"]] = outs_now / t.unseen_total
                f[a["improve_chance"]] = t.live(t.cnt)[0] / t.unseen_total
            continue
        if act == TAKE:
            r, hand_after, unseen_after, dead_after = _take_block(view, t, f)
        else:
            finish = act >= FINISH0
            r = (act - (FINISH0 if finish else THROW0)) >> 2
            if r in done:  # the same rank: the same facts, but for the kind of move
                f[:] = out[done[r]]
                f[kind:kind + 4] = 0.0
                f[kind + (3 if finish else 2)] = 1.0
                continue
            done[r] = i
            f[kind + (3 if finish else 2)] = 1.0
            hand_after, dead_after = _throw_block(t, r, f)
            unseen_after = t.unseen
        _rank_block(t, r, hand_after, unseen_after, dead_after, f)
    return out


__all__ = ["ACTION_FEATURES", "NUM_FEATURES", "NUM_PLANES", "PLANES", "PLANE_SHAPE", "action_features",
           "planes"]
