"""Properties of the 101 table at two to six seats, house rules on and off.

Random self-play from seeded deals: after every action each of the 36 cards is in exactly
one place (a hand, the table or the bank) and seats out of the game hold none; every round
ends within a bounded number of actions; every legal action is accepted (a bridge too, sent
by the seat that may declare it) and every other action is refused without changing the
position; no seat's view holds another seat's cards, the bank's order or the seed; and over
whole games the totals follow the limit (landing on it or on half of it resets, over it is out).
"""

from __future__ import annotations

import json
import os
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from eights.rules import (
    Action,
    ActionType,
    Applied,
    Position,
    Rejection,
    Rules,
    SeatView,
    apply,
    event_for,
    legal_actions,
    new_game,
    next_hand,
    position_from_json,
    public_view,
    totals_after,
    view_for,
)
from eights.rules.actions import BRIDGE
from eights.rules.cards import CODE_OF, DECKS, parse_card
from eights.rules.engine import bridge_declarable, finish_game
from eights.rules.events import (
    BankRenewed,
    BridgeDeclared,
    Dice,
    Eliminated,
    Penalty,
    Skipped,
    TotalReset,
)
from tests.helpers import cards_in, snapshot

VARIANT = "hundred-and-one"
Options = dict[str, object]
HOUSE_ON: Options = {}
HOUSE_OFF: Options = {"game_end": "host", "limit": None, "bank_multiplier": False, "bridges": False}
TABLES: list[tuple[int, Options]] = [
    *[(n, HOUSE_ON) for n in range(2, 7)],
    *[(n, HOUSE_OFF) for n in range(2, 7)],
    (3, {"bank_multiplier": False}),
    (4, {"bridges": False}),
    (2, {"game_end": "host", "limit": None}),
]
STEP_LIMIT = 5_000
"""More actions than any round takes: the property is that every round ends well before."""

SCALE = int(os.environ.get("EIGHTS_PROPERTY_SCALE", "1"))
DECK = frozenset(DECKS["36"])

tables = st.sampled_from(TABLES)
seeds = st.text(min_size=0, max_size=10).map(lambda text: "secret-seed-" + text)
rngs = st.integers(min_value=0, max_value=2**32)
random_actions = st.builds(
    lambda kind, cards, suit: Action(kind, tuple(cards), suit),
    st.sampled_from(list(ActionType)),
    st.lists(st.sampled_from(sorted(DECK)), min_size=0, max_size=3, unique=True),
    st.one_of(st.none(), st.integers(min_value=0, max_value=3)),
)


def rules_for(players: int, options: Options) -> Rules:
    return Rules.for_variant(VARIANT, players, dict(options))


def out_seats(pos: Position) -> list[int]:
    return list(getattr(pos, "out", []) or [])


def declarer(pos: Position) -> int | None:
    """The seat that may declare a bridge now, if any."""
    seats = [s for s in range(pos.players) if bridge_declarable(pos, s)]
    assert len(seats) <= 1, "two seats may declare a bridge"
    return seats[0] if seats else None


def assert_cards_conserved(pos: Position) -> None:
    places = [c for hand in pos.hands for c in hand] + pos.pile + pos.stock
    counts = Counter(places)
    assert all(n == 1 for n in counts.values()), "a card is in two places"
    assert set(counts) == DECK, "a card of the 36 is missing"
    assert len(places) == 36
    for seat in out_seats(pos):
        assert pos.hands[seat] == [], "a seat out of the game holds cards"


def scrambled(pos: Position, seat: int, rng: random.Random) -> Position:
    """The same table as ``seat`` sees it, with every card hidden from it dealt anew: the
    other hands and the bank exchange cards, and the bank is reordered."""
    other = pos.copy()
    hidden = [c for s, h in enumerate(pos.hands) if s != seat for c in h] + pos.stock
    rng.shuffle(hidden)
    for s, hand in enumerate(pos.hands):
        if s != seat:
            other.hands[s] = [hidden.pop() for _ in hand]
    other.stock = hidden
    return other


