"""Hard's reading of every move (``bots/reading.py``) is sound: over positions from real
games at every table and size, the hands the others really hold are always possible (each
card of them unseen, each placed in a slot that does not exclude it), and against Mediums
the search's dealer finds nothing in them against Medium's habit. The check itself catches
an unsound reading."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

import pytest

from eights.bots import decide, make_bot
from eights.bots.belief import EIGHTS, Belief, mask_of, read_belief
from eights.bots.hard import Hard
from eights.bots.interface import Bot
from eights.bots.playout import MEDIUM_HABIT
from eights.bots.reading import ALL_MASK, HEAVY, read_moves
from eights.bots.runner import bot_view
from eights.bots.search import Dealer
from eights.rules import Position, Rules, SeatView, apply_in_place, legal_actions, new_game
from eights.rules.cards import EIGHT, RANK_OF
from tests.sparring.heuristic import play as sparring

TABLES = [
    ("duo", 2),
    ("classic", 3),
    ("classic", 4),
    ("classic", 6),
    ("ember-ridge", 2),
    ("ember-ridge", 4),
    ("newfoundland", 2),
    ("newfoundland", 4),
    ("newfoundland", 7),
    ("hundred-and-one", 2),
    ("hundred-and-one", 4),
]


def players_of(seed: str) -> list[Bot]:
    """A mix of habits: Medium, Easy, Hard's judgement and the sparring bot."""
    return [make_bot("medium", seed), make_bot("easy", seed), Hard(seed, budget=None), sparring]


def positions(
    variant: str, players: int, games: int, seats: Callable[[str], list[Bot]] = players_of
) -> Iterator[tuple[Position, SeatView]]:
    """Every position with a choice along ``games`` games (the bots seated in turn)."""
    for game in range(games):
        pos = new_game(Rules.for_variant(variant, players), f"reading-{variant}-{game}")
        mix = seats(f"r{game}")
        bots = [mix[(game + seat) % len(mix)] for seat in range(players)]
        for _ in range(2000):
            if pos.outcome is not None:
                break
            legal = legal_actions(pos)
            view = bot_view(pos, pos.turn)
            if len(legal) > 1:
                yield pos, view
                action = decide(bots[pos.turn], view)
            else:
                action = legal[0]
            apply_in_place(pos, action)


def matches(cards: list[int], slots: list[int]) -> bool:
    """Whether each card can sit in its own slot that does not exclude it (a matching)."""
    return matching(cards, slots) is not None


def wrong_seats(pos: Position, view: SeatView, belief: Belief) -> list[int]:
    """The other seats whose real hand the belief rules out."""
    out = []
    for seat, hand in enumerate(pos.hands):
        if seat == view.seat:
            continue
        slots = list(belief.slots.get(seat, ()))
        if mask_of(hand) & ~belief.unseen or not matches(list(hand), slots):
            out.append(seat)
    return out


@pytest.mark.parametrize(("variant", "players"), TABLES)
def test_the_hands_the_others_hold_are_never_ruled_out(variant: str, players: int) -> None:
    checked = 0
    for pos, view in positions(variant, players, 400):
        if checked >= 1500:
            break
        belief, _ = read_moves(view)
        assert wrong_seats(pos, view, belief) == [], view.table.log
        checked += players - 1
    assert checked >= 1500


def matching(cards: list[int], slots: list[int]) -> dict[int, int] | None:
    """Each card placed in a slot of its own that does not exclude it (slot -> card), or
    None if there is no such placing."""
    owner: dict[int, int] = {}

    def place(card: int, tried: set[int]) -> bool:
        for slot, excluded in enumerate(slots):
            if excluded >> card & 1 or slot in tried:
                continue
            tried.add(slot)
            if slot not in owner or place(owner[slot], tried):
                owner[slot] = card
                return True
        return False

    if len(cards) != len(slots) or not all(place(card, set()) for card in cards):
        return None
    return owner


READ_TABLES = [(v, p) for v, p in TABLES if v != "newfoundland"]
"""The tables whose searches read the others' moves by habits (Newfoundland's does not)."""


@pytest.mark.parametrize(("variant", "players"), READ_TABLES)
def test_what_mediums_habit_reads_holds_for_a_medium(variant: str, players: int) -> None:
    # Against Mediums, the search's dealer explains every real hand by Medium's habit: the
    # cards can sit in the slots so that no slot holds a card the habit rules out for it,
    # and none of their recent choices goes against it. (Read against the whole hand rather
    # than each slot's own card, a card drawn after a choice counted against it.)
    checked = 0
    points = Rules.for_variant(variant, players).card_points
    mediums = lambda seed: [make_bot("medium", seed)]  # noqa: E731
    for pos, view in positions(variant, players, 200, mediums):
        if checked >= 600:
            break
        belief, told = read_moves(view)
        dealer = Dealer(view, belief, told, points, tells=variant != "hundred-and-one")
        hands = [0 if s == view.seat else mask_of(h) for s, h in enumerate(pos.hands)]
        held = [-1] * len(dealer.slots)
        for seat in range(players):
            if seat == view.seat:
                continue
            mine = [i for i, slot in enumerate(dealer.slots) if slot[0] == seat]
            placed = matching(
                list(pos.hands[seat]), [dealer.slots[i][1] | dealer.slots[i][2] for i in mine]
            )
            assert placed is not None, view.table.log
            for k, card in placed.items():
                held[mine[k]] = card
        missed = dealer.missed(hands, held)
        assert all(missed[s][0] == 0 for s in range(players) if s != view.seat), view.table.log
        # Nor did any of them lay a card Medium's habit said it did not hold.
        assert all(counts[HEAVY] == 0 for counts in told.broken.values()), view.table.log
        checked += players - 1
    assert checked >= 600


