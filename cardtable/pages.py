"""Pages the server writes itself (what a person sees at a link that leads nowhere), and the
security headers of every answer.

A wrong room link, a room that expired, a room whose saved row could not be loaded: each
gets a small HTML page in the table's style that says what happened and what to do, with
the right status code (404, 410, 503), never raw JSON.  Everything a page shows that came
from a request is escaped.
"""

from __future__ import annotations

import datetime
import html

from starlette.datastructures import MutableHeaders
from starlette.responses import HTMLResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send


def error_page(status: int, title: str, message: str, extra: str = "") -> HTMLResponse:
    """An HTML page for a link that leads nowhere: ``title`` and ``message`` (plain text,
    escaped here) and ``extra`` (HTML the caller built, its text escaped)."""
    body = f"""<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>{html.escape(title)} · Card table</title>
  <link rel="stylesheet" href="/static/style.css">
</head>
<body data-page="error">
  <header class="topbar">
    <a class="brand" href="/" title="new game"><span class="brand-suits">&#9824;&#9829;</span> Card table</a>
  </header>
  <main class="errorpage" id="error-page" data-status="{status}">
    <h1>{html.escape(title)}</h1>
    <p class="lede">{html.escape(message)}</p>
    {extra}
    <p><a class="btn primary" href="/">Start a new game</a></p>
  </main>
</body>
</html>
"""
    return HTMLResponse(body, status_code=status)


def rules_page(title: str, body: str, toc: str) -> HTMLResponse:
    """A game's rules as a page of its own (``body`` and ``toc``: HTML rendered from the
    game's rules document, raw HTML in it escaped; see :mod:`.rules_docs`)."""
    page = f"""<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Rules of {html.escape(title)} · Card table</title>
  <link rel="stylesheet" href="/static/style.css">
</head>
<body data-page="rules">
  <header class="topbar">
    <a class="brand" href="/" title="new game"><span class="brand-suits">&#9824;&#9829;</span> Card table</a>
    <span class="crumb">Rules of {html.escape(title)}</span>
  </header>
  <main class="rules-page" id="rules-page">
    <nav class="rules-nav" aria-label="sections">{toc}</nav>
    <article class="rules-body" id="rules-body">{body}</article>
  </main>
</body>
</html>
"""
    return HTMLResponse(page)


def no_room(room_id: str) -> HTMLResponse:
    """404: no room with this id on the server."""
    return error_page(404, "No such room",
                      f"There is no room {room_id[:40]!r} on this table. The link may be mistyped "
                      "or cut short; ask whoever sent it for the link again, or start a new game.")


def expired_room(room_id: str, when: float, games: int) -> HTMLResponse:
    """410: the room expired; its finished games' records are kept (links to them)."""
    day = datetime.datetime.fromtimestamp(when, datetime.timezone.utc).strftime("%Y-%m-%d")
    href = f"/api/rooms/{html.escape(room_id)}/games"
    watch = f"/room/{html.escape(room_id)}/replay"
    links = "".join(f'<li><a href="{watch}/{i}">Replay game {i + 1}</a> · '
                    f'<a href="{href}/{i}" download>record</a></li>' for i in range(games))
    extra = f"<h2>Finished games</h2><ul class=\"records\">{links}</ul>" if games else ""
    plural = "s" if games != 1 else ""
    kept = f"its {games} finished game{plural}' records are kept" if games else "it had no finished game"
    return error_page(410, "This room has expired",
                      f"Nobody played in room {room_id[:40]!r} for a long time, so it was closed on {day} "
                      f"(UTC); {kept}.", extra)


def broken_room(room_id: str) -> HTMLResponse:
    """503: the room is in the file but could not be loaded."""
    return error_page(503, "This room could not be loaded",
                      f"Room {room_id[:40]!r} is saved on this table but could not be read back when "
                      "the server started. The server's operator has been told (it is in the "
                      "server's log); the other rooms are fine. You can start a new game meanwhile.")


#: the headers every HTTP answer carries: scripts, styles, images and sockets from this
#: table only (no inline script or style: the client has none), never shown in a frame,
#: no type sniffing, the referrer only to the table's own pages (room links are secrets)
SECURITY_HEADERS: tuple[tuple[str, str], ...] = (
    ("content-security-policy",
     "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
     "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
     "form-action 'self'; frame-ancestors 'none'"),
    ("x-content-type-options", "nosniff"),
    ("referrer-policy", "same-origin"),
    ("x-frame-options", "DENY"),
    ("cross-origin-opener-policy", "same-origin"),
    ("cross-origin-resource-policy", "same-origin"),
    ("permissions-policy", "camera=(), microphone=(), geolocation=(), payment=()"),
)


class SecurityHeaders:
    """ASGI middleware: :data:`SECURITY_HEADERS` on every HTTP answer (pages, the client's
    files, the API, errors)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in SECURITY_HEADERS:
                    headers[name] = value
            await send(message)

        await self.app(scope, receive, send_with_headers)
