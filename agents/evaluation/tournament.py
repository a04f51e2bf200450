"""Tournaments between ladder levels: seeded games, rotated seats, win rates and ratings.

Games are played on the rules core through the one play loop (each agent gets its own
player's View and the legal moves), in parallel over processes or on a Ray cluster, with a
progress bar.

* Win rates: a game's score for a player is 1 for a sole win, ``1/k`` for a win shared
  by ``k``, else 0. Win rates come with 95% Student-t intervals over deals (a deal's
  games under its rotations of the seats averaged into one score; :func:`analyse`).
* Ratings: ``openskill``'s Plackett-Luce model over every game's finishing order,
  reported as ``mu ± 2 sigma`` and the conservative ordinal ``mu - 3 sigma``.

An entrant is a ladder level name (``"planner"``, ``"trained"``, ``"policy:FILE.npz"``:
made afresh for each game by :func:`agents.make_agent`) or a player object: an
:class:`~agents.players.base.Agent`, anything with ``act(observation)``, or a plain function of
the observation dict.  Objects play under a label (their ``name``); with ``workers > 1``
they are sent to the worker processes with ``cloudpickle`` (with ``backend="ray"``, to
the Ray workers: :mod:`agents.evaluation.ray_backend`).
"""

from __future__ import annotations

import functools
import itertools
import math
import time
from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

import cardenvs
from cardenvs.core.loop import Player, PlayerLike, as_player, play

from ..players.ladder import make_agent
from . import ray_backend
from .estimate import estimate, wilson
from .ray_backend import check_backend
from .threads import blas_limit, limit_worker, one_blas_thread

#: the player objects of the running tournament, by label (per process; see :func:`run_matches`)
_ENTRANTS: dict[str, PlayerLike] = {}


@dataclass(frozen=True)
class Match:
    """One game to play: levels by seat and the seed of the deal and agents."""

    env_name: str
    seats: tuple[str, ...]
    seed: int
    options: tuple[tuple[str, object], ...] = ()
    #: also measure each seat's luck of the cards (:func:`agents.measure.play_corrected`);
    #: the game plays move for move as without it
    control_variates: bool = False
    #: with ``control_variates``, also correct the luck of the deal itself; a schedule that
    #: plays this deal under every rotation of the seats turns it off, since the deal's
    #: corrections cancel over the rotations (:class:`agents.measure.ChanceCorrector`)
    deal_term: bool = True
    #: deal the face-down cards out to the seats in advance, by a shuffle keyed by the deal's
    #: seed (:mod:`agents.measure.coupling`), so that every rotation of the deal hands a seat
    #: the same draws whatever the others did; each game is still dealt by the rules' odds
    coupled_draws: bool = False


def check_coupled_draws(coupled_draws: object, duplicate: bool = True) -> None:
    """``ValueError`` unless ``coupled_draws`` is a bool, and usable: coupled draws couple the
    rotations of duplicate deals, so they need ``duplicate``."""
    if not isinstance(coupled_draws, bool):
        raise ValueError(f"coupled_draws is True or False, got {coupled_draws!r}")
    if coupled_draws and not duplicate:
        raise ValueError("coupled_draws couples the rotations of duplicate deals; with duplicate=False every "
                         "game deals anew and there is nothing to couple")


@dataclass
class MatchResult:
    match: Match
    rewards: list[float]
    steps: int
    truncated: bool
    #: each seat's chance corrections (its reduced score is its points less this), when
    #: the match asked for them
    corrections: list[float] | None = None
    #: CPU seconds of the game (the players' choices included), and of the corrector's part
    #: of them (0.0 without one); not compared, as no two runs take the same time
    seconds: float = field(default=0.0, compare=False)
    correction_seconds: float = field(default=0.0, compare=False)


def cpu_overhead(seconds: float, correction_seconds: float) -> float:
    """Games' CPU with the control variates over their CPU without them, from the seconds
    :class:`MatchResult` records (1.0 where nothing was corrected)."""
    rest = seconds - correction_seconds
    return seconds / rest if correction_seconds > 0 and rest > 0 else 1.0


