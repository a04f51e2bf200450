"""A picture of the table: ``render_mode="rgb_array"`` for every game.

A game describes its table as :class:`Picture` — bands of labelled piles of card texts
(``"7s"``, ``"X"``, ``"57"``, ``"B4"``) — and :func:`draw_picture` draws it with
matplotlib (imported only here, only when a picture is asked for) into an RGB array.
Card faces are coloured as the games name them: red hearts and diamonds, black clubs
and spades, purple jokers; Line-it numbers by colour (heart red, diamond blue,
leaf green, star yellow) and Bets grey.

Layout rules, so that a game's pictures keep one shape while its position changes:

* the picture is ``width_px`` wide and its height depends only on the number of bands
  and of footer lines (every band has the same height: a label line above the cards,
  the cards, a note line below them);
* each band is one line of piles, left to right (centred with ``Picture.centered``);
  consecutive bands with as many piles line their piles up in columns (unless centred);
  when a band is too wide its cards overlap (like a fanned hand: each card keeps its
  corner index visible), and only if that is not enough is the whole table shrunk;
* a card text ending in ``*`` is drawn with a gold edge (a marked card, e.g. one taken
  from the discard); ``Pile.stack`` draws the backs as one squared stack with the count
  on it; ``Pile.highlight`` outlines the pile (the player to move); ``Pile.slots``
  reserves room for that many cards; an empty pile with an empty label is a blank
  spacer; an empty card text ``""`` is an empty square (a dashed outline).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from typing import Any

import numpy as np


@dataclass
class Pile:
    """A labelled group of cards laid side by side (``backs`` face-down cards after them)."""

    label: str
    cards: list[str] = field(default_factory=list)
    backs: int = 0
    note: str = ""
    stack: bool = False
    highlight: bool = False
    slots: int = 0


@dataclass
class Picture:
    """A picture of the table: bands (top to bottom) of piles (left to right)."""

    title: str
    bands: list[list[Pile]]
    footer: str = ""
    centered: bool = False


_SUIT_GLYPH = {"c": "\u2663", "d": "\u2666", "h": "\u2665", "s": "\u2660"}
_LINEIT_COLOURS = {1: "#c62828", 2: "#1565c0", 3: "#2e7d32", 0: "#f9a825"}
_LINEIT_TINTS = {1: "#fdecea", 2: "#e8f0fb", 3: "#e9f5ea", 0: "#fff8e1"}
_LINEIT_GLYPH = {1: "\u2665", 2: "\u2666", 3: "\u2618", 0: "\u2605"}


def card_face(text: str) -> tuple[str, str]:
    """(label, colour) of a card text of any of the games."""
    text = text.rstrip("*")
    if text == "X":
        return "JKR", "#6a1b9a"
    if text.startswith("B") and text[1:].isdigit():
        return text, "#616161"
    if text.isdigit():
        return text, _LINEIT_COLOURS[int(text) % 4]
    if len(text) == 2 and text[1] in _SUIT_GLYPH:
        rank = "10" if text[0] == "T" else text[0]
        return rank + _SUIT_GLYPH[text[1]], "#c62828" if text[1] in "dh" else "#212121"
    return text, "#212121"


def _face_parts(text: str) -> tuple[str, str, str, str, str, str]:
    """(corner index, corner glyph, centre text, centre sub-text, ink, paper) of a card."""
    label, colour = card_face(text)
    text = text.rstrip("*")
    if text == "X":
        return "JKR", "\u2605", "\u2605", "JOKER", colour, "#f6effa"
    if text.startswith("B") and text[1:].isdigit():
        return text, "", text[1:], "BET", colour, "#eeeeee"
    if text.isdigit():
        k = int(text) % 4
        return text, _LINEIT_GLYPH[k], text, _LINEIT_GLYPH[k], colour, _LINEIT_TINTS[k]
    if len(text) == 2 and text[1] in _SUIT_GLYPH:
        return label[:-1], label[-1], label[:-1], label[-1], colour, "white"
    return label, "", label, "", colour, "white"


# sizes in pixels at scale 1 (the figure is drawn at 100 dpi: 1 pt = 100/72 px)
_MARGIN = 14.0
_TITLE_H = 36.0
_CARD_W, _CARD_H = 46.0, 64.0
_STEP = 51.0  # card to card, side by side
_MIN_STEP = 19.0  # overlapped faces: the corner index stays readable
_BACK_STEP = 16.0  # face-down cards always overlap like a fanned hand
_PILE_GAP = 30.0
_LABEL_H, _NOTE_H, _BAND_GAP = 19.0, 17.0, 9.0
_BAND_H = _LABEL_H + _CARD_H + _NOTE_H + _BAND_GAP
_FOOT_LINE = 19.0
_TOP_GAP = 12.0
_LABEL_PT, _NOTE_PT, _TITLE_PT, _FOOT_PT = 9.5, 8.5, 13.0, 9.5

_FELT, _FELT_DARK = "#2e6b3f", "#23543a"


def _backs_width(pile: Pile) -> float:
    """Width of the face-down part of a pile (0 if none)."""
    if pile.stack:
        return _CARD_W + 6.0
    if pile.backs <= 0:
        return 0.0
    return _CARD_W + (pile.backs - 1) * _BACK_STEP


def _cards_width(pile: Pile, step: float) -> float:
    """Width of a pile's cards at ``step`` between face-up cards (labels aside)."""
    n = len(pile.cards)
    faces = _CARD_W + (n - 1) * step if n else 0.0
    backs = _backs_width(pile)
    w = faces + backs + (step - _CARD_W if n and backs else 0.0)
    if pile.slots:
        w = max(w, _CARD_W + (pile.slots - 1) * step)
    return max(w, _CARD_W if (pile.label or n or pile.backs or pile.stack) else 0.0)


