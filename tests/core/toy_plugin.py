"""Registers the toy's kit when imported: what ``CARDENVS_GAMES=tests.core.toy_plugin`` names,
as a game from another distribution would be named (see :mod:`cardenvs.registry`)."""

from __future__ import annotations

from cardenvs.registry import GAMES, register

from .toy_kit import KIT

if KIT.env_name not in GAMES:
    register(KIT)