class Maker(Protocol):
    """Makes the agent of a seat: ``make(env_name, level, seed=...) -> Agent`` (default
    :func:`make_agent`)."""

    def __call__(self, env_name: str, level: str, /, *, seed: int) -> Player: ...


def play_match(match: Match, make: Maker | None = None) -> MatchResult:
    """Play one game between the seated levels (deterministic for a seed).

    ``make(env_name, level, seed=...)`` builds each seat's agent that is not a player
    object (default :func:`~agents.players.ladder.make_agent`; a script may seat agents the
    ladder does not name).
    """
    make = make_agent if make is None else make
    began = time.process_time()
    game = cardenvs.game_class(match.env_name)(len(match.seats), **dict(match.options))
    rng = np.random.default_rng(match.seed)
    players: list[Player] = []
    for i, label in enumerate(match.seats):
        seed = match.seed * 31 + i
        obj = _ENTRANTS.get(label)
        if obj is None:
            players.append(make(match.env_name, label, seed=seed))
            continue
        reseed = getattr(obj, "seed", None)
        if callable(reseed):  # an Agent: the same choices for a match wherever it runs
            reseed(seed)
        players.append(as_player(obj))
    state = game.new_state(rng)
    hook = None
    if match.coupled_draws:
        from ..measure.coupling import coupled_draws

        hook = coupled_draws(game, match.seed)
    if match.control_variates:
        from ..measure import match_chance_rng, play_corrected

        played = play_corrected(game, state, players, rng, chance_rng=match_chance_rng(match.seed),
                                deal_term=match.deal_term, on_move=hook)
        return MatchResult(match, played.rewards, played.steps, not game.is_terminal(state),
                           played.corrections, time.process_time() - began, played.correction_seconds)
    steps = play(game, state, players, rng, on_move=hook)
    terminal = game.is_terminal(state)
    rewards = [float(r) for r in game.returns(state)] if terminal else [0.0] * len(match.seats)
    return MatchResult(match, rewards, steps, not terminal, None, time.process_time() - began)


