"""A fast simulator of the rest of a hand at a table without special cards, for Hard's search.

Hands are 52-bit masks, the stock a list, and every seat plays Medium's habit (the heaviest
card, the ace last, of its strongest suit, held less 2.1 times unseen; an eight only when
nothing else fits, naming the strongest suit it still holds). The rules are the engine's
for tables where only eights are special (duo, classic, Ember Ridge and their house rules):
drawing until a card fits or one card, a drawn card played (a drawn eight kept where
keeping is allowed), reshuffles up to the table's cap, passes that block the hand, the
lowest points winning a blocked hand. It is an estimate, not the rules: the engine alone
decides what happens at the table (``tests/test_bots_search.py`` checks that the two agree,
hand for hand).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from eights.rules import Rules
from eights.rules.cards import ACE, EIGHT, RANK_OF, SUIT_OF

from .belief import EIGHTS, RANK_MASK, SUIT_MASK, mask_of
from .medium import UNSEEN_WEIGHT

NOT_EIGHTS: Final = ((1 << 52) - 1) & ~EIGHTS
FITS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(SUIT_MASK[s] | RANK_MASK[r] | EIGHTS for r in range(13)) for s in range(4)
)
"""``FITS[suit][rank]``: every card that goes on a top card of that rank with that suit in force."""

STEPS: Final = 600
"""Turns a playout may take before it is scored as it stands (a hand that long is blocked)."""


@dataclass(frozen=True)
class SimRules:
    """What the simulator needs of a table's options."""

    players: int
    one_card: bool
    """``draw_rule: one_card``: a seat draws one card, and its turn ends if it does not fit."""
    max_draws: int
    may_keep: bool
    reshuffle: bool
    reshuffle_cap: int
    points: tuple[int, ...]

    @staticmethod
    def of(rules: Rules) -> SimRules:
        """The simulator's reading of a table's rules (points and reshuffle cap: the
        engine's own)."""
        o = rules.options
        return SimRules(
            players=rules.players,
            one_card=o.draw_rule == "one_card",
            max_draws=o.max_draws or 1000,
            may_keep=o.drawn_card == "may_keep",
            reshuffle=o.reshuffle,
            reshuffle_cap=rules.reshuffle_cap,
            points=rules.card_points,
        )


def shuffle(cards: list[int], random_: Callable[[], float]) -> None:
    """Fisher-Yates in place, from floats: about five times quicker than
    ``random.shuffle``, which a playout that runs the stock out calls every hand."""
    for i in range(len(cards) - 1, 0, -1):
        j = int(random_() * (i + 1))
        cards[i], cards[j] = cards[j], cards[i]


def favourite_suit(hand: int, off_pile: list[int]) -> int:
    """The suit an eight names: the strongest suit the hand still holds (as Medium names it),
    clubs when it holds none."""
    best, top = 0, None
    for s in range(4):
        held = (hand & SUIT_MASK[s]).bit_count()
        unseen = off_pile[s] - held
        key = (held > 0, held - UNSEEN_WEIGHT * unseen, -unseen)
        if top is None or key > top:
            best, top = s, key
    return best


ACES: Final = RANK_MASK[ACE]


def heaviest(cards: int) -> int:
    """The card Medium lays of one suit: the heaviest, the ace (one point) last."""
    top = cards.bit_length() - 1
    if ACES >> top & 1 and cards != 1 << top:
        return (cards ^ (1 << top)).bit_length() - 1
    return top


SUITS: Final[tuple[tuple[int, int], ...]] = tuple(enumerate(SUIT_MASK))
_HELD: Final = 100.0 * (1.0 + UNSEEN_WEIGHT)
_OFF: Final = 100.0 * UNSEEN_WEIGHT
"""Medium's strength, held - UNSEEN_WEIGHT * (off the pile - held), scaled so that its
tie-break (fewer unseen) fits in the same number."""


def choose_card(hand: int, playable: int, off_pile: list[int]) -> tuple[int, int]:
    """The rollout's play from ``playable`` (non-empty): the card, and the suit it leaves.
    Medium's habit: an ordinary card of the suit strongest after it (held, less
    ``UNSEEN_WEIGHT`` times the cards of it neither held nor on the pile; then the fewer
    unseen), the highest of that suit; an eight only when nothing else fits, naming the
    suit it holds most. ``off_pile``: the cards of each suit (eights left out) off the pile."""
    ordinary = playable & NOT_EIGHTS
    if ordinary:
        only = SUIT_OF[(ordinary & -ordinary).bit_length() - 1]
        if not ordinary & ~SUIT_MASK[only]:  # one suit to choose from (the common case)
            return heaviest(ordinary), only
        best_mine, best, top = 0, 0, -1e9
        for s, mask in SUITS:
            mine = ordinary & mask
            if mine:
                held = (hand & mask).bit_count()
                key = held * _HELD - off_pile[s] * _OFF + (held - off_pile[s]) * 0.01
                if key > top:
                    best_mine, best, top = mine, s, key
        return heaviest(best_mine), best
    card = (playable & -playable).bit_length() - 1
    return card, favourite_suit(hand & ~(1 << card), off_pile)


MEDIUM_HABIT: Final = 0
LIGHT_HABIT: Final = 1
SAVER_HABIT: Final = 2
RANDOM_HABIT: Final = 3
"""The habits a seat plays by in a playout (``search.PRIOR``'s order): Medium's, the
lightest card first, eights saved and any other card, any card."""


