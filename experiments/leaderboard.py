#!/usr/bin/env python3
"""The leaderboard: every shipped agent, per game and seat count, rated from luck-reduced
head-to-head scores, with the lower bounds on exploitability beside.

    nice -n 15 python -m experiments.leaderboard --deals 50 --workers 2
    python -m experiments.leaderboard --add policy:my_policy.npz --name mine --envs lineit_v0 --players 2
    python -m experiments.leaderboard --render        # rewrite the page from the stored results

**Entrants.** Per game: its playable levels (``agents.playable_levels``: random, greedy,
planner, expert, the shipped trained policy), ``scratch`` (the from-scratch self-play
policy, ``agents/policies/scratch/<env>.npz``) and ``ismcts`` (OpenSpiel's IS-MCTS, when
``open_spiel`` is installed).  ``--entrants`` chooses; ``--deals-for NAME=N`` plays fewer
deals in the pairs of an expensive entrant.

**Head to head.**  At ``n`` players the score of A against B is A's points per game in
one seat with B in the ``n - 1`` others (fair share ``1/n``), measured by
:func:`agents.evaluate`: duplicate deals (each deal under every rotation of the seats),
the luck of the cards taken out by control variates, the plain points beside, 95% Student
intervals over deals.  At 2 players one match per pair gives both directions; at more,
both directions are played.  Every pair plays the same deals (from ``--seed``).

**Ratings.**  A Plackett-Luce first-place model: A alone against ``n - 1`` copies of B
wins with probability ``e^a / (e^a + (n - 1) e^b)``.  The strengths are the maximum-likelihood
fit to the **reduced** shares, each weighted by its games (a share is smoothed by half a
game each way so a clean sweep stays finite), shown
in Elo points (``400 log10 e`` per unit) with ``greedy`` at 0 (the anchor plays every
pair close enough to inform it; ``random`` loses nearly every game, and an anchor there
would pass the sweeps' uncertainty to every rating).  The 95% interval of a
rating is the 2.5-97.5 percentile range over 400 parametric bootstrap refits, each
pair's share drawn from a normal with its own interval's standard error.  Nothing is
tuned on these games.

**Lower bounds.**  The 2-player ABR and LBR scores come from the pages
``docs/results/abr.md`` (and ``abr_30min.md``, whose 30-minute runs replace the 3-minute
figures of the targets they cover) and ``docs/results/best_response.md`` (with
``best_response_expert.md``, the experts' rows, rolled out against a model) written by
``experiments.best_response`` (read back by :func:`read_all_bounds`).

**Adding a row.**  ``--add SPEC`` (a level name, ``policy:FILE.npz`` or an ``.npz`` file)
plays the new entrant against every stored entrant of each table asked for, adds its
pairs to the stored results (``--results``, default ``docs/results/leaderboard.json``),
refits and rewrites the page; nothing already stored is played again.

**Estimator.**  Each stored pair records the estimator it was measured with
(``control_variates``, ``coupled_draws``; ``--no-control-variates``, ``--coupled-draws``),
and the page names it per table.  A table's pairs share one: a command asking another of
a table that holds pairs is refused before anything is played.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one BLAS thread a process (players.scorer.dense)

import argparse
import datetime
import itertools
import json
import math
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

import agents
import cardenvs
from agents.cli import HelpFormatter
from agents.evaluation.estimate import t_quantile
from agents.evaluation.ray_backend import add_backend_arguments, backend_of
from experiments.reporting import command_line, machine, publish

ROOT = Path(__file__).resolve().parents[1]
#: the stored results and the page
RESULTS = ROOT / "docs" / "results" / "leaderboard.json"
PAGE = ROOT / "docs" / "results" / "leaderboard.md"
#: the pages the lower bounds are read from
#: (later pages replace an earlier page's figure for the same target: a longer run's bound)
BOUNDS = {"ABR": (ROOT / "docs" / "results" / "abr.md", ROOT / "docs" / "results" / "abr_30min.md"),
          "LBR": (ROOT / "docs" / "results" / "best_response.md",
                  ROOT / "docs" / "results" / "best_response_expert.md")}
SCRATCH = Path(agents.__file__).resolve().parent / "policies" / "scratch"
#: Elo points per unit of Plackett-Luce strength
ELO = 400.0 / math.log(10.0)
#: the deals of the leaderboard's games (other pages use 0, 10,000, 20,000...; the value
#: nets were trained on deals from 10,000,000)
SEED = 50_000
BOOTSTRAP = 400
#: the entrant rated 0
ANCHOR = "greedy"


@dataclass
class Pair:
    """A's score against B at a table of ``players`` (A in one seat, B in the others)."""

    a: str
    b: str
    share: float
    low: float
    high: float
    plain_share: float
    plain_low: float
    plain_high: float
    games: int
    deals: int
    variance_ratio: float
    seconds: float
    #: the estimator the pair was measured with (pairs stored before these were recorded:
    #: control variates on, the shared face-down pile)
    control_variates: bool = True
    coupled_draws: bool = False

    @property
    def weight(self) -> float:
        """The pair's weight in the rating fit: its games.  (Not the effective games: where
        the plain points do not vary, a sweep, the variance ratio is 0 and would drop the
        pair; the reduction's precision enters through the bootstrap's standard errors.)"""
        return float(self.games)

    def reversed(self) -> Pair:
        """B's score against A from the same 2-player games."""
        return Pair(self.b, self.a, 1 - self.share, 1 - self.high, 1 - self.low, 1 - self.plain_share,
                    1 - self.plain_high, 1 - self.plain_low, self.games, self.deals, self.variance_ratio,
                    self.seconds, self.control_variates, self.coupled_draws)


