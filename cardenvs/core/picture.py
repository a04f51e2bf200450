"""A picture of the table: ``render_mode="rgb_array"`` for every game.

A game describes its table as :class:`Table` — bands of labelled piles of card texts
(``"7s"``, ``"X"``, ``"57"``, ``"B4"``) — and :func:`draw_table` draws it with
matplotlib (imported only here, only when a picture is asked for) into an RGB array.
Card faces are coloured as the games name them: red hearts and diamonds, black clubs
and spades, purple jokers; Line-it numbers by colour (heart red, diamond blue,
leaf green, star yellow) and Bets grey.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


@dataclass
class Pile:
    """A labelled group of cards laid side by side (``backs`` face-down cards after them)."""

    label: str
    cards: list[str] = field(default_factory=list)
    backs: int = 0
    note: str = ""


@dataclass
class Table:
    """The table as bands (top to bottom) of piles (left to right)."""

    title: str
    bands: list[list[Pile]]
    footer: str = ""


_SUIT_GLYPH = {"c": "\u2663", "d": "\u2666", "h": "\u2665", "s": "\u2660"}
_LINEIT_COLOURS = {1: "#c62828", 2: "#1565c0", 3: "#2e7d32", 0: "#f9a825"}


def card_face(text: str) -> tuple[str, str]:
    """(label, colour) of a card text of any of the games."""
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


def draw_table(table: Table, width_px: int = 960) -> np.ndarray:
    """Draw ``table`` into an ``(H, W, 3)`` uint8 array."""
    import matplotlib

    matplotlib.use("Agg", force=False)
    from matplotlib.figure import Figure
    from matplotlib.patches import FancyBboxPatch

    card_w, card_h, gap, pile_gap = 0.62, 0.9, 0.08, 0.5
    band_h = card_h + 0.75
    # width of each band in card units, to scale the figure
    def pile_width(p: Pile) -> float:
        n = max(len(p.cards) + p.backs, 1)
        return max(n * (card_w + gap), 0.35 * len(p.label) * 0.3 + 0.8)

    widths = [sum(pile_width(p) + pile_gap for p in band) for band in table.bands] or [8.0]
    total_w = max(max(widths), 8.0) + 0.4
    total_h = band_h * len(table.bands) + 1.2 + (0.5 if table.footer else 0)
    dpi = 100
    fig = Figure(figsize=(width_px / dpi, width_px / dpi * total_h / total_w), dpi=dpi)
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, total_w)
    ax.set_ylim(total_h, 0)
    ax.axis("off")
    fig.patch.set_facecolor("#2e6b3f")
    ax.text(0.2, 0.55, table.title, color="white", fontsize=13, fontweight="bold", va="center")
    y = 1.0
    for band in table.bands:
        x = 0.2
        for pile in band:
            label = pile.label + (f"  {pile.note}" if pile.note else "")
            ax.text(x, y + 0.05, label, color="#e8f5e9", fontsize=9, va="top")
            cx = x
            for text in pile.cards:
                face, colour = card_face(text)
                ax.add_patch(FancyBboxPatch((cx, y + 0.35), card_w, card_h, boxstyle="round,pad=0.02,rounding_size=0.06",
                                            fc="white", ec="#424242", lw=0.8))
                ax.text(cx + card_w / 2, y + 0.35 + card_h / 2, face, color=colour, fontsize=10,
                        fontweight="bold", ha="center", va="center")
                cx += card_w + gap
            for _ in range(pile.backs):
                ax.add_patch(FancyBboxPatch((cx, y + 0.35), card_w, card_h, boxstyle="round,pad=0.02,rounding_size=0.06",
                                            fc="#1a237e", ec="#e0e0e0", lw=0.8, hatch="//"))
                cx += card_w + gap
            if not pile.cards and not pile.backs:
                ax.add_patch(FancyBboxPatch((cx, y + 0.35), card_w, card_h, boxstyle="round,pad=0.02,rounding_size=0.06",
                                            fc="none", ec="#a5d6a7", lw=0.8, ls="--"))
            x += pile_width(pile) + pile_gap
        y += band_h
    if table.footer:
        ax.text(0.2, y + 0.1, table.footer, color="white", fontsize=10, va="top")
    fig.canvas.draw()
    buf = np.asarray(fig.canvas.buffer_rgba())
    return buf[:, :, :3].copy()
