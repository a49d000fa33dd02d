"""A fast simulator of the rest of a hand at a table with special cards (Newfoundland), for
Hard's search there.

Hands are 52-bit masks, the stock a list, and every seat plays Medium's habit at this table
(``medium.py``): a pickup waiting for it is answered whenever it can be, with the one card
that leaves its strongest suit, else taken; otherwise the ordinary card (not an eight, not a
two where twos pick up) of the suit strongest after it, the heaviest by the table's points;
a single two only when no ordinary card fits, an eight only when no two does either, naming
the strongest suit it still holds. The specials are the table's options, read as
``effects.py`` reads them (a house rule that switches one off switches it off here): twos
pick up and are answered by twos, the pickup queens by any queen, jacks skip, kings turn
the play at three or more. The drawing, reshuffle and blocking rules are the engine's. It is
an estimate, not the rules: the engine alone decides what happens at the table
(``tests/test_bots_special_playout.py`` checks that the two agree, hand for hand).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Final

from eights.rules import Action, ActionType, Rules, SeatView
from eights.rules.cards import EIGHT, JACK, KING, QUEEN, RANK_OF, SPADES, SUIT_OF, TWO, make_card

from .belief import EIGHTS, RANK_MASK, SUIT_MASK, mask_of
from .playout import BLOCKED, FITS, blocked_share, draw_until_fits, favourite_suit, reshuffle

TWOS: Final = RANK_MASK[TWO]
QUEENS: Final = RANK_MASK[QUEEN]
NO_PICKUP: Final = 0
TWO_PICKUP: Final = 1
QUEEN_PICKUP: Final = 2
STEPS: Final = 600
"""Turns a playout may take before it is scored as it stands (a hand that long is blocked)."""
_HELD: Final = 310.0
_OFF: Final = 210.0
"""Medium's strength (held less 2.1 times unseen, ``medium.UNSEEN_WEIGHT``) scaled by 100,
so that its tie-breaks (fewer unseen, then the heavier card) fit in the same number."""


@dataclass(frozen=True)
class SpecialRules:
    """What the simulator needs of a table's options, the special cards included."""

    players: int
    one_card: bool
    max_draws: int
    may_keep: bool
    reshuffle: bool
    reshuffle_cap: int
    points: tuple[int, ...]
    twos: int
    """Cards each two makes the next seat pick up (0: twos are ordinary)."""
    queens: int
    """The queens that make a pickup when no pickup waits (a mask)."""
    queen_pickup: int
    answering: bool
    jacks: bool
    kings: bool
    """Kings turn the play (only at three or more: at two a king passes the turn)."""
    nobody_can_move: bool
    """``block_when: nobody_can_move``: the hand ends as soon as no seat can move."""

    @staticmethod
    def of(rules: Rules) -> SpecialRules:
        """The simulator's reading of a table's rules (the options ``effects.py`` reads)."""
        o = rules.options
        queens = 0
        if o.pickup_queens == "all":
            queens = QUEENS
        elif o.pickup_queens == "spades":
            queens = 1 << make_card(QUEEN, SPADES)
        return SpecialRules(
            players=rules.players,
            one_card=o.draw_rule == "one_card",
            max_draws=o.max_draws or 1000,
            may_keep=o.drawn_card == "may_keep",
            reshuffle=o.reshuffle,
            reshuffle_cap=rules.reshuffle_cap,
            points=rules.card_points,
            twos=o.pickup_twos,
            queens=queens,
            queen_pickup=o.queen_pickup,
            answering=o.answering,
            jacks=o.skip_jacks,
            kings=o.reverse_kings and rules.players > 2,
            nobody_can_move=o.block_when == "nobody_can_move",
        )


def strongest(hand: int, cards: int, off_pile: list[int], points: tuple[int, ...]) -> int:
    """Medium's card among ``cards`` (non-empty): the one whose suit is strongest after it
    is laid (held, less 2.1 times the cards of it neither held nor on the pile), then the
    suit with fewer unseen, then the heaviest card, then the highest."""
    best = -1
    top = -1e18
    rest = cards
    while rest:
        low = rest & -rest
        card = low.bit_length() - 1
        rest ^= low
        s = SUIT_OF[card]
        held = (hand & SUIT_MASK[s]).bit_count()
        off = off_pile[s]
        key = held * _HELD - off * _OFF + (held - off) * 0.1 + points[card] * 0.0001
        if key >= top:
            best, top = card, key
    return best