def default_entrants(env: str) -> dict[str, str]:
    """Display name -> what :func:`agents.evaluate` plays, for the shipped agents of ``env``."""
    out = {level: level for level in agents.playable_levels(env)}
    scratch = SCRATCH / f"{env}.npz"
    if scratch.exists():
        out["scratch"] = f"policy:{scratch.relative_to(ROOT)}"
    try:
        import pyspiel  # noqa: F401

        out["ismcts"] = "ismcts"
    except ImportError:
        pass
    return out


def play_pair(env: str, players: int, a: str, b: str, entrants: dict[str, str], deals: int, seed: int,
              workers: int, backend: str, address: str | None, control_variates: bool,
              coupled_draws: bool = False) -> Pair:
    """A against B: ``deals`` deals, each under every rotation (``deals x players`` games),
    with the control variates and coupled draws (:func:`agents.evaluate`) as asked."""
    start = time.time()
    kwargs: dict[str, Any] = {} if backend == "local" else {"backend": backend, "ray_address": address}
    spec = {n: _absolute(entrants[n]) for n in (a, b)}
    res = agents.evaluate(spec[a], env, against=[spec[b]], games=deals * players, players=players,
                          workers=workers, seed=seed, progress=True, verbose=False, name=a,
                          control_variates=control_variates, coupled_draws=coupled_draws, **kwargs)
    s = res.scores[spec[b]]
    return Pair(a, b, s.share, s.low, s.high, s.plain_share, s.plain_low, s.plain_high, s.games, s.deals,
                s.variance_ratio, time.time() - start, control_variates, coupled_draws)


def _absolute(spec: str) -> str:
    """A ``policy:FILE`` stored relative to the project, made absolute (any working folder)."""
    if spec.startswith("policy:") and not Path(spec[7:]).is_absolute() and (ROOT / spec[7:]).exists():
        return f"policy:{ROOT / spec[7:]}"
    return spec


def observations(pairs: list[Pair], players: int) -> list[Pair]:
    """Every directed score: at 2 players each pair gives A's and, reversed, B's."""
    if players != 2:
        return list(pairs)
    return [p for pair in pairs for p in (pair, pair.reversed())]


def _oriented(names: list[str], pairs: list[Pair], players: int) -> list[Pair]:
    """The pairs among ``names``; at 2 players each once, the earlier name as A (the
    reverse says the same), so the order is the same whichever way a pair was stored."""
    index = {n: i for i, n in enumerate(names)}
    obs = [p for p in pairs if p.a in index and p.b in index]
    if players != 2:
        return obs
    return [p if index[p.a] < index[p.b] else p.reversed() for p in obs]


