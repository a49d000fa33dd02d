"""A fast simulator of the rest of a 101 round (``hundred-and-one``), for Hard's search there.

Hands are card masks, the bank a list (top last), and every seat plays a cheap version of
Medium's 101 habit (``habit``: it goes out when it can, else lays every card of the rank
that scores best by Medium's terms: cards and points shed, the suit left in force, a six
only with a cover, a jack only when nothing else fits, the queen of spades last). The
table's effects are read from its options as the engine reads them (``rules/moves.py``):
the wild rank ordering a suit, a six covered by its layer (drawing until something fits),
sevens, eights, aces and the queen of spades hitting the next seats with draws and skips
owed round and round, up to three draws before a move, a pass when nothing fits, the bank
renewed from the table under its top card the moment it runs out, a round blocked when
nobody can move. Two simplifications, said here and in ``tests/test_bots_101_search.py``:
nobody declares a bridge in a playout (declaring is a choice; not declaring plays on as the
engine does), and a renewed bank is shuffled with the playout's own source. It is an
estimate, not the rules: the engine alone decides what happens at the table, and the test
checks that the two agree, round for round.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Final

from eights.rules import Rules
from eights.rules.cards import RANK_OF, SUIT_OF

from .playout import shuffle

STEPS: Final = 400
"""Turns a playout may take before it is scored as it stands (as a blocked round)."""
PER_CARD: Final = 3.0
PER_POINT: Final = 0.12
JACK_COST: Final = 14.0
"""Medium's terms (``hundred_choice.Judge``): each card laid, each point laid, each jack."""


@dataclass(frozen=True)
class HundredRules:
    """What the simulator needs of a 101 table's options, by card where the engine reads
    them by card (``Rules.next_draw``, ``skip_draw``, ``last_draw``, ``acts``)."""

    players: int
    wild: int
    """The wild rank (the jack)."""
    wilds: int
    """The mask of the wild cards."""
    cover: int
    """The rank its layer must cover (the six), or -1."""
    suits: tuple[int, ...]
    """For each suit, the deck's cards of it, the wild rank left out."""
    ranks: tuple[int, ...]
    """For each rank, the deck's cards of it."""
    next_draw: tuple[int, ...]
    skip_draw: tuple[int, ...]
    last_draw: tuple[int, ...]
    acts: tuple[bool, ...]
    points: tuple[int, ...]
    max_draws: int
    most: int
    """Cards of one rank a move may lay."""
    renews: bool
    cap: int
    wild_out: int
    """Points for each wild card of the move that goes out (-20 a jack)."""

    @staticmethod
    def of(rules: Rules) -> HundredRules:
        o = rules.options
        deck = 0
        for card in rules.deck:
            deck |= 1 << card
        wilds = 0
        ranks = []
        for rank in range(13):
            mask = 0
            for card in range(52):
                if RANK_OF[card] == rank and deck >> card & 1:
                    mask |= 1 << card
            ranks.append(mask)
        wilds = ranks[rules.wild]
        suits = []
        for suit in range(4):
            mask = 0
            for card in range(52):
                if SUIT_OF[card] == suit and deck >> card & 1:
                    mask |= 1 << card
            suits.append(mask & ~wilds)
        return HundredRules(
            players=rules.players,
            wild=rules.wild,
            wilds=wilds,
            cover=rules.cover,
            suits=tuple(suits),
            ranks=tuple(ranks),
            next_draw=rules.next_draw,
            skip_draw=rules.skip_draw,
            last_draw=rules.last_draw,
            acts=rules.acts,
            points=rules.card_points,
            max_draws=o.max_draws or 1000,
            most=max(1, o.max_cards_per_play),
            renews=o.reshuffle,
            cap=rules.reshuffle_cap,
            wild_out=o.wild_out_points,
        )

    def fitting(self, suit: int, top: int) -> int:
        """Every card that goes on ``top`` with ``suit`` in force (a wild card, the suit,
        the top's rank; on a wild top its rank is wild anyway)."""
        return self.suits[suit] | self.ranks[RANK_OF[top]] | self.wilds

    def hand_points(self, hand: int) -> int:
        points = self.points
        total = 0
        while hand:
            low = hand & -hand
            total += points[low.bit_length() - 1]
            hand ^= low
        return total


def _suit_term(rules: HundredRules, rest: int, suit: int, off_pile: list[int], held: int) -> float:
    """Medium's suit term: the cards of ``suit`` left in hand less half those unseen."""
    mask = rules.suits[suit]
    return (rest & mask).bit_count() - 0.5 * (off_pile[suit] - (held & mask).bit_count())


