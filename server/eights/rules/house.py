"""House rules: the choices a host may make for a table before the deal.

Each house rule is a short question with a few named answers, and each answer is a set
of option overrides (``options.py``). The menu is per variant, and the answer the
variant's own text gives is its standard. Rooms turn a host's answers into overrides and
tell every seat which answers are in force; ``docs/rules.md`` lists them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .options import OptionError, Options
from .variants import get_variant


@dataclass(frozen=True)
class HouseChoice:
    """One answer to a house rule: its id, its words, and the options it sets."""

    key: str
    label: str
    overrides: Mapping[str, Any]


@dataclass(frozen=True)
class HouseRule:
    """A question a host may answer before the deal, with its answers."""

    key: str
    label: str
    choices: tuple[HouseChoice, ...]

    def choice(self, key: str) -> HouseChoice | None:
        return next((c for c in self.choices if c.key == key), None)


DRAWING = HouseRule(
    "drawing",
    "When nothing fits",
    (
        HouseChoice(
            "until_fits_play",
            "Draw until a card fits, then play it",
            {"draw_rule": "until_fits", "drawn_card": "must_play"},
        ),
        HouseChoice(
            "until_fits_keep",
            "Draw until a card fits, then play it or keep it",
            {"draw_rule": "until_fits", "drawn_card": "may_keep"},
        ),
        HouseChoice(
            "one_card",
            "Draw one card: play it if it fits, or your turn ends",
            {"draw_rule": "one_card", "drawn_card": "must_play"},
        ),
        HouseChoice(
            "one_card_keep",
            "Draw one card: play it or keep it",
            {"draw_rule": "one_card", "drawn_card": "may_keep"},
        ),
    ),
)

DRAW_AT_WILL = HouseRule(
    "draw_at_will",
    "Drawing while you hold a card that fits",
    (
        HouseChoice("no", "Not allowed: play a card that fits", {"draw_with_legal": False}),
        HouseChoice("yes", "Allowed: you may draw instead", {"draw_with_legal": True}),
    ),
)

EMPTY_STOCK = HouseRule(
    "empty_stock",
    "When the stock runs out",
    (
        HouseChoice(
            "reshuffle",
            "The pile under its top card becomes a new stock",
            {"reshuffle": True},
        ),
        HouseChoice("pass", "No new stock: nothing fits, you pass", {"reshuffle": False}),
    ),
)

OPENING_EIGHT = HouseRule(
    "opening_eight",
    "An eight turned up to start the pile",
    (
        HouseChoice(
            "bury",
            "Goes back into the stock; the next card is turned",
            {"opening_eight": "bury"},
        ),
        HouseChoice(
            "stays",
            "Stays: follow its suit, or play an eight",
            {"opening_eight": "stays"},
        ),
    ),
)


def _on_off(
    key: str, label: str, on: tuple[str, Mapping[str, Any]], off: tuple[str, Mapping[str, Any]]
) -> HouseRule:
    return HouseRule(key, label, (HouseChoice("on", *on), HouseChoice("off", *off)))


TWOS = _on_off(
    "twos",
    "Twos",
    ("The next player picks up 2; up to four twos go down together", {"pickup_twos": 2}),
    ("Ordinary cards", {"pickup_twos": 0}),
)

JACKS = _on_off(
    "jacks",
    "Jacks",
    ("Skip the next player", {"skip_jacks": True}),
    ("Ordinary cards", {"skip_jacks": False}),
)

QUEENS = HouseRule(
    "queens",
    "Queens",
    (
        HouseChoice(
            "spades",
            "Only the queen of spades: the next player picks up 5",
            {"pickup_queens": "spades"},
        ),
        HouseChoice("all", "Every queen is a pickup five", {"pickup_queens": "all"}),
        HouseChoice("off", "Ordinary cards", {"pickup_queens": "none"}),
    ),
)

KINGS = _on_off(
    "kings",
    "Kings",
    ("Turn the play around", {"reverse_kings": True}),
    ("Ordinary cards", {"reverse_kings": False}),
)

ANSWERING = _on_off(
    "answering",
    "A pickup",
    ("Answer it (a two for twos, a queen for a queen) or take it", {"answering": True}),
    ("Take it and sit out, every time", {"answering": False}),
)

LOSERS_GO_DOWN = HouseRule(
    "losers_go_down",
    "At the end of a hand",
    (
        HouseChoice("off", "Only the winner's total moves", {"losers_pay": False}),
        HouseChoice(
            "on", "Losers go down as well: each takes its own cards off", {"losers_pay": True}
        ),
    ),
)


def _game_to(*targets: int, standard: HouseChoice | None = None) -> HouseRule:
    choices = [standard] if standard else []
    choices += [HouseChoice(str(t), f"First to {t} points", {"target": t}) for t in targets]
    return HouseRule("game_to", "A game is played to", tuple(choices))


SCORING = HouseRule(
    "scoring",
    "The scoring",
    (
        HouseChoice(
            "winner",
            "The winner of a hand scores the cards left in the other hands; most points wins",
            {
                "win_points": "others_cards",
                "blocked_points": "others_cards",
                "game_winner": "highest",
            },
        ),
        HouseChoice(
            "own",
            "Everyone scores the cards left in their own hand; once someone reaches the target, "
            "the lowest total wins",
            {"win_points": "own_cards", "blocked_points": "own_cards", "game_winner": "lowest"},
        ),
    ),
)
"""The Menu changes "the scoring": the text's own (the winner takes the others' cards), or
each hand counted against its holder."""


LIMIT = HouseRule(
    "limit",
    "The game's limit",
    (
        HouseChoice(
            "none",
            "No limit: the game goes on until the host finishes it",
            {"game_end": "host", "limit": None},
        ),
        *(
            HouseChoice(
                str(n),
                f"{n}: over it you are out; exactly {n} or {n // 2} goes back to 0",
                {"game_end": "limit", "limit": n},
            )
            for n in (51, 101, 151, 201)
        ),
    ),
)

BANK_MULTIPLIER = _on_off(
    "bank_multiplier",
    "When the bank runs out",
    ("The round's points are multiplied: x2, then x3, ...", {"bank_multiplier": True}),
    ("The points stay as they are", {"bank_multiplier": False}),
)

BRIDGES = _on_off(
    "bridges",
    "Bridges",
    ("Four tens, jacks, queens, kings or aces in a row may be declared", {"bridges": True}),
    ("No bridges", {"bridges": False}),
)

HOUSE_RULES: Mapping[str, tuple[HouseRule, ...]] = {
    "duo": (DRAWING, DRAW_AT_WILL, EMPTY_STOCK, OPENING_EIGHT),
    "classic": (
        DRAWING,
        DRAW_AT_WILL,
        EMPTY_STOCK,
        OPENING_EIGHT,
        _game_to(50, 100, 150, 200, 250),
    ),
    "newfoundland": (
        TWOS,
        JACKS,
        QUEENS,
        KINGS,
        ANSWERING,
        LOSERS_GO_DOWN,
        _game_to(50, 100, 250, 500, 1000),
    ),
    "ember-ridge": (
        DRAWING,
        DRAW_AT_WILL,
        EMPTY_STOCK,
        OPENING_EIGHT,
        SCORING,
        _game_to(
            50,
            100,
            150,
            200,
            300,
            standard=HouseChoice(
                "by_table",
                "100 at two players, 150 at three, 200 at four",
                {"target": {"2": 100, "3": 150, "4": 200}},
            ),
        ),
    ),
    "hundred-and-one": (LIMIT, BANK_MULTIPLIER, BRIDGES),
}
"""The house rules of every variant, in the order a settings panel shows them."""


def house_rules(variant: str) -> tuple[HouseRule, ...]:
    """The house rules a host may set at ``variant``; raises OptionError for no such table."""
    get_variant(variant)
    return HOUSE_RULES.get(variant, ())


def _answers(choice: HouseChoice, options: Options) -> bool:
    return options.replace(choice.overrides) == options


def house_choices(variant: str, options: Options) -> dict[str, str]:
    """Which answer of each house rule ``options`` gives (absent where none matches)."""
    out: dict[str, str] = {}
    for rule in house_rules(variant):
        found = next((c for c in rule.choices if _answers(c, options)), None)
        if found is not None:
            out[rule.key] = found.key
    return out


def standard_choices(variant: str) -> dict[str, str]:
    """The answers the variant's own rule text gives."""
    return house_choices(variant, get_variant(variant).options)


