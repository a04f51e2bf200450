"""Starting Ray for cardenvs' workers: :func:`runtime_env` and :func:`init_ray`.

What :mod:`cardenvs.integrations.rllib` and ``agents``' Ray backend
(:mod:`agents.evaluation.ray_backend`) share, in a module that imports neither RLlib nor torch
(``import ray`` happens inside :func:`init_ray`).  Why the packages are shipped as
``py_modules``: see :mod:`cardenvs.integrations.rllib` (remote workers and a folder
named ``cardenvs/``).  Both functions are re-exported there.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

import cardenvs
from cardenvs._agents_import import import_agents

__all__ = ["init_ray", "runtime_env"]


def runtime_env(extra: Mapping[str, Any] | None = None,
                packages: Sequence[str | ModuleType] = ()) -> dict[str, Any]:
    """A Ray ``runtime_env`` whose ``py_modules`` ship the imported ``cardenvs`` and ``packages``.

    ``packages``: the other packages the workers import (names or modules), such as the
    one ``make_opponent`` comes from (``["agents"]`` for the ladder's opponents).  Workers
    then import these packages (uploaded once, about 8 MB with the agents' shipped
    policies) before anything in the launch directory, and nodes of a cluster need only
    the dependencies (numpy, gymnasium, pettingzoo, ray, torch), not cardenvs itself.
    ``env_vars`` sets ``OMP_NUM_THREADS=1`` unless given.  ``extra`` is merged in
    (its ``py_modules`` are appended).
    """
    modules: list[str] = [str(Path(cardenvs.__file__).resolve().parent)]
    for pkg in packages:
        if isinstance(pkg, str):  # "agents": the distribution's, or an error naming what shadows it
            mod = import_agents() if pkg == "agents" else importlib.import_module(pkg)
        else:
            mod = pkg
        if mod.__file__ is None:
            raise ValueError(f"{mod.__name__} is not a regular package: it cannot be shipped to Ray workers")
        modules.append(str(Path(mod.__file__).resolve().parent))
    out: dict[str, Any] = dict(extra or {})
    out["py_modules"] = modules + list(out.get("py_modules") or [])
    out["excludes"] = list(out.get("excludes") or []) + ["__pycache__", "*.pyc"]
    out["env_vars"] = {"OMP_NUM_THREADS": "1", **dict(out.get("env_vars") or {})}
    return out


def init_ray(address: str | None = None, num_cpus: int | None = None,
             packages: Sequence[str | ModuleType] = (), **kwargs: Any) -> Any:
    """``ray.init`` with :func:`runtime_env` (merged with any ``runtime_env`` given; it
    ships ``packages`` besides ``cardenvs``).

    ``address=None`` starts a local Ray (``num_cpus`` caps it); an address (``"auto"``,
    ``"127.0.0.1:6379"``, ``"ray://host:10001"``) joins a running cluster, where
    ``num_cpus`` must stay ``None``.  The dashboard is off unless asked for.
    """
    import ray

    kwargs["runtime_env"] = runtime_env(kwargs.get("runtime_env"), packages)
    kwargs.setdefault("include_dashboard", False)
    if address is None and num_cpus is not None:
        kwargs["num_cpus"] = num_cpus
    elif address is not None:
        kwargs.pop("include_dashboard")
    # A new local Ray turns token authentication on by itself (a token in ~/.ray/auth_token)
    # and says so in a WARNING line at every start; the authentication stays on, the line goes
    # (Ray's own logger, quiet for the call only).  docs/training/rllib.md explains the rest.
    notice = logging.getLogger("ray._private.authentication.authentication_token_setup")
    level = notice.level
    notice.setLevel(logging.ERROR)
    try:
        return ray.init(address=address, **kwargs)
    finally:
        notice.setLevel(level)
