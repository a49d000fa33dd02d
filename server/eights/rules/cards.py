"""Cards as small integers, and their names as players and files write them.

A card is ``suit * 13 + rank`` with ranks 0..12 for 2..A and suits 0..3 for clubs,
diamonds, hearts, spades. Files and devices use two characters: ``8H``, ``TS``, ``QS``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

Card = int
Suit = int

RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "CDHS"
RANK_NAMES = (
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "jack",
    "queen",
    "king",
    "ace",
)
RANK_PLURALS = tuple("sixes" if n == "six" else n + "s" for n in RANK_NAMES)
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
SUIT_SINGULAR = ("club", "diamond", "heart", "spade")

EIGHT: Final = 6  # rank index of the eight
TWO, SIX, SEVEN, NINE, TEN, JACK, QUEEN, KING, ACE = 0, 4, 5, 7, 8, 9, 10, 11, 12
CLUBS, DIAMONDS, HEARTS, SPADES = 0, 1, 2, 3

ALL_CARDS: Final[tuple[Card, ...]] = tuple(range(52))
RANK_OF: Final[tuple[int, ...]] = tuple(c % 13 for c in ALL_CARDS)
SUIT_OF: Final[tuple[Suit, ...]] = tuple(c // 13 for c in ALL_CARDS)
CODE_OF: tuple[str, ...] = tuple(RANK_CHARS[c % 13] + SUIT_CHARS[c // 13] for c in ALL_CARDS)
_BY_CODE = {code: card for card, code in enumerate(CODE_OF)}

DECKS: dict[str, tuple[Card, ...]] = {
    "52": ALL_CARDS,
    "36": tuple(c for c in ALL_CARDS if RANK_OF[c] >= SIX),
}
"""The decks by option value, each in canonical order: clubs, diamonds, hearts, spades,
each suit from its lowest rank to the ace. Shuffles start from this order."""


def make_card(rank: int, suit: Suit) -> Card:
    return suit * 13 + rank


def shown(value: object, most: int = 24) -> str:
    """A value from outside as a refusal quotes it: its repr, cut to ``most`` characters (a
    refusal never echoes a whole request back)."""
    text = repr(value)
    return text if len(text) <= most else text[: most - 1] + "\u2026"


def parse_card(text: object) -> Card:
    """``"8H"`` -> the eight of hearts; raises ValueError for anything else."""
    if not isinstance(text, str):
        raise ValueError(f"a card is two characters such as 8H, not {shown(text)}")
    card = _BY_CODE.get(text.upper())
    if card is None:
        raise ValueError(
            f"{shown(text)} is not a card: write a rank of {RANK_CHARS} and a suit of CDHS"
        )
    return card


def parse_suit(text: object) -> Suit:
    if isinstance(text, str) and len(text) == 1 and text.upper() in SUIT_CHARS:
        return SUIT_CHARS.index(text.upper())
    raise ValueError(f"{shown(text)} is not a suit: write one of C, D, H, S")


def card_code(card: Card) -> str:
    return CODE_OF[card]


def suit_code(suit: Suit) -> str:
    return SUIT_CHARS[suit]


def codes(cards: Iterable[Card]) -> list[str]:
    return [CODE_OF[c] for c in cards]


def card_name(card: Card) -> str:
    """``the eight of hearts``: how a sentence for a player names a card."""
    return f"the {RANK_NAMES[RANK_OF[card]]} of {SUIT_NAMES[SUIT_OF[card]]}"


def rank_name(card: Card) -> str:
    return RANK_NAMES[RANK_OF[card]]


def is_eight(card: Card) -> bool:
    return RANK_OF[card] == EIGHT