def _box(ax: Any, x: float, y: float, w: float, h: float, k: float, **kw: Any) -> None:
    from matplotlib.patches import FancyBboxPatch

    r = kw.pop("r", 5.0) * k
    ax.add_patch(FancyBboxPatch((x, y), w, h, boxstyle=f"round,pad=0,rounding_size={r}",
                                mutation_aspect=1, **kw))


def _draw_placeholder(ax: Any, x: float, y: float, k: float) -> None:
    _box(ax, x, y, _CARD_W * k, _CARD_H * k, k, fc="none", ec="#8fc79f", lw=1.0 * k,
         ls=(0, (3, 3)))


def _draw_face(ax: Any, x: float, y: float, text: str, covered: bool, k: float) -> None:
    w, h = _CARD_W * k, _CARD_H * k
    corner, glyph, centre, sub, ink, paper = _face_parts(text)
    marked = text.endswith("*")
    _box(ax, x, y, w, h, k, fc=paper, ec="#ffb300" if marked else "#5f6b62",
         lw=(2.6 if marked else 0.9) * k)
    small = 9.0 if len(corner) <= 2 else 7.0
    ax.text(x + 3 * k, y + 3 * k, corner, color=ink, fontsize=small * k, fontweight="bold",
            ha="left", va="top", family="DejaVu Sans")
    if glyph:
        ax.text(x + 3 * k, y + 16 * k, glyph, color=ink, fontsize=8 * k, ha="left",
                va="top", family="DejaVu Sans")
    if covered:
        return
    cx = x + w / 2 + 4 * k
    big = {1: 16.0, 2: 14.0}.get(len(centre), 11.5)
    if centre == "\u2605":
        big = 20.0
    ax.text(cx, y + h * 0.47, centre, color=ink, fontsize=big * k,
            fontweight="bold", ha="center", va="center", family="DejaVu Sans")
    if sub:
        spt = 6.0 if len(sub) > 1 else 12.0
        ax.text(cx, y + h * 0.8, sub, color=ink, fontsize=spt * k,
                fontweight="bold" if len(sub) > 1 else "normal",
                ha="center", va="center", family="DejaVu Sans")


def _draw_back(ax: Any, x: float, y: float, k: float) -> None:
    w, h = _CARD_W * k, _CARD_H * k
    _box(ax, x, y, w, h, k, fc="#f4f1e8", ec="#3b4a6b", lw=0.9 * k)
    ins = 3.5 * k
    _box(ax, x + ins, y + ins, w - 2 * ins, h - 2 * ins, k, fc="#1f3f8a", ec="#6f8fd8",
         lw=0.0, hatch="////", r=3.0)


def _draw_stack(ax: Any, x: float, y: float, count: int, k: float) -> None:
    layers = min(3, count)
    for j in range(layers):
        _draw_back(ax, x + (layers - 1 - j) * 2.5 * k, y - (layers - 1 - j) * 2.0 * k, k)
    if not layers:
        _draw_placeholder(ax, x, y, k)
    label = str(count)
    bw = (10 + 8 * len(label)) * k
    _box(ax, x + (_CARD_W * k - bw) / 2, y + (_CARD_H / 2 - 10) * k, bw, 20 * k, k,
         fc="white", ec="#3b4a6b", lw=0.8 * k, r=9.0)
    ax.text(x + _CARD_W * k / 2, y + _CARD_H / 2 * k, label, color="#1f3f8a",
            fontsize=10 * k, fontweight="bold", ha="center", va="center", family="DejaVu Sans")