def fit(names: list[str], pairs: list[Pair], players: int, shares: np.ndarray | None = None) -> np.ndarray:
    """Plackett-Luce first-place strengths (:data:`ANCHOR`, else the first name, at 0) fitted
    to the directed shares of ``pairs`` (or ``shares``, in the order of :func:`_oriented`,
    in their place) by Newton's method."""
    index = {n: i for i, n in enumerate(names)}
    obs = _oriented(names, pairs, players)
    s = np.array([p.share for p in obs]) if shares is None else shares
    w = np.array([p.weight for p in obs])
    s = np.clip((s * w + 0.5) / (w + 1.0), 1e-6, 1 - 1e-6)  # half a game each way
    ia = np.array([index[p.a] for p in obs])
    ib = np.array([index[p.b] for p in obs])
    offset = math.log(players - 1)
    anchor = index.get(ANCHOR, 0)
    free = [i for i in range(len(names)) if i != anchor]
    r = np.zeros(len(names))
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(-(r[ia] - r[ib] - offset)))
        g = np.zeros(len(names))
        np.add.at(g, ia, w * (s - p))
        np.add.at(g, ib, -w * (s - p))
        h = np.zeros((len(names), len(names)))
        c = w * p * (1 - p)
        np.add.at(h, (ia, ia), -c)
        np.add.at(h, (ib, ib), -c)
        np.add.at(h, (ia, ib), c)
        np.add.at(h, (ib, ia), c)
        hf = h[np.ix_(free, free)] - 1e-9 * np.eye(len(free))
        step = np.linalg.solve(hf, g[free])
        r[free] -= step
        if np.max(np.abs(step)) < 1e-10:
            break
    return r


def ratings(names: list[str], pairs: list[Pair], players: int,
            seed: int = 0) -> dict[str, tuple[float, float, float]]:
    """``name -> (rating, low, high)`` in Elo points above :data:`ANCHOR` (see the module docstring)."""
    index = {n: i for i, n in enumerate(names)}
    obs = _oriented(names, pairs, players)
    base = fit(names, obs, players)
    se = np.array([(p.high - p.low) / (2 * t_quantile(max(p.deals - 1, 1))) for p in obs])
    mean = np.array([p.share for p in obs])
    rng = np.random.default_rng(seed)
    draws = np.array([fit(names, obs, players, np.clip(rng.normal(mean, se), 0.0, 1.0))
                      for _ in range(BOOTSTRAP)])
    lo, hi = np.percentile(draws, [2.5, 97.5], axis=0)
    return {n: (ELO * base[i], ELO * lo[i], ELO * hi[i]) for n, i in index.items()}


def read_bounds(path: Path) -> dict[str, dict[str, str]]:
    """``env -> target -> "score [low, high]"`` from a page of ``experiments.best_response``
    (its score column; ``skipped`` rows are left out)."""
    out: dict[str, dict[str, str]] = {}
    if not path.exists():
        return out
    env = ""
    column = -1
    for line in path.read_text().splitlines():
        if line.startswith("## "):
            env, column = line[3:].strip(), -1
            continue
        if not line.startswith("|") or not env:
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells[0] == "target":
            column = next(i for i, c in enumerate(cells) if c.endswith("score [95%]"))
            continue
        if column < 0 or set(cells[0]) <= {"-"} or "skipped" in line:
            continue
        out.setdefault(env, {})[cells[0]] = cells[column]
    return out


def read_all_bounds(paths: Sequence[Path]) -> dict[str, dict[str, str]]:
    """:func:`read_bounds` of every page in order, a later page's figure replacing an
    earlier one's for the same game and target (the pages of longer runs come later: the
    longest run's bound is shown, never the best of several, which would overstate it)."""
    out: dict[str, dict[str, str]] = {}
    for path in paths:
        for env, row in read_bounds(path).items():
            out.setdefault(env, {}).update(row)
    return out


# ---------------------------------------------------------------------------- storing
def load(path: Path) -> dict[str, Any]:
    """The stored results (``{"tables": {"env/players": {...}}}``), or none."""
    return json.loads(path.read_text()) if path.exists() else {"tables": {}}


def table_of(store: dict[str, Any], env: str, players: int) -> dict[str, Any]:
    """One table's stored entrants and pairs (made empty when new)."""
    return store["tables"].setdefault(f"{env}/{players}", {"env": env, "players": players, "entrants": {},
                                                           "pairs": [], "deals": {}})


def pairs_of(table: dict[str, Any]) -> list[Pair]:
    return [Pair(**p) for p in table["pairs"]]