def assert_views_hide(pos: Position) -> None:
    """Each seat's view is the same whatever the cards hidden from it are (so it holds no
    other seat's card and not the bank's order), holds its own hand, reads back, and holds
    the seed only once the game is over."""
    rng = random.Random(repr(pos.hands))
    game_over = public_view(pos).game_over is not None
    for seat in range(pos.players):
        data = view_for(pos, seat).to_json()
        assert data["hand"] == [CODE_OF[c] for c in pos.hands[seat]]
        assert SeatView.from_json(data).to_json() == data, "a view does not read back"
        if pos.outcome is None:
            assert view_for(scrambled(pos, seat, rng), seat).to_json() == data, (
                "a view changes with cards hidden from the seat"
            )
        if not game_over:
            assert data["seed"] is None
            assert "secret-seed-" not in json.dumps(data)
    public = public_view(pos)
    if pos.outcome is None:
        assert public.to_json() == public_view(scrambled(pos, -1, rng)).to_json()
    if not game_over:
        assert "secret-seed-" not in json.dumps(public.to_json())


def step(pos: Position, rng: random.Random) -> tuple[int, Action]:
    """A random accepted action: now and then the declarer's bridge, else a legal action."""
    seat = declarer(pos)
    if seat is not None and rng.random() < 0.3:
        return seat, BRIDGE
    legal = legal_actions(pos)
    assert legal, "a seat with no legal action in a round that is not over"
    return pos.turn, legal[rng.randrange(len(legal))]


def play_out(pos: Position, rng: random.Random, check_views: bool = False) -> Position:
    """Play a round to its end with random accepted actions, checking after each (the views
    after each of the first 40 actions, then after every tenth: a view holds the round's log)."""
    for n in range(STEP_LIMIT):
        if pos.outcome is not None:
            return pos
        seat, action = step(pos, rng)
        result = apply(pos, seat, action)
        assert isinstance(result, Applied), f"legal {action} of seat {seat} refused: {result}"
        pos = result.position
        assert_cards_conserved(pos)
        assert pos.turn not in out_seats(pos) or pos.outcome is not None
        if check_views and (n < 40 or n % 10 == 0 or pos.outcome is not None):
            assert_views_hide(pos)
    raise AssertionError("the round did not end")


@settings(max_examples=300 * SCALE, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables, seeds, rngs)
def test_cards_conserved_and_every_round_ends(
    table: tuple[int, Options], seed: str, choice: int
) -> None:
    players, options = table
    pos = new_game(rules_for(players, options), seed)
    assert_cards_conserved(pos)
    end = play_out(pos, random.Random(choice))
    assert end.outcome is not None
    assert len(end.outcome.points) == players


@settings(max_examples=15 * SCALE, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables, seeds, rngs)
def test_views_hide_other_hands_the_bank_and_the_seed(
    table: tuple[int, Options], seed: str, choice: int
) -> None:
    players, options = table
    pos = new_game(rules_for(players, options), seed)
    assert_views_hide(pos)
    play_out(pos, random.Random(choice), check_views=True)


@settings(max_examples=120 * SCALE, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables, seeds, rngs, st.lists(random_actions, min_size=1, max_size=20))
def test_legal_accepted_and_refused_change_nothing(
    table: tuple[int, Options], seed: str, choice: int, tries: list[Action]
) -> None:
    players, options = table
    rng = random.Random(choice)
    pos = new_game(rules_for(players, options), seed)
    for k in range(60):
        attempt = tries[k % len(tries)]
        if pos.outcome is not None:
            break
        legal = legal_actions(pos)
        assert (BRIDGE in legal) == (declarer(pos) == pos.turn), "bridge offered wrongly"
        for action in legal:
            assert isinstance(apply(pos, pos.turn, action), Applied), f"legal {action} refused"
        for seat in range(players):
            before = snapshot(pos)
            result = apply(pos, seat, attempt)
            allowed = (seat == pos.turn and attempt in legal) or (
                attempt == BRIDGE and bridge_declarable(pos, seat)
            )
            if allowed:
                assert isinstance(result, Applied), f"{attempt} of seat {seat} refused"
            else:
                assert isinstance(result, Rejection), f"{attempt} of seat {seat} accepted"
                assert result.code
                assert result.message
            assert snapshot(pos) == before, "apply changed the position it was given"
        seat, action = step(pos, rng)
        applied = apply(pos, seat, action)
        assert isinstance(applied, Applied)
        pos = applied.position


