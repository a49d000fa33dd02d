"""Sentences for a player: why a card cannot be played now, why an action was refused."""

from __future__ import annotations

from .actions import Action, ActionType
from .cards import (
    RANK_NAMES,
    RANK_OF,
    RANK_PLURALS,
    SUIT_NAMES,
    SUIT_OF,
    SUIT_SINGULAR,
    Card,
    card_name,
)
from .errors import Rejection
from .matching import can_draw, fits, is_drawing
from .position import Position
from .specials import ANSWER_NAMES, is_answer, lays_together, pickup_sentence


def _a(word: str) -> str:
    return ("an " if word[0] in "aeiou" else "a ") + word


def why_not_fits(pos: Position, card: Card) -> str:
    """Why ``card`` does not go on the pile: the suit in force, or the top card."""
    top = pos.pile[-1]
    if pos.suit is not None:
        force = f"The suit in force is {SUIT_NAMES[pos.suit]}"
        if not pos.rules.moves:
            return f"{force}: {card_name(top)} named it."
        if pos.suit == SUIT_OF[top]:  # 101: an opening jack left alone, or one laid so
            return f"{force}: {card_name(top)} orders its own suit."
        return f"{force}: {card_name(top)} orders it."
    suit = SUIT_SINGULAR[SUIT_OF[top]]
    rank = RANK_NAMES[RANK_OF[top]]
    wild = pos.rules.wild
    also = "" if RANK_OF[top] == wild else f", {_a(rank)}"
    return f"The top card is {card_name(top)}: play {_a(suit)}{also} or {_a(RANK_NAMES[wild])}."


def _draw_sentence(pos: Position) -> str:
    drawn = pos.drawn
    assert drawn is not None
    if pos.rules.options.drawn_card == "may_keep":
        return f"You drew {card_name(drawn)}: play it or keep it."
    return f"You drew {card_name(drawn)}, which fits: play it."


def unplayable_reasons(pos: Position, seat: int, legal: list[Action]) -> dict[Card, str]:
    """For every card in ``seat``'s hand that no legal action lays first, the reason."""
    playable = {a.cards[0] for a in legal if a.type is ActionType.PLAY}
    out: dict[Card, str] = {}
    for card in pos.hands[seat]:
        if card in playable:
            continue
        if pos.outcome is not None:
            out[card] = "The hand is over."
        elif seat != pos.turn:
            out[card] = "It is not your turn."
        elif pos.pending is not None:
            out[card] = pickup_sentence(pos)
        elif pos.opening and not pos.cover:
            out[card] = f"Your opening move adds only {RANK_PLURALS[RANK_OF[pos.pile[-1]]]}."
        elif pos.drawn is not None:
            out[card] = _draw_sentence(pos)
        elif is_drawing(pos) and can_draw(pos):
            out[card] = "You have started drawing: draw until a card fits."
        else:
            out[card] = why_not_fits(pos, card)
    return out


def rejection_for(pos: Position, seat: int, action: Action) -> Rejection:
    """The refusal of an action that is not legal now, with the most useful reason."""
    if pos.outcome is not None:
        return Rejection("hand_over", "The hand is over.")
    if seat in pos.out:
        return Rejection("seat_out", "You are out of this game: your total went over the limit.")
    kind = action.type
    if kind is ActionType.BRIDGE and pos.rules.options.bridges:
        return _refuse_bridge(pos, seat)
    if seat != pos.turn:
        return Rejection("not_your_turn", "It is not your turn.")
    if kind is ActionType.PLAY:
        return _refuse_play(pos, seat, action)
    if kind is ActionType.ORDER:
        return _refuse_order(pos, action)
    if action.cards or action.suit is not None:
        return Rejection("bad_action", f"A {kind.value} names no cards and no suit.")
    if pos.rules.moves and kind in (ActionType.DRAW, ActionType.PASS):
        return _refuse_move(pos, seat, kind)
    if pos.pending is not None and kind is not ActionType.TAKE:
        return Rejection("pickup_waiting", pickup_sentence(pos))
    if kind is ActionType.DRAW:
        return _refuse_draw(pos, seat)
    if kind is ActionType.KEEP:
        if pos.drawn is None:
            return Rejection("nothing_to_keep", "You have not drawn a card that fits.")
        return Rejection(
            "must_play",
            f"This table does not let you keep a card that fits: play {card_name(pos.drawn)}.",
        )
    if kind is ActionType.PASS:
        if pos.drawn is not None:
            return Rejection("drawn_card_waiting", _draw_sentence(pos))
        if can_draw(pos):
            return Rejection("cannot_pass", "You can still draw from the stock.")
        return Rejection("cannot_pass", "You have a card you can play.")
    if kind is ActionType.TAKE:
        return Rejection("nothing_to_take", "There is no pickup to take.")
    return Rejection("no_bridge", "This table has no bridge to declare.")


