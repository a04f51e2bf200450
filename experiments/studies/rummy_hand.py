"""A learned model of a Rummy 4x3x2's opponent's hidden hand (two players): a study.

Measured no better than the shipped hand-set inference for the expert's play
(``docs/results/expert/rummy432_v0_hand_model.md``), so it is not shipped; it plugs into
the expert as an inference strategy, :class:`HandModelInference`
(``Rummy432Knowledge(inference=HandModelInference())``).

What the expert's search needs most is a good guess of the cards its opponent keeps
hidden (a search that sees them gains far more than any re-tuning,
``docs/results/expert/rummy432_v0_inference.md``).  This model turns what the player
saw this round into a distribution over the opponent's hidden *rank counts*:

    P(counts) ∝ Π_r C(u_r, c_r) · (k/(P-k))^c_r · exp(W[c_r] · φ_r),  subject to Σ_r c_r = k

where ``u_r`` is the number of cards of rank ``r`` the player cannot see (in the
opponent's hidden hand or the face-down pile), ``k`` the opponent's hidden card count,
``P = Σ u_r``, and ``φ_r`` a few facts about rank ``r`` (did the opponent pass it or
throw it, and how long ago, does it hold a known card of it, how far the round is).
With ``W = 0`` this is exactly a uniform deal of the unseen cards; the weights tilt it
towards what the opponent's play says.  The constraint ``Σ c_r = k`` is exact: counts
are drawn rank by rank from a small dynamic programme, then the cards of each rank
uniformly among the unseen ones.

The weights are fitted by maximum likelihood (multinomial logistic regression, one
class per count, the uniform deal as the offset) on positions of planner-against-planner
games, ``python -m experiments.studies.rummy_hand_model fit``, and stored in
``experiments/studies/rummy432_hand.npz``, one table per pack and hand size.  Everything
here reads the player's own view and memory only.
"""

from __future__ import annotations

from functools import lru_cache
from math import comb, log
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from agents.games.rummy432.inference import HandSetInference, Picker
from agents.games.rummy432.memory import OpponentMemory
from cardenvs.rummy432.rules import Rummy432Game
from cardenvs.rummy432.state import Rummy432View, rank_counts

#: the facts per rank, in the order of the weight columns
FEATURES = (
    "bias",
    "passed",  # the opponent drew rather than take a card of this rank (and holds no known one)
    "passed_age",  # turns since, / 20
    "threw",  # the opponent threw a card of this rank (and holds no known one)
    "threw_age",  # turns since, / 20
    "known_1",  # the opponent holds exactly one card of this rank it took from the discard
    "known_2",  # two or more
    "last_throw",  # the opponent's latest throw is of this rank
    "round_age",  # the opponent's turns this round, / 10
    "mine",  # my cards of this rank, / 4
    "buried",  # cards of this rank in the discard pile, / 4
    "unseen_1",  # one unseen card of this rank
    "unseen_2",
    "unseen_3",
)
NF = len(FEATURES)
#: largest count of one rank
MAX_C = 4
MODEL_FILE = Path(__file__).resolve().parent / "rummy432_hand.npz"


def model_key(pack: str, hand_size: int) -> str:
    """The name of a weight table in the model file."""
    return f"{pack}_{hand_size}"


@lru_cache(maxsize=4)
def _load(path: str, mtime: float) -> dict[str, np.ndarray]:
    with np.load(path) as z:
        return {k: np.asarray(z[k], np.float64) for k in z.files if not k.startswith("meta")}


def weights(pack: str, hand_size: int, path: Path | None = None) -> np.ndarray | None:
    """The ``[MAX_C + 1, NF]`` weight table for a pack and hand size, or ``None`` if the
    model file has none (the caller then falls back to its hand-set weights)."""
    p = path or MODEL_FILE
    if not p.exists():
        return None
    return _load(str(p), p.stat().st_mtime).get(model_key(pack, hand_size))


class Memory(Protocol):
    """What a player remembers of its opponent's play this round (an ``OpponentMemory``)."""

    passed: dict[int, int]  # rank -> turn the opponent drew rather than take a card of it
    threw: dict[int, int]  # rank -> turn the opponent threw a card of it
    opp_throw: int  # the opponent's latest throw (a card), -1 if none


