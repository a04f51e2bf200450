"""Rummy 4x3x2's table face: its moves, prompts, a hand's groups and a judged round in words
(see :mod:`cardenvs.core.table`)."""

from __future__ import annotations

from typing import Any

from cardenvs.core.cards import card_str, parse_card
from cardenvs.core.game import Game
from cardenvs.core.table import MoveWords, TableFace, pretty_card, pretty_text

from .rules import Rummy432Game
from .state import DRAW, FINISH0, GROUP, TAKE, THROW0, Rummy432View, hand_values, rank_counts, shape_of

#: how a round ended (``round_result["ended_by"]``), in words
ENDED_BY = {
    "finish": "a player finished and everyone had a last turn",
    "run_outs": "the face-down pile ran out the last time allowed",
    "turn_cap": "the round reached its turn cap",
}


def judgement(pack: str, hand: tuple[int, ...] | list[int]) -> dict[str, Any]:
    """A hand by rank, biggest groups first, as the rules judge it: its ``parts`` (``rank``,
    ``cards``, the ``group`` they form), loose cards, shape, value (grouped less loose) and
    whether it is complete, with the judgement in words (``text``)."""
    counts = rank_counts(hand)
    by_rank: dict[int, list[int]] = {}
    for c in sorted(hand):
        by_rank.setdefault(c >> 2, []).append(c)
    order = sorted(by_rank, key=lambda r: (-len(by_rank[r]), r))
    g = GROUP[pack]
    parts = [{"rank": r, "cards": by_rank[r], "group": g[len(by_rank[r])]} for r in order]
    loose = sum(c - g[c] for c in counts)
    grouped_value, loose_value = hand_values(counts, pack)
    shape = list(shape_of(counts, pack))
    joined = "+".join(str(s) for s in shape) if shape else "no group"
    value = grouped_value - loose_value
    text = (f"complete: {joined}, value {value}" if loose == 0
            else f"{loose} loose \u00b7 groups {joined} \u00b7 value {value}")
    return {"parts": parts, "loose": loose, "complete": loose == 0, "value": value, "shape": shape,
            "text": text}


def round_reason(result: dict[str, Any]) -> str:
    """Why the round's winners won: the judging rule that decided it."""
    hands, winners = result["hands"], result["winners"]
    shared = " (shared)" if len(winners) > 1 else ""
    complete = [h for h in hands if h["complete"]]
    if len(complete) == 1:
        return f"why: the only complete hand wins{shared}"
    if complete:
        if len({tuple(h["shape"]) for h in complete}) > 1:
            return f"why: among complete hands the bigger groups win, compared largest first{shared}"
        return f"why: complete hands with the same groups: the higher card value wins{shared}"
    return f"why: nobody is complete, so grouped value minus loose value decides{shared}"


class Rummy432Table(TableFace):
    """Rummy 4x3x2's at a table: the opponents' counts and taken cards, the piles, a hand by groups."""

    blurb = ("A rummy where only groups of one rank count. Pick up a card, throw a card; finish when "
             "every card you keep is in a group. Bigger groups beat smaller ones; the first to win the "
             "rounds wins the game.")
    tile = (40, 42, 43)
    score_name = "rounds won"

    def card_texts(self, game: Game[Any, Any]) -> list[str | None]:
        """The 52 cards."""
        return [card_str(c) for c in range(52)]

    def describe(self, game: Game[Any, Any], action: int, view: Rummy432View | None) -> MoveWords:
        """A draw, a take of the face-up card, a throw or a throw that finishes."""
        if action == DRAW:
            return MoveWords("Draw from the face-down pile", "draws from the face-down pile", [], ["deck"])
        if action == TAKE:
            top = view.discard_top if view is not None else -1
            name = pretty_card(top) if top >= 0 else "the top discard"
            return MoveWords(f"Take {name} from the discard pile", f"takes {name} from the discard pile",
                             [] if top < 0 else [top], ["discard"])
        if action >= FINISH0:
            card = action - FINISH0
            name = pretty_card(card)
            return MoveWords(f"Throw {name} and finish", f"throws {name} and finishes", [card], ["discard"])
        card = action - THROW0
        return MoveWords(f"Throw {pretty_card(card)}", f"throws {pretty_card(card)}", [card], ["discard"])

    def prompt(self, game: Game[Any, Any], view: Rummy432View, legal: list[int]) -> str:
        """Pick up (draw or take), or throw (and finish when the rest is complete)."""
        if view.phase == "pick":
            top = pretty_card(view.discard_top) if view.discard_top >= 0 else ""
            if view.pile_size > 0:
                return f"pick up: draw, or take the {top}"
            return f"pick up: take the {top} (the pile is empty)"
        taken = f" (not the {pretty_card(view.taken)} you just took)" if view.taken >= 0 else ""
        return f"throw a card, or finish if the rest is complete{taken}"

    def scores(self, game: Game[Any, Any], view: Rummy432View,
               result: dict[str, Any] | None) -> list[Any] | None:
        """Rounds won by each seat."""
        return list(view.scores)

    def board(self, game: Game[Any, Any], view: Rummy432View) -> dict[str, Any]:
        """The seat's hand by groups, judged (nothing for a spectator, who sees no hand)."""
        return {"hand": judgement(view.pack, view.hand)} if view.seat >= 0 else {}

    def round_result(self, game: Game[Any, Any], state: Any) -> dict[str, Any] | None:
        """The rules' result of the round just judged, each hand with its cards' ids and groups,
        how the round ended and why its winners won, in words."""
        if not isinstance(game, Rummy432Game):
            raise TypeError(f"Rummy's table face needs a Rummy432Game, got {type(game).__name__}")
        raw = game.infos(state)[0].get("round_result")
        if raw is None:
            return None
        out = dict(raw)
        hands = []
        for h in raw["hands"]:
            ids = [parse_card(c) for c in h["cards"]]
            hands.append(dict(h, card_ids=ids, groups=judgement(game.pack, ids)["parts"]))
        out["hands"] = hands
        out["ended"] = ENDED_BY.get(raw["ended_by"], raw["ended_by"])
        out["why"] = round_reason(raw)
        return out

    def round_text(self, result: dict[str, Any], names: list[str]) -> str:
        """Every hand with its groups, who won the round and why, and the rounds won."""
        ended = ENDED_BY.get(result["ended_by"], result["ended_by"])
        lines = [f"\n=== round {result['round']} over: {ended}"]
        for i, hand in enumerate(result["hands"]):
            shape = "+".join(str(k) for k in hand["shape"]) or "no group"
            state = ("complete" if hand["complete"]
                     else f"incomplete (loose cards worth {hand['loose_value']})")
            mark = "  <- wins the round" if i in result["winners"] else ""
            lines.append(f"  player_{i} {names[i]:<6} {' '.join(hand['cards']):<40} groups {shape}, "
                         f"{state}, value {hand['value']}{mark}")
        lines.append("  " + round_reason(result))
        won = ", ".join(f"{names[i]} {s}" for i, s in enumerate(result["scores"]))
        lines.append(f"  rounds won: {won}")
        return "\n".join(lines) + "\n\n"

    def words(self, text: str) -> str:
        """Card notation as suit symbols (``throw 7h`` -> ``throw 7♥``)."""
        return pretty_text(text)


#: Rummy 4x3x2's table face, named by its kit
TABLE = Rummy432Table()
