"""Moves with effects (the 101 table), as options of the one engine.

A table runs here when ``Rules.moves`` is set (``draw_rule: "up_to_max"`` with any of
``dealer_opens``, ``cover_rank``, ``next_draws``, ``skip_draws``, ``last_draws``,
``bridges``). A move is a play of one or more cards of one rank, the first fitting; a card
of ``cover_rank`` on top keeps the move going until its layer covers it; when the move
ends, its cards act (penalty draws dealt at once, skips owed round and round) and the turn
goes to the next seat that owes no skip. Before a move a seat may draw up to
``max_draws``; then it plays a card that fits, or passes when none does and it cannot draw.
"""

from __future__ import annotations

from itertools import permutations

from .actions import BRIDGE, DRAW, ORDERS, PASS, PLAY_NAMING, PLAY_ONE, Action, ActionType
from .cards import RANK_CHARS, RANK_NAMES, RANK_OF, SUIT_NAMES, SUIT_OF, TEN, Card, make_card
from .ending import finish
from .events import (
    BankRenewed,
    BridgeDeclared,
    Drew,
    Event,
    Ordered,
    Passed,
    Penalty,
    Played,
    Skipped,
)
from .matching import fits
from .outcome import EndReason
from .position import Bridge, Position
from .shuffle import shuffled


def legal_moves(pos: Position) -> list[Action]:
    """The legal actions of the seat to act (the hand is not over)."""
    seat = pos.turn
    hand = pos.hands[seat]
    if pos.opening and not pos.cover:
        out = opening_adds(pos, hand)
        if RANK_OF[pos.pile[-1]] == pos.rules.wild:
            out.extend(ORDERS)  # an opening jack: the dealer orders its suit (or passes)
        out.append(PASS)
    else:
        out = plays(pos, hand)
        if pos.cover:
            if not out:
                out.append(DRAW if can_renew_or_draw(pos) else PASS)
        elif pos.draws < (pos.rules.options.max_draws or 0) and can_renew_or_draw(pos):
            out.append(DRAW)
        elif not out:
            out.append(PASS)
    bridge = pos.bridge
    if bridge is not None and bridge.seat == seat:
        out.append(BRIDGE)
    return out


def can_renew_or_draw(pos: Position) -> bool:
    """A card can come from the bank: it holds one, or the table under its top card can
    become a new one. A table of nothing but sixes under its top makes no new bank: a six
    drawn back could only be laid again and covered by the next, round and round (the
    six-on-six loop, docs/rules.md reading 26)."""
    if pos.stock:
        return True
    if not pos.rules.options.reshuffle or len(pos.pile) < 2:
        return False
    cover = pos.rules.cover
    return cover < 0 or any(RANK_OF[c] != cover for c in pos.pile[:-1])


def _same_rank_plays() -> dict[tuple[Card, ...], tuple[Action, ...]]:
    """Every play of two to four cards of one rank in every order, built once: the plain
    play and, for a wild rank, the four plays that order a suit."""
    out: dict[tuple[Card, ...], tuple[Action, ...]] = {}
    for rank in range(13):
        suits = [make_card(rank, s) for s in range(4)]
        for size in range(2, 5):
            for cards in permutations(suits, size):
                plain = Action(ActionType.PLAY, cards)
                out[cards] = (plain, *(Action(ActionType.PLAY, cards, s) for s in range(4)))
    return out


SAME_RANK = _same_rank_plays()
"""``SAME_RANK[cards][0]`` plays ``cards``; ``[1 + suit]`` plays them ordering ``suit``."""


def _add(out: list[Action], cards: tuple[Card, ...], wild: bool) -> None:
    if len(cards) == 1:
        if wild:
            out.extend(PLAY_NAMING[cards[0]])
        else:
            out.append(PLAY_ONE[cards[0]])
    elif wild:
        out.extend(SAME_RANK[cards][1:])
    else:
        out.append(SAME_RANK[cards][0])


def plays(pos: Position, hand: list[Card]) -> list[Action]:
    """Every play of the hand: a card that fits, then up to ``max_cards_per_play - 1``
    cards of its rank in any order (the last on top; a wild last card orders a suit)."""
    rules = pos.rules
    wild = rules.wild
    most = rules.options.max_cards_per_play
    top = pos.pile[-1]
    suit = pos.suit
    top_rank = -1 if suit is not None else RANK_OF[top]
    if suit is None:
        suit = SUIT_OF[top]
    out: list[Action] = []
    ranks: list[int] | None = None
    for card in hand:
        rank = RANK_OF[card]
        if rank != wild and rank != top_rank and SUIT_OF[card] != suit:
            continue
        mates: list[Card] = []
        if most > 1:
            if ranks is None:
                ranks = [RANK_OF[c] for c in hand]
            if ranks.count(rank) > 1:
                mates = [c for c in hand if RANK_OF[c] == rank and c != card]
        if not mates:
            if rank == wild:
                out.extend(PLAY_NAMING[card])
            else:
                out.append(PLAY_ONE[card])
            continue
        for size in range(min(most - 1, len(mates)) + 1):
            for tail in permutations(mates, size):
                _add(out, (card, *tail), rank == wild)
    return out


