"""What a Rummy 4x3x2's seat remembers of its opponent's play this round (two players).

The expert deals its worlds by it (:mod:`.inference`); everything comes from the seat's
own successive Views: the card it threw last turn (its hand then and now), whether the
opponent took it (it is now among the opponent's known cards) or passed it and drew, and
the opponent's throw (the face-up card when the seat's turn starts).
"""

from __future__ import annotations

from cardenvs.rummy432.state import Rummy432View

from ...players.knowledge import Memory


class OpponentMemory(Memory[Rummy432View]):
    """One seat's memory of its opponent's play in the current round (two players).

    Fed the seat's View at each of its decisions (:meth:`update`); a new round, or an
    earlier turn (a new game), starts it afresh, and the same View twice changes nothing.
    """

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.reset(-1)  # no round seen yet

    def reset(self, rnd: int) -> None:
        """Forget everything: the memory of a round ``rnd`` not yet seen."""
        self.round = rnd
        self.turn = -1
        self.phase = ""
        #: the seat's hand at its latest throw (None: not at a throw since its last pick)
        self.throw_hand: tuple[int, ...] | None = None
        #: rank -> turn the opponent drew rather than take a card of it (it held none)
        self.passed: dict[int, int] = {}
        #: rank -> turn the opponent threw a card of it (it kept no group of it)
        self.threw: dict[int, int] = {}
        #: the opponent's latest throw (-1 = none known) and the card it took that turn
        self.opp_throw = -1
        self.opp_took = -1

    def of_round(self, view: Rummy432View) -> OpponentMemory | None:
        """This memory if it is of ``view``'s round (else ``None``: nothing seen this round)."""
        return self if self.round == view.round else None

    def update(self, view: Rummy432View) -> None:
        """Take in the seat's View at one of its decisions (other Views are ignored)."""
        if view.seat != self.seat or view.current != view.seat:
            return
        if self.round != view.round or view.turn < self.turn:
            self.reset(view.round)
        if view.turn == self.turn and view.phase == self.phase:
            return  # the same decision again (the coach, a re-seeded agent)
        if view.phase == "pick":
            self._pick(view)
        else:
            self.throw_hand = view.hand
            self.on_throw(view)
        self.turn = view.turn
        self.phase = view.phase

    def _pick(self, view: Rummy432View) -> None:
        """What the start of the seat's turn tells of the opponent's last turn."""
        opp = 1 - self.seat
        known_opp = {c >> 2 for c in view.known[opp]}
        # the card this player threw last turn, if it can be told from its two views
        thrown = -1
        if self.throw_hand is not None and view.turn == self.turn + 2:
            gone = [c for c in self.throw_hand if c not in view.hand]
            thrown = gone[0] if len(gone) == 1 else -1
            if thrown in view.discard and thrown != view.discard_top:
                self.passed[thrown >> 2] = view.turn  # drew rather than take it: held none
        elif view.turn == 1 and view.finished_by < 0:
            buried = [c for c in view.discard if c != view.discard_top]
            if len(buried) == 1:
                self.passed[buried[0] >> 2] = view.turn  # the opening face-up card, passed
        top = view.discard_top
        if top >= 0 and view.turn >= 1 and (top >> 2) not in known_opp:
            self.threw[top >> 2] = view.turn
        # the opponent's last throw, and the card it took this turn (if it took)
        self.opp_throw = top if top >= 0 and view.turn >= 1 and view.finished_by < 0 else -1
        self.opp_took = thrown if thrown >= 0 and thrown in view.known[opp] else -1
        self.throw_hand = None
        self.on_pick(view, thrown)

    def on_pick(self, view: Rummy432View, thrown: int) -> None:
        """Hook for richer memories: the seat's pick View was taken in (``thrown``: the card
        the seat threw last turn, -1 when its Views do not tell)."""

    def on_throw(self, view: Rummy432View) -> None:
        """Hook for richer memories: the seat's throw View was taken in."""

    def facts(self) -> dict[str, object]:
        """Everything remembered, as plain data (for tests and records)."""
        return {"seat": self.seat, "round": self.round, "turn": self.turn, "phase": self.phase,
                "throw_hand": self.throw_hand, "passed": dict(self.passed), "threw": dict(self.threw),
                "opp_throw": self.opp_throw, "opp_took": self.opp_took}

__all__ = ["OpponentMemory"]
