"""The rules: what the seat to act may do, and what an action does.

``legal_actions`` and ``apply`` are the engine's whole surface. ``apply`` never changes
the position it is given: it returns a new one with the events, or a Rejection.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import permutations

from .actions import BRIDGE, DRAW, KEEP, PASS, PLAY_NAMING, PLAY_ONE, TAKE, Action, ActionType
from .cards import EIGHT, RANK_OF, SUIT_OF, TWO, Card
from .ending import finish
from .ending import game_result as game_result
from .ending import totals_after as totals_after
from .errors import Rejection
from .events import (
    Drew,
    Event,
    GameOver,
    HandOver,
    Kept,
    Passed,
    Played,
    Reshuffled,
    Took,
    TurnEnded,
)
from .matching import fits
from .moves import carry_out_move, declare_bridge, legal_moves, stuck
from .outcome import EndReason, HandOutcome
from .position import Position
from .reasons import rejection_for
from .scoring import score_hand
from .shuffle import shuffled
from .specials import TWO_STACKS, after_play, answers, lays_together


@dataclass(frozen=True)
class Applied:
    """An accepted action: the position after it and what it caused, in order."""

    position: Position
    events: tuple[Event, ...]


def legal_actions(pos: Position) -> list[Action]:
    """Every action the seat to act may take now; empty once the hand is over."""
    if pos.outcome is not None:
        return []
    rules = pos.rules
    if rules.moves:
        return legal_moves(pos)
    o = rules.options
    if pos.pending is not None:
        return [*answers(pos, pos.hands[pos.turn]), TAKE]
    if pos.drawn is not None:
        actions = _plays_from(pos, [pos.drawn], pos.hands[pos.turn])
        if o.drawn_card == "may_keep":
            actions.append(KEEP)
        return actions
    # can_draw, inlined: this runs for every action of every game.
    most = o.max_draws
    drawable = (most is None or pos.draws < most) and (
        bool(pos.stock) or (o.reshuffle and len(pos.pile) > 1)
    )
    if drawable and pos.draws and o.draw_rule == "until_fits":
        return [DRAW]
    hand = pos.hands[pos.turn]
    actions = _plays_from(pos, hand, hand)
    if not actions:
        return [DRAW] if drawable else [PASS]
    if drawable and o.draw_with_legal:
        actions.append(DRAW)
    return actions


def _plays_from(pos: Position, leads: list[Card], hand: list[Card]) -> list[Action]:
    """Plays whose first card is one of ``leads`` (and, where allowed, same-rank followers)."""
    stacks = pos.rules.stacks
    if stacks == 1:
        return _multi_plays(pos, leads, hand)
    # The hot path of every game: one card a play (or a stack of twos), matching inlined.
    top = pos.pile[-1]
    suit = pos.suit
    rank = -1 if suit is not None else RANK_OF[top]
    if suit is None:
        suit = SUIT_OF[top]
    out: list[Action] = []
    twos = 0
    for card in leads:
        card_rank = RANK_OF[card]
        if card_rank == EIGHT:
            out.extend(PLAY_NAMING[card])
        elif card_rank == rank or SUIT_OF[card] == suit:
            out.append(PLAY_ONE[card])
            if stacks and card_rank == TWO:
                if not twos:
                    twos = sum(1 for c in hand if RANK_OF[c] == TWO)
                if twos > 1:
                    _add_stacks_of_twos(out, card, hand, pos.rules.options.max_cards_per_play)
    return out


def _add_stacks_of_twos(out: list[Action], first: Card, hand: list[Card], most: int) -> None:
    """``first`` with one to ``most - 1`` other twos of the hand, in every order (the order
    ``_multi_plays`` gives for cards of one rank)."""
    mates = [c for c in hand if RANK_OF[c] == TWO and c != first]
    for size in range(1, min(most - 1, len(mates)) + 1):
        for tail in permutations(mates, size):
            out.append(TWO_STACKS[(first, *tail)])


def _multi_plays(pos: Position, leads: list[Card], hand: list[Card]) -> list[Action]:
    out: list[Action] = []
    o = pos.rules.options
    multi = o.max_cards_per_play
    for card in leads:
        if not fits(pos, card):
            continue
        rank = RANK_OF[card]
        wild = pos.rules.wild
        if not lays_together(o, rank):
            if rank == wild:
                out.extend(PLAY_NAMING[card])
            else:
                out.append(PLAY_ONE[card])
            continue
        mates = [c for c in hand if RANK_OF[c] == rank and c != card]
        for size in range(min(multi - 1, len(mates)) + 1):
            for tail in permutations(mates, size):
                cards = (card, *tail)
                if rank == wild:
                    out.extend(Action(ActionType.PLAY, cards, s) for s in range(4))
                else:
                    out.append(Action(ActionType.PLAY, cards))
    return out


def apply(pos: Position, seat: int, action: Action) -> Applied | Rejection:
    """``seat`` takes ``action``: the new position and its events, or why not."""
    if pos.outcome is None:
        if seat == pos.turn and action in legal_actions(pos):
            after = pos.copy()
            return Applied(after, tuple(apply_in_place(after, action)))
        if action == BRIDGE and bridge_declarable(pos, seat):
            after = pos.copy()
            events: list[Event] = []
            declare_bridge(after, seat, events)
            after.log.extend(events)
            return Applied(after, tuple(events))
    return rejection_for(pos, seat, action)


def bridge_declarable(pos: Position, seat: int) -> bool:
    """Whether ``seat`` may declare a bridge now: it laid the fourth card of the bridge on
    the table, and nobody has acted since (it need not be the seat to act)."""
    return pos.outcome is None and pos.bridge is not None and pos.bridge.seat == seat


def finish_game(pos: Position) -> Applied:
    """The host ends the game: a round under way is not scored (a finished round is), and
    the lowest total among the seats still in wins, equal totals sharing."""
    if game_result(pos) is not None:
        raise ValueError("the game is over")
    after = pos.copy()
    events: list[Event] = []
    after.finished = True
    after.bridge = None
    if after.outcome is None:
        after.outcome = HandOutcome(
            EndReason.FINISHED,
            (),
            (0,) * after.players,
            tuple(after.rules.points_of(h) for h in after.hands),
        )
        events.append(HandOver(after.outcome))
    result = game_result(after)
    assert result is not None
    events.append(GameOver(result))
    after.log.extend(events)
    return Applied(after, tuple(events))


def apply_in_place(pos: Position, action: Action) -> list[Event]:
    """Carry out a legal action of the seat to act on ``pos`` itself.

    The caller has checked legality (``apply`` does); self-play uses this directly with an
    action taken from ``legal_actions`` to save a copy per move. The events also go into the
    hand's log, which views show each seat with the private cards left out.
    """
    events = carry_out_move(pos, action) if pos.rules.moves else _carry_out(pos, action)
    pos.log.extend(events)
    return events


def _carry_out(pos: Position, action: Action) -> list[Event]:
    seat = pos.turn
    kind = action.type
    events: list[Event] = []
    if kind is ActionType.PLAY:
        hand = pos.hands[seat]
        cards = action.cards
        for card in cards:
            hand.remove(card)
        pos.pile.extend(cards)
        pos.suit = action.suit  # legal: a suit only where the last card is wild
        pos.drawn = None
        pos.draws = pos.passes = 0
        events.append(Played(seat, cards, pos.suit))
        if hand:
            after_play(pos, seat, cards, events)
        else:
            pos.pending = None
            _finish(pos, EndReason.WENT_OUT, seat, events)
    elif kind is ActionType.DRAW:
        if not pos.stock:
            if pos.reshuffles >= pos.rules.reshuffle_cap:
                pos.reshuffles += 1
                _finish(pos, EndReason.STOCK_LIMIT, None, events)
                return events
            _reshuffle(pos, events)
        card = pos.stock.pop()
        pos.hands[seat].append(card)
        pos.draws += 1
        pos.passes = 0
        events.append(Drew(seat, card))
        if fits(pos, card):
            pos.drawn = card
        elif pos.rules.options.draw_rule == "one_card":
            _end_turn(pos, seat)
            events.append(TurnEnded(seat))
    elif kind is ActionType.KEEP:
        kept = pos.drawn
        assert kept is not None
        events.append(Kept(seat, kept))
        _end_turn(pos, seat)
    elif kind is ActionType.PASS:
        pos.passes += 1
        pos.draws = 0
        events.append(Passed(seat))
        if pos.passes >= pos.players:
            _finish(pos, EndReason.BLOCKED, None, events)
        else:
            pos.turn = _next_seat(pos, seat)
    elif kind is ActionType.TAKE:
        _take(pos, seat, events)
    else:  # pragma: no cover - a bridge is legal only on the moves path
        raise AssertionError(f"{kind} is not implemented")
    if (
        not pos.stock
        and pos.outcome is None
        and pos.rules.options.block_when == "nobody_can_move"
        and _nobody_can_move(pos)
    ):
        _finish(pos, EndReason.BLOCKED, None, events)
    return events


def _take(pos: Position, seat: int, events: list[Event]) -> None:
    """The seat takes the whole pending pickup and loses its turn. A stock that runs out in
    the middle is made anew from the pile; what even that cannot give is never taken."""
    pending = pos.pending
    assert pending is not None
    hand = pos.hands[seat]
    taken: list[Card] = []
    for _ in range(pending.count):
        if not pos.stock:
            rules = pos.rules
            if not (rules.options.reshuffle and len(pos.pile) > 1) or (
                pos.reshuffles >= rules.reshuffle_cap
            ):
                break
            _reshuffle(pos, events)
        card = pos.stock.pop()
        hand.append(card)
        taken.append(card)
    pos.pending = None
    pos.draws = pos.passes = 0
    events.append(Took(seat, tuple(taken), pending.count))
    pos.turn = _next_seat(pos, seat)


def _nobody_can_move(pos: Position) -> bool:
    """No card can come from the stock, no seat holds a card that fits, no pickup waits."""
    if pos.pending is not None:
        return False
    if bool(pos.stock) or (pos.rules.options.reshuffle and len(pos.pile) > 1):
        return False
    return not any(fits(pos, card) for hand in pos.hands for card in hand)


def _next_seat(pos: Position, seat: int) -> int:
    return (seat + pos.direction) % len(pos.hands)


def _end_turn(pos: Position, seat: int) -> None:
    pos.drawn = None
    pos.draws = 0
    pos.turn = _next_seat(pos, seat)


def _reshuffle(pos: Position, events: list[Event]) -> None:
    """The pile under its top card becomes a new stock; the top card and named suit stay."""
    top = pos.pile.pop()
    pos.reshuffles += 1
    if pos.rules.options.bank_multiplier:
        pos.multiplier += 1
    order = shuffled(pos.pile, pos.key, pos.hand_no, pos.reshuffles)
    order.reverse()
    pos.stock = order
    pos.pile = [top]
    events.append(Reshuffled(len(order), pos.reshuffles))


def _finish(pos: Position, reason: EndReason, went_out: int | None, events: list[Event]) -> None:
    finish(pos, reason, went_out, events)


def settle(pos: Position, stays: Sequence[int] = ()) -> Position:
    """Work out whether a position read from a file is already over, as play would have.
    ``stays``: seats whose hand is empty but who did not go out (101: their last card was a
    six that could not be covered, reading 26)."""
    pos.outcome = None
    rules = pos.rules
    if rules.moves:
        return _settle_move(pos, stays)
    went_out = [s for s, hand in enumerate(pos.hands) if not hand]
    if went_out:
        pos.outcome = score_hand(rules, pos.hands, EndReason.WENT_OUT, went_out[0])
    elif pos.reshuffles > rules.reshuffle_cap:
        pos.outcome = score_hand(rules, pos.hands, EndReason.STOCK_LIMIT, None)
    elif pos.passes >= pos.players or (
        rules.options.block_when == "nobody_can_move" and _nobody_can_move(pos)
    ):
        pos.outcome = score_hand(rules, pos.hands, EndReason.BLOCKED, None)
    if pos.finished and pos.outcome is None:
        pos.outcome = score_hand(rules, pos.hands, EndReason.FINISHED, None)
    return pos


def _settle_move(pos: Position, stays: Sequence[int] = ()) -> Position:
    """``settle`` on the moves path: an empty hand of a seat in play has gone out (unless
    it is to act and must cover its six: nobody goes out on a six); nobody able to move
    after a pass is a blocked round. The jacks of a move before the file are not known, so
    a file that starts after going out scores none."""
    rules = pos.rules
    hands = pos.hands
    mult = pos.multiplier
    went_out = [
        s
        for s in pos.in_play()
        if not pos.hands[s] and s not in stays and not (pos.cover and s == pos.turn)
    ]
    reason = None
    if pos.finished:
        reason = EndReason.FINISHED
    elif went_out:
        reason = EndReason.WENT_OUT
    elif pos.reshuffles > rules.reshuffle_cap:
        reason = EndReason.STOCK_LIMIT
    elif pos.passes and stuck(pos):
        reason = EndReason.BLOCKED
    ended = pos.ended
    if ended is not None and not pos.finished:
        reason = EndReason(ended.reason)
        pos.outcome = score_hand(
            rules, hands, reason, ended.seat, multiplier=mult, jacks=ended.jacks, out=pos.out
        )
    elif reason is not None:
        seat = went_out[0] if reason is EndReason.WENT_OUT else None
        pos.outcome = score_hand(rules, hands, reason, seat, multiplier=mult, out=pos.out)
    return pos
