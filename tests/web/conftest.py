"""Fixtures shared by the table's tests.

* ``srv``: one live server per test module (uvicorn in a thread, :mod:`.harness`), with the
  module's ``SERVER``: keyword arguments of :class:`~.harness.LiveServer` (``bot_delay``,
  fields of :class:`cardtable.settings.Settings`); none by default.
* ``base``: the base URL of one ``python -m cardtable`` process per test module, for the
  browser tests, with the module's ``SERVER_ARGS`` (more command-line arguments) and
  ``SERVER_ENV`` (environment variables it starts with).
* ``browsers``: the drivers a test opens, quit when it ends.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from . import browser_kit as K
from .harness import LiveServer, live_server


@pytest.fixture(scope="module")
def srv(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """The module's live server (its ``SERVER`` settings)."""
    settings: dict[str, Any] = getattr(request.module, "SERVER", {})
    name = request.module.__name__.rpartition(".")[2].removeprefix("test_")
    with live_server(tmp_path_factory.mktemp(name), **settings) as s:
        yield s


@pytest.fixture(scope="module")
def base(request: pytest.FixtureRequest) -> Iterator[str]:
    """The base URL of the module's ``python -m cardtable`` (its ``SERVER_ARGS`` and
    ``SERVER_ENV``)."""
    args: tuple[str, ...] = getattr(request.module, "SERVER_ARGS", ())
    env: dict[str, str] = getattr(request.module, "SERVER_ENV", {})
    with pytest.MonkeyPatch.context() as mp:
        for name, value in env.items():
            mp.setenv(name, value)
        with K.server(args=args) as url:
            yield url


@pytest.fixture
def browsers() -> Iterator[list[Any]]:
    """The drivers a test opens (``browser_kit.new_browser``), quit when it ends."""
    made: list[Any] = []
    yield made
    for d in made:
        K.quit_driver(d)