@settings(max_examples=100 * SCALE, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables, seeds, rngs, st.integers(min_value=0, max_value=400))
def test_host_finish_scores_nothing_of_the_round(
    table: tuple[int, Options], seed: str, choice: int, steps: int
) -> None:
    """The host may finish the game at any time: the round under way is not scored and the
    lowest total wins (every tied seat wins)."""
    players, options = table
    rng = random.Random(choice)
    pos = new_game(rules_for(players, options), seed)
    for _ in range(steps):
        if pos.outcome is not None:
            pos = next_hand(pos) if public_view(pos).game_over is None else pos
            if pos.outcome is not None:
                break
        seat, action = step(pos, rng)
        applied = apply(pos, seat, action)
        assert isinstance(applied, Applied)
        pos = applied.position
    if public_view(pos).game_over is not None:
        return
    before = snapshot(pos)
    totals = list(pos.scores) if pos.outcome is None else totals_after(pos)
    finished = finish_game(pos)
    assert snapshot(pos) == before
    assert isinstance(finished, Applied)
    game = public_view(finished.position).game_over
    assert game is not None
    assert list(game.scores) == totals
    in_game = [s for s in range(players) if s not in out_seats(pos)]
    low = min(totals[s] for s in in_game)
    assert sorted(game.winners) == [s for s in in_game if totals[s] == low]


def limit_of(pos: Position) -> int | None:
    limit = getattr(pos.rules.options, "limit", None)
    return None if limit is None else int(limit)