#: the estimator settings a table records, with their values for pairs stored before them
ESTIMATOR = {"control_variates": True, "coupled_draws": False}


def estimator_of(pairs: list[Pair]) -> dict[str, bool] | None:
    """The estimator settings every one of ``pairs`` was measured with (``None``: none stored)."""
    settings = {tuple(getattr(p, k) for k in ESTIMATOR) for p in pairs}
    if not settings:
        return None
    if len(settings) > 1:  # only a hand-edited store gets here: main refuses to mix them
        raise ValueError(f"the stored pairs mix estimator settings {sorted(settings)} of {list(ESTIMATOR)}")
    return dict(zip(ESTIMATOR, settings.pop()))


def describe_estimator(settings: dict[str, bool]) -> str:
    """The estimator in words, for the page."""
    cv = "control variates" if settings["control_variates"] else "no control variates (plain points)"
    draws = "coupled draws" if settings["coupled_draws"] else "the shared face-down pile"
    return f"duplicate deals, {cv}, {draws}"


# ---------------------------------------------------------------------------- the page
def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def render(store: dict[str, Any], command: str) -> str:
    """The page: per table the ratings, the head-to-head matrix and the lower bounds."""
    bounds = {what: read_all_bounds(paths) for what, paths in BOUNDS.items()}
    lines = [
        "---", "orphan: true", "---", "",
        "# Leaderboard", "",
        "Every shipped agent of each game and seat count, rated from head-to-head scores measured "
        "the way the poker competitions measure them: duplicate deals (each deal under every rotation "
        "of the seats) with the luck of the cards taken out (AIVAT-style control variates, unbiased), "
        "the plain points beside. Made by `python -m experiments.leaderboard` "
        "(`experiments/leaderboard.py` says how); `--add policy:FILE.npz --name NAME` adds a row.", "",
        f"**Rating**: Elo points above `{ANCHOR}` of a Plackett-Luce first-place model fitted to the "
        "reduced shares, each weighted by its games; 95% interval from 400 parametric "
        "bootstrap refits. **Matrix**: the row's reduced score against the column (the row in one "
        "seat, the column in the others; fair share 1/players) with its 95% interval; the plain "
        "points in the table under it. **ABR / LBR**: the best score an approximate / local best "
        "response reached against the agent (a lower bound on its exploitability; 2 players only; "
        "[ABR](abr.md): 30 minutes of training where [a 30-minute run](abr_30min.md) covers the "
        "target, else 3; "
        "[LBR](best_response.md)); – where none was run. Value nets are shipped for "
        "every game at 2 players and for Line and Rummy 4x3x2's at 3 and 4 (Line's read through the "
        "planner's lookahead); where there is none (Line-it at 3 and 4) the reduced score is the plain "
        "one (variance ratio 1.00) and duplicate deals are the only reduction. Entrants a command "
        "`--skip`s are absent from its tables.", "",
    ]
    for key in sorted(store["tables"], key=lambda k: (k.split("/")[0], int(k.split("/")[1]))):
        table = store["tables"][key]
        env, players = table["env"], int(table["players"])
        names = list(table["entrants"])
        pairs = pairs_of(table)
        if len(names) < 2 or not pairs:
            continue
        rated = ratings(names, pairs, players)
        order = sorted(names, key=lambda n: -rated[n][0])
        directed = {(p.a, p.b): p for p in observations(pairs, players)}
        lines += [f"## {env}, {players} players", ""]
        head = "| # | agent | rating [95%] | games |" + (" ABR | LBR |" if players == 2 else "")
        lines += [head, "|---:|---|---:|---:|" + ("---:|---:|" if players == 2 else "")]
        for place, n in enumerate(order, 1):
            r, lo, hi = rated[n]
            games = sum(p.games for p in pairs if n in (p.a, p.b))
            row = f"| {place} | {n} | {r:.0f} [{lo:.0f}, {hi:.0f}] | {games:,} |"
            if players == 2:
                row += "".join(f" {bounds[w].get(env, {}).get(n, '–')} |" for w in ("ABR", "LBR"))
            lines.append(row)
        for title, plain in (("Head to head, reduced", False), ("Head to head, plain points", True)):
            lines += ["", f"{title} (row against column):", "",
                      "| | " + " | ".join(order) + " |", "|---|" + "---:|" * len(order)]
            for a in order:
                cells = []
                for b in order:
                    p = directed.get((a, b))
                    if a == b or p is None:
                        cells.append("–")
                    elif plain:
                        cells.append(f"{pct(p.plain_share)} [{pct(p.plain_low)}, {pct(p.plain_high)}]")
                    else:
                        cells.append(f"{pct(p.share)} [{pct(p.low)}, {pct(p.high)}]")
                lines.append(f"| **{a}** | " + " | ".join(cells) + " |")
        ratio = [p.variance_ratio for p in pairs]
        deals = sorted({p.deals for p in pairs})
        lines += ["", f"Deals per pair: {', '.join(map(str, deals))}; "
                  "variance ratio (plain / reduced) per pair: "
                  f"median {np.median(ratio):.2f}, range {min(ratio):.2f}-{max(ratio):.2f}; "
                  f"{sum(p.seconds for p in pairs) / 60:.1f} minutes of games.", ""]
        settings = estimator_of(pairs)
        assert settings is not None
        lines += [f"Estimator: {describe_estimator(settings)}.", ""]
        entrants = ", ".join(f"`{n}` = `{spec}`" for n, spec in table["entrants"].items())
        seeds = ", ".join(str(x) for x in sorted(set(table.get("seeds", []))))
        lines += [f"Entrants: {entrants}. Deals from seed {seeds or 'unknown'} "
                  "(every pair the same deals).", ""]
    commands = store.get("commands") or [command]
    lines += ["The commands that played the stored pairs (in order; a command plays only the pairs not yet "
              "stored):", "", "```bash", *commands, "```", "",
              f"Written {datetime.date.today().isoformat()} on {machine()}; load (`uptime`) "
              f"at the end: `{_load()}`."]
    return "\n".join(lines) + "\n"