# Cards are drawn once per process as small RGBA sprites and pasted (drawing text is
# what costs time in matplotlib; a table shows the same cards again and again).
_SPRITE_PAD = 6
_SPRITES: dict[tuple[Any, ...], np.ndarray] = {}


def _sprite(kind: str, what: Any, k: float) -> np.ndarray:
    """Float RGBA (h, w, 4) picture of a card (``face``: (text, covered); ``back``;
    ``stack``: count) with the card's top-left corner at (_SPRITE_PAD, _SPRITE_PAD)."""
    key = (kind, what, round(k, 4))
    if key not in _SPRITES:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure

        w = int(np.ceil(_CARD_W * k)) + 2 * _SPRITE_PAD
        h = int(np.ceil(_CARD_H * k)) + 2 * _SPRITE_PAD
        fig = Figure(figsize=(w / 100, h / 100), dpi=100)
        canvas = FigureCanvasAgg(fig)
        fig.patch.set_alpha(0.0)
        ax = fig.add_axes((0, 0, 1, 1))
        ax.set_xlim(0, w)
        ax.set_ylim(h, 0)
        ax.axis("off")
        p = float(_SPRITE_PAD)
        if kind == "face":
            _draw_face(ax, p, p, what[0], what[1], k)
        elif kind == "back":
            _draw_back(ax, p, p, k)
        else:
            _draw_stack(ax, p, p, what, k)
        canvas.draw()
        if len(_SPRITES) > 2000:
            _SPRITES.clear()
        _SPRITES[key] = np.asarray(canvas.buffer_rgba()).astype(np.float32) / 255.0
    return _SPRITES[key]


def _paste(buf: np.ndarray, sprite: np.ndarray, x: float, y: float) -> None:
    """Alpha-composite ``sprite`` (float RGBA) onto ``buf`` (float RGB) at card corner (x, y)."""
    x0, y0 = int(round(x)) - _SPRITE_PAD, int(round(y)) - _SPRITE_PAD
    h, w = sprite.shape[:2]
    bx0, by0 = max(x0, 0), max(y0, 0)
    bx1, by1 = min(x0 + w, buf.shape[1]), min(y0 + h, buf.shape[0])
    if bx1 <= bx0 or by1 <= by0:
        return
    sp = sprite[by0 - y0:by1 - y0, bx0 - x0:bx1 - x0]
    a = sp[:, :, 3:4]
    region = buf[by0:by1, bx0:bx1]
    region[:] = sp[:, :, :3] * a + region * (1.0 - a)


_Sprite = tuple[np.ndarray, float, float]  # a card's picture and the card's top-left corner


class _TextWidths:
    """Widths in pixels of texts as the picture's renderer draws them (cached per picture)."""

    def __init__(self, renderer: Any) -> None:
        self._renderer = renderer
        self._cache: dict[tuple[str, float, bool], float] = {}

    def __call__(self, s: str, pt: float, bold: bool = False) -> float:
        """Width of ``s`` at ``pt`` points (0 for an empty text)."""
        if not s:
            return 0.0
        if (s, pt, bold) not in self._cache:
            from matplotlib.font_manager import FontProperties

            prop = FontProperties(family="DejaVu Sans", size=pt, weight="bold" if bold else "normal")
            w, _, _ = self._renderer.get_text_width_height_descent(s, prop, ismath=False)
            self._cache[s, pt, bold] = float(w)
        return self._cache[s, pt, bold]


def _pile_width(text_w: _TextWidths, pile: Pile, step: float) -> float:
    """Width of a pile at ``step`` between face-up cards: its cards, or its label or note if wider."""
    return max(_cards_width(pile, step), text_w(pile.label, _LABEL_PT, True), text_w(pile.note, _NOTE_PT))


def _band_width(text_w: _TextWidths, band: list[Pile], step: float) -> float:
    """Width of a band's piles side by side at ``step``."""
    return sum(_pile_width(text_w, p, step) for p in band) + _PILE_GAP * max(len(band) - 1, 0)


def _band_step(text_w: _TextWidths, band: list[Pile], avail: float) -> float:
    """A band's card step: ``_STEP``, or the widest overlap (down to ``_MIN_STEP``) that fits."""
    step = _STEP
    if _band_width(text_w, band, step) > avail:
        lo, hi = _MIN_STEP, _STEP
        for _ in range(16):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if _band_width(text_w, band, mid) <= avail else (lo, mid)
        step = lo
    return step