def habit_card(
    habit: int,
    hand: int,
    playable: int,
    off_pile: list[int],
    points: tuple[int, ...],
    random_: Callable[[], float],
) -> tuple[int, int]:
    """The play from ``playable`` (non-empty) of a seat keeping ``habit``, and the suit it
    leaves: an eight names the suit the hand keeps best, but for a random player's."""
    if habit == MEDIUM_HABIT:
        return choose_card(hand, playable, off_pile)
    ordinary = playable & NOT_EIGHTS
    pool = ordinary if ordinary and habit != RANDOM_HABIT else playable
    if habit == LIGHT_HABIT:
        card, least = -1, 1000
        rest = pool
        while rest:
            low = rest & -rest
            c = low.bit_length() - 1
            if points[c] < least:
                card, least = c, points[c]
            rest ^= low
    else:
        count = pool.bit_count()
        skip = int(random_() * count)
        rest = pool
        for _ in range(skip):
            rest &= rest - 1
        card = (rest & -rest).bit_length() - 1
    if RANK_OF[card] != EIGHT:
        return card, SUIT_OF[card]
    if habit == RANDOM_HABIT:
        return card, int(random_() * 4)
    return card, favourite_suit(hand & ~(1 << card), off_pile)


def playout(
    rules: SimRules,
    hands: list[int],
    stock: list[int],
    pile: list[int],
    suit: int,
    rank: int,
    turn: int,
    passes: int,
    reshuffles: int,
    me: int,
    rng: random.Random,
    habits: list[int] | None = None,
) -> tuple[float, int]:
    """Play the hand out from the seat ``turn`` to act (no card drawn yet this turn): 1 when
    ``me`` wins it, a share on a tie, 0 otherwise; and the turns it took (what a search's
    budget counts). Changes ``hands``, ``stock`` and ``pile`` (bottom first, the top card
    last)."""
    n = rules.players
    one_card = rules.one_card
    max_draws = rules.max_draws
    may_keep = rules.may_keep
    can_reshuffle = rules.reshuffle
    cap = rules.reshuffle_cap
    on_pile = mask_of(pile)
    off_pile = [(mask & ~on_pile).bit_count() for mask in SUIT_MASK]
    for step in range(1, STEPS + 1):
        hand = hands[turn]
        playable = hand & FITS[suit][rank]
        if not playable:
            hand, card, drew, reshuffles = draw_until_fits(
                hand,
                FITS[suit][rank],
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
                return blocked_share(rules.points, hands, me), step
            hands[turn] = hand
            if card >= 0 and may_keep and RANK_OF[card] == EIGHT:
                passes = 0  # a drawn eight kept for later
                turn = (turn + 1) % n
                continue
            if card < 0:
                if one_card and drew:
                    passes = 0  # the card drawn did not fit: the turn ends
                else:
                    passes = passes + 1 if not drew else 1
                    if passes >= n:
                        return blocked_share(rules.points, hands, me), step
                turn = (turn + 1) % n
                continue
            named = SUIT_OF[card]
            if RANK_OF[card] == EIGHT:
                named = favourite_suit(hand & ~(1 << card), off_pile)
        elif habits is not None and habits[turn] != MEDIUM_HABIT:
            card, named = habit_card(
                habits[turn], hand, playable, off_pile, rules.points, rng.random
            )
        else:
            card, named = choose_card(hand, playable, off_pile)
        hand &= ~(1 << card)
        hands[turn] = hand
        pile.append(card)
        suit, rank = named, RANK_OF[card]
        if rank != EIGHT:
            off_pile[SUIT_OF[card]] -= 1
        passes = 0
        if not hand:
            return (1.0 if turn == me else 0.0), step
        turn = (turn + 1) % n
    return blocked_share(rules.points, hands, me), STEPS


def blocked_share(points: tuple[int, ...], hands: list[int], me: int) -> float:
    """A blocked hand: the lowest points win (a share each on a tie)."""
    totals = []
    for hand in hands:
        total = 0
        while hand:
            low = hand & -hand
            total += points[low.bit_length() - 1]
            hand ^= low
        totals.append(total)
    low_total = min(totals)
    if totals[me] != low_total:
        return 0.0
    return 1.0 / totals.count(low_total)


BLOCKED: Final = -2
"""``draw_until_fits``'s card when the stock is out and the table's reshuffles are spent:
the hand is blocked."""


def reshuffle(stock: list[int], pile: list[int], off_pile: list[int], rng: random.Random) -> None:
    """Turn the pile but its top card into the stock (empty now), shuffled, in place; and
    count the cards of each suit off the pile (``off_pile``) again."""
    top = pile[-1]
    stock.extend(pile[:-1])
    del pile[:-1]
    shuffle(stock, rng.random)
    for s in range(4):
        off_pile[s] = (SUIT_MASK[s] & ~(1 << top)).bit_count()


def draw_until_fits(
    hand: int,
    fits: int,
    stock: list[int],
    pile: list[int],
    off_pile: list[int],
    reshuffles: int,
    max_draws: int,
    one_card: bool,
    can_reshuffle: bool,
    cap: int,
    rng: random.Random,
) -> tuple[int, int, int, int]:
    """A seat with nothing that fits draws, shared by the simulators: until a card of
    ``fits`` comes, ``max_draws`` cards, or one card (``one_card``); the stock turned from
    the pile when it runs out, while the table allows (``reshuffle``). The hand after, the
    card that fits (-1: none; ``BLOCKED``), the cards drawn, and the reshuffles so far."""
    drew = 0
    while drew < max_draws:
        if not stock:
            if not can_reshuffle or len(pile) < 2:
                break
            if reshuffles >= cap:
                return hand, BLOCKED, drew, reshuffles
            reshuffles += 1
            reshuffle(stock, pile, off_pile, rng)
        drawn = stock.pop()
        drew += 1
        hand |= 1 << drawn
        if fits >> drawn & 1:
            return hand, drawn, drew, reshuffles
        if one_card:
            break
    return hand, -1, drew, reshuffles