def habit(rules: HundredRules, hand: int, fits: int, off_pile: list[int]) -> tuple[list[int], int]:
    """The move of a seat playing the simulator's habit from ``hand`` (some card of which
    fits): its cards in the order laid, and the suit a wild last card orders (-1 for
    another card). ``off_pile``: for each suit, its cards (wild ones left out) not on the
    table."""
    playable = hand & fits
    low = playable & -playable
    first = low.bit_length() - 1
    rank = RANK_OF[first]
    group = hand & rules.ranks[rank]
    if group == hand and rank != rules.cover and group.bit_count() <= rules.most:
        return _ordered(rules, group, first, -1, -1), -1  # it goes out
    best_score = -1e18
    best_cards: list[int] = []
    best_named = -1
    seen = 0
    while playable:
        low = playable & -playable
        card = low.bit_length() - 1
        playable ^= low
        rank = RANK_OF[card]
        if seen >> rank & 1:
            continue
        seen |= 1 << rank
        if rank == rules.wild:
            group = low  # one jack at a time
        else:
            group = hand & rules.ranks[rank]
            while group.bit_count() > rules.most:  # never at 101: a rank has four cards
                spare = group & ~low
                group ^= 1 << (spare.bit_length() - 1)
        rest = hand & ~group
        size = group.bit_count()
        score = PER_CARD * size + PER_POINT * rules.hand_points(group)
        named = -1
        last = -1
        if rank == rules.wild:
            score -= JACK_COST * size
            suit_best = -1e18
            for suit in range(4):
                term = _suit_term(rules, rest, suit, off_pile, hand)
                if term > suit_best:
                    suit_best, named = term, suit
            score += suit_best
            last = card
        elif rank == rules.cover:
            held_best = -1
            mates = group
            while mates:
                bit = mates & -mates
                mates ^= bit
                six = bit.bit_length() - 1
                held = (rest & rules.suits[SUIT_OF[six]]).bit_count()
                if held > held_best:
                    held_best, last = held, six
            if held_best > 0:
                score -= 1.0
            elif rest & rules.wilds:
                score -= 12.0
            else:
                score -= 18.0
        else:
            term_best = -1e18
            mates = group
            while mates:
                bit = mates & -mates
                mates ^= bit
                one = bit.bit_length() - 1
                if rules.last_draw[one]:
                    last = one
                    term_best = _suit_term(rules, rest, SUIT_OF[one], off_pile, hand) + 3.0
                    break
                term = _suit_term(rules, rest, SUIT_OF[one], off_pile, hand)
                if term > term_best:
                    term_best, last = term, one
            score += term_best
        if score > best_score:
            best_score = score
            first = card
            others = group & fits & ~(1 << last)
            if others:  # another card that fits goes first, so the chosen one lies on top
                first = (others & -others).bit_length() - 1
            elif group != 1 << last:  # only the chosen card fits: it must go first
                if rules.last_draw[last]:
                    group = 1 << last  # the queen of spades alone, so that it acts
                else:
                    last = _top_of(rules, group & ~(1 << last), hand, off_pile)
                    first = card
            best_cards = _ordered(rules, group, first, last, named)
            best_named = named
    return best_cards, best_named


def _top_of(rules: HundredRules, cards: int, hand: int, off_pile: list[int]) -> int:
    """Of ``cards`` (all of one rank), the one whose suit is best left in force."""
    rest = hand & ~cards
    best, top = -1, -1e18
    while cards:
        bit = cards & -cards
        cards ^= bit
        one = bit.bit_length() - 1
        term = _suit_term(rules, rest, SUIT_OF[one], off_pile, hand)
        if term > top:
            best, top = one, term
    return best


def _ordered(rules: HundredRules, group: int, first: int, last: int, named: int) -> list[int]:
    """The cards of ``group`` in the order laid: ``first`` (which fits) first, ``last`` on
    top (-1: the queen of spades if there, else any), the others between."""
    if last < 0:
        mates = group
        while mates:
            bit = mates & -mates
            mates ^= bit
            if rules.last_draw[bit.bit_length() - 1]:
                last = bit.bit_length() - 1
    out = [first]
    middle = group & ~(1 << first)
    if last >= 0 and last != first:
        middle &= ~(1 << last)
    while middle:
        bit = middle & -middle
        middle ^= bit
        out.append(bit.bit_length() - 1)
    if last >= 0 and last != first:
        out.append(last)
    return out


