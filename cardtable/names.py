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
  a second "Ann" becomes "Ann 2";
* never a look-alike of another name at the table: a name whose confusable skeleton
  (:func:`skeleton`: NFKC, casefold, then common Cyrillic and Greek letters that look like
  Latin ones mapped to those, and digits/symbols that pass for letters) equals another's
  but is spelled differently ("\u0410lice", its first letter Cyrillic, beside "Alice") is
  refused, with a message that says why.
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


#: letters (after NFKC and casefold) that look like another script's, mapped to the Latin
#: letter they pass for: Cyrillic and Greek look-alikes, and a few digits and symbols
#: (a small table of the common ones, after Unicode's confusables data, not all of it)
LOOKALIKES: dict[str, str] = {
    # Cyrillic
    "\u0430": "a", "\u0431": "b", "\u0432": "b", "\u0433": "r", "\u0435": "e", "\u0451": "e",
    "\u0454": "e", "\u0455": "s", "\u0456": "i", "\u0457": "i", "\u0458": "j", "\u043a": "k",
    "\u043c": "m", "\u043d": "h", "\u043e": "o", "\u043f": "n", "\u0440": "p", "\u0441": "c",
    "\u0442": "t", "\u0443": "y", "\u0445": "x", "\u044c": "b", "\u0461": "w", "\u04bb": "h",
    "\u04cf": "l", "\u0501": "d", "\u051b": "q", "\u051d": "w", "\u0491": "r", "\u0438": "u",
    # Greek
    "\u03b1": "a", "\u03b2": "b", "\u03b3": "y", "\u03b5": "e", "\u03b7": "n", "\u03b9": "i",
    "\u03ba": "k", "\u03bd": "v", "\u03bf": "o", "\u03c1": "p", "\u03c4": "t", "\u03c5": "u",
    "\u03c7": "x", "\u03c9": "w", "\u03b6": "z", "\u03bc": "u", "\u03c3": "o", "\u03c2": "c",
    # Latin letters that pass for others, digits and symbols
    "\u0131": "i", "\u0269": "i", "\u0261": "g", "\u01c0": "l", "0": "o", "1": "l", "|": "l",
    "5": "s", "$": "s", "@": "a",
}


def skeleton(name: str) -> str:
    """What a name looks like: NFKC, casefold, marks dropped, each look-alike letter
    (:data:`LOOKALIKES`) as the Latin one it passes for, "rn" as "m", "vv" as "w", and
    "i" and "l" as one (two names with one skeleton are told apart by nobody at a glance)."""
    text = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", name).casefold())
    out = "".join(LOOKALIKES.get(ch, ch) for ch in text if not unicodedata.combining(ch))
    return out.replace("rn", "m").replace("vv", "w").replace("i", "l")


def name_key(name: str) -> str:
    """What two names are compared by: no case, no compatibility differences."""
    return unicodedata.normalize("NFKC", name).casefold()


def unique_name(name: str, taken: Iterable[str]) -> str:
    """``name``, or ``name`` with the lowest number from 2 that no name in ``taken`` has
    (``"Ann 2"``), shortened so that it stays within :data:`MAX_WIDTH` columns;
    ``NameError_`` when it is a look-alike of a name in ``taken`` spelled differently
    (:func:`skeleton`)."""
    taken = list(taken)
    keys = {name_key(t) for t in taken}
    looks = {skeleton(t): t for t in taken}
    if name_key(name) not in keys:
        other = looks.get(skeleton(name))
        if other is not None:
            raise NameError_(f"the name {name!r} looks like {other!r}, who is already at this table, but is "
                             "spelled with other letters (another alphabet's, or digits for letters): "
                             "choose a name that looks different")
        return name
    n = 2
    while True:
        suffix = f" {n}"
        base = name
        while display_width(base) + len(suffix) > MAX_WIDTH:
            base = base[:-1]
        candidate = base.rstrip() + suffix
        if name_key(candidate) not in keys and skeleton(candidate) not in looks:
            return candidate
        n += 1