def full_rotations(g: int, players: int, games: int) -> bool:
    """Whether game ``g`` of a schedule that deals ``seed + g // players`` (game ``g`` in
    rotation ``g % players``) belongs to a deal that all ``players`` rotations play: true
    but for the last deal when ``games`` is not a whole number of deals."""
    return (g // players + 1) * players <= games


def schedule(env_name: str, levels: Sequence[str], players: int, games: int, seed: int = 0, *,
             coupled_draws: bool = False, **options: object) -> list[Match]:
    """Seeded matches with seats rotated.

    Two players: every pair of levels plays ``games`` games, alternating who sits first
    on the same deals. More players: ``games`` games for every combination of
    ``players`` distinct levels (or with repeats when there are fewer levels); each deal
    is played once per rotation of the seats, and successive deals go through every
    cyclic seating order, so nobody always sits after the same opponent.
    ``coupled_draws``: :attr:`Match.coupled_draws` for every match; ``options``: the
    game's options.
    """
    check_coupled_draws(coupled_draws)
    opts = tuple(sorted(options.items()))
    out: list[Match] = []
    if players == 2:
        for a, b in itertools.combinations(levels, 2):
            for g in range(games):
                deal = seed + g // 2
                out.append(Match(env_name, (a, b) if g % 2 == 0 else (b, a), deal, opts,
                                 coupled_draws=coupled_draws))
        return out
    if len(levels) >= players:
        groups = list(itertools.combinations(levels, players))
    else:
        groups = [tuple(itertools.islice(itertools.cycle(levels), players))]
    for group in groups:
        cyclic = [(group[0], *rest) for rest in itertools.permutations(group[1:])]
        for g in range(games):
            block, rot = divmod(g, players)
            order = cyclic[block % len(cyclic)]
            seats = tuple(order[(i + rot) % players] for i in range(players))
            out.append(Match(env_name, seats, seed + block, opts, coupled_draws=coupled_draws))
    return out


def _install_entrants(blob: bytes | None) -> None:
    """Worker initializer: the tournament's player objects, sent with cloudpickle (``None``:
    none), and one BLAS thread (:mod:`agents.evaluation.threads`)."""
    limit_worker()
    _ENTRANTS.clear()
    if blob is not None:
        import cloudpickle

        _ENTRANTS.update(cloudpickle.loads(blob))
    try:  # one torch thread per worker process, if a player brought torch along
        import sys

        if "torch" in sys.modules:
            sys.modules["torch"].set_num_threads(1)
    except Exception:  # pragma: no cover - a player's torch is its own business
        pass


def run_matches(matches: Sequence[Match], workers: int = 1, progress: bool = True,
                entrants: Mapping[str, PlayerLike] | None = None, desc: str = "games",
                make: Maker | None = None, backend: str = "local",
                ray_address: str | None = None) -> list[MatchResult]:
    """Play every match, in ``workers`` processes or on Ray, with a progress bar.

    ``entrants`` maps the seat labels that are not level names to player objects (see the
    module docstring); with ``workers > 1`` or Ray they must survive ``cloudpickle``.
    ``make`` builds the other seats' agents (see :func:`play_match`); with ``workers > 1``
    or Ray it must be a module-level function (it is sent to the workers).

    The games run with one BLAS thread a process (:mod:`agents.evaluation.threads`).

    ``backend="ray"`` plays the matches as Ray tasks on the Ray at ``ray_address``
    (``None``: a local Ray, ``workers > 1`` capping its CPUs; ``"auto"``: the running
    cluster), with the same results in the same order (:mod:`agents.evaluation.ray_backend`).
    """
    check_backend(backend, ray_address)
    blas_limit()  # a bad CARDENVS_BLAS_THREADS is refused here, not in a worker
    entrants = dict(entrants or {})
    play_one = play_match if make is None else functools.partial(play_match, make=make)
    if backend == "ray":
        return ray_backend.run_matches(matches, play_one, entrants, _install_entrants, workers=workers,
                                       progress=progress, desc=desc, address=ray_address, make=make)
    try:
        from tqdm import tqdm
    except ImportError:  # pragma: no cover
        progress = False
    if workers <= 1:
        saved = dict(_ENTRANTS)
        _ENTRANTS.update(entrants)
        try:
            it: Iterable[MatchResult] = map(play_one, matches)
            if progress:
                it = tqdm(it, total=len(matches), desc=desc, unit="game")
            with one_blas_thread():
                return list(it)
        finally:
            _ENTRANTS.clear()
            _ENTRANTS.update(saved)
    blob: bytes | None = None
    if entrants:
        import cloudpickle

        blob = cloudpickle.dumps(entrants)
    with ProcessPoolExecutor(workers, initializer=_install_entrants, initargs=(blob,)) as pool:
        # small chunks: games of one pair can differ tenfold in length, and a worker left
        # with a long chunk at the end holds up the others (a chunk is one game up to
        # ~250 games a worker, where sending each game alone would start to cost)
        chunk = max(1, len(matches) // (workers * 256))
        it = pool.map(play_one, matches, chunksize=chunk)
        if progress:
            it = tqdm(it, total=len(matches), desc=desc, unit="game")
        return list(it)


def entrant_labels(entrants: Sequence[str | PlayerLike]) -> tuple[list[str], dict[str, PlayerLike]]:
    """Seat labels for a list of level names and player objects, and the objects by label.

    A level name is its own label; an object is labelled by its ``name`` (or function
    name), made unique with a suffix where it would repeat a label.
    """
    labels: list[str] = []
    objects: dict[str, PlayerLike] = {}
    for e in entrants:
        if isinstance(e, str):
            labels.append(e)
            continue
        base = str(getattr(e, "name", None) or getattr(e, "__name__", None) or type(e).__name__)
        label, k = base, 2
        while label in labels or label in objects or any(label == x for x in entrants if isinstance(x, str)):
            label, k = f"{base}#{k}", k + 1
        labels.append(label)
        objects[label] = e
    return labels, objects


def points(rewards: Sequence[float]) -> list[float]:
    """Each seat's points from a game's rewards: 1 for the best reward, split evenly when
    several seats share it, else 0 (how every win share in the project is counted)."""
    best = max(rewards)
    winners = [i for i, r in enumerate(rewards) if r == best]
    return [1.0 / len(winners) if i in winners else 0.0 for i in range(len(rewards))]


@dataclass
class Report:
    """Win rates, intervals and ratings of a tournament."""

    env_name: str
    players: int
    levels: list[str]
    games: int
    #: pairwise [row, col] -> (score of row against col, games, low, high) for 2 players
    pairwise: dict[tuple[str, str], tuple[float, int, float, float]] = field(default_factory=dict)
    #: per level: (mean score, games, low, high, mean reward)
    overall: dict[str, tuple[float, int, float, float, float]] = field(default_factory=dict)
    #: per level: (mu, sigma, ordinal)
    ratings: dict[str, tuple[float, float, float]] = field(default_factory=dict)
    truncated: int = 0

    def markdown(self) -> str:
        """The report as markdown tables."""
        lines = [f"### {self.env_name}, {self.players} players, {self.games} games"]
        if self.truncated:
            lines.append(f"({self.truncated} games truncated by the turn cap count as no result)")
        if self.pairwise:
            lines += ["", "Win rate of the row level against the column level (95% interval over deals, "
                      "each deal's rotations of the seats averaged):", "",
                      "| vs | " + " | ".join(self.levels) + " |",
                      "|---|" + "---:|" * len(self.levels)]
            for a in self.levels:
                cells = []
                for b in self.levels:
                    if a == b or (a, b) not in self.pairwise:
                        cells.append("")
                        continue
                    p, n, lo, hi = self.pairwise[(a, b)]
                    cells.append(f"{100 * p:.0f}% [{100 * lo:.0f}, {100 * hi:.0f}] (n={n})")
                lines.append(f"| **{a}** | " + " | ".join(cells) + " |")
        lines += ["", "| level | win share | 95% interval | games | mean reward | rating mu ± 2σ | ordinal |",
                  "|---|---:|---:|---:|---:|---:|---:|"]
        for lvl in self.levels:
            p, n, lo, hi, mr = self.overall[lvl]
            mu, sigma, ordinal = self.ratings[lvl]
            lines.append(f"| {lvl} | {100 * p:.1f}% | [{100 * lo:.1f}, {100 * hi:.1f}] | {n} | {mr:+.3f} | "
                         f"{mu:.1f} ± {2 * sigma:.1f} | {ordinal:.1f} |")
        return "\n".join(lines)

    def plot(self, path: str) -> None:
        """Save a PNG: the win-rate matrix (two players) and the ratings with intervals."""
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        two = bool(self.pairwise)
        fig, axes = plt.subplots(1, 2 if two else 1, figsize=(11 if two else 6, 4.5))
        axes = np.atleast_1d(axes)
        ax = axes[-1]
        mus = [self.ratings[lvl][0] for lvl in self.levels]
        errs = [2 * self.ratings[lvl][1] for lvl in self.levels]
        ax.barh(self.levels, mus, xerr=errs, color="tab:blue", alpha=0.8, capsize=4)
        ax.set_xlabel("openskill rating (mu ± 2 sigma)")
        ax.set_title("ratings")
        if two:
            m = np.full((len(self.levels), len(self.levels)), np.nan)
            for i, a in enumerate(self.levels):
                for j, b in enumerate(self.levels):
                    if (a, b) in self.pairwise:
                        m[i, j] = self.pairwise[(a, b)][0]
            ax0 = axes[0]
            im = ax0.imshow(m, vmin=0, vmax=1, cmap="RdYlGn")
            ax0.set_xticks(range(len(self.levels)), self.levels, rotation=30)
            ax0.set_yticks(range(len(self.levels)), self.levels)
            for i in range(len(self.levels)):
                for j in range(len(self.levels)):
                    if not math.isnan(m[i, j]):
                        ax0.text(j, i, f"{100 * m[i, j]:.0f}%", ha="center", va="center", fontsize=9)
            ax0.set_title("win rate, row vs column")
            fig.colorbar(im, ax=ax0, fraction=0.046)
        fig.suptitle(f"{self.env_name}, {self.players} players, {self.games} games")
        fig.tight_layout()
        fig.savefig(path, dpi=110)
        plt.close(fig)


def _wilson(successes: float, n: int) -> tuple[float, float]:
    """The interval of the tables: :func:`wilson` on the points rounded to whole wins."""
    return wilson(round(successes) / n, n) if n else (0.0, 1.0)


def analyse(results: Sequence[MatchResult], levels: Sequence[str]) -> Report:
    """Win rates with intervals and openskill ratings from played matches.

    The intervals are 95% Student-t intervals over deals (:func:`agents.evaluation.estimate.estimate`):
    the games a deal is played in under its rotations of the seats (one seed, the same
    entrants: :func:`schedule`'s duplicate deals) are averaged into one score, since they are
    not independent (what the cards gave one seat they took from another); matches that
    share no deal are each their own.
    """
    from openskill.models import PlackettLuce

    first = results[0].match
    players = len(first.seats)
    rep = Report(first.env_name, players, list(levels), len(results))
    model = PlackettLuce()
    rating = {lvl: model.rating(name=lvl) for lvl in levels}
    #: per directed pair / per level: (deal, points) of every game that counted
    pair: dict[tuple[str, str], list[tuple[object, float, None]]] = {}
    scored: dict[str, list[tuple[object, float, None]]] = {lvl: [] for lvl in levels}
    reward_sum = dict.fromkeys(levels, 0.0)
    for res in results:
        if res.truncated:
            rep.truncated += 1
            continue
        seats = res.match.seats
        deal = (res.match.seed, tuple(sorted(seats)), res.match.options)
        sc = points(res.rewards)
        for i, lvl in enumerate(seats):
            scored[lvl].append((deal, sc[i], None))
            reward_sum[lvl] += res.rewards[i]
        if players == 2:
            a, b = seats
            pair.setdefault((a, b), []).append((deal, sc[0], None))
            pair.setdefault((b, a), []).append((deal, sc[1], None))
        distinct = len(set(seats)) == len(seats)
        if distinct:
            ranks = [-r for r in res.rewards]
            teams = model.rate([[rating[lvl]] for lvl in seats], ranks=ranks)
            for lvl, team in zip(seats, teams):
                rating[lvl] = team[0]
    for key, recs in pair.items():
        e = estimate(recs)
        rep.pairwise[key] = (e.share, e.games, e.low, e.high)
    for lvl in levels:
        recs = scored[lvl]
        n = len(recs)
        if n:
            e = estimate(recs)
            rep.overall[lvl] = (e.share, n, e.low, e.high, reward_sum[lvl] / n)
        else:
            rep.overall[lvl] = (0.0, 0, 0.0, 1.0, 0.0)
        r = rating[lvl]
        rep.ratings[lvl] = (float(r.mu), float(r.sigma), float(r.ordinal()))
    return rep


def tournament(env_name: str, levels: Sequence[str | PlayerLike], players: int = 2, games: int = 100,
               seed: int = 0, workers: int = 1, progress: bool = True, backend: str = "local",
               ray_address: str | None = None, coupled_draws: bool = False, **options: object) -> Report:
    """Schedule, play and analyse a tournament in one call.

    ``levels``: level names and player objects (an agent, an object with ``act``, or a
    function of the observation dict); objects appear in the report under their name.
    ``backend``, ``ray_address``: where the games run (see :func:`run_matches`).
    ``coupled_draws``: deal each deal's face-down cards out to the seats in advance
    (:attr:`Match.coupled_draws`), so that its rotations hand a seat the same draws.
    """
    check_backend(backend, ray_address)
    labels, objects = entrant_labels(levels)
    matches = schedule(env_name, labels, players, games, seed, coupled_draws=coupled_draws, **options)
    return analyse(run_matches(matches, workers, progress, entrants=objects, backend=backend,
                               ray_address=ray_address), labels)
