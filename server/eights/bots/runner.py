"""Where bots meet a game: the only code that turns a position into a bot's input.

The view a bot gets is built by ``view_for`` and read back from its JSON, so it holds
exactly what a device would receive and nothing that refers to the position.
"""

from __future__ import annotations

from eights.rules import Action, Position, SeatView, view_for

from .interface import Bot, BotError


def bot_view(pos: Position, seat: int) -> SeatView:
    return SeatView.from_json(view_for(pos, seat).to_json())


def decide(bot: Bot, view: SeatView) -> Action:
    """The bot's action for the seat of ``view``; a single legal action needs no bot."""
    legal = view.legal
    if not legal:
        raise BotError(f"seat {view.seat} has nothing to do now")
    if len(legal) == 1:
        return legal[0]
    action = bot(view, legal)
    if action not in legal:
        raise BotError(f"the bot answered {action}, which is not one of the legal actions")
    return action
