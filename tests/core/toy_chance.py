"""A tiny game whose chance matters, small enough to enumerate (for the AIVAT tests).

High card: five cards ``0..4``; each of two players is dealt one, face down (seen by its
owner); the other three form the face-down pile.  Four turns, seats 0, 1, 0, 1: keep
(action 0) or swap (1: the hand card goes face up onto the discard pile and the pile's
top is drawn; with the pile empty, a card drawn by ``apply``'s ``rng`` from the discard
pile but the card just thrown).  The higher card wins (+1, the other -1).

Chance: the deal (120 equally likely orders), each draw from the pile, each draw from
the discard pile with ``rng``.  :func:`exact_outcomes` and :func:`exact_deals` enumerate
them with their true probabilities.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

import numpy as np

from cardenvs.core.game import Game, InvalidStateError, NotationError, layout

CARDS = 5
TURNS = 4


class ChanceState:
    __slots__ = ("hands", "pile", "discard", "turn")

    def __init__(self, hands: list[int], pile: list[int], discard: list[int], turn: int = 0) -> None:
        self.hands, self.pile, self.discard, self.turn = hands, pile, discard, turn


@dataclass(frozen=True)
class ChanceView:
    num_players: int
    seat: int
    hand: int
    discard: tuple[int, ...]
    pile_size: int
    turn: int

    @property
    def options(self) -> dict[str, Any]:
        return {}


class HighCardGame(Game[ChanceState, ChanceView]):
    name = "highcard"
    env_name = "highcard_v0"
    min_players = 2
    max_players = 2
    num_actions = 2
    OBS_FIELDS = layout([("seat", 1, "my seat"), ("hand", CARDS, "my card"),
                         ("discard", CARDS, "face-up cards"), ("pile_size", 1, "pile"), ("turn", 1, "turn")])

    def deal(self, order: list[int]) -> ChanceState:
        """The state dealt from a card order (the pile's top last)."""
        return ChanceState([order[0], order[1]], list(order[2:]), [])

    def new_state(self, rng: np.random.Generator) -> ChanceState:
        return self.deal([int(c) for c in rng.permutation(CARDS)])

    def clone(self, state: ChanceState) -> ChanceState:
        return ChanceState(list(state.hands), list(state.pile), list(state.discard), state.turn)

    def current_player(self, state: ChanceState) -> int:
        return -1 if state.turn >= TURNS else state.turn % 2

    def is_terminal(self, state: ChanceState) -> bool:
        return state.turn >= TURNS

    def legal_actions(self, state: ChanceState) -> list[int]:
        return [] if state.turn >= TURNS else [0, 1]

    def apply(self, state: ChanceState, action: int, rng: np.random.Generator | None = None) -> None:
        a = self.check_action(state, action)
        p = state.turn % 2
        if a == 1:
            thrown = state.hands[p]
            if state.pile:
                state.hands[p] = state.pile.pop()
            else:
                assert rng is not None, "a draw from the discard pile needs an rng"
                state.hands[p] = state.discard.pop(int(rng.integers(len(state.discard))))
            state.discard.append(thrown)
        state.turn += 1

    def redraw_unseen(self, state: ChanceState, rng: np.random.Generator) -> None:
        state.pile = [state.pile[i] for i in rng.permutation(len(state.pile))]

    def has_chance(self, state: ChanceState, action: int) -> bool:
        return action == 1

    def returns(self, state: ChanceState) -> list[float]:
        if state.turn < TURNS:
            return [0.0, 0.0]
        w = 0 if state.hands[0] > state.hands[1] else 1
        return [1.0 if p == w else -1.0 for p in range(2)]

    def view(self, state: ChanceState, player: int) -> ChanceView:
        return ChanceView(2, player, state.hands[player], tuple(sorted(state.discard)), len(state.pile),
                          state.turn)

    @classmethod
    def encode(cls, view: ChanceView) -> np.ndarray:
        x = np.zeros(2 * CARDS + 3, np.float32)
        x[0] = view.seat
        x[1 + view.hand] = 1
        for c in view.discard:
            x[1 + CARDS + c] = 1
        x[-2], x[-1] = view.pile_size, view.turn
        return x

    @classmethod
    def decode(cls, observation: np.ndarray) -> ChanceView:
        x = np.asarray(observation)
        disc = tuple(int(c) for c in np.flatnonzero(x[1 + CARDS:1 + 2 * CARDS]))
        return ChanceView(2, int(x[0]), int(np.argmax(x[1:1 + CARDS])), disc, int(x[-2]), int(x[-1]))

    def sample_state(self, view: ChanceView, rng: np.random.Generator) -> ChanceState:
        rest = [c for c in range(CARDS) if c != view.hand and c not in view.discard]
        rest = [rest[i] for i in rng.permutation(len(rest))]
        hands = [0, 0]
        hands[view.seat], hands[1 - view.seat] = view.hand, rest.pop()
        return ChanceState(hands, rest, list(view.discard), view.turn)

    def action_to_str(self, action: int) -> str:
        return ("keep", "swap")[action]

    def str_to_action(self, text: str) -> int:
        if text not in ("keep", "swap"):
            raise NotationError(f"{text!r}: keep or swap")
        return ("keep", "swap").index(text)

    def to_json(self, state: ChanceState) -> dict[str, Any]:
        return {"game": self.name, "hands": state.hands, "pile": state.pile, "discard": state.discard,
                "turn": state.turn}

    def from_json(self, obj: dict[str, Any]) -> ChanceState:
        if obj.get("game") != self.name:
            raise InvalidStateError("not a high-card state")
        return ChanceState(list(obj["hands"]), list(obj["pile"]), list(obj["discard"]), int(obj["turn"]))

    def render(self, state: ChanceState, viewer: int | None = None) -> str:
        return f"hands {state.hands}, pile {state.pile}, discard {state.discard}, turn {state.turn}"


class FixedRng:
    """Stands in for ``apply``'s rng: ``integers`` gives a chosen value (to enumerate it)."""

    def __init__(self, k: int) -> None:
        self.k = k

    def integers(self, high: int) -> int:
        if not 0 <= self.k < high:
            raise ValueError(f"{self.k} is not below {high}")
        return self.k


def rng_values(game: HighCardGame, state: ChanceState, action: int) -> int:
    """How many equally likely values ``apply``'s rng may give at this step (1: none used)."""
    return len(state.discard) if action == 1 and not state.pile else 1


def exact_outcomes(game: Game[Any, Any], state: Any, action: int,
                   rng: np.random.Generator) -> list[tuple[float, Any]]:
    """Every outcome of a step with its true probability: each order of the pile (all
    equally likely given the history) times each value of ``apply``'s rng."""
    assert isinstance(game, HighCardGame)
    orders = list(itertools.permutations(state.pile))
    m = rng_values(game, state, action)
    out = []
    for order in orders:
        for k in range(m):
            t = game.clone(state)
            t.pile = list(order)
            game.apply(t, action, FixedRng(k))  # type: ignore[arg-type]
            out.append((1.0 / (len(orders) * m), t))
    return out


def exact_deals(game: Game[Any, Any], rng: np.random.Generator) -> list[tuple[float, Any]]:
    """Every deal with its probability (1/120 each)."""
    assert isinstance(game, HighCardGame)
    orders = list(itertools.permutations(range(CARDS)))
    return [(1.0 / len(orders), game.deal(list(o))) for o in orders]
