"""Coupled draws: duplicate deals whose face-down cards follow the seats, not the turns.

A duplicate schedule plays one deal under every rotation of the seats, so that each
entrant gets each seat's cards once.  With one shared face-down pile that holds only
while the games go alike: once an agent breaks a tie the other way (takes a face-up card
instead of drawing, wins a bonus turn), the same pile hands its cards to other seats, and
the luck no longer cancels over the rotations.

Coupled draws deal the face-down cards out to the seats in advance.  At the first step that
may meet chance (:meth:`Game.has_chance`) the unseen cards are shuffled once, by a
generator keyed by the deal's seed, into a *virtual pile*; position ``i`` of it is seat
``i mod n``'s share.  Before every such step the real pile is re-ordered so that what comes
up next (:attr:`Game.UNSEEN_TOP`) is the next card of the seat's own share
(:meth:`Game.chance_owner`: the mover, for a draw), then the rest of the pile in order; chance
no seat owns (a market every seat drafts from) takes the virtual pile in order.  Across the
rotations of a deal the virtual pile is the same, so a seat's ``k``-th draw is the same card
whatever happened before it: at worst the seat's share runs out and it draws on.  When the
face-down cards change other than by a draw from the top (a reshuffle of the discards, a
later round's deal) a new virtual pile is shuffled from them (the next *epoch*, keyed by
the cards it holds, so that the rotations shuffle a later round's pile alike).

**Unbiased.**  The virtual pile is a uniform shuffle, independent of everything that
happened; every draw takes the card at a position chosen from what the players have seen
so far, and the cards at the positions not yet taken are a uniform shuffle of the unseen
cards given the ones taken (the classic argument for dealing from a shuffled deck).  So at
each draw every unseen card is exactly as likely to come up as the rules say; a new epoch is
a fresh uniform shuffle (never one the game used before: its key counts the epochs that
began with the same cards).  Every game is dealt as the rules deal it; only the rotations of a
deal are made alike, which is what a duplicate schedule averages over.  The players see
nothing of it (the order of the face-down cards is in no View), and the game's own
generator draws what it drew before (reshuffles, later deals).
:func:`draw_sequences` enumerates the draws exactly for the tests.
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Callable, Sequence
from fractions import Fraction

import numpy as np

from cardenvs.core.game import Game, shuffle_unseen, taken_from_top
from cardenvs.core.loop import Hook, Turn

from ..types import S, V

#: keys the virtual piles' generators apart from every other stream seeded by a deal's seed
_TAG = 0xC0DE


class VirtualPile:
    """The face-down cards dealt out to ``seats`` shares (position ``i``: seat ``i mod
    seats``) and which positions are taken: the state of one game's coupled draws within an
    epoch.  :meth:`order` is the real pile's new order before a step."""

    def __init__(self, cards: Sequence[int], seats: int, top: int) -> None:
        if top not in (0, -1):
            raise ValueError(f"UNSEEN_TOP is 0 or -1, got {top!r}")
        self.cards = list(cards)
        self.seats, self.top = seats, top
        self.taken = [False] * len(self.cards)
        #: the positions in the order :meth:`order` last put them, first to come up first
        self._emitted: list[int] = []
        #: the list :meth:`order` last returned (the real pile's order)
        self._listed: list[int] = []

    def order(self, owner: int | None) -> list[int]:
        """The untaken cards as the real pile's list (its top at :attr:`top`): first what
        ``owner``'s share still holds, then the rest in order (``None``: all in order)."""
        free = [i for i, t in enumerate(self.taken) if not t]
        if owner is not None:
            own = [i for i in free if i % self.seats == owner]
            free = own + [i for i in free if i % self.seats != owner]
        self._emitted = free
        listed = [self.cards[i] for i in free]
        self._listed = listed if self.top == 0 else listed[::-1]
        return list(self._listed)

    def follow(self, pile: Sequence[int]) -> bool:
        """Mark as taken what came up since :meth:`order` if ``pile`` is what is left of the
        list it returned once cards were taken from its top
        (:func:`cardenvs.core.game.taken_from_top`); ``False`` (nothing changed) if the pile
        changed otherwise."""
        j = taken_from_top(self._listed, pile, self.top)
        if j is None:
            return False
        for i in self._emitted[:j]:
            self.taken[i] = True
        return True


