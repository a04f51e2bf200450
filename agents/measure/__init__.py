"""Measuring agents' strength with less luck: AIVAT-style control variates.

:func:`play_corrected` plays a game through the one play loop and returns, beside each
seat's points, its correction: the luck of the chance events (the deal, draws, reveals,
reshuffles, later deals) as a value estimate saw it.  ``points - corrections`` has the
same expectation as the points (unbiased by construction) and, with the shipped value
nets (:func:`value_for`), a smaller variance.  See :mod:`.aivat` and :mod:`.value`.
:func:`coupled_draws` (:mod:`.coupling`) makes the rotations of a duplicate deal hand each
seat the same cards wherever they can.
"""

from .aivat import (
    ChanceCorrector,
    CorrectedGame,
    Policy,
    default_samples,
    default_stratified,
    derived_rng,
    known_policy,
    match_chance_rng,
    play_corrected,
    sampled_deals,
    sampled_outcomes,
)
from .coupling import CoupledDeck, coupled_draws
from .value import (
    Lookahead,
    UniformValue,
    ValueFunction,
    ValueNet,
    game_points,
    heuristic_chooser,
    play_ahead,
    reads_views,
    value_for,
    value_path,
)

__all__ = [
    "ChanceCorrector",
    "CorrectedGame",
    "CoupledDeck",
    "Lookahead",
    "UniformValue",
    "ValueFunction",
    "ValueNet",
    "Policy",
    "coupled_draws",
    "default_samples",
    "default_stratified",
    "derived_rng",
    "known_policy",
    "match_chance_rng",
    "game_points",
    "heuristic_chooser",
    "play_ahead",
    "play_corrected",
    "reads_views",
    "sampled_deals",
    "sampled_outcomes",
    "value_for",
    "value_path",
]
