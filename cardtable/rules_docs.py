"""The rules documents: each game's rules for players (Markdown rendered to HTML), one click away
from the table.  Players are shown the players' part only (:func:`players_text`): the
developers' parts of a document (decisions, notation, the position JSON) stay in the
repository's docs/rules/.

Each game's kit names its rules document (``GameKit.rules``: a Markdown file shipped in the
package; for the shipped games the project's ``docs/rules/<game>.md``, one text).  Here it is
rendered to HTML once per game (CommonMark and tables, with Markdown-it; raw HTML in the
document is shown as text, never run), its headings given ids and listed as a table of
contents; links leading outside the document are kept only when absolute (``https://``),
since a document's relative links point into the repository, not the table.  The lobby and
the table show it in a panel (``GET /api/games/{game}/rules``), and ``/rules/{game}`` is a
page of its own.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from functools import cache

import cardenvs
from cardenvs.registry import GAMES


@dataclass(frozen=True)
class RulesDoc:
    """A game's rules rendered: its title, the HTML, and the headings (``toc``: id, text, level)."""

    game: str
    title: str
    html: str
    toc: tuple[tuple[str, str, int], ...]

    def as_json(self) -> dict[str, object]:
        """``GET /api/games/{game}/rules``."""
        return {"game": self.game, "title": self.title, "html": self.html,
                "toc": [{"id": i, "text": t, "level": lv} for i, t, lv in self.toc],
                "page": f"/rules/{self.game}"}


class NoRules(LookupError):
    """The game is unknown, or its kit names no rules document (the message says which)."""


def _slug(text: str, taken: set[str]) -> str:
    base = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "section"
    slug, k = base, 2
    while slug in taken:
        slug, k = f"{base}-{k}", k + 1
    taken.add(slug)
    return slug


def render_markdown(text: str) -> tuple[str, tuple[tuple[str, str, int], ...]]:
    """Markdown as ``(html, headings)``: CommonMark with tables, raw HTML escaped, every
    heading with an id (``rules-<slug>``), relative links unlinked (their text stays), images
    as their text, and no inline style (a column's alignment is a class)."""
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark", {"html": False, "linkify": False}).enable("table")
    tokens = md.parse(text)
    taken: set[str] = set()
    toc: list[tuple[str, str, int]] = []
    for i, tok in enumerate(tokens):
        if tok.type == "heading_open":
            inline = tokens[i + 1]
            words = "".join(c.content for c in (inline.children or []) if c.type in ("text", "code_inline"))
            ident = "rules-" + _slug(words, taken)
            tok.attrSet("id", ident)
            toc.append((ident, words, int(tok.tag[1])))
        if tok.type == "inline":
            for child in tok.children or []:
                if child.type == "link_open":
                    href = str(child.attrGet("href") or "")
                    if href.startswith(("https://", "http://")):
                        child.attrSet("rel", "noopener noreferrer")
                        child.attrSet("target", "_blank")
                    elif not href.startswith("#"):
                        child.attrs.pop("href", None)
                        child.attrSet("class", "dead-link")
                elif child.type == "image":  # no images from elsewhere: the alternative text
                    child.type = "text"
                    child.content = child.content or str(child.attrGet("alt") or "")
        if tok.type == "table_open":
            tok.attrSet("class", "rules-table")
        if tok.type in ("th_open", "td_open") and tok.attrGet("style"):
            # a column's alignment as a class: the table's CSP allows no inline style
            align = str(tok.attrGet("style")).removeprefix("text-align:").strip()
            tok.attrs.pop("style", None)
            if align in ("left", "center", "right"):
                tok.attrSet("class", f"align-{align}")
    rendered = md.renderer.render(tokens, md.options, {})
    return rendered, tuple(toc)


#: the heading of the part of a rules document that is for players ("## 1. The rules for a
#: player"); the other parts (decisions, notation, the position JSON, options as code) are
#: for developers, in the repository's docs/rules/
PLAYERS_PART = re.compile(r"^##\s+(\d+\.\s*)?the rules for a player\s*$", re.IGNORECASE)
#: words that mark developer material in a players' paragraph or subsection
DEVELOPER = re.compile(r"^(environment|rules code|class) |position json|section \d|`cardenvs[./]|_v0`",
                       re.IGNORECASE | re.MULTILINE)


def players_text(text: str) -> str:
    """The players' part of a rules document: its title and opening paragraphs (less the
    ones naming environments, packages and classes) and its "The rules for a player"
    section without its own numbering, dropping subsections that lean on the developers'
    parts (those pointing at the position JSON's worked example); the whole text when it
    has no such section."""
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if PLAYERS_PART.match(line)), None)
    if start is None:
        return text
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
    head = "\n".join(lines[:start]).split("\n\n")
    head = [p for p in head if p.strip() and not DEVELOPER.search(p)]
    title = re.sub(r"^(##\s+)\d+\.\s*", r"\1", lines[start])
    parts, current = [], [title]
    for line in lines[start + 1:end]:
        if line.startswith("### "):
            parts.append(current)
            current = []
        current.append(line)
    parts.append(current)
    kept = [p for p in parts if p is parts[0] or not DEVELOPER.search("\n".join(p))]
    body = "\n\n".join(head) + "\n\n" + "\n".join(line for p in kept for line in p) + "\n"
    # the rules core's seat names as players count them: `player_0` is seat 1
    return re.sub(r"`player_(\d+)`", lambda m: f"seat {int(m[1]) + 1}", body)


@cache
def rules_doc(env: str) -> RulesDoc:
    """The rules of a registered game, rendered (``NoRules`` saying why there are none)."""
    if env not in GAMES:
        raise NoRules(f"no game {env[:40]!r}; the games are {', '.join(GAMES)}")
    kit = cardenvs.registry.entry(env)
    try:
        text = kit.rules_text()
    except (OSError, ValueError) as err:
        raise NoRules(f"the rules document of {kit.title} ({kit.rules}) could not be read: {err}") from None
    if text is None:
        raise NoRules(f"{kit.title} has no rules document (its kit names none)")
    body, toc = render_markdown(players_text(text))
    return RulesDoc(env, kit.title, body, toc)


def toc_html(doc: RulesDoc) -> str:
    """The document's headings (levels 2 and 3) as a nested list of links."""
    items = [f'<li class="toc-{lv}"><a href="#{html.escape(i)}">{html.escape(t)}</a></li>'
             for i, t, lv in doc.toc if lv in (2, 3)]
    return f'<ul class="rules-toc">{"".join(items)}</ul>' if items else ""