def features(view: Rummy432View, memory: Memory | None) -> tuple[np.ndarray, list[int]]:
    """``([13, NF] facts, unseen)`` about each rank from ``view`` (two players) and the
    player's ``memory`` of the round (``None``: nothing seen yet); ``unseen[r]`` counts the
    cards of rank ``r`` the player cannot see (the opponent's hidden cards and the pile)."""
    me = view.seat
    opp = 1 - me
    cnt = rank_counts(view.hand)
    buried = rank_counts(view.discard)  # the face-up top card is seen too
    kn = rank_counts(view.known[opp])
    unseen = [4 - cnt[r] - buried[r] - kn[r] for r in range(13)]
    passed = memory.passed if memory is not None else {}
    threw = memory.threw if memory is not None else {}
    last_throw = memory.opp_throw if memory is not None else -1
    phi = np.zeros((13, NF))
    phi[:, 0] = 1.0
    phi[:, 8] = (view.turn // 2) / 10.0
    last = last_throw >> 2 if last_throw >= 0 else -1
    for r in range(13):
        if kn[r] == 0:
            if r in passed:
                phi[r, 1] = 1.0
                phi[r, 2] = (view.turn - passed[r]) / 20.0
            if r in threw:
                phi[r, 3] = 1.0
                phi[r, 4] = (view.turn - threw[r]) / 20.0
        phi[r, 5] = kn[r] == 1
        phi[r, 6] = kn[r] >= 2
        phi[r, 7] = r == last
        phi[r, 9] = cnt[r] / 4.0
        phi[r, 10] = buried[r] / 4.0
        if 1 <= unseen[r] <= 3:
            phi[r, 10 + unseen[r]] = 1.0
    return phi, unseen


def offsets(unseen: np.ndarray, k: np.ndarray) -> np.ndarray:
    """The uniform deal as log-weights ``[..., 13, MAX_C + 1]`` (``-inf`` where a count is
    impossible): ``log C(u, c) + c · logit(k / P)`` for ``unseen`` ``[..., 13]``, ``k`` ``[...]``."""
    u = np.asarray(unseen, np.int64)
    k = np.asarray(k, np.float64)
    total = np.maximum(u.sum(-1), 1)
    p = np.clip(k / total, 1e-3, 1 - 1e-3)
    lo = np.log(p / (1 - p))
    out = np.full(u.shape + (MAX_C + 1,), -np.inf)
    for c in range(MAX_C + 1):
        lc = _LOG_COMB[np.clip(u, 0, 4), c]
        out[..., c] = np.where(u >= c, lc + c * lo[..., None], -np.inf)
    return out


_LOG_COMB = np.array([[log(comb(n, c)) if c <= n else 0.0 for c in range(MAX_C + 1)] for n in range(5)])


def log_weights(w: np.ndarray, phi: np.ndarray, unseen: list[int] | np.ndarray, k: int) -> np.ndarray:
    """``[13, MAX_C + 1]`` log-weights of each rank's hidden count (before the sum constraint)."""
    return phi @ w.T + offsets(np.asarray(unseen)[None], np.array([k]))[0]


def _tables(z: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Weights ``e^z`` (0 where impossible) and the forward table ``A[r, s]``: total weight
    of ranks below ``r`` holding ``s`` cards."""
    fin = np.isfinite(z)
    w = np.where(fin, np.exp(np.where(fin, z - z[fin].max(), 0.0)), 0.0)
    a = np.zeros((14, k + 1))
    a[0, 0] = 1.0
    for r in range(13):
        row = a[r + 1]
        for c in range(MAX_C + 1):
            if w[r, c] > 0 and c <= k:
                row[c:] += a[r, : k + 1 - c] * w[r, c]
    return w, a


def sample_counts(z: np.ndarray, k: int, rng: np.random.Generator) -> list[int] | None:
    """Hidden rank counts drawn from the model (``Σ = k`` exactly), ``None`` if impossible."""
    w, a = _tables(z, k)
    if a[13, k] <= 0:
        return None
    out = [0] * 13
    s = k
    for r in range(12, -1, -1):
        pr = np.array([a[r, s - c] * w[r, c] if c <= s else 0.0 for c in range(MAX_C + 1)])
        c = int(rng.choice(MAX_C + 1, p=pr / pr.sum()))
        out[r] = c
        s -= c
    return out


def marginals(z: np.ndarray, k: int) -> np.ndarray:
    """``[13, MAX_C + 1]``: the exact chance of each rank's hidden count under the model."""
    w, a = _tables(z, k)
    b = np.zeros((14, k + 1))  # b[r, s]: weight of ranks r.. holding s
    b[13, 0] = 1.0
    for r in range(12, -1, -1):
        for c in range(MAX_C + 1):
            if w[r, c] > 0 and c <= k:
                b[r, c:] += b[r + 1, : k + 1 - c] * w[r, c]
    total = a[13, k]
    out = np.zeros((13, MAX_C + 1))
    for r in range(13):
        for c in range(min(MAX_C, k) + 1):
            if w[r, c] > 0:
                out[r, c] = w[r, c] * float(a[r, : k - c + 1] @ b[r + 1, k - c :: -1]) / total
    return out


def deal(pool: list[int], counts: list[int], rng: np.random.Generator) -> list[int]:
    """Indices into ``pool`` of a hand with ``counts[r]`` cards of each rank, chosen uniformly."""
    by_rank: list[list[int]] = [[] for _ in range(13)]
    for i, c in enumerate(pool):
        by_rank[c >> 2].append(i)
    out: list[int] = []
    for r, n in enumerate(counts):
        if n:
            out.extend(rng.choice(by_rank[r], size=n, replace=False).tolist())
    return out


def fit(phi: np.ndarray, unseen: np.ndarray, k: np.ndarray, true: np.ndarray, l2: float = 1e-3,
        iters: int = 500) -> tuple[np.ndarray, dict[str, Any]]:
    """Maximum-likelihood weights ``[MAX_C + 1, NF]`` (row 0 zero) for positions ``phi``
    ``[N, 13, NF]`` with ``unseen`` ``[N, 13]``, hidden counts ``k`` ``[N]`` and the true
    hidden rank counts ``true`` ``[N, 13]``; each rank's count is a softmax over counts
    (the sum constraint is applied only when sampling).  Uses scipy's L-BFGS."""
    from scipy.optimize import minimize

    n = phi.shape[0]
    off = offsets(unseen, k)
    y = np.minimum(true, MAX_C)[..., None]
    onehot = np.zeros(off.shape)
    np.put_along_axis(onehot, y, 1.0, -1)

    def loss(flat: np.ndarray) -> tuple[float, np.ndarray]:
        w = np.zeros((MAX_C + 1, NF))
        w[1:] = flat.reshape(MAX_C, NF)
        z = np.einsum("nrf,cf->nrc", phi, w) + off
        zm = z.max(-1, keepdims=True)
        e = np.exp(z - zm)
        tot = e.sum(-1, keepdims=True)
        ll = float((np.take_along_axis(z, y, -1) - zm - np.log(tot)).sum())
        g = np.einsum("nrc,nrf->cf", onehot - e / tot, phi)[1:]
        return -ll / n + l2 * float(flat @ flat), -g.ravel() / n + 2 * l2 * flat

    res = minimize(loss, np.zeros(MAX_C * NF), jac=True, method="L-BFGS-B", options={"maxiter": iters})
    w = np.zeros((MAX_C + 1, NF))
    w[1:] = res.x.reshape(MAX_C, NF)
    return w, {"loss": float(res.fun), "iterations": int(res.nit), "converged": bool(res.success)}


class HandModelInference(HandSetInference):
    """The expert's worlds deal the opponent's hidden ranks by the learned model (where the
    model file has a table for the pack and hand size; else as the hand-set inference),
    then keep the hand-set inference's likelihood choice and swaps.

    ``model=False`` is the hand-set inference itself (a switch for the studies' variants).
    """

    def __init__(self, model: bool = True, path: Path | None = None, **hand_set: Any) -> None:
        super().__init__(**hand_set)
        self.model = model
        self.path = path

    def picker(self, game: Rummy432Game, view: Rummy432View, m: OpponentMemory | None, pool: list[int],
               k: int, known: list[int]) -> Picker:
        """Draw the hidden rank counts from the model, the cards of each rank uniformly."""
        plain = super().picker(game, view, m, pool, k, known)
        w = weights(game.pack, game.hand_size, self.path) if self.model else None
        if w is None:
            return plain
        phi, unseen = features(view, m)
        z = log_weights(w, phi, unseen, k)

        def pick(rng: np.random.Generator) -> set[int]:
            counts = sample_counts(z, k, rng)
            return set(deal(pool, counts, rng)) if counts is not None else plain(rng)

        return pick