def test_the_check_catches_a_drawn_eight_kept_and_laid_later() -> None:
    # The belief Hard's search read before (a seat that laid an eight held nothing else that
    # fitted, as a rule; a laid card's slot guessed) rules out hands Mediums really hold at
    # classic with four seats: the same check finds them.
    wrong = 0
    for pos, view in positions("classic", 4, 40, lambda seed: [make_bot("medium", seed)]):
        wrong += len(wrong_seats(pos, view, read_belief(view, eights_tell=True)))
    assert wrong > 0


def test_a_habit_is_a_weight_not_a_rule() -> None:
    # Read as a rule, Medium's habit (the heaviest card of the suit in force) would rule out
    # hands a seat that does not keep it really holds; read as a weight it never does.
    against_habit = 0
    for pos, view in positions("duo", 2, 30, lambda seed: [make_bot("easy", seed)]):
        _, told = read_moves(view)
        other = 1 - view.seat
        hand = mask_of(pos.hands[other])
        marks = [slot[HEAVY] for slot in told.marks.get(other, [])]
        if any(mark & hand for mark in marks):
            against_habit += 1
    assert against_habit > 0


def test_a_habit_is_trusted_as_far_as_the_seat_has_shown_it() -> None:
    # A seat's habits are weighed by how well they explain its moves: one whose moves
    # Medium's habit explains on every deal is read by it more surely the more cards it has
    # chosen (each a chance to have shown it plays at random); one whose moves it explains
    # on no deal is read by it hardly ever, but never never.
    _, view = next(positions("duo", 2, 1, lambda seed: [make_bot("medium", seed)]))
    other = 1 - view.seat
    belief, told = read_moves(view)
    dealer = Dealer(view, belief, told, Rules.for_variant("duo", 2).card_points)
    dealer.tells = []
    dealer.read = [seat == other for seat in range(2)]
    unseen = sum(1 << c for c in dealer.unseen)
    shares = {}
    for marks in ("none", "all"):
        mark = unseen if marks == "all" else 0
        dealer.slots = [(other, 0, mark, 0, 0)] * len(dealer.slots)
        for chosen in (0, 2, 8):
            dealer.chance = [1.0, 1.0]
            dealer.chance[other] = 0.4**chosen
            dealer.saver = list(dealer.chance)
            dealer.estimate(random.Random(1))
            shares[marks, chosen] = dealer.posterior[other][0]
    assert shares["none", 0] < shares["none", 2] < shares["none", 8] < 1.0, shares
    assert shares["none", 8] > 0.8, shares  # the lightest-first habit explains it too
    assert 0.0 < shares["all", 8] < 0.01, shares


def test_a_card_laid_against_a_habit_breaks_it() -> None:
    # A seat that chose a light card of the suit in force and later laid a heavier one it
    # held then does not keep Medium's habit: the card is counted against the habit, and the
    # dealer hardly reads the seat by it after that. A Medium's never is (above).
    broken = 0
    for _, view in positions("duo", 2, 40, lambda seed: [sparring]):
        belief, told = read_moves(view)
        other = 1 - view.seat
        if not told.broken.get(other, [0, 0, 0])[HEAVY]:
            continue
        broken += 1
        dealer = Dealer(view, belief, told, Rules.for_variant("duo", 2).card_points)
        dealer.estimate(random.Random(broken))
        assert dealer.posterior[other][0] < 0.05, dealer.posterior[other]
    assert broken >= 20


def test_a_card_kept_after_a_draw_fitted_and_by_every_habit_is_an_eight() -> None:
    # At classic a seat may keep the card that fitted rather than lay it. By the rules the
    # card kept fitted; by every habit it is an eight (Medium keeps only an eight, and so
    # does every seat in the playouts): a seat read by a habit is dealt an eight for it.
    kept = 0
    rng = random.Random(8)
    points = Rules.for_variant("classic", 6).card_points
    for pos, view in positions("classic", 6, 80, lambda seed: [make_bot("medium", seed)]):
        last = view.table.log[-1]
        if last["type"] != "kept" or last["seat"] == view.seat:
            continue
        seat = last["seat"]
        assert any(RANK_OF[c] == EIGHT for c in pos.hands[seat])  # Medium kept an eight
        belief, told = read_moves(view)
        assert all(mark | EIGHTS == ALL_MASK for mark in told.marks[seat][-1])
        assert not belief.slots[seat][-1] & EIGHTS  # the rules alone: any card that fitted
        dealer = Dealer(view, belief, told, points)
        for _ in range(5):
            hands, _, _ = dealer.deal(rng, [MEDIUM_HABIT] * 6)
            assert hands[seat] & EIGHTS, view.table.log
        kept += 1
    assert kept >= 10
