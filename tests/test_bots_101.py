"""Computer players at the 101 table (issue 13), and the other tables left exactly as they were."""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Iterator

from eights.bots import decide, make_bot
from eights.bots.hint import hint
from eights.bots.runner import bot_view
from eights.rules import Position, Rules, apply_in_place, legal_actions, new_game

LEVELS = ["easy", "medium", "hard"]

# --- The other tables decide exactly as before -----------------------------------------

OTHER_TABLES = [
    ("duo", 2),
    ("classic", 3),
    ("classic", 2),
    ("ember-ridge", 4),
    ("newfoundland", 2),
    ("newfoundland", 4),
    ("newfoundland", 7),
]
BEFORE_101 = "daa1dc48e7e67041f6e8ad9c8fc206ec484d37774e21f29064b03f6b52736cd3"
"""The digest of every level's decision and the hint on the positions below, computed with
the bots as they were before issue 13 (commit dcf9c78)."""


def other_positions(per_table: int) -> Iterator[tuple[str, int, Position]]:
    """Positions with a choice, taken along random games at the other tables."""
    for variant, players in OTHER_TABLES:
        rng = random.Random(f"id-{variant}-{players}")
        got = game = 0
        while got < per_table:
            pos = new_game(Rules.for_variant(variant, players), f"id-{variant}-{players}-{game}")
            game += 1
            for _ in range(400):
                if pos.outcome is not None:
                    break
                legal = legal_actions(pos)
                if len(legal) > 1 and rng.random() < 0.35:
                    yield variant, players, pos
                    got += 1
                    if got >= per_table:
                        break
                apply_in_place(pos, legal[rng.randrange(len(legal))])


def test_the_other_tables_decide_exactly_as_before() -> None:
    # 2,100 positions at duo, classic, Ember Ridge and Newfoundland: each level's action and
    # the hint (action and sentence), against the digest taken before the 101 bots existed.
    bots = {level: make_bot(level, "identity") for level in LEVELS}
    digest = hashlib.sha256()
    count = 0
    for variant, players, pos in other_positions(300):
        view = bot_view(pos, pos.turn)
        row: list[object] = [variant, players]
        row.extend(decide(bot, view).to_json() for bot in bots.values())
        given = hint(view)
        row.append(None if given is None else [given.action.to_json(), given.reason])
        digest.update(json.dumps(row, sort_keys=True).encode())
        count += 1
    assert count == 2100
    assert digest.hexdigest() == BEFORE_101