def _column_widths(text_w: _TextWidths, table: Picture, steps: list[float]) -> list[list[float]]:
    """Each band's pile widths: consecutive bands with as many piles share their columns' widest
    pile (unless the table is centred)."""
    cols: list[list[float]] = []
    i = 0
    while i < len(table.bands):
        j = i
        while (not table.centered and j + 1 < len(table.bands)
               and len(table.bands[j + 1]) == len(table.bands[i])):
            j += 1
        group = range(i, j + 1)
        widest = [max(_pile_width(text_w, table.bands[b][c], steps[b]) for b in group)
                  for c in range(len(table.bands[i]))]
        cols.extend([widest] * len(group))
        i = j + 1
    return cols


@dataclass
class _Layout:
    """Where a table's bands go, in units of scale 1 mapped to pixels by :meth:`x_px` and :meth:`y_px`."""

    text_w: _TextWidths
    avail: float  # the width between the margins
    steps: list[float]  # per band, face-up card to card
    cols: list[list[float]]  # per band, its piles' (column) widths
    k: float  # the table's scale: 1 unless even overlapped cards do not fit

    def x_px(self, u: float) -> float:
        """The pixel column of scale-1 position ``u``."""
        return _MARGIN + (u - _MARGIN) * self.k

    def y_px(self, u: float) -> float:
        """The pixel row of scale-1 position ``u``."""
        return _TITLE_H + _TOP_GAP + (u - _TITLE_H - _TOP_GAP) * self.k


def _layout(table: Picture, width_px: int, text_w: _TextWidths) -> _Layout:
    """A card step per band (overlapping when too wide), the columns, then a global scale."""
    avail = width_px - 2 * _MARGIN
    steps = [_band_step(text_w, band, avail) for band in table.bands]
    cols = _column_widths(text_w, table, steps)
    need = max([avail] + [sum(w) + _PILE_GAP * max(len(w) - 1, 0) for w in cols])
    return _Layout(text_w, avail, steps, cols, avail / need)


def _draw_title(ax: Any, title: str, width_px: int, lay: _Layout) -> None:
    """The title bar across the top (the text shrunk if it is too long)."""
    from matplotlib.patches import Rectangle

    ax.add_patch(Rectangle((0, 0), width_px, _TITLE_H, fc=_FELT_DARK, ec="none"))
    title_pt = _TITLE_PT * min(1.0, lay.avail / max(lay.text_w(title, _TITLE_PT, True), 1.0))
    ax.text(_MARGIN, _TITLE_H / 2, title, color="white", fontsize=title_pt,
            fontweight="bold", va="center", ha="left", family="DejaVu Sans")


def _lay_cards(ax: Any, pile: Pile, px: float, cy: float, step: float, k: float,
               sprites: list[_Sprite]) -> None:
    """A pile's face-up cards from ``px``, then its backs or stack, queued as ``sprites``
    (an empty card text is drawn as an empty square)."""
    cx = px
    n = len(pile.cards)
    for i, text in enumerate(pile.cards):
        last = i == n - 1 and not (pile.backs or pile.stack)
        if text == "":
            _draw_placeholder(ax, cx, cy, k)
        else:
            covered = not last and step < _CARD_W + 1
            sprites.append((_sprite("face", (text, covered), k), cx, cy))
        cx += step * k
    if n and (pile.backs or pile.stack):
        cx += (max(step, _CARD_W + 6) - step) * k  # a small gap before the backs
    if pile.stack:
        sprites.append((_sprite("stack", pile.backs, k), cx, cy))
    else:
        for _ in range(pile.backs):
            sprites.append((_sprite("back", None, k), cx, cy))
            cx += _BACK_STEP * k


def _draw_pile(ax: Any, pile: Pile, x: float, y0: float, step: float, lay: _Layout,
               sprites: list[_Sprite]) -> None:
    """One pile whose band starts at ``y0`` (scale-1 units from ``x``): its outline when
    highlighted, label, note and cards (an empty pile with a label shows an empty square)."""
    k = lay.k
    px, py = lay.x_px(x), lay.y_px(y0)
    cy = lay.y_px(y0 + _LABEL_H)
    spacer = not (pile.label or pile.cards or pile.backs or pile.stack)
    if pile.highlight and not spacer:
        pw = _pile_width(lay.text_w, pile, step)
        _box(ax, px - 6 * k, py - 3 * k, (pw + 12) * k, (_LABEL_H + _CARD_H + _NOTE_H + 4) * k,
             k, fc="#ffffff14", ec="#ffd54f", lw=2.0 * k, r=8.0)
    if pile.label:
        ax.text(px, py + 1 * k, pile.label, color="#ffe082" if pile.highlight else "#f1f8e9",
                fontsize=_LABEL_PT * k, fontweight="bold", va="top", ha="left",
                family="DejaVu Sans")
    if pile.note:
        ax.text(px, lay.y_px(y0 + _LABEL_H + _CARD_H + 2), pile.note, color="#c8e6c9",
                fontsize=_NOTE_PT * k, va="top", ha="left", family="DejaVu Sans")
    _lay_cards(ax, pile, px, cy, step, k, sprites)
    if not pile.cards and not pile.backs and not pile.stack and not spacer:
        _draw_placeholder(ax, px, cy, k)


