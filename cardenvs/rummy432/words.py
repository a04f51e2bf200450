"""Rummy 4x3x2's table face: its moves, prompts, a hand's groups and a judged round in words
(see :mod:`cardenvs.core.words`)."""

from __future__ import annotations

from typing import Any

from cardenvs.core.cards import card_str, parse_card
from cardenvs.core.game import Game
from cardenvs.core.words import (
    MoveWords,
    OptionWords,
    TableFace,
    names_and,
    plural,
    pretty_card,
    pretty_text,
    seat_names,
    spoken_card,
)

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
    # the value in words: card points (ace 1, 2 to 10 their number, J Q K 10), grouped for, loose against
    text = (f"complete: {joined}, value {value} (the card points of its groups)" if loose == 0
            else f"{loose} loose \u00b7 groups {joined} \u00b7 value {value} (card points: "
                 f"{grouped_value} in groups less {loose_value} loose)")
    return {"parts": parts, "loose": loose, "complete": loose == 0, "value": value, "shape": shape,
            "text": text}


def _shape_text(shape: list[int] | tuple[int, ...]) -> str:
    return "+".join(str(k) for k in shape) if shape else "no group"


def _shapes_compared(win: list[int], lose: list[int]) -> str:
    """Where two complete hands' group sizes first differ, in words."""
    for a, b in zip(win, lose):
        if a != b:
            return f"a group of {a} beats a group of {b} at the first difference"
    return f"{len(win)} groups beat {len(lose)} with the same sizes before"


def round_reasons(result: dict[str, Any], names: list[str] | None = None) -> list[str]:
    """Why the round's winners won, as sentences naming every deciding comparison: for
    each other player, the rule that put the winners ahead of them and both sides' numbers
    ("Bob beat Theo on card value, 50 to 31, with the same groups 3+3+2"); and, for a
    shared round, what made the winners level.  ``names``: the seats' names
    (``player_<i>`` when not given)."""
    hands, winners = result["hands"], result["winners"]
    who = seat_names(names, len(hands))
    best = hands[winners[0]]
    w = names_and([who[i] for i in winners])
    out = []
    if len(winners) > 1:
        if best["complete"]:
            out.append(f"{w} share the round: complete hands with the same groups "
                       f"{_shape_text(best['shape'])} and the same card value, {best['value']}.")
        else:
            out.append(f"{w} share the round: nobody was complete, and they have the same value, "
                       f"{best['value']} (grouped cards count for, loose cards against).")
    for i, h in enumerate(hands):
        if i in winners:
            continue
        if best["complete"] and not h["complete"]:
            loose = h.get("loose")
            loose_text = f"{plural(loose, 'loose card')}" if isinstance(loose, int) else "loose cards"
            out.append(f"{w} beat {who[i]}: a complete hand beats an incomplete one "
                       f"({who[i]} had {loose_text}).")
        elif best["complete"] and list(best["shape"]) != list(h["shape"]):
            compared = _shapes_compared(list(best["shape"]), list(h["shape"]))
            out.append(f"{w} beat {who[i]} on group sizes, {_shape_text(best['shape'])} to "
                       f"{_shape_text(h['shape'])}: {compared}.")
        elif best["complete"]:
            out.append(f"{w} beat {who[i]} on card value, {best['value']} to {h['value']}, with the "
                       f"same groups {_shape_text(best['shape'])}.")
        else:
            out.append(f"{w} beat {who[i]} on value, {best['value']} to {h['value']}: nobody was complete, "
                       f"so grouped cards count for and loose cards against ({best['grouped_value']} - "
                       f"{best['loose_value']} against {h['grouped_value']} - {h['loose_value']}).")
    return out


def round_reason(result: dict[str, Any], names: list[str] | None = None) -> str:
    """:func:`round_reasons` as one text."""
    return " ".join(round_reasons(result, names))