def _refuse_order(pos: Position, action: Action) -> Rejection:
    """Why an ``order`` is refused: only the dealer's opening jack is ordered this way."""
    if action.cards or action.suit not in range(4):
        return Rejection("bad_action", 'An order names a suit and no cards, e.g. "suit": "S".')
    wild = pos.rules.wild
    if not pos.rules.moves:
        return Rejection(
            "no_order",
            f"This table orders no suit on its own: {_a(RANK_NAMES[wild])} names "
            "its suit as it is laid.",
        )
    jack = RANK_NAMES[wild]
    if pos.opening and not pos.cover:
        return Rejection(
            "no_order",
            f"The opening card is not a {jack}: add more of its rank, or pass.",
        )
    return Rejection(
        "no_order",
        f"A {jack} orders its suit as it is laid; only the dealer's opening {jack} is "
        "ordered on its own.",
    )


def _refuse_bridge(pos: Position, seat: int) -> Rejection:
    bridge = pos.bridge
    if bridge is None:
        return Rejection(
            "no_bridge_now",
            "There is no bridge to declare: only the seat that laid the fourth card of a "
            "bridge may, as its next action.",
        )
    if bridge.seat == seat:
        return Rejection("no_bridge_now", "A bridge is declared with the bridge action alone.")
    return Rejection(
        "no_bridge_now",
        f"Only seat {bridge.seat}, who laid the fourth card, may declare this bridge.",
    )


def _six(pos: Position) -> str:
    return RANK_NAMES[pos.rules.cover]


def _no_bank(pos: Position) -> str:
    """Why the bank cannot be drawn from (101): empty, and the table makes no new one."""
    under = pos.pile[:-1]
    if under and all(RANK_OF[c] == pos.rules.cover for c in under):
        return (
            f"The bank is empty, and only {RANK_PLURALS[pos.rules.cover]} lie under the top "
            "card: they make no new bank."
        )
    return "The bank is empty and the table cannot renew it."


def _refuse_move(pos: Position, seat: int, kind: ActionType) -> Rejection:
    """Why a draw or a pass is refused on the moves path (101)."""
    hand = pos.hands[seat]
    fitting = next((c for c in hand if fits(pos, c)), None)
    if pos.opening and not pos.cover:
        rank = RANK_PLURALS[RANK_OF[pos.pile[-1]]]
        return Rejection(
            "opening_move",
            f"Your opening move draws nothing: add more {rank}, or pass to leave it alone.",
        )
    if pos.cover:
        if fitting is not None:
            return Rejection(
                "must_cover",
                f"Cover your {_six(pos)}: {card_name(fitting)} fits on it, so play it.",
            )
        if kind is ActionType.DRAW:
            return Rejection("stock_empty", f"{_no_bank(pos)} Your {_six(pos)} stays: pass.")
        return Rejection("must_cover", f"Draw until a card covers your {_six(pos)}.")
    most = pos.rules.options.max_draws or 0
    if kind is ActionType.DRAW:
        if pos.draws >= most:
            return Rejection(
                "draw_limit", f"You have drawn {pos.draws} cards, as many as a turn allows."
            )
        return Rejection("stock_empty", _no_bank(pos))
    if fitting is not None:
        return Rejection("cannot_pass", f"{card_name(fitting).capitalize()} fits: play it.")
    left = most - pos.draws
    return Rejection(
        "cannot_pass",
        f"Draw first: you may draw {left} more card{'s' if left > 1 else ''} before passing.",
    )