def _load() -> str:
    load = os.getloadavg() if hasattr(os, "getloadavg") else None
    return "load average: " + ", ".join(f"{x:.2f}" for x in load) if load else "(not known)"


# ---------------------------------------------------------------------------- running
def _counts(items: list[str], what: str, ap: argparse.ArgumentParser) -> dict[str, int]:
    out = {}
    for item in items:
        name, sep, n = item.partition("=")
        if not sep or not n.isdigit() or int(n) < 1:
            ap.error(f"{what} takes NAME=N with N >= 1, got {item!r}")
        out[name] = int(n)
    return out


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Play the missing pairs of each table asked for, store them, refit and write the page."""
    ap = argparse.ArgumentParser(prog="python -m experiments.leaderboard", description=__doc__,
                                 formatter_class=HelpFormatter)
    ap.add_argument("--envs", nargs="*", default=list(cardenvs.ENVS), choices=list(cardenvs.ENVS))
    ap.add_argument("--players", nargs="*", type=int, default=[2, 3, 4])
    ap.add_argument("--entrants", nargs="*", default=None,
                    help="names of the shipped entrants (default: every playable level, scratch, ismcts)")
    ap.add_argument("--skip", nargs="*", default=[], metavar="NAME[@PLAYERS]",
                    help="entrants left out (everywhere, or at one seat count: expert@3)")
    ap.add_argument("--add", default=None, metavar="SPEC",
                    help="a new entrant: a level, policy:FILE.npz or FILE.npz, played against the "
                         "stored ones")
    ap.add_argument("--name", default=None,
                    help="the new entrant's name on the page (default: the file's stem)")
    ap.add_argument("--deals", type=int, default=50, help="deals per pair (each under every rotation)")
    ap.add_argument("--deals-for", nargs="*", default=[], metavar="NAME=N",
                    help="deals in every pair of one entrant (the expensive ones)")
    ap.add_argument("--seed", type=int, default=SEED, help="the first deal of every pair")
    ap.add_argument("--workers", type=int, default=1)
    add_backend_arguments(ap)
    ap.add_argument("--no-control-variates", action="store_true", help="plain points only")
    ap.add_argument("--coupled-draws", action="store_true",
                    help="deal the face-down cards out to the seats in advance (agents.evaluate's "
                         "coupled_draws); a table keeps the estimator its stored pairs were measured with")
    ap.add_argument("--results", default=str(RESULTS), help="the stored results (JSON)")
    ap.add_argument("--out", default=str(PAGE), help="the page")
    ap.add_argument("--render", action="store_true", help="only rewrite the page from the stored results")
    args = ap.parse_args(argv)
    backend, address = backend_of(ap, args)
    deals_for = _counts(args.deals_for, "--deals-for", ap)
    if args.deals < 1:
        ap.error(f"--deals must be >= 1, got {args.deals}")
    results = Path(args.results)
    store = load(results)
    command = command_line("experiments.leaderboard", argv)
    if not args.render:
        _check_estimator(store, args, ap)
        store.setdefault("commands", []).append(command)
        for env in args.envs:
            game = cardenvs.game_class(env)
            for players in args.players:
                if not game.min_players <= players <= game.max_players:
                    continue
                table = table_of(store, env, players)
                wanted = default_entrants(env)
                if args.entrants is not None:
                    wanted = {n: s for n, s in wanted.items() if n in args.entrants}
                wanted = {n: s for n, s in wanted.items()
                          if n not in args.skip and f"{n}@{players}" not in args.skip}
                if args.add:
                    spec = args.add if args.add.startswith("policy:") or not args.add.endswith(".npz") \
                        else f"policy:{args.add}"
                    name = args.name or Path(spec.removeprefix("policy:")).stem
                    path = Path(spec.removeprefix("policy:")).resolve()
                    if spec.startswith("policy:") and path.is_relative_to(ROOT):
                        spec = f"policy:{path.relative_to(ROOT)}"  # the page names no one's home folder
                    if name in table["entrants"] and table["entrants"][name] != spec:
                        ap.error(f"{name!r} is already an entrant of {env} at {players} players "
                                 f"({table['entrants'][name]}); choose another --name")
                    wanted = {**{n: s for n, s in table["entrants"].items()}, name: spec}
                table["entrants"].update(wanted)
                if args.seed not in table.setdefault("seeds", []):
                    table["seeds"].append(args.seed)
                _play_missing(table, list(wanted), deals_for, args, backend, address)
                results.parent.mkdir(parents=True, exist_ok=True)
                results.write_text(json.dumps(store, indent=1) + "\n")  # after every table: resumable
    publish(render(store, command), args.out)
    return store


def _check_estimator(store: dict[str, Any], args: argparse.Namespace, ap: argparse.ArgumentParser) -> None:
    """Refuse, before anything is played or stored, a command whose estimator differs from
    the one a stored table it would add to was measured with."""
    asked = {"control_variates": not args.no_control_variates, "coupled_draws": args.coupled_draws}
    for env in args.envs:
        for players in args.players:
            table = store["tables"].get(f"{env}/{players}")
            stored = estimator_of(pairs_of(table)) if table else None
            if stored is not None and stored != asked:
                ap.error(f"the stored pairs of {env} at {players} players were measured with "
                         f"{describe_estimator(stored)}, and this command asks for "
                         f"{describe_estimator(asked)}: a table's ratings come from one estimator. "
                         "Give the same options, or --results ANOTHER.json for a table of its own")


def _play_missing(table: dict[str, Any], names: list[str], deals_for: dict[str, int],
                  args: argparse.Namespace, backend: str, address: str | None) -> None:
    """Play every pair among ``names`` the table does not hold yet (both directions above 2 players)."""
    env, players = table["env"], int(table["players"])
    have = {(p["a"], p["b"]) for p in table["pairs"]}
    todo = (itertools.combinations(names, 2) if players == 2 else itertools.permutations(names, 2))
    for a, b in todo:
        if (a, b) in have or (players == 2 and (b, a) in have):
            continue
        deals = min([args.deals, *(deals_for[n] for n in (a, b) if n in deals_for)])
        pair = play_pair(env, players, a, b, table["entrants"], deals, args.seed, args.workers, backend,
                         address, not args.no_control_variates, args.coupled_draws)
        table["pairs"].append(asdict(pair))
        print(f"{env} {players}p {a} vs {b}: {pct(pair.share)} [{pct(pair.low)}, {pct(pair.high)}], plain "
              f"{pct(pair.plain_share)}, ratio {pair.variance_ratio:.2f}, {pair.games} games, "
              f"{pair.seconds:.0f} s", flush=True)


if __name__ == "__main__":
    main()