class Round:
    """The round from some moment on: every hand, the bank, the table, the suit in force,
    the seat to act and whether it covers a six, the skips owed, the seats in play."""

    def __init__(
        self,
        rules: HundredRules,
        hands: list[int],
        stock: list[int],
        pile: list[int],
        suit: int,
        turn: int,
        covering: bool,
        skips: list[int],
        live: list[bool],
        reshuffles: int,
        rng: random.Random,
    ) -> None:
        self.rules = rules
        self.hands = hands
        self.stock = stock
        self.pile = pile
        self.suit = suit
        self.turn = turn
        self.covering = covering
        self.skips = skips
        self.live = live
        self.reshuffles = reshuffles
        self.rng = rng
        on_pile = 0
        for card in pile:
            on_pile |= 1 << card
        self.off_pile = [(mask & ~on_pile).bit_count() for mask in rules.suits]
        self.went_out = -1
        self.jacks = 0
        self.over = False

    def can_renew(self) -> bool:
        """The table under its top card can become a new bank (not only sixes under it)."""
        pile = self.pile
        if not self.rules.renews or len(pile) < 2:
            return False
        cover = self.rules.cover
        if cover < 0:
            return True
        return any(RANK_OF[pile[i]] != cover for i in range(len(pile) - 1))

    def renew(self) -> None:
        pile = self.pile
        top = pile.pop()
        self.reshuffles += 1
        shuffle(pile, self.rng.random)
        self.stock = pile
        self.pile = [top]
        self.off_pile = [mask.bit_count() for mask in self.rules.suits]
        if not (self.rules.wilds >> top & 1):
            self.off_pile[SUIT_OF[top]] -= 1

    def take(self) -> int:
        """The bank's top card (-1: none can come), renewing it when it runs out."""
        if not self.stock:
            if not self.can_renew() or self.reshuffles >= self.rules.cap:
                return -1
            self.renew()
        card = self.stock.pop()
        if not self.stock and self.reshuffles < self.rules.cap and self.can_renew():
            self.renew()
        return card

    def penalty(self, seat: int, count: int) -> None:
        hand = self.hands[seat]
        for _ in range(count):
            card = self.take()
            if card < 0:
                break
            hand |= 1 << card
        self.hands[seat] = hand

    def lay(self, cards: list[int], named: int) -> None:
        """The seat to act lays ``cards`` (``named``: the suit a wild last card orders); a
        move that ends acts on the next seats, goes out or passes the turn."""
        rules = self.rules
        seat = self.turn
        hand = self.hands[seat]
        for card in cards:
            hand &= ~(1 << card)
            self.pile.append(card)
            if not rules.wilds >> card & 1:
                self.off_pile[SUIT_OF[card]] -= 1
        self.hands[seat] = hand
        last = cards[-1]
        rank = RANK_OF[last]
        self.suit = named if rank == rules.wild and named >= 0 else SUIT_OF[last]
        if rank == rules.cover:
            self.covering = True
            return
        self.covering = False
        going_out = not hand
        if rules.acts[last]:
            order = self.after(seat)
            hits = 0
            due = 0
            for card in cards:
                due += rules.next_draw[card]
                count = rules.skip_draw[card]
                if count >= 0:
                    target = order[hits % len(order)]
                    hits += 1
                    if not going_out:
                        self.skips[target] += 1
                    if count:
                        self.penalty(target, count)
            if due:
                self.penalty(order[0], due)
            if rules.last_draw[last]:
                self.penalty(order[0], rules.last_draw[last])
        if going_out:
            self.went_out = seat
            self.jacks = len(cards) if rank == rules.wild else 0
            self.over = True
            return
        self.advance()

    def after(self, seat: int) -> list[int]:
        n = self.rules.players
        out = []
        for k in range(1, n):
            s = (seat + k) % n
            if self.live[s]:
                out.append(s)
        return out

    def advance(self) -> None:
        """The turn goes to the next seat in play that owes no skip (those passed over
        that owe one skip it)."""
        n = self.rules.players
        seat = self.turn
        nxt = seat
        while True:
            nxt = (nxt + 1) % n
            if nxt == seat:
                break
            if not self.live[nxt]:
                continue
            if self.skips[nxt]:
                self.skips[nxt] -= 1
                continue
            break
        self.turn = nxt

    def stuck(self) -> bool:
        """Nobody can move: no card can come from the bank and no hand in play fits."""
        if self.stock or self.can_renew():
            return False
        fits = self.rules.fitting(self.suit, self.pile[-1])
        for seat in range(self.rules.players):
            if self.live[seat] and self.hands[seat] & fits:
                return False
        return True

    def step(self) -> None:
        """The seat to act takes its turn the habit's way: it draws while nothing fits (up
        to the table's limit, without one while covering), then lays or passes."""
        rules = self.rules
        seat = self.turn
        fits = rules.fitting(self.suit, self.pile[-1])
        hand = self.hands[seat]
        if not hand & fits:
            drew = 0
            while self.covering or drew < rules.max_draws:
                if not self.stock and self.reshuffles >= rules.cap and self.can_renew():
                    self.over = True  # the safety cap on new banks: scored as blocked
                    return
                card = self.take()
                if card < 0:
                    break
                drew += 1
                hand |= 1 << card
                if fits >> card & 1:
                    break
            self.hands[seat] = hand
            if not hand & fits:
                self.covering = False
                self.advance()
                if self.stuck():
                    self.over = True
                return
        cards, named = habit(rules, hand, fits, self.off_pile)
        self.lay(cards, named)

    def result(self, me: int) -> float:
        """``me``'s share of the round as the table counts it: the seat that went out wins
        it; a blocked round goes to the lowest score (a share on a tie)."""
        rules = self.rules
        if self.went_out >= 0:
            return 1.0 if me == self.went_out else 0.0
        low = 1 << 30
        mine = 0
        ties = 0
        for seat in range(rules.players):
            if not self.live[seat]:
                continue
            score = rules.hand_points(self.hands[seat])
            if seat == me:
                mine = score
            if score < low:
                low, ties = score, 1
            elif score == low:
                ties += 1
        return 1.0 / ties if mine == low else 0.0

    def play_out(self, me: int) -> tuple[float, int]:
        """Play the round to its end: ``me``'s share of it, and the turns it took."""
        steps = 0
        while not self.over and steps < STEPS:
            steps += 1
            self.step()
        return self.result(me), steps