def house_overrides(variant: str, answers: Mapping[str, Any]) -> dict[str, Any]:
    """The option overrides a host's answers make; raises OptionError naming a bad answer."""
    rules = {rule.key: rule for rule in house_rules(variant)}
    overrides: dict[str, Any] = {}
    for key, answer in answers.items():
        rule = rules.get(key)
        if rule is None:
            known = ", ".join(rules) or "none"
            raise OptionError(
                f"the {variant} table has no house rule {key!r}; its house rules are: {known}"
            )
        choice = rule.choice(answer) if isinstance(answer, str) else None
        if choice is None:
            keys = ", ".join(c.key for c in rule.choices)
            raise OptionError(f"house rule {key} is one of {keys}, not {answer!r}")
        overrides.update(choice.overrides)
    return overrides


def house_notes(variant: str, options: Options) -> list[dict[str, str]]:
    """How a table with ``options`` differs from the variant's own text, in words.

    One entry a house rule answered otherwise than the text does, then one naming any
    other option a host changed. Empty for a table dealt as written; what seats are shown.
    """
    base = get_variant(variant).options
    standard = standard_choices(variant)
    chosen = house_choices(variant, options)
    notes: list[dict[str, str]] = []
    covered: set[str] = set()
    for rule in house_rules(variant):
        for answer in rule.choices:
            covered.update(answer.overrides)
        key = chosen.get(rule.key)
        if key == standard.get(rule.key):
            continue
        found = rule.choice(key) if key else None
        text = found.label if found else "As the host's options set it"
        notes.append({"rule": rule.key, "label": rule.label, "text": text})
    others = [
        f.name
        for f in dataclasses.fields(options)
        if f.name not in covered and getattr(options, f.name) != getattr(base, f.name)
    ]
    if others:
        notes.append({"rule": "options", "label": "Other options", "text": ", ".join(others)})
    return notes


def house_menu(variant: str) -> list[dict[str, Any]]:
    """The house rules of ``variant`` as plain JSON, with each one's standard answer."""
    standard = standard_choices(variant)
    return [
        {
            "key": rule.key,
            "label": rule.label,
            "standard": standard.get(rule.key),
            "choices": [{"key": c.key, "label": c.label} for c in rule.choices],
        }
        for rule in house_rules(variant)
    ]