def opening_adds(pos: Position, hand: list[Card]) -> list[Action]:
    """The dealer's additions to its opening card: one to ``max_cards_per_play - 1`` cards
    of its rank, in any order."""
    rank = RANK_OF[pos.pile[-1]]
    mates = [c for c in hand if RANK_OF[c] == rank]
    out: list[Action] = []
    for size in range(1, min(pos.rules.options.max_cards_per_play - 1, len(mates)) + 1):
        for cards in permutations(mates, size):
            _add(out, cards, rank == pos.rules.wild)
    return out


def carry_out_move(pos: Position, action: Action) -> list[Event]:
    """Carry out a legal action of the seat to act on ``pos`` itself."""
    seat = pos.turn
    kind = action.type
    events: list[Event] = []
    if kind is ActionType.BRIDGE:
        declare_bridge(pos, seat, events)
        return events
    pos.bridge = None
    if kind is ActionType.PLAY:
        _play(pos, seat, action, events)
    elif kind is ActionType.ORDER:
        _order(pos, seat, action, events)
    elif kind is ActionType.DRAW:
        _draw(pos, seat, events)
    else:
        assert kind is ActionType.PASS, kind
        _pass(pos, seat, events)
    return events


def declare_bridge(pos: Position, seat: int, events: list[Event]) -> None:
    """``seat`` declares the bridge it made: the round ends, every seat scores its cards."""
    bridge = pos.bridge
    assert bridge is not None
    assert bridge.seat == seat
    events.append(BridgeDeclared(seat, RANK_CHARS[RANK_OF[pos.pile[-1]]], bridge.jacks))
    finish(pos, EndReason.BRIDGE, seat, events, jacks=bridge.jacks)


def _play(pos: Position, seat: int, action: Action, events: list[Event]) -> None:
    rules = pos.rules
    hand = pos.hands[seat]
    cards = action.cards
    for card in cards:
        hand.remove(card)
    covering = pos.cover
    opening = pos.opening
    pos.pile.extend(cards)
    rank = RANK_OF[cards[-1]]
    pos.suit = action.suit if rank == rules.wild else None
    pos.passes = 0
    events.append(Played(seat, cards, pos.suit))
    if rank == rules.cover:
        pos.cover = True
        pos.draws = 0
        return
    move = cards
    if opening and not covering:
        move = (pos.pile[-len(cards) - 1], *cards)
    end_move(pos, seat, move, events)


def _order(pos: Position, seat: int, action: Action, events: list[Event]) -> None:
    """The dealer orders a suit for its opening jack and adds nothing: the opening move
    ends with the jack, the suit ordered in force until the jack is covered."""
    assert action.suit is not None
    pos.suit = action.suit
    events.append(Ordered(seat, action.suit))
    end_move(pos, seat, (pos.pile[-1],), events)


def _draw(pos: Position, seat: int, events: list[Event]) -> None:
    if not pos.stock:
        if pos.reshuffles >= pos.rules.reshuffle_cap:
            pos.reshuffles += 1
            finish(pos, EndReason.STOCK_LIMIT, None, events)
            return
        renew_bank(pos, events)
    card = pos.stock.pop()
    pos.hands[seat].append(card)
    pos.draws += 1
    pos.passes = 0
    events.append(Drew(seat, card))
    ran_out(pos, events)


def _pass(pos: Position, seat: int, events: list[Event]) -> None:
    events.append(Passed(seat))
    if pos.opening and not pos.cover:
        # The dealer leaves its opening card alone: the opening move ends with it.
        end_move(pos, seat, (pos.pile[-1],), events)
        return
    # Nothing fits and nothing can be drawn (a six that cannot be covered stays).
    pos.passes += 1
    pos.opening = pos.cover = False
    pos.draws = 0
    advance(pos, seat, events)
    if stuck(pos):
        finish(pos, EndReason.BLOCKED, None, events)


def stuck(pos: Position) -> bool:
    """Nobody can move: no card can come from the bank and no seat in play holds a card
    that fits."""
    if can_renew_or_draw(pos):
        return False
    return not any(fits(pos, c) for s in pos.in_play() for c in pos.hands[s])


