"""Saved SB3 models name their policy and rollout buffer classes by module; those written
before ``agents`` was grouped into subpackages name ``agents.sparse_policy`` and
``agents.feature_sb3``, which still load (as :mod:`agents.learning.sparse_policy` and
:mod:`agents.learning.feature_sb3`)."""

from __future__ import annotations

import base64
import pickle
import sys

import pytest

pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

from agents.learning import feature_sb3, sparse_policy  # noqa: E402

#: (old module, the module it is now, a class a saved model names)
SAVED = [("agents.sparse_policy", sparse_policy, "SparseMaskablePolicy"),
         ("agents.sparse_policy", sparse_policy, "BoolMaskRolloutBuffer"),
         ("agents.feature_sb3", feature_sb3, "ActionScorerPolicy")]


@pytest.mark.parametrize(("old", "module", "name"), SAVED)
def test_a_class_saved_under_its_old_module_loads(old: str, module: object, name: str,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    cls = getattr(module, name)
    # what SB3 wrote into a model's ``data`` (a pickle by reference, base64 encoded)
    saved = base64.b64encode(b"c" + old.encode() + b"\n" + name.encode() + b"\n.")
    monkeypatch.delitem(sys.modules, old, raising=False)  # imported afresh, as by a new process
    assert pickle.loads(base64.b64decode(saved)) is cls
    assert sys.modules[old] is module
