"""Pages the server writes itself: what a person sees at a link that leads nowhere.

A wrong room link, a room that expired, a room whose saved row could not be loaded: each
gets a small HTML page in the table's style that says what happened and what to do, with
the right status code (404, 410, 503), never raw JSON.  Everything a page shows that came
from a request is escaped.
"""

from __future__ import annotations

import html

from starlette.responses import HTMLResponse


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


def no_room(room_id: str) -> HTMLResponse:
    """404: no room with this id on the server."""
    return error_page(404, "No such room",
                      f"There is no room {room_id[:40]!r} on this table. The link may be mistyped "
                      "or cut short; ask whoever sent it for the link again, or start a new game.")


def broken_room(room_id: str) -> HTMLResponse:
    """503: the room is in the file but could not be loaded."""
    return error_page(503, "This room could not be loaded",
                      f"Room {room_id[:40]!r} is saved on this table but could not be read back when "
                      "the server started. The server's operator has been told (it is in the "
                      "server's log); the other rooms are fine. You can start a new game meanwhile.")