def medium_play(
    hand: int, playable: int, off_pile: list[int], saved: int, points: tuple[int, ...]
) -> tuple[int, int]:
    """Medium's play from ``playable`` (non-empty), no pickup waiting: the card and the suit
    in force after it. ``saved``: eights, and twos where they pick up."""
    ordinary = playable & ~saved
    if ordinary:
        card = strongest(hand, ordinary, off_pile, points)
        return card, SUIT_OF[card]
    twos = playable & ~EIGHTS
    if twos:
        card = strongest(hand, twos, off_pile, points)
        return card, SUIT_OF[card]
    card = (playable & -playable).bit_length() - 1
    return card, favourite_suit(hand & ~(1 << card), off_pile)


def playout(
    rules: SpecialRules,
    hands: list[int],
    stock: list[int],
    pile: list[int],
    suit: int,
    rank: int,
    turn: int,
    direction: int,
    pending: int,
    count: int,
    reshuffles: int,
    me: int,
    rng: random.Random,
    takes: bool = False,
) -> tuple[float, int]:
    """Play the hand out from the seat ``turn`` to act (no card drawn yet this turn; a pickup
    of ``count`` of kind ``pending`` waiting for it, or none): 1 when ``me`` wins it, a share
    on a tie, 0 otherwise; and the turns it took. ``takes``: the first seat takes the pickup
    (a candidate of Hard's). Changes ``hands``, ``stock`` and ``pile`` (the top card last)."""
    n = rules.players
    one_card = rules.one_card
    max_draws = rules.max_draws
    may_keep = rules.may_keep
    can_reshuffle = rules.reshuffle
    cap = rules.reshuffle_cap
    points = rules.points
    twos = rules.twos
    pickup_queens = rules.queens
    answering = rules.answering
    jacks = rules.jacks
    kings = rules.kings
    block = rules.nobody_can_move
    saved = EIGHTS | TWOS if twos else EIGHTS
    on_pile = mask_of(pile)
    off_pile = [(mask & ~on_pile).bit_count() for mask in SUIT_MASK]
    passes = 0
    for step in range(1, STEPS + 1):
        hand = hands[turn]
        card = -1
        named = 0
        if pending:
            answers = 0
            if answering and not (takes and step == 1):
                answers = hand & (TWOS if pending == TWO_PICKUP else QUEENS)
            if not answers:  # take the lot (what even a new stock cannot give is not taken)
                for _ in range(count):
                    if not stock:
                        if not can_reshuffle or len(pile) < 2 or reshuffles >= cap:
                            break
                        reshuffles += 1
                        reshuffle(stock, pile, off_pile, rng)
                    hand |= 1 << stock.pop()
                hands[turn] = hand
                pending = NO_PICKUP
                count = 0
                passes = 0
                turn = (turn + direction) % n
                if block and not stock and _stuck(hands, suit, rank, can_reshuffle, len(pile)):
                    return blocked_share(points, hands, me), step
                continue
            card = strongest(hand, answers, off_pile, points)
            named = SUIT_OF[card]
        else:
            fits = FITS[suit][rank]
            playable = hand & fits
            if playable:
                card, named = medium_play(hand, playable, off_pile, saved, points)
            else:
                hand, card, drew, reshuffles = draw_until_fits(
                    hand,
                    fits,
                    stock,
                    pile,
                    off_pile,
                    reshuffles,
                    max_draws,
                    one_card,
                    can_reshuffle,
                    cap,
                    rng,
                )
                if card == BLOCKED:
                    return blocked_share(points, hands, me), step
                hands[turn] = hand
                if card >= 0 and may_keep and RANK_OF[card] == EIGHT:
                    passes = 0  # a drawn eight kept for later
                    turn = (turn + direction) % n
                    continue
                if card < 0:
                    if one_card and drew:
                        passes = 0  # the card drawn did not fit: the turn ends
                    else:
                        passes = passes + 1 if not drew else 1
                        if passes >= n:
                            return blocked_share(points, hands, me), step
                    turn = (turn + direction) % n
                    if block and not stock and _stuck(hands, suit, rank, can_reshuffle, len(pile)):
                        return blocked_share(points, hands, me), step
                    continue
                named = SUIT_OF[card]
                if RANK_OF[card] == EIGHT:
                    named = favourite_suit(hand & ~(1 << card), off_pile)
        hand &= ~(1 << card)
        hands[turn] = hand
        pile.append(card)
        rank = RANK_OF[card]
        suit = named
        if rank != EIGHT:
            off_pile[SUIT_OF[card]] -= 1
        passes = 0
        if not hand:
            return (1.0 if turn == me else 0.0), step
        if rank == TWO and twos:
            pending = TWO_PICKUP
            count += twos
            turn = (turn + direction) % n
        elif rank == QUEEN and (pending == QUEEN_PICKUP or pickup_queens >> card & 1):
            pending = QUEEN_PICKUP
            count += rules.queen_pickup
            turn = (turn + direction) % n
        else:
            pending = NO_PICKUP
            count = 0
            if rank == JACK and jacks:
                turn = (turn + 2 * direction) % n
            elif rank == KING and kings:
                direction = -direction
                turn = (turn + direction) % n
            else:
                turn = (turn + direction) % n
            if block and not stock and _stuck(hands, suit, rank, can_reshuffle, len(pile)):
                return blocked_share(points, hands, me), step
    return blocked_share(points, hands, me), STEPS