@settings(max_examples=30 * SCALE, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables, seeds, rngs)
def test_whole_games_follow_the_limit(table: tuple[int, Options], seed: str, choice: int) -> None:
    """Totals add up round by round; with a limit, landing exactly on it or on half of it
    (rounded down) sends a total to 0, over it a seat is out (dealt no cards, never acts),
    and the game ends when one seat is left; without one it never ends by itself."""
    players, options = table
    rng = random.Random(choice)
    pos = new_game(rules_for(players, options), seed)
    dice = [e for e in pos.log if isinstance(e, Dice)]
    assert len(dice) == 1, "the first hand's log holds the dice that chose the dealer"
    last_round = max(r[0] for r in dice[0].rolls)
    final = {seat: a + b for n, seat, a, b in dice[0].rolls if n == last_round}
    best = max(final.values())
    assert [s for s, t in final.items() if t == best] == [pos.dealer] == [dice[0].dealer]
    for _ in range(25):
        pos = play_out(pos, rng)
        assert pos.outcome is not None
        limit = limit_of(pos)
        out = set(out_seats(pos))
        expected = []
        for s, (total, points) in enumerate(zip(pos.scores, pos.outcome.points, strict=True)):
            if s in out:
                assert points == 0, "a seat out of the game scored"
                expected.append(total)
                continue
            new = total + points
            if limit is not None and new in (limit, limit // 2):
                new = 0
            expected.append(new)
        assert totals_after(pos) == expected
        left = [s for s, t in enumerate(expected) if limit is None or t <= limit]
        over = public_view(pos).game_over is not None
        assert over == (len(left) <= 1), (left, expected)
        if over:
            return
        last_dealer = pos.dealer
        pos = next_hand(pos)
        assert pos.scores == expected
        after_last = [(last_dealer + k) % players for k in range(1, players + 1)]
        in_order = [s for s in after_last if s in left]
        highest = max(expected[s] for s in left)
        assert pos.dealer == next(s for s in in_order if expected[s] == highest), (
            "the highest total among the seats still in deals (the first after the last dealer)"
        )
        assert sorted(out_seats(pos)) == [s for s in range(players) if s not in left]
        assert_cards_conserved(pos)


def test_random_play_reaches_every_rule() -> None:
    """The random games above are not idle: a fixed set of them penalises with sevens, eights
    and the queen of spades, skips, renews the bank, covers sixes, declares bridges, resets
    totals and puts seats out."""
    seen: set[str] = set()
    for k in range(40):
        players, options = TABLES[k % 5][0], HOUSE_ON
        rng = random.Random(k)
        pos = new_game(rules_for(players, options), f"secret-seed-reach-{k}")
        for _ in range(30):
            while pos.outcome is None:
                if getattr(pos, "cover", False):
                    seen.add("cover")
                seat, action = step(pos, rng)
                applied = apply(pos, seat, action)
                assert isinstance(applied, Applied)
                pos = applied.position
                for event in applied.events:
                    if isinstance(event, Penalty):
                        seen.add(f"penalty:{event.cause}")
                    elif isinstance(
                        event, (BankRenewed, BridgeDeclared, Skipped, TotalReset, Eliminated)
                    ):
                        seen.add(type(event).__name__)
            if public_view(pos).game_over is not None:
                break
            pos = next_hand(pos)
    wanted = {"cover", "BankRenewed", "BridgeDeclared", "Skipped", "TotalReset", "Eliminated"}
    assert wanted <= seen, sorted(wanted - seen)
    assert sum(1 for s in seen if s.startswith("penalty:")) >= 3, sorted(seen)


def _position(data: dict[str, object], players: int) -> Position:
    return position_from_json(data, rules_for(players, HOUSE_ON))


def test_penalty_cards_shown_only_to_the_seat_that_drew_them() -> None:
    """A penalty is announced to every seat with its count; its cards only to the drawer."""
    pos = _position(
        {
            "hands": [["8H", "KC"], ["TD", "QC"], ["TH", "AS"]],
            "pile": ["9H"],
            "stock": ["6C", "6D", "7S"],
            "dealer": 2,
        },
        3,
    )
    applied = apply(pos, 0, Action(ActionType.PLAY, (parse_card("8H"),)))
    assert isinstance(applied, Applied)
    penalties = [e for e in applied.events if isinstance(e, Penalty)]
    assert len(penalties) == 1
    drawer = event_for(penalties[0], 1)
    assert drawer["type"] == "penalty"
    assert drawer["count"] == 2
    assert drawer["cards"] == ["6C", "6D"]
    for seat in (0, 2, None):
        told = event_for(penalties[0], seat)
        assert told["count"] == 2
        assert "cards" not in told
        assert not cards_in(told) & {"6C", "6D"}
    assert [e for e in applied.events if isinstance(e, Skipped)] == [Skipped(1)]


def test_view_fields_of_the_table() -> None:
    """The view's 101 fields (contract): multiplier, draws_left for the seat to act, cover,
    bridge, out, limit, skips and opening, the same for every seat."""
    pos = _position(
        {
            "hands": [["9S", "7C", "KD"], ["TD", "8S", "QH"], ["6D", "7D"], []],
            "pile": ["9C", "JH"],
            "stock": ["AC", "AD"],
            "suit": "S",
            "turn": 0,
            "multiplier": 3,
            "draws": 2,
            "skips": [0, 0, 1, 0],
            "out": [3],
            "scores": [40, 12, 0, 130],
            "dealer": 1,
        },
        4,
    )
    for seat in range(4):
        data = view_for(pos, seat).to_json()
        assert data["multiplier"] == 3
        assert data["draws_left"] == 1
        assert data["cover"] is False
        assert data["bridge"] is None
        assert data["out"] == [3]
        assert data["limit"] == 101
        assert data["skips"] == [0, 0, 1, 0]
        assert data["opening"] is False
    off = position_from_json(
        {"hands": [["9S"], ["TD"]], "pile": ["9C"], "stock": [], "dealer": 1},
        rules_for(2, HOUSE_OFF),
    )
    assert view_for(off, 0).to_json()["limit"] is None
