"""Computer opponents: legal everywhere, repeatable under a seed, blind to hidden cards."""

from __future__ import annotations

import dataclasses
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from eights.bots import Bot, BotError, decide, load_bot, make_bot
from eights.bots.belief import read_belief
from eights.bots.hard import Hard
from eights.bots.hint import hint
from eights.bots.names import bot_name, think_delay
from eights.bots.runner import bot_view
from eights.bots.search import Budget
from eights.bots.tournament import run_tournament, wilson
from eights.rules import (
    Action,
    ActionType,
    Position,
    Rules,
    SeatView,
    apply_in_place,
    game_result,
    legal_actions,
    new_game,
    next_hand,
    position_from_json,
)
from eights.rules.cards import parse_card as parse
from tests.test_properties import scrambled

TABLES = [("duo", 2), ("classic", 3), ("classic", 2), ("ember-ridge", 4), ("ember-ridge", 2)]
LEVELS = ["easy", "medium", "hard"]


def quick(level: str, seed: str = "t") -> Bot:
    """The level, Hard searching without its clock: the same view always gets the same
    answer, however loaded the machine running the tests."""
    if level == "hard":
        return Hard(seed, budget=Budget(seconds=None))
    return make_bot(level, seed)


def midgame(variant: str, players: int, seed: str, steps: int) -> Position:
    """A position some random actions into a hand."""
    pos = new_game(Rules.for_variant(variant, players), seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if pos.outcome is not None:
            break
        legal = legal_actions(pos)
        apply_in_place(pos, legal[rng.randrange(len(legal))])
    return pos


@pytest.mark.parametrize(("variant", "players"), TABLES)
@pytest.mark.parametrize("level", LEVELS)
def test_every_level_plays_whole_hands_legally(variant: str, players: int, level: str) -> None:
    bot = quick(level)
    for game in range(2):
        pos = new_game(Rules.for_variant(variant, players), f"legal-{game}")
        for _ in range(3000):
            if pos.outcome is not None:
                break
            action = decide(bot, bot_view(pos, pos.turn))
            assert action in legal_actions(pos)
            apply_in_place(pos, action)
        assert pos.outcome is not None


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize(("variant", "players"), TABLES)
def test_a_bot_decides_the_same_whatever_the_hidden_cards(
    variant: str, players: int, level: str
) -> None:
    bot = quick(level)
    rng = random.Random(level)
    checked = 0
    for n in range(30):
        pos = midgame(variant, players, f"hidden-{n}", rng.randrange(0, 40))
        if pos.outcome is not None or len(legal_actions(pos)) < 2:
            continue
        seat = pos.turn
        choice = decide(bot, bot_view(pos, seat))
        for _ in range(3):
            other = scrambled(pos, seat, rng)
            assert decide(bot, bot_view(other, seat)) == choice
        checked += 1
    assert checked >= 5


def test_the_view_a_bot_gets_holds_no_position() -> None:
    view = bot_view(midgame("classic", 3, "graph", 10), 0)
    seen: set[int] = set()

    def walk(value: object) -> None:
        if id(value) in seen:
            return
        seen.add(id(value))
        assert not isinstance(value, Position)
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            for f in dataclasses.fields(value):
                walk(getattr(value, f.name))
        elif isinstance(value, dict):
            for k, v in value.items():
                walk(k)
                walk(v)
        elif isinstance(value, list | tuple | set | frozenset):
            for item in value:
                walk(item)

    walk(view)
    assert isinstance(view, SeatView)


def test_tournaments_repeat_under_a_seed() -> None:
    rules = Rules.for_variant("duo", 2)
    runs = [run_tournament(rules, 6, ["medium", "easy"], "same").to_json() for _ in range(2)]
    for run in runs:
        for bot in run["bots"]:
            for timing in ("decision_ms_median", "decision_ms_p95", "decision_cpu_ms_median",
                           "decision_cpu_ms_p95"):  # fmt: skip
                del bot[timing]
    assert runs[0] == runs[1]
    assert runs[0]["hands"] == 6


def test_seats_rotate_so_no_bot_keeps_the_first_move() -> None:
    specs = ["tests.example_bot:lowest_card", "easy"]
    report = run_tournament(Rules.for_variant("duo", 2), 6, specs)
    assert report.hands == 6
    assert [e.starts for e in report.entrants] == [3, 3]
    assert sum(e.wins for e in report.entrants) + report.ties == 6
    three = run_tournament(Rules.for_variant("classic", 3), 3, ["easy", "medium", "easy"])
    assert sum(e.starts for e in three.entrants) == three.hands
    assert all(e.starts > 0 for e in three.entrants)


def test_a_bot_from_outside_plugs_in_and_is_held_to_the_rules() -> None:
    bot = load_bot("tests.example_bot:lowest_card")
    pos = midgame("duo", 2, "outside", 0)
    assert decide(bot, bot_view(pos, pos.turn)) in legal_actions(pos)
    cheat = load_bot("tests.example_bot:cheater")
    with pytest.raises(BotError, match="not one of the legal actions"):
        decide(cheat, bot_view(pos, pos.turn))
    with pytest.raises(BotError):
        load_bot("tests.example_bot")
    with pytest.raises(BotError):
        load_bot("no.such.module:bot")


def test_tournament_command_prints_the_documented_json() -> None:
    # The installed console script, run from the repository, as docs/bots.md shows it.
    script = Path(sys.executable).with_name("eights")
    done = subprocess.run(
        [
            str(script),
            "tournament",
            "--games",
            "4",
            "--bots",
            "tests.example_bot:lowest_card,easy",
            "--seed",
            "cli",
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["hands"] == 4
    assert [b["name"] for b in data["bots"]] == ["tests.example_bot:lowest_card", "easy"]
    for bot in data["bots"]:
        for key in ("name", "wins", "win_rate", "ci95", "decision_ms_median", "decision_ms_p95"):
            assert key in bot
        low, high = bot["ci95"]
        assert 0 <= low <= bot["win_rate"] <= high <= 1


def test_wilson_interval() -> None:
    low, high = wilson(650, 1000)
    assert 0.619 < low < 0.621
    assert 0.678 < high < 0.680
    assert wilson(0, 0) == (0.0, 1.0)


def test_hint_names_a_legal_action_and_says_why() -> None:
    for n in range(10):
        pos = midgame("duo", 2, f"hint-{n}", 6)
        if pos.outcome is not None:
            continue
        view = bot_view(pos, pos.turn)
        given = hint(view)
        assert given is not None
        assert given.action in view.legal
        assert given.reason.endswith(".")
    other = bot_view(pos, (pos.turn + 1) % 2)
    assert hint(other) is None


def test_hint_uses_what_the_log_shows() -> None:
    rules = Rules.for_variant("duo", 2)
    # Seat 1 had to draw on hearts: it holds no heart. Seat 0 should lead a heart.
    pos = position_from_json(
        {
            "hands": [["4H", "4C", "KC", "8S"], ["2D", "3D", "5S"]],
            "pile": ["9H"],
            "stock": ["TS", "JH", "QC"],
            "turn": 1,
        },
        rules,
    )
    # Seat 1 has no card that fits: it draws TS (no heart, no nine), then JH, which fits,
    # and must play it. Each step is its only legal action.
    for expected in ("draw", "draw", "play"):
        (only,) = legal_actions(pos)
        assert only.type.value == expected
        apply_in_place(pos, only)
    view = bot_view(pos, 0)
    given = hint(view)
    assert given is not None
    # Leave hearts in force: lay the four of hearts, or the eight naming hearts.
    assert given.action.to_json() in (
        {"type": "play", "cards": ["4H"]},
        {"type": "play", "cards": ["8S"], "suit": "H"},
    )
    assert "shown no hearts" in given.reason


def test_names_and_pace() -> None:
    assert bot_name(0) == "Nutmeg"
    assert bot_name(6) == "Nutmeg 2"
    view = bot_view(midgame("duo", 2, "pace", 3), 0)
    choices, moment = len(view.legal), len(view.table.log)
    assert think_delay("instant", choices, moment) == 0.0
    assert 0.0 < think_delay("fast", choices, moment) < think_delay("slow", choices, moment) <= 3.0
    assert think_delay("normal", 1, moment) == 0.45


# --- Newfoundland: pickups, skips and reversals ------------------------------------------


def nf_view(data: dict[str, object], players: int = 4, seat: int | None = None) -> SeatView:
    """The view of the seat to act (or ``seat``) at a newfoundland table set out in ``data``."""
    pos = position_from_json(data, Rules.for_variant("newfoundland", players))
    return bot_view(pos, pos.turn if seat is None else seat)


def codes_of(action: object) -> object:
    assert hasattr(action, "to_json")
    return action.to_json()


def filler(*hands: int) -> list[list[str]]:
    """Hands of ordinary low clubs and diamonds (no special cards) of the given sizes."""
    pool = [f"{r}{s}" for s in "CD" for r in "34567"] + ["9C", "9D", "TC", "TD"]
    out: list[list[str]] = []
    for n in hands:
        out.append(pool[:n])
        pool = pool[n:]
    return out


@pytest.mark.parametrize("players", range(2, 8))
@pytest.mark.parametrize("level", LEVELS)
def test_every_level_plays_whole_newfoundland_games_legally(players: int, level: str) -> None:
    bot = quick(level)
    pos = new_game(Rules.for_variant("newfoundland", players), f"nf-{players}")
    hands = 0
    specials: set[str] = set()
    for _ in range(20000):
        if pos.outcome is not None:
            hands += 1
            if game_result(pos) is not None:
                break
            pos = next_hand(pos)
        view = bot_view(pos, pos.turn)
        action = decide(bot, view)
        assert action in legal_actions(pos)
        given = hint(view)
        assert given is not None
        assert given.action in view.legal
        for event in apply_in_place(pos, action):
            specials.add(type(event).__name__)
    assert game_result(pos) is not None, "the game did not end"
    assert hands >= 1
    assert {"PickupWaiting", "Took"} <= specials or hands == 1


def test_medium_answers_a_pickup_rather_than_take_it() -> None:
    view = nf_view(
        {
            "hands": [["2H", "2C", "5S", "KD"], *filler(5, 5, 5)],
            "pile": ["9S", "2S"],
            "stock": ["AC", "AD", "AH", "AS"],
            "pending": {"kind": "two", "count": 2},
        }
    )
    choice = decide(quick("medium"), view)
    assert choice.type.value == "play"
    assert len(choice.cards) == 1
    assert choice.cards[0] in {parse("2H"), parse("2C")}
    queen = nf_view(
        {
            "hands": [["QH", "5S", "KD"], *filler(5, 5, 5)],
            "pile": ["9S", "QS"],
            "stock": ["AC", "AD"],
            "pending": {"kind": "queen", "count": 5},
        }
    )
    assert codes_of(decide(quick("medium"), queen)) == {"type": "play", "cards": ["QH"]}


def test_medium_saves_its_twos_and_eights() -> None:
    view = nf_view(
        {
            "hands": [["2H", "8C", "5H", "KD"], *filler(5, 5, 5)],
            "pile": ["9H"],
            "stock": ["AC", "AD", "AH", "AS"],
        }
    )
    assert codes_of(decide(quick("medium"), view)) == {"type": "play", "cards": ["5H"]}
    only_specials = nf_view(
        {
            "hands": [["2H", "8C", "KD", "2C"], *filler(5, 5, 5)],
            "pile": ["9H"],
            "stock": ["AC", "AD", "AH", "AS"],
        }
    )
    # Only a two and an eight fit: one two (not both twos, not the eight).
    assert codes_of(decide(quick("medium"), only_specials)) == {"type": "play", "cards": ["2H"]}


def hard_at_four(hand: list[str], pile: list[str], counts: tuple[int, int, int]) -> object:
    """Hard's play in seat 0 of four, the others holding ``counts`` ordinary cards."""
    view = nf_view({"hands": [hand, *filler(*counts)], "pile": pile, "stock": ["AC", "AD"]})
    return codes_of(decide(quick("hard"), view))


def test_hard_lays_a_pickup_or_a_jack_at_the_next_seat_when_it_is_low() -> None:
    # The next seat (1) holds one card: a two, the queen of spades or a jack stops it.
    assert hard_at_four(["2H", "5H", "9S", "KC"], ["9H"], (1, 5, 5)) == {
        "type": "play",
        "cards": ["2H"],
    }
    assert hard_at_four(["QS", "5S", "9H", "KC"], ["9S"], (1, 5, 5)) == {
        "type": "play",
        "cards": ["QS"],
    }
    assert hard_at_four(["JH", "5H", "9S", "KC"], ["9H"], (1, 5, 5)) == {
        "type": "play",
        "cards": ["JH"],
    }
    # With the next seat far from going out, it keeps its two to answer with.
    assert hard_at_four(["2H", "5H", "9S", "KC"], ["9H"], (6, 5, 5)) == {
        "type": "play",
        "cards": ["5H"],
    }


def test_hard_turns_the_play_away_from_a_seat_about_to_go_out() -> None:
    # Seat 1 (next) holds one card, seat 3 (before) six: the king of hearts sends the play
    # to seat 3 first.
    assert hard_at_four(["KH", "5H", "9S", "AH"], ["9H"], (1, 5, 6)) == {
        "type": "play",
        "cards": ["KH"],
    }
    # The other way round (the seat before is the one about to go out), it does not.
    assert hard_at_four(["KH", "5H", "9S", "AH"], ["9H"], (6, 5, 1)) != {
        "type": "play",
        "cards": ["KH"],
    }


def test_hard_answers_and_keeps_a_two_when_the_other_seat_likely_holds_one() -> None:
    # Two players. The pile shows most of the pack, so of the ten cards unseen the other
    # seat holds seven: likely the last two. Hard's judgement (``weigh``, without its
    # search) answers with one two and keeps the other to answer again.
    shown = [f"{r}{s}" for s in "HS" for r in "3456789TJQA"] + ["AD", "QD", "JD", "TD", "9D"]
    data = {
        "hands": [["2H", "2C", "KS", "KD"], ["2D", "3C", "4C", "5C", "6C", "7C", "9C"]],
        "pile": [*shown, "2S"],
        "stock": ["TC", "JC", "QC"],
        "pending": {"kind": "two", "count": 2},
    }
    judgement = Hard("t", budget=None)
    choice = decide(judgement, nf_view(data, players=2))
    assert choice.type.value == "play"
    assert len(choice.cards) == 1
    assert decide(quick("hard"), nf_view(data, players=2)) == choice
    # With the last two shown on the pile, nobody can answer back: both twos go. (The
    # search takes the 2 instead, on evidence: the two twos it keeps are pickups nobody
    # can answer, each a move again at two players.)
    other = ["3C", "4C", "5C", "6C", "7C", "9C", "8D"]
    shown_all = {**data, "hands": [["2H", "2C", "KS", "KD"], other], "pile": ["2D", *shown, "2S"]}
    choice = decide(judgement, nf_view(shown_all, players=2))
    assert sorted(choice.cards) == sorted([parse("2H"), parse("2C")])
    assert decide(quick("hard"), nf_view(shown_all, players=2)).type is ActionType.TAKE


def test_hard_lays_its_jack_first_to_go_out_at_two_players() -> None:
    # Two players: a jack makes the other seat lose its turn, so jack then five empties the
    # hand this turn; the five first would leave the jack for a later turn.
    data = {"hands": [["5H", "JH"], ["3C", "4C", "5C"]], "pile": ["9H"], "stock": ["AC", "AD"]}
    assert codes_of(decide(quick("hard"), nf_view(data, players=2))) == {
        "type": "play",
        "cards": ["JH"],
    }


def test_the_belief_counts_the_cards_a_seat_took() -> None:
    # A two laid at seat 1, which takes it: its hand grows by two cards nobody has seen.
    rules = Rules.for_variant("newfoundland", 3)
    pos = position_from_json(
        {
            "hands": [["2H", "5H", "9S"], ["3C", "4C"], ["3D", "4D"]],
            "pile": ["9H"],
            "stock": ["AC", "AD", "AH", "AS"],
        },
        rules,
    )
    apply_in_place(pos, Action(ActionType.PLAY, (parse("2H"),)))
    apply_in_place(pos, Action(ActionType.TAKE))
    view = bot_view(pos, 0)
    assert [e["type"] for e in view.table.log][-3:] == ["played", "pickup", "took"]
    belief = read_belief(view)
    assert [len(belief.slots[s]) for s in (1, 2)] == [4, 2] == list(view.table.counts[1:])


def test_the_hint_while_a_pickup_waits() -> None:
    waiting = {
        "hands": [["2H", "5S", "KD"], *filler(5, 5, 5)],
        "pile": ["9S", "2S"],
        "stock": ["AC", "AD", "AH"],
        "pending": {"kind": "two", "count": 4},
    }
    given = hint(nf_view(waiting))
    assert given is not None
    assert given.action.to_json() == {"type": "play", "cards": ["2H"]}
    assert given.reason == (
        "Answer with the two of hearts rather than pick up 4: "
        "the pickup grows to 6 and goes to the next player."
    )
    no_answer = dict(waiting, hands=[["3H", "5S", "KD"], *filler(5, 5, 5)])
    given = hint(nf_view(no_answer))
    assert given is not None
    assert given.action.type is ActionType.TAKE
    assert given.reason == "Take the 4 cards: you have no two to answer with."
    jack = hint(nf_view({"hands": [["JH", "5H", "9S"], *filler(1, 5, 5)], "pile": ["9H"]}))
    assert jack is not None
    assert (
        jack.reason == "Play the jack of hearts: it skips the next player, who has one card left."
    )


@pytest.mark.parametrize(
    "overrides",
    [
        {"pickup_twos": 0},
        {"answering": False},
        {"pickup_queens": "all"},
        {"pickup_queens": "none", "skip_jacks": False, "reverse_kings": False},
        {"losers_pay": True},
    ],
)
def test_every_level_plays_the_newfoundland_house_rules_legally(
    overrides: dict[str, object],
) -> None:
    rules = Rules.for_variant("newfoundland", 4, overrides)
    for level in LEVELS:
        bot = quick(level)
        pos = new_game(rules, f"house-{level}")
        for _ in range(5000):
            if pos.outcome is not None:
                break
            view = bot_view(pos, pos.turn)
            action = decide(bot, view)
            assert action in legal_actions(pos)
            given = hint(view)
            assert given is not None
            assert given.action in view.legal
            apply_in_place(pos, action)
        assert pos.outcome is not None