def _stuck(hands: list[int], suit: int, rank: int, can_reshuffle: bool, piled: int) -> bool:
    """With the stock empty and no pickup waiting: no new stock can be made and no hand
    holds a card that fits (the engine's ``nobody_can_move``)."""
    if can_reshuffle and piled > 1:
        return False
    fits = FITS[suit][rank]
    return all(not hand & fits for hand in hands)


class SpecialTable:
    """One decision's playouts at a table with special cards: where each candidate action
    of the seat to act leaves the hand, played out on a deal of the hidden cards."""

    def __init__(self, view: SeatView, options: list[Action]) -> None:
        table = view.table
        self.rules = SpecialRules.of(Rules.for_variant(table.variant, table.players, table.options))
        self.points = self.rules.points
        self.me = view.seat
        self.reshuffles = table.reshuffles
        pending = NO_PICKUP
        count = 0
        if table.pending is not None:
            pending = TWO_PICKUP if table.pending["kind"] == "two" else QUEEN_PICKUP
            count = int(table.pending["count"])
        mine = mask_of(view.hand)
        pile = list(table.pile)
        self.starts: list[tuple[int, list[int], int, int, int, int, int, int, bool]] = []
        """For each candidate: this seat's hand, the pile, the suit and rank in force, the
        seat to act, the direction, the pickup waiting and its count, and whether that seat
        takes it (a ``take`` of this seat's)."""
        n = table.players
        me = view.seat
        d = table.direction
        top_suit = table.suit_in_force
        top_rank = RANK_OF[pile[-1]]
        for action in options:
            if action.type is ActionType.TAKE:
                start = (mine, pile, top_suit, top_rank, me, d, pending, count, True)
            elif action.type is not ActionType.PLAY:  # keeping a drawn card
                start = (mine, pile, top_suit, top_rank, (me + d) % n, d, NO_PICKUP, 0, False)
            else:
                start = self._after_play(action, mine, pile, pending, count, me, d)
            self.starts.append(start)

    def _after_play(
        self, action: Action, mine: int, pile: list[int], pending: int, count: int, me: int, d: int
    ) -> tuple[int, list[int], int, int, int, int, int, int, bool]:
        """Where a play leaves the hand: its last card's effect, as the engine's
        ``specials.after_play`` (read from the options)."""
        rules = self.rules
        n = rules.players
        cards = action.cards
        last = cards[-1]
        rank = RANK_OF[last]
        suit = action.suit if action.suit is not None else SUIT_OF[last]
        hand = mine & ~mask_of(cards)
        laid = [*pile, *cards]
        nxt = (me + d) % n
        if rank == TWO and rules.twos:
            grown = count + rules.twos * len(cards)
            return hand, laid, suit, rank, nxt, d, TWO_PICKUP, grown, False
        if rank == QUEEN and (pending == QUEEN_PICKUP or rules.queens >> last & 1):
            grown = count + rules.queen_pickup
            return hand, laid, suit, rank, nxt, d, QUEEN_PICKUP, grown, False
        if rank == JACK and rules.jacks:
            nxt = (me + 2 * d) % n
        elif rank == KING and rules.kings:
            d = -d
            nxt = (me + d) % n
        return hand, laid, suit, rank, nxt, d, NO_PICKUP, 0, False

    def run(
        self,
        index: int,
        hands: list[int],
        stock: list[int],
        rng: random.Random,
        habits: list[int] | None = None,
    ) -> tuple[float, int]:
        """Candidate ``index`` played out on the deal ``hands`` (this seat's empty) and
        ``stock``: its share of the hand won, and the turns it took. Every seat plays
        Medium's habit at this table (``habits`` is not read here)."""
        hand, laid, suit, rank, turn, d, pending, count, takes = self.starts[index]
        after = list(hands)
        after[self.me] = hand
        return playout(
            self.rules,
            after,
            list(stock),
            list(laid),
            suit,
            rank,
            turn,
            d,
            pending,
            count,
            self.reshuffles,
            self.me,
            rng,
            takes,
        )
