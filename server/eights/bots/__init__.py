"""Computer opponents. A bot is a function of one seat's view and its legal actions.

Nothing else reaches a bot: ``runner.decide`` hands it the view exactly as a device would
receive it (built by ``view_for`` and read back from its JSON), never the position.
"""

from .interface import Bot, BotError, load_bot
from .levels import LEVELS, make_bot
from .runner import decide

__all__ = ["LEVELS", "Bot", "BotError", "decide", "load_bot", "make_bot"]
