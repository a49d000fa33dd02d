"""The action vocabulary of ../shared/SCENARIOS.md: what a seat may do, as values."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from .cards import ALL_CARDS, CODE_OF, SUIT_CHARS, Card, Suit, parse_card, parse_suit, shown
from .errors import MalformedAction


class ActionType(StrEnum):
    PLAY = "play"
    DRAW = "draw"
    KEEP = "keep"
    PASS = "pass"
    TAKE = "take"
    BRIDGE = "bridge"
    ORDER = "order"


@dataclass(frozen=True, slots=True)
class Action:
    """One action of the seat to act. ``cards`` in the order laid; ``suit`` for an eight
    (or a jack at 101), and for ``order``: the suit a 101 dealer orders for its opening jack."""

    type: ActionType
    cards: tuple[Card, ...] = ()
    suit: Suit | None = None

    def to_json(self, seat: int | None = None) -> dict[str, Any]:
        out: dict[str, Any] = {} if seat is None else {"seat": seat}
        out["type"] = self.type.value
        if self.type is ActionType.PLAY:
            out["cards"] = [CODE_OF[c] for c in self.cards]
            if self.suit is not None:
                out["suit"] = SUIT_CHARS[self.suit]
        elif self.type is ActionType.ORDER and self.suit is not None:
            out["suit"] = SUIT_CHARS[self.suit]
        return out

    def __str__(self) -> str:
        if self.type is ActionType.ORDER and self.suit is not None:
            return f"order {SUIT_CHARS[self.suit]}"
        if self.type is not ActionType.PLAY:
            return self.type.value
        text = "play " + " ".join(CODE_OF[c] for c in self.cards)
        return text if self.suit is None else f"{text} {SUIT_CHARS[self.suit]}"


DRAW = Action(ActionType.DRAW)
KEEP = Action(ActionType.KEEP)
PASS = Action(ActionType.PASS)
TAKE = Action(ActionType.TAKE)
BRIDGE = Action(ActionType.BRIDGE)

PLAY_ONE: tuple[Action, ...] = tuple(Action(ActionType.PLAY, (c,)) for c in ALL_CARDS)
PLAY_NAMING: tuple[tuple[Action, ...], ...] = tuple(
    tuple(Action(ActionType.PLAY, (c,), s) for s in range(4)) for c in ALL_CARDS
)
"""Shared, immutable actions for the common single-card plays (the hot path)."""
ORDERS: tuple[Action, ...] = tuple(Action(ActionType.ORDER, (), s) for s in range(4))
"""``ORDERS[suit]``: a 101 dealer orders ``suit`` for its opening jack."""

_SIMPLE = {a.type: a for a in (DRAW, KEEP, PASS, TAKE, BRIDGE)}


def parse_action(data: object, players: int) -> tuple[int, Action]:
    """``{"seat": 0, "type": "play", "cards": ["8H"], "suit": "S"}`` -> (0, Action).

    Raises MalformedAction for anything that is not an action of the vocabulary; whether
    it is legal now is the engine's question, not the parser's.
    """
    if not isinstance(data, dict):
        raise MalformedAction("bad_action", "An action is a JSON object with a type.")
    seat = data.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < players:
        raise MalformedAction(
            "bad_seat", f"The seat must be a number from 0 to {players - 1}, not {shown(seat)}."
        )
    return seat, parse_seatless_action(data)


def parse_seatless_action(data: dict[str, Any]) -> Action:
    """The action part of a message whose seat is known from elsewhere (a credential)."""
    kind = data.get("type")
    try:
        action_type = ActionType(str(kind))
    except ValueError:
        names = ", ".join(t.value for t in ActionType)
        raise MalformedAction(
            "bad_action", f"Unknown action type {shown(kind)}; the types are: {names}."
        ) from None
    if action_type is ActionType.ORDER:
        raw = data.get("suit")
        if raw is None:
            raise MalformedAction("bad_suit", 'An order names its suit, e.g. "suit": "S".')
        try:
            return ORDERS[parse_suit(raw)]
        except ValueError as exc:
            raise MalformedAction("bad_suit", f"{exc}.") from None
    if action_type is not ActionType.PLAY:
        return _SIMPLE[action_type]
    raw_cards = data.get("cards")
    if not isinstance(raw_cards, list) or not raw_cards:
        raise MalformedAction("no_cards", 'A play names its cards, e.g. "cards": ["8H"].')
    if len(raw_cards) > 8:
        raise MalformedAction("bad_card", "A play lays at most eight cards.")
    cards: list[Card] = []
    for raw in raw_cards:
        try:
            cards.append(parse_card(raw))
        except ValueError as exc:
            raise MalformedAction("bad_card", f"{exc}.") from None
    if len(set(cards)) != len(cards):
        raise MalformedAction("bad_card", "A play names the same card twice.")
    suit: Suit | None = None
    raw_suit = data.get("suit")
    if raw_suit is not None:
        try:
            suit = parse_suit(raw_suit)
        except ValueError as exc:
            raise MalformedAction("bad_suit", f"{exc}.") from None
    if len(cards) == 1 and suit is None:
        return PLAY_ONE[cards[0]]
    return Action(ActionType.PLAY, tuple(cards), suit)