def _refuse_play(pos: Position, seat: int, action: Action) -> Rejection:
    rules = pos.rules
    cards = action.cards
    if not cards:
        return Rejection("no_cards", "A play names at least one card.")
    if any(not (isinstance(c, int) and 0 <= c < 52) for c in cards):
        return Rejection("bad_card", "A card is not two characters such as 8H.")
    if action.suit is not None and action.suit not in range(4):
        return Rejection("bad_suit", "The suit is not one of C, D, H, S.")
    for card in cards:
        if card not in rules.deck_set:
            return Rejection(
                "card_not_in_deck", f"{card_name(card).capitalize()} is not in this deck."
            )
    hand = pos.hands[seat]
    for card in cards:
        if card not in hand:
            return Rejection("card_not_in_hand", f"You do not hold {card_name(card)}.")
    o = rules.options
    if (
        len(cards) > 1
        and o.lay_together == "pickup_twos"
        and not all(lays_together(o, RANK_OF[c]) for c in cards)
    ):
        what = "Only twos go down together" if o.pickup_twos else "Cards go down one at a time"
        return Rejection("only_twos_together", f"{what}: lay one card.")
    if len(cards) > rules.options.max_cards_per_play:
        if rules.options.max_cards_per_play == 1:
            return Rejection("one_card_only", "This table plays one card at a time.")
        return Rejection(
            "one_card_only", f"You may lay at most {rules.options.max_cards_per_play} cards."
        )
    if len({RANK_OF[c] for c in cards}) > 1:
        return Rejection("same_rank_required", "Cards laid together must share a rank.")
    first = cards[0]
    if pos.opening and not pos.cover and rules.moves:
        top_rank = RANK_OF[pos.pile[-1]]
        if RANK_OF[first] != top_rank:
            return Rejection(
                "opening_move",
                f"Your opening move adds only {RANK_PLURALS[top_rank]}, or passes.",
            )
        if len(cards) >= o.max_cards_per_play:
            return Rejection(
                "opening_move", f"Your opening move adds at most {o.max_cards_per_play - 1}."
            )
    pending = pos.pending
    if pending is not None:
        if not o.answering:
            return Rejection("pickup_waiting", pickup_sentence(pos))
        if not is_answer(pos, cards):
            return Rejection(
                "not_an_answer",
                f"Only {ANSWER_NAMES[pending.kind]} answers this pickup: "
                f"answer with {ANSWER_NAMES[pending.kind]} or pick up {pending.count}.",
            )
        if len(cards) > 1 and not lays_together(o, RANK_OF[first]):
            return Rejection("only_twos_together", "Queens go down one at a time.")
        if action.suit is not None:
            return Rejection("suit_not_allowed", f"Only {_a(RANK_NAMES[rules.wild])} names a suit.")
        return Rejection("not_an_answer", "That answer is not allowed now.")  # pragma: no cover
    if pos.drawn is not None and first != pos.drawn:
        return Rejection("must_play_drawn", _draw_sentence(pos))
    if is_drawing(pos) and can_draw(pos):
        return Rejection("must_keep_drawing", "You have started drawing: draw until a card fits.")
    if not fits(pos, first):
        code = "suit_not_followed" if pos.suit is not None else "card_does_not_fit"
        return Rejection(code, why_not_fits(pos, first))
    wild = RANK_NAMES[rules.wild]
    names_suit = RANK_OF[cards[-1]] == rules.wild
    if names_suit and action.suit is None:
        return Rejection("suit_required", f"Name a suit for your {wild}: C, D, H or S.")
    if not names_suit and action.suit is not None:
        return Rejection("suit_not_allowed", f"Only {_a(wild)} names a suit.")
    return Rejection("card_does_not_fit", "That play is not allowed now.")  # pragma: no cover


def _refuse_draw(pos: Position, seat: int) -> Rejection:
    o = pos.rules.options
    if pos.drawn is not None:
        return Rejection("drawn_card_waiting", _draw_sentence(pos))
    if o.max_draws is not None and pos.draws >= o.max_draws:
        drawn = "one card" if pos.draws == 1 else f"{pos.draws} cards"
        return Rejection("draw_limit", f"You have drawn {drawn}, as many as a turn allows.")
    if not can_draw(pos):
        if o.reshuffle:
            return Rejection(
                "stock_empty", "The stock is empty and no discards are left to shuffle into it."
            )
        return Rejection("stock_empty", "The stock is empty.")
    playable = next((c for c in pos.hands[seat] if fits(pos, c)), None)
    if playable is None:  # pragma: no cover - drawing is legal then
        return Rejection("bad_action", "That action is not allowed now.")
    return Rejection(
        "draw_with_legal_card",
        f"You can play {card_name(playable)}: at this table you draw only when no card fits.",
    )
