"""Fixtures shared by the browser tests."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from . import browser_kit as K


@pytest.fixture
def browsers() -> Iterator[list[Any]]:
    """The drivers a test opens (``browser_kit.new_browser``), quit when it ends."""
    made: list[Any] = []
    yield made
    for d in made:
        K.quit_driver(d)