def _draw_bands(ax: Any, table: Picture, lay: _Layout, sprites: list[_Sprite]) -> float:
    """Every band, top to bottom, its piles left to right; returns the y (scale 1) below them."""
    y0 = _TITLE_H + _TOP_GAP
    for band, step, col_w in zip(table.bands, lay.steps, lay.cols):
        x = _MARGIN
        if table.centered and lay.k == 1:
            x += (lay.avail - sum(col_w) - _PILE_GAP * max(len(col_w) - 1, 0)) / 2
        for pile, cw in zip(band, col_w):
            _draw_pile(ax, pile, x, y0, step, lay, sprites)
            x += cw + _PILE_GAP
        y0 += _BAND_H
    return y0


def _draw_footer(ax: Any, lines: list[str], fy: float, width_px: int, height_px: int,
                 lay: _Layout) -> None:
    """The footer's lines from pixel row ``fy`` on a dark bar (each shrunk if too long)."""
    from matplotlib.patches import Rectangle

    if lines:
        ax.add_patch(Rectangle((0, fy - 6), width_px, height_px - fy + 6, fc=_FELT_DARK, ec="none"))
    for line in lines:
        pt = _FOOT_PT * min(1.0, lay.avail / max(lay.text_w(line, _FOOT_PT), 1.0))
        ax.text(_MARGIN, fy, line, color="white", fontsize=pt, va="top", ha="left",
                family="DejaVu Sans")
        fy += _FOOT_LINE


def _composite(canvas: Any, sprites: list[_Sprite]) -> np.ndarray:
    """Render the canvas, paste the card sprites over it and return the uint8 RGB array."""
    canvas.draw()
    buf = np.asarray(canvas.buffer_rgba())[:, :, :3].astype(np.float32) / 255.0
    for sprite, x, y in sprites:
        _paste(buf, sprite, x, y)
    return np.clip(np.round(buf * 255.0), 0, 255).astype(np.uint8)


def draw_picture(table: Picture, width_px: int = 960) -> np.ndarray:
    """Draw ``table`` into an ``(H, W, 3)`` uint8 array (``W = width_px``).

    ``H`` depends only on the number of bands and footer lines, so a game whose
    pictures keep their structure gives frames of one shape (video friendly).
    """
    # draws on its own Agg canvas: the caller's pyplot backend is left alone
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    dpi = 100.0
    foot_lines = table.footer.split("\n") if table.footer else []
    height_px = int(round(_TITLE_H + _TOP_GAP + _BAND_H * len(table.bands)
                          + _FOOT_LINE * len(foot_lines) + _MARGIN))
    fig = Figure(figsize=(width_px / dpi, height_px / dpi), dpi=dpi)
    canvas = FigureCanvasAgg(fig)
    lay = _layout(table, width_px, _TextWidths(canvas.get_renderer()))

    fig.patch.set_facecolor(_FELT)
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, width_px)
    ax.set_ylim(height_px, 0)
    ax.axis("off")
    sprites: list[_Sprite] = []
    _draw_title(ax, table.title, width_px, lay)
    y = _draw_bands(ax, table, lay, sprites)
    _draw_footer(ax, foot_lines, lay.y_px(y) + 2, width_px, height_px, lay)
    return _composite(canvas, sprites)


#: the old names of :class:`Picture` and :func:`draw_picture` (``Table``, ``draw_table``)
_OLD_NAMES = {"Table": "Picture", "draw_table": "draw_picture"}


def __getattr__(name: str) -> Any:
    """The old names ``Table`` and ``draw_table``, for games from elsewhere: they still work,
    with a :class:`DeprecationWarning`."""
    new = _OLD_NAMES.get(name)
    if new is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    warnings.warn(f"cardenvs.core.picture.{name} is now {new}", DeprecationWarning, stacklevel=2)
    return globals()[new]