class Rummy432Face(TableFace):
    """Rummy 4x3x2's at a table: the opponents' counts and taken cards, the piles, a hand by groups."""

    blurb = ("A rummy where only groups of one rank count. Pick up a card, throw a card; finish when "
             "every card you keep is in a group. Bigger groups beat smaller ones; the first to win the "
             "rounds wins the game.")
    tile = (40, 42, 43)
    score_name = "rounds won"
    result_note = ("The first player to win the rounds needed wins the game; players who get there in "
                   "the same round share the win.")
    option_words = {
        "pack": OptionWords("Pack", "which groups count: cards of one rank, in groups of these sizes",
                            (("four", "four (groups of 4)"), ("three", "three (groups of 3)"),
                             ("mixed", "mixed (groups of 2, 3 or 4)"))),
        "hand_size": OptionWords("Cards per hand", "cards each player holds between turns"),
        "run_out_limit": OptionWords("Run-outs", "the round ends when the face-down pile has run out this "
                                     "many times", ((None, "no limit"),)),
        "rounds_to_win": OptionWords("Rounds to win", "rounds a player must win to win the game"),
        "max_turns_per_round": OptionWords("Turn cap per round", "a round is judged after this many turns"),
    }
    spot_names = {"deck": "the face-down pile", "discard": "the discard pile", "hand": "your hand"}

    def card_texts(self, game: Game[Any, Any]) -> list[str | None]:
        """The 52 cards."""
        return [card_str(c) for c in range(52)]

    def card_names(self, game: Game[Any, Any]) -> list[str | None]:
        """The 52 cards as spoken ("7 of hearts")."""
        return [spoken_card(c) for c in range(52)]

    def seat_facts(self, game: Game[Any, Any], view: Rummy432View) -> list[str]:
        """Cards in hand, rounds won, and a finish or a last turn."""
        out = []
        for s in range(view.num_players):
            facts = [plural(view.hand_sizes[s], "card") + " in hand",
                     f"{view.scores[s]} of {plural(view.rounds_to_win, 'round')} won"]
            if s == view.finished_by:
                facts.append("finished")
            elif s in view.last_turns_left:
                facts.append("has a last turn")
            out.append(", ".join(facts))
        return out

    def describe(self, game: Game[Any, Any], action: int, view: Rummy432View | None) -> MoveWords:
        """A draw, a take of the face-up card, a throw or a throw that finishes."""
        if action == DRAW:
            return MoveWords("Draw from the face-down pile", "drew from the face-down pile", [], ["deck"])
        if action == TAKE:
            top = view.discard_top if view is not None else -1
            name = pretty_card(top) if top >= 0 else "the top discard"
            return MoveWords(f"Take {name} from the discard pile", f"took {name} from the discard pile",
                             [] if top < 0 else [top], ["discard"])
        if action >= FINISH0:
            card = action - FINISH0
            name = pretty_card(card)
            return MoveWords(f"Throw {name} and finish", f"threw {name} and finished", [card], ["discard"])
        card = action - THROW0
        return MoveWords(f"Throw {pretty_card(card)}", f"threw {pretty_card(card)}", [card], ["discard"])

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

    def round_result(self, game: Game[Any, Any], state: Any,
                     names: list[str] | None = None) -> dict[str, Any] | None:
        """The rules' result of the round just judged, each hand with its cards' ids, groups
        and loose cards, how the round ended and why its winners won: every deciding
        comparison in words (``reasons``, and ``why``, the same as one text)."""
        if not isinstance(game, Rummy432Game):
            raise TypeError(f"Rummy's table face needs a Rummy432Game, got {type(game).__name__}")
        raw = game.infos(state)[0].get("round_result")
        if raw is None:
            return None
        out = dict(raw)
        hands = []
        for h in raw["hands"]:
            ids = [parse_card(c) for c in h["cards"]]
            judged = judgement(game.pack, ids)
            hands.append(dict(h, card_ids=ids, groups=judged["parts"], loose=judged["loose"]))
        out["hands"] = hands
        out["ended"] = ENDED_BY.get(raw["ended_by"], raw["ended_by"])
        out["reasons"] = round_reasons(out, names)
        out["why"] = " ".join(out["reasons"])
        return out

    def game_why(self, game: Game[Any, Any], state: Any, names: list[str]) -> list[str]:
        """Who reached the rounds needed first, with everyone's rounds won, then how the
        last round was decided (its every deciding comparison)."""
        if not isinstance(game, Rummy432Game):
            raise TypeError(f"Rummy's table face needs a Rummy432Game, got {type(game).__name__}")
        scores = list(game.view(state, 0).scores)
        if max(scores) < game.rounds_to_win:
            return []
        top = max(scores)
        won = [i for i, x in enumerate(scores) if x == top]
        rest = ", ".join(f"{names[i]} {scores[i]}" for i in range(len(scores)) if i not in won)
        need = plural(game.rounds_to_win, "round")
        if len(won) > 1:
            first = (f"{names_and([names[i] for i in won])} reached {need} won in the same round, so they "
                     "share the win")
        else:
            first = f"{names[won[0]]} was the first to win {need}"
        last = self.round_result(game, state, names)
        reasons = [f"In the last round, {r}" for r in (last or {}).get("reasons", [])]
        return [first + (f" (rounds won: {rest})." if rest else "."), *reasons]

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
                         f"{state}, value {hand['value']} card points{mark}")
        for k, reason in enumerate(round_reasons(result, names)):
            lines.append(("  why: " if k == 0 else "       ") + reason)
        won = ", ".join(f"{names[i]} {s}" for i, s in enumerate(result["scores"]))
        lines.append(f"  rounds won: {won}")
        return "\n".join(lines) + "\n\n"

    def words(self, text: str) -> str:
        """Card notation as suit symbols (``throw 7h`` -> ``throw 7♥``)."""
        return pretty_text(text)


#: Rummy 4x3x2's table face, named by its kit
TABLE = Rummy432Face()
