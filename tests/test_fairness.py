"""The shuffle derivation of docs/fairness.md: vectors, and an independent re-implementation."""

from __future__ import annotations

import hashlib
import hmac
from pathlib import Path
from typing import Any

import pytest

from eights.rules import Position, Rules, deal_hand, position_to_json
from eights.rules.cards import DECKS, codes
from eights.rules.shuffle import fingerprint, game_key, shuffled

SEED = "4f1c0e2d9a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d"
ENTROPY = ["alice-device-entropy", "bob-device-entropy"]
DOC = Path(__file__).resolve().parents[1] / "docs" / "fairness.md"

DEAL_52 = (
    "JH 4H 6C 2D 6H 9C 4S 8D 5C JS 4D QS 4C QD 3H KH 5S 9D JD AS KS KC QH 7H JC 7C 7S 3C 8H TS"
    " 2C 2S 8S AD 8C KD 5D TH TC 6D 2H 7D 6S AC 9H TD 5H 9S 3D 3S QC AH"
)
RESHUFFLE_3_2 = (
    "6C QS 5C 6D TS 7D QC AD 8H 3S 9S KD TD 6H 4S TH AH JC 2D 4H KC 9H JS 2C 8D KH AC 3C 7S 2S"
    " JH 8C 8S 9D QH TC 2H AS 5D 5S 7H 3H QD 6S KS 9C 7C JD 4D 5H 3D 4C"
)
DEAL_36 = (
    "TC KD 6S KS JS TH KH 7D TD TS 7H 8H QD KC QS JH JC 9C 8C 9D 6D QC 8S 7C 9H 6C 8D AC AS AD"
    " 9S JD 7S AH QH 6H"
)


def reference_shuffle(items: list[str], seed: str, entropy: list[str], h: int, s: int) -> list[str]:
    """Written from docs/fairness.md alone, word by word, without the engine's code."""
    message = b"eights/v1/key"
    for e in entropy:
        data = e.encode("utf-8")
        message += len(data).to_bytes(4, "big") + data
    key = hmac.new(seed.encode("utf-8"), message, hashlib.sha256).digest()
    xof = hashlib.shake_256(
        key + b"eights/v1/shuffle" + h.to_bytes(4, "big") + s.to_bytes(4, "big")
    )
    stream = xof.digest(4 * 4096)
    position = 0

    def next_word() -> int:
        nonlocal position
        word = int.from_bytes(stream[position : position + 4], "big")
        position += 4
        return word

    a = list(items)
    for i in range(len(a) - 1, 0, -1):
        bound = i + 1
        limit = 2**32 - (2**32 % bound)
        w = next_word()
        while w >= limit:
            w = next_word()
        j = w % bound
        a[i], a[j] = a[j], a[i]
    return a


def test_fingerprint_is_sha256_of_the_seed() -> None:
    assert fingerprint(SEED) == "b6ba50c12f73b97721b33fea4ab0e517d0ef21302741aade02c94b359c5cfe08"
    assert fingerprint(SEED) == hashlib.sha256(SEED.encode()).hexdigest()


def test_game_key_vectors() -> None:
    assert game_key(SEED).hex() == (
        "e6d98a0097ddfbd2ba332e52e3af5707583334f503e1640636148ecee0d1132c"
    )
    assert game_key(SEED, ENTROPY).hex() == (
        "40f409ddc9b9362edd12ec129e000b06981252f7798dc51064605cfe92888f06"
    )


@pytest.mark.parametrize(
    ("deck", "hand_no", "shuffle_no", "expected"),
    [("52", 0, 0, DEAL_52), ("52", 3, 2, RESHUFFLE_3_2), ("36", 0, 0, DEAL_36)],
)
def test_shuffle_vectors(deck: str, hand_no: int, shuffle_no: int, expected: str) -> None:
    key = game_key(SEED, ENTROPY)
    assert " ".join(codes(shuffled(DECKS[deck], key, hand_no, shuffle_no))) == expected
    reference = reference_shuffle(codes(DECKS[deck]), SEED, ENTROPY, hand_no, shuffle_no)
    assert " ".join(reference) == expected


@pytest.mark.parametrize("seed", ["", "x", "bury-6", SEED, "ünïcode seed"])
@pytest.mark.parametrize("size", [2, 5, 36, 52])
def test_engine_agrees_with_the_reference(seed: str, size: int) -> None:
    items = [f"c{i}" for i in range(size)]
    for h, s in [(0, 0), (1, 0), (0, 1), (7, 19)]:
        assert shuffled(items, game_key(seed, ["e"]), h, s) == reference_shuffle(
            items, seed, ["e"], h, s
        )


