"""The rules engine: pure, deterministic under a seed, and the only place rules live.

No I/O, no asyncio, no global state. The server, the bots and the tests go through:
``legal_actions``, ``apply``, ``view_for`` / ``public_view``, ``deal_hand`` / ``next_hand``
(and at 101 ``bridge_declarable`` and the host's ``finish_game``).
"""

from .actions import DRAW, KEEP, PASS, Action, ActionType, parse_action, parse_seatless_action
from .cards import Card, card_code, card_name, parse_card
from .deal import deal_hand, new_game, next_dealer, next_hand
from .engine import (
    Applied,
    apply,
    apply_in_place,
    bridge_declarable,
    finish_game,
    game_result,
    legal_actions,
    totals_after,
)
from .errors import ERROR_CODES, MalformedAction, Rejection
from .events import Event
from .notation import PositionError, position_from_json, position_to_json
from .options import OptionError, Options
from .outcome import EndReason, GameOutcome, HandOutcome
from .position import Position
from .scoring import game_outcome
from .table import Rules
from .variants import DEFAULT_VARIANT, VARIANTS, Variant, get_variant
from .view import PublicView, SeatView, event_for, public_view, view_for

__all__ = [
    "DEFAULT_VARIANT",
    "DRAW",
    "ERROR_CODES",
    "KEEP",
    "PASS",
    "VARIANTS",
    "Action",
    "ActionType",
    "Applied",
    "Card",
    "EndReason",
    "Event",
    "GameOutcome",
    "HandOutcome",
    "MalformedAction",
    "OptionError",
    "Options",
    "Position",
    "PositionError",
    "PublicView",
    "Rejection",
    "Rules",
    "SeatView",
    "Variant",
    "apply",
    "apply_in_place",
    "bridge_declarable",
    "card_code",
    "card_name",
    "deal_hand",
    "event_for",
    "finish_game",
    "game_outcome",
    "game_result",
    "get_variant",
    "legal_actions",
    "new_game",
    "next_dealer",
    "next_hand",
    "parse_action",
    "parse_card",
    "parse_seatless_action",
    "position_from_json",
    "position_to_json",
    "public_view",
    "totals_after",
    "view_for",
]
