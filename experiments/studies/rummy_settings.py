"""The Rummy 4x3x2's expert's inference settings the studies vary, under the names their
results tables use, turned into knowledge built with that inference strategy.

    knowledge({"W_PASSED": 0.05})                 # the hand-set inference, retuned
    knowledge({"HAND_MODEL": 1})                  # the learned hand model (rummy_hand.py)
    knowledge({"FILTER": 64, "FILTER_STEPS": 16}) # the whole-round tracker (rummy_filter.py)
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from agents.games.rummy432 import HandSetInference, Inference, Rummy432Knowledge

from .rummy_filter import TrackerInference
from .rummy_hand import HandModelInference

#: setting -> (the inference argument it sets, its shipped value)
HAND_SET: dict[str, tuple[str, float]] = {
    "W_PASSED": ("passed", 0.15),  # weight of a rank the opponent drew rather than take
    "W_THREW": ("threw", 0.3),  # weight of a rank the opponent threw
    "INFER_SWAPS": ("swaps", 0.5),  # conditioning swaps on top of the inferred deal
    "LIK_SAMPLES": ("samples", 6),  # opponent hands drawn per world, one kept by its last throw
    "LIK_BETA": ("beta", 6.0),  # sharpness of that likelihood (planner score units)
}
#: the tracker's settings (``FILTER``: chains, 0 = off) with their defaults
TRACKER: dict[str, tuple[str, float]] = {
    "FILTER": ("chains", 0),
    "FILTER_STEPS": ("steps", 4),  # Metropolis-Hastings moves per chain and opponent turn
    "FILTER_BETA": ("tracker_beta", 6.0),  # sharpness of its opponent model (planner score units)
    "FILTER_EPS": ("tracker_eps", 0.05),  # share of a uniform choice in that model
}
#: every setting a study may vary
INFERENCE_KEYS: tuple[str, ...] = ("HAND_MODEL", *HAND_SET, *TRACKER)


def inference(settings: dict[str, Any], model: Path | None = None) -> Inference:
    """The inference strategy of ``settings`` (keys of :data:`INFERENCE_KEYS`; the others
    as shipped; ``model``: the hand model's file, default the study's own); ``ValueError``
    for an unknown key."""
    unknown = sorted(set(settings) - set(INFERENCE_KEYS))
    if unknown:
        raise ValueError(f"unknown inference setting(s) {', '.join(unknown)}; "
                         f"allowed: {', '.join(INFERENCE_KEYS)}")
    hand_set = {arg: settings[key] for key, (arg, _) in HAND_SET.items() if key in settings}
    if "samples" in hand_set:
        hand_set["samples"] = int(hand_set["samples"])
    use_model = bool(settings.get("HAND_MODEL", 0))
    if settings.get("FILTER", 0):
        tracker = {arg: settings.get(key, default) for key, (arg, default) in TRACKER.items()}
        return TrackerInference(model=use_model, path=model, **tracker, **hand_set)
    if use_model:
        return HandModelInference(path=model, **hand_set)
    return HandSetInference(**hand_set)


def knowledge(settings: dict[str, Any], model: Path | None = None) -> Rummy432Knowledge:
    """The expert's knowledge with the inference of ``settings``."""
    return Rummy432Knowledge(inference=inference(settings, model))