class CoupledDeck:
    """One game's coupled draws (see the module docstring): the play loop's ``on_move``
    hook.  Each epoch's virtual pile is :meth:`_keyed_shuffle` of the face-down cards."""

    def __init__(self, game: Game[S, V], seed: int) -> None:
        self.game, self.seed = game, int(seed)
        #: virtual piles shuffled so far (epochs)
        self.epoch = 0
        self.pile: VirtualPile | None = None
        self._starts: dict[tuple[int, ...], int] = {}

    def _keyed_shuffle(self, cards: list[int]) -> list[int]:
        """A uniform shuffle keyed by the seed and the cards themselves (so that the
        rotations of a deal shuffle a later round's pile alike even if one of them had a
        reshuffle more), and by how often these very cards started an epoch before (so no
        game reuses a shuffle)."""
        key = tuple(sorted(cards))
        again = self._starts.get(key, 0)
        self._starts[key] = again + 1
        digest = hashlib.sha256(repr(key).encode()).digest()
        rng = np.random.default_rng([self.seed, _TAG, int.from_bytes(digest[:8], "little"), again])
        out = list(cards)
        shuffle_unseen(out, rng)
        return out

    def order_for(self, cards: Sequence[int], owner: int | None) -> list[int]:
        """The new order of the face-down ``cards`` (as the game lists them) before a step
        whose chance is ``owner``'s; a new epoch when they are not what the last order left."""
        if self.pile is None or not self.pile.follow(cards):
            self.epoch += 1
            self.pile = VirtualPile(self._keyed_shuffle(list(cards)), self.game.num_players,
                                    type(self.game).UNSEEN_TOP)
        return self.pile.order(owner)

    def __call__(self, turn: Turn) -> None:
        game = self.game
        if game.has_chance(turn.state, turn.action):
            owner = game.chance_owner(turn.state, turn.action)
            game.redraw_unseen(turn.state, _Orderer(self, owner))  # type: ignore[arg-type]


class _Orderer:
    """What :meth:`Game.redraw_unseen` gets: ``order_unseen`` (read by
    :func:`cardenvs.core.game.shuffle_unseen`) puts the cards in the deck's order."""

    def __init__(self, deck: CoupledDeck, owner: int | None) -> None:
        self.deck, self.owner = deck, owner

    def order_unseen(self, cards: Sequence[int]) -> list[int]:
        return self.deck.order_for(cards, self.owner)

    def __getattr__(self, name: str) -> object:
        raise AttributeError(f"coupled draws re-order the face-down cards only (asked for {name!r}); "
                             "a game's redraw_unseen must use cardenvs.core.game.shuffle_unseen")


def coupled_draws(game: Game[S, V], seed: int) -> Hook:
    """The play loop's ``on_move`` hook that couples a game dealt with ``seed`` to the other
    rotations of its deal (:class:`CoupledDeck`; one per game: it keeps the virtual pile)."""
    return CoupledDeck(game, seed)


def draw_sequences(cards: Sequence[int], seats: int, owners: Callable[[tuple[int, ...]], int | None],
                   draws: int) -> dict[tuple[int, ...], Fraction]:
    """Exact probabilities of the first ``draws`` cards to come up from ``cards`` when the
    owner of each draw is ``owners(cards drawn so far)`` (any rule of what was seen): every
    virtual pile (each order of ``cards``, equally likely) played out.  For the tests,
    which compare it with drawing uniformly without replacement."""
    orders = list(itertools.permutations(range(len(cards))))
    out: dict[tuple[int, ...], Fraction] = {}
    for perm in orders:
        vp = VirtualPile([cards[i] for i in perm], seats, -1)
        pile = vp.order(owners(()))
        seen: list[int] = []
        for _ in range(draws):
            seen.append(pile.pop())
            if len(seen) == draws:
                break
            if not vp.follow(pile):
                raise AssertionError("the virtual pile lost track of a plain draw")
            pile = vp.order(owners(tuple(seen)))
        key = tuple(seen)
        out[key] = out.get(key, Fraction(0)) + Fraction(1, len(orders))
    return out
