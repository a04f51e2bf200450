"""The coach's reasons for Rummy 4x3x2's moves, in words a player understands."""

from __future__ import annotations

from collections.abc import Sequence

from cardenvs.core.cards import card_str
from cardenvs.rummy432.state import (
    DRAW,
    FINISH0,
    GROUP,
    GROUPED,
    NEXT_GROUP,
    RANK_VALUES,
    TAKE,
    THROW0,
    Rummy432View,
    is_complete,
    shape_of,
)

from ...players.knowledge import seat_words
from .context import Context, final_score

# Ranks are words: in figures "5s" (fives) is the notation of the five of spades, and a
# table prints it as 5♠ (the reasons name a card by its notation, card_str, and only a
# card that is there).
_RANK_NAMES = ("aces", "twos", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines", "tens",
               "jacks", "queens", "kings")
_RANK_ONE = ("ace", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen",
             "king")
_NUMBER = ("no", "one", "two", "three", "four", "five")
_GROUP_COUNT = {3: "three", 4: "four"}


def _plural(r: int) -> str:
    return _RANK_NAMES[r]


def _group(size: int, r: int) -> str:
    """A group of ``size`` cards of rank ``r`` in words: "a pair of fives", "a group of
    three fives"."""
    if size == 2:
        return f"a pair of {_plural(r)}"
    if size == 1:
        return f"a single {_RANK_ONE[r]}"
    return f"a group of {_GROUP_COUNT.get(size, str(size))} {_plural(r)}"


def reason(view: Rummy432View, action: int, names: Sequence[str] | None = None) -> str:
    """Why ``action`` is played in ``view``, in words a player understands (the coach);
    another seat is named by ``names`` (by seat) when given, else as ``player <seat + 1>``."""
    ctx = Context(view)
    pack = ctx.pack
    cnt = ctx.cnt
    if action == DRAW:
        return _reason_draw(ctx)
    if action == TAKE:
        return _reason_take(ctx)
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
        extra += f"; careful, {seat_words(ctx.next_seat, names)} took {_plural(r)} and can take it"
    if kept_complete:
        return f"throw {name}: the cards you keep are all in groups, but you wait to improve them{extra}"
    if ctx.final:
        return _reason_last_throw(ctx, card, extra)
    return _reason_throw(ctx, card, extra)


def _reason_last_throw(ctx: Context, card: int, extra: str) -> str:
    """A throw on the player's last turn that keeps an incomplete hand."""
    view, cnt, pack, name = ctx.view, ctx.cnt, ctx.pack, card_str(card)
    best, best_card = -1e9, card
    for x in view.hand:
        if x != view.taken:
            cnt[x >> 2] -= 1
            sc = final_score(cnt, pack)
            cnt[x >> 2] += 1
            if sc > best + 1e-9:
                best, best_card = sc, x
    cnt[card >> 2] -= 1
    mine = final_score(cnt, pack)
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


def _reason_throw(ctx: Context, card: int, extra: str) -> str:
    """A throw that keeps an incomplete hand, before the player's last turn."""
    r, name, pack = card >> 2, card_str(card), ctx.pack
    c = ctx.cnt[r]
    g = GROUP[pack]
    if g[c - 1] < g[c]:
        return f"throw {name}: breaks {_group(g[c], r)}, a costly throw{extra}"
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


def _reason_draw(ctx: Context) -> str:
    """Why draw rather than take the face-up card."""
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
        f"{_group(g[c + 1], r)}, a sure step"
    )


def _reason_take(ctx: Context) -> str:
    """Why take the face-up card."""
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
        return f"take {name}: makes {_group(g[c + 1], r)}{tail}"
    if c:
        return f"take {name}: your {_NUMBER[c + 1]} {_plural(r)} get closer to a group{tail}"
    if view.pile_size == 0:
        return f"take {name}: the face-down pile is empty, taking is the only move"
    return f"take {name}: a new rank; it shows what you collect and joins nothing{tail}"

__all__ = ["reason"]