def test_entropy_changes_the_deck_and_its_boundaries_matter() -> None:
    deck = DECKS["52"]
    plain = shuffled(deck, game_key(SEED), 0, 0)
    mixed = shuffled(deck, game_key(SEED, ["a"]), 0, 0)
    assert plain != mixed
    # Length prefixes: ["ab", "c"] and ["a", "bc"] are different contributions.
    assert game_key(SEED, ["ab", "c"]) != game_key(SEED, ["a", "bc"])


def test_duo_deal_vector() -> None:
    pos = deal_hand(Rules.for_variant("duo", 2), seed=SEED, entropy=ENTROPY)
    data = position_to_json(pos)
    assert data["hands"] == [
        "JH 6C 6H 4S 5C 4D 4C".split(),
        "4H 2D 9C 8D JS QS QD".split(),
    ]
    assert data["pile"] == ["3H"]
    assert data["stock"] == DEAL_52.split()[15:]
    assert data["turn"] == 0
    assert data["dealer"] == 1


def test_opening_eight_is_buried_in_the_middle() -> None:
    pos = deal_hand(Rules.for_variant("duo", 2), seed="bury-6")
    data = position_to_json(pos)
    assert data["hands"] == ["6C 8S 9D 7C 2S 4S 7H".split(), "QC 6H 7S 4H 5D 3C TS".split()]
    assert data["pile"] == ["AS"]
    assert len(data["stock"]) == 37
    assert data["stock"].index("8C") == 17
    assert data["stock"][:3] == ["TC", "TH", "4C"]


def test_the_doc_shows_the_vectors_the_tests_check() -> None:
    text = DOC.read_text()
    for vector in (DEAL_52, RESHUFFLE_3_2, DEAL_36, fingerprint(SEED), game_key(SEED).hex()):
        assert vector in text


def reference_dice(seed: str, entropy: list[str], seats: int) -> tuple[int, list[tuple[int, ...]]]:
    """The first dealer by dice, written from docs/fairness.md alone."""
    message = b"eights/v1/key"
    for e in entropy:
        data = e.encode("utf-8")
        message += len(data).to_bytes(4, "big") + data
    key = hmac.new(seed.encode("utf-8"), message, hashlib.sha256).digest()
    stream = hashlib.shake_256(key + b"eights/v1/dice").digest(4 * 4096)
    position = 0

    def die() -> int:
        nonlocal position
        while True:
            word = int.from_bytes(stream[position : position + 4], "big")
            position += 4
            if word < 4294967292:
                return word % 6 + 1

    rolls: list[tuple[int, ...]] = []
    rolling = list(range(seats))
    round_no = 0
    while True:
        totals = {}
        for seat in rolling:
            first, second = die(), die()
            rolls.append((round_no, seat, first, second))
            totals[seat] = first + second
        best = max(totals.values())
        rolling = [s for s in rolling if totals[s] == best]
        if len(rolling) == 1:
            return rolling[0], rolls
        round_no += 1


@pytest.mark.parametrize("seed", ["", "x", "dice-13", SEED, "ünïcode seed"])
@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_the_first_dealer_by_dice_follows_the_documented_recipe(seed: str, seats: int) -> None:
    from eights.rules import new_game

    pos = new_game(Rules.for_variant("hundred-and-one", seats), seed, ["e"])
    dice = view_json_log(pos)[0]
    dealer, rolls = reference_dice(seed, ["e"], seats)
    assert pos.dealer == dealer
    assert dice["dealer"] == dealer
    assert [(r["round"], r["seat"], *r["dice"]) for r in dice["rolls"]] == rolls


def view_json_log(pos: Position) -> list[dict[str, Any]]:
    from eights.rules import public_view

    return list(public_view(pos).log)


def test_the_dice_vectors_of_the_doc() -> None:
    assert reference_dice(SEED, ENTROPY, 4) == (
        1,
        [(0, 0, 1, 5), (0, 1, 3, 6), (0, 2, 5, 2), (0, 3, 3, 3)],
    )
    assert reference_dice("dice-13", [], 4)[0] == 3
    text = DOC.read_text()
    key = game_key(SEED, ENTROPY)
    assert hashlib.shake_256(key + b"eights/v1/dice").digest(4).hex() in text
    assert "seat 3 deals" in text
