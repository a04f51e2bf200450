"""People's names at the table: what a name may hold, how wide it may be, and unique in a room.

A name is shown on name plates, in the move log, in the results and in every record, to
every client of the room, so it is cleaned before anyone sees it:

* normalized to NFC (one spelling for one text; the marks are counted decomposed, NFD);
* control and format characters dropped: bidi controls (which reverse the text around
  them: U+202A..U+202E, U+2066..U+2069, U+200E, U+200F, U+061C), zero-width characters
  (U+200B..U+200D, U+2060, U+FEFF), other controls, private-use, surrogate and unassigned
  code points; line breaks and tabs become spaces, runs of spaces one space;
* at most :data:`MAX_MARKS` combining marks on one character (no "zalgo" towers over the
  table);
* at least one letter, digit, symbol or punctuation mark (never empty or blank);
* at most :data:`MAX_WIDTH` columns wide, where an East Asian wide or fullwidth character
  (and most emoji) counts two: 24 wide characters overflowed a name plate made for 24
  Latin ones;
* unique in the room, compared without case and compatibility differences (NFKC, casefold):
  a second "Ann" becomes "Ann 2".
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

#: the widest name, in columns (a wide character counts 2)
MAX_WIDTH = 24
#: combining marks kept on one base character (counted decomposed: Vietnamese stacks two,
#: Thai a vowel and a tone mark; more is decoration)
MAX_MARKS = 3
#: Unicode categories dropped from a name (controls, format characters such as the bidi
#: controls and zero-width characters, surrogates, private use, unassigned, line and
#: paragraph separators)
DROPPED = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


class NameError_(ValueError):  # noqa: N801 - ``NameError`` is a builtin
    """A name that cannot be used; the message says why and what is allowed."""


def char_width(ch: str) -> int:
    """Columns one character takes: 0 for a combining mark, 2 for a wide one, else 1."""
    if unicodedata.category(ch) in ("Mn", "Me") or unicodedata.combining(ch):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def display_width(text: str) -> int:
    """Columns ``text`` takes in a monospace-like layout (see :func:`char_width`)."""
    return sum(char_width(ch) for ch in text)


def clean_name(raw: str) -> str:
    """The name as the table shows it (``NameError_`` if nothing usable is left or it is
    too wide)."""
    out: list[str] = []
    marks = 0
    for ch in unicodedata.normalize("NFD", raw):
        cat = unicodedata.category(ch)
        if cat in DROPPED or cat == "Zs":
            if ch.isspace() or cat == "Zs":
                out.append(" ")
            marks = 0
            continue
        if cat in ("Mn", "Me"):
            if marks >= MAX_MARKS or not out or out[-1] == " ":
                continue
            marks += 1
        else:
            marks = 0
        out.append(ch)
    name = unicodedata.normalize("NFC", " ".join("".join(out).split()))
    if not any(unicodedata.category(c)[0] in "LNSP" for c in name):
        raise NameError_("a name needs at least one letter, digit or symbol")
    width = display_width(name)
    if width > MAX_WIDTH:
        raise NameError_(f"a name is at most {MAX_WIDTH} columns wide (a wide character such as "
                         f"漢 or most emoji counts 2); this one is {width}")
    return name


def name_key(name: str) -> str:
    """What two names are compared by: no case, no compatibility differences."""
    return unicodedata.normalize("NFKC", name).casefold()


def unique_name(name: str, taken: Iterable[str]) -> str:
    """``name``, or ``name`` with the lowest number from 2 that no name in ``taken`` has
    (``"Ann 2"``), shortened so that it stays within :data:`MAX_WIDTH` columns."""
    keys = {name_key(t) for t in taken}
    if name_key(name) not in keys:
        return name
    n = 2
    while True:
        suffix = f" {n}"
        base = name
        while display_width(base) + len(suffix) > MAX_WIDTH:
            base = base[:-1]
        candidate = base.rstrip() + suffix
        if name_key(candidate) not in keys:
            return candidate
        n += 1
