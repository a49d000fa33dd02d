"""Whether a card fits the pile, and whether the seat to act can draw: the questions
both the engine and its explanations ask."""

from __future__ import annotations

from .cards import RANK_OF, SUIT_OF, Card
from .position import Position


def suit_in_force(pos: Position) -> int:
    return pos.suit if pos.suit is not None else SUIT_OF[pos.pile[-1]]


def fits(pos: Position, card: Card) -> bool:
    """Whether ``card`` may go on the pile now: the wild rank (an eight, at 101 a jack), the
    suit in force, or the rank."""
    rank = RANK_OF[card]
    if rank == pos.rules.wild:
        return True
    if pos.suit is not None:
        return SUIT_OF[card] == pos.suit
    top = pos.pile[-1]
    return SUIT_OF[card] == SUIT_OF[top] or rank == RANK_OF[top]


def can_draw(pos: Position) -> bool:
    """A card can come from the stock: it holds one, or the pile can make a new one."""
    o = pos.rules.options
    if o.max_draws is not None and pos.draws >= o.max_draws:
        return False
    return bool(pos.stock) or (o.reshuffle and len(pos.pile) > 1)


def new_stock_size(pos: Position) -> int | None:
    """The cards a draw now would turn into a new stock (the pile under its top card), when
    the stock is empty and the table makes a new one; None otherwise (cards left in the
    stock, no new stock at this table, a pile of its top card only, or a run-out that ends
    the hand instead)."""
    if pos.stock or pos.outcome is not None or not pos.rules.options.reshuffle:
        return None
    if len(pos.pile) < 2 or pos.reshuffles >= pos.rules.reshuffle_cap:
        return None
    return len(pos.pile) - 1


def is_drawing(pos: Position) -> bool:
    """The seat has started drawing until a card fits, and none has fitted yet."""
    return pos.draws > 0 and pos.drawn is None and pos.rules.options.draw_rule == "until_fits"