def end_move(pos: Position, seat: int, move: tuple[Card, ...], events: list[Event]) -> None:
    """The move of ``seat`` ended with ``move`` (its cards that act, in the order laid):
    a bridge it made, the penalty draws dealt at once, skips owed, going out, the turn."""
    rules = pos.rules
    o = rules.options
    pos.opening = pos.cover = False
    pos.draws = 0
    pile = pos.pile
    top_rank = RANK_OF[pile[-1]]
    jacks = len(move) if RANK_OF[move[-1]] == rules.wild else 0  # a move is of one rank
    bridge = None
    if (
        o.bridges
        and top_rank >= TEN
        and len(pile) >= 4
        and RANK_OF[pile[-2]] == top_rank
        and RANK_OF[pile[-3]] == top_rank
        and RANK_OF[pile[-4]] == top_rank
    ):
        bridge = Bridge(seat, jacks)
    going_out = not pos.hands[seat]
    order = after(pos, seat) if rules.acts[move[-1]] else None
    if order:
        hits = 0
        due = 0
        next_draw = rules.next_draw
        skip_draw = rules.skip_draw
        for card in move:
            due += next_draw[card]
            count = skip_draw[card]
            if count >= 0:
                target = order[hits % len(order)]
                hits += 1
                if not going_out:
                    pos.skips[target] += 1
                if count:
                    penalty(pos, target, count, RANK_NAMES[RANK_OF[card]], events)
        if due:
            penalty(pos, order[0], due, RANK_NAMES[RANK_OF[move[-1]]], events)
        last = rules.last_draw[move[-1]]
        if last:
            card = move[-1]
            cause = f"{RANK_NAMES[RANK_OF[card]]}_of_{SUIT_NAMES[SUIT_OF[card]]}"
            penalty(pos, order[0], last, cause, events)
    if going_out:
        finish(pos, EndReason.WENT_OUT, seat, events, jacks=jacks)
        return
    pos.bridge = bridge
    advance(pos, seat, events)


def after(pos: Position, seat: int) -> list[int]:
    """The seats in play after ``seat`` in playing order, ``seat`` itself left out."""
    n = len(pos.hands)
    out = pos.out
    if not out:
        return [(seat + k) % n for k in range(1, n)]
    return [s for s in ((seat + k) % n for k in range(1, n)) if s not in out]


def advance(pos: Position, seat: int, events: list[Event]) -> None:
    """The turn goes to the next seat in play that owes no skip; each seat passed over
    that owes one skips it (event ``skipped``). The mover itself owes none, so at worst
    the turn comes back to it."""
    n = len(pos.hands)
    out = pos.out
    skips = pos.skips
    nxt = seat
    while True:
        nxt = (nxt + 1) % n
        if nxt == seat:
            break
        if nxt in out:
            continue
        if skips[nxt]:
            skips[nxt] -= 1
            events.append(Skipped(nxt))
            continue
        break
    pos.turn = nxt


def penalty(pos: Position, seat: int, count: int, cause: str, events: list[Event]) -> None:
    """Deal ``count`` cards from the bank to ``seat`` as part of the move, renewing the
    bank when it runs out; what even the table cannot give is not drawn."""
    hand = pos.hands[seat]
    taken: list[Card] = []
    for _ in range(count):
        if not pos.stock:
            if not can_renew_or_draw(pos) or pos.reshuffles >= pos.rules.reshuffle_cap:
                break
            renew_bank(pos, events)
        card = pos.stock.pop()
        hand.append(card)
        taken.append(card)
        ran_out(pos, events)
    events.append(Penalty(seat, tuple(taken), count, cause))


def ran_out(pos: Position, events: list[Event]) -> None:
    """101's rule "when the bank runs out, the table but its top card is shuffled into a new
    bank, and the round's points are multiplied", applied at once, when its last card is
    drawn, so that a round ending before the next draw is scored at the new multiplier. With
    only the top card on the table (or past the safety cap) the bank stays empty until a draw
    needs it."""
    if not pos.stock and pos.reshuffles < pos.rules.reshuffle_cap and can_renew_or_draw(pos):
        renew_bank(pos, events)


def renew_bank(pos: Position, events: list[Event]) -> None:
    """The table under its top card is shuffled into a new bank; the multiplier rises by
    one where ``bank_multiplier`` is on. The top card and an ordered suit stay."""
    top = pos.pile.pop()
    pos.reshuffles += 1
    order = shuffled(pos.pile, pos.key, pos.hand_no, pos.reshuffles)
    order.reverse()
    pos.stock = order
    pos.pile = [top]
    if pos.rules.options.bank_multiplier:
        pos.multiplier += 1
    events.append(BankRenewed(len(order), pos.reshuffles, pos.multiplier))
