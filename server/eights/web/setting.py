"""One row of the settings table: a setting's flag, variable, kind, bounds and sentence,
declared on its field of ``Settings``; from the rows come the reading of flags and the
environment, the checking (one line naming what was wrong), ``--help`` and the README."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import MISSING, dataclass, field, fields, replace
from typing import Any, TypedDict, TypeVar, Unpack

from .settingkinds import Kind

T = TypeVar("T")
ROW = "setting"
"""The key of a row in its field's metadata."""
SHOWN_TEXT = 24
"""How much of a refused value a refusal quotes."""


class SettingError(ValueError):
    """A setting's value is not one it accepts: the message names the flag or variable,
    what it accepts and what it got, in one line."""


@dataclass(frozen=True)
class Setting:
    kind: Kind
    says: str
    """One sentence for the README and ``--help``: what it does, and what ``0`` means
    where a number may be 0."""
    env: str | None = None
    flag: str | None = None
    low: float | None = None
    high: float | None = None
    shown: str | None = None
    """The README's default when the value is not what to show (None: "embedded")."""
    also: tuple[str, ...] = ()
    """Other variables read when ``env`` is not set (``PORT``, which platforms set)."""
    name: str = ""
    """The field's name, filled in by ``rows``."""
    default: Any = None

    def accepts(self) -> str:
        """What the setting accepts, e.g. "a whole number from 1 to 64"."""
        if self.low is not None and self.high is not None:
            return f"{self.kind.noun} from {self.low:g} to {self.high:g}"
        if self.low is not None:
            return f"{self.kind.noun} of at least {self.low:g}"
        if self.high is not None:
            return f"{self.kind.noun} of at most {self.high:g}"
        return self.kind.noun

    def default_text(self) -> str:
        """The default as the README and ``--help`` say it: ``shown``, else the value as
        text ("" for none)."""
        if self.shown is not None:
            return self.shown
        return "" if self.default is None else self.kind.show(self.default)

    def parse(self, text: str, source: str) -> Any:
        """The value of ``text`` given as ``source`` (a flag or a variable), or
        ``SettingError``."""
        value = self.kind.read(text.strip())
        in_bounds = value is not None and (
            (self.low is None or value >= self.low) and (self.high is None or value <= self.high)
        )
        if not in_bounds:
            quoted = text if len(text) <= SHOWN_TEXT else text[:SHOWN_TEXT] + "…"
            raise SettingError(f"{source} is {self.accepts()}, not {quoted!r}")
        return value

    def given(
        self, env: Mapping[str, str], flags: Mapping[str, str | None]
    ) -> tuple[str, str] | None:
        """Where the value comes from and its text: the flag, else the first variable set
        (empty counts as not set); None when neither is (the default stands)."""
        text = flags.get(self.name)
        if self.flag and text is not None and text.strip():
            return self.flag, text
        for name in (self.env, *self.also):
            if name and env.get(name, "").strip():
                return name, env[name]
        return None


class Where(TypedDict, total=False):
    """A row's keywords beside its kind and sentence."""

    env: str
    flag: str
    low: float
    high: float
    shown: str
    also: tuple[str, ...]


def setting(default: T, kind: Kind, says: str, **row: Unpack[Where]) -> T:
    """A field of ``Settings`` with its row (``env``, ``flag``, ``low``, ``high``, ...)."""
    made: T = field(default=default, metadata={ROW: Setting(kind, says, **row)})
    return made


def made_setting(factory: Callable[[], T], kind: Kind, says: str, **row: Unpack[Where]) -> T:
    """A field whose default is made when a ``Settings`` is (a folder under ``$HOME``)."""
    made: T = field(default_factory=factory, metadata={ROW: Setting(kind, says, **row)})
    return made


def rows(record: type) -> tuple[Setting, ...]:
    """The rows of a dataclass's fields that have one, in their order, each with its
    field's name and default."""
    found = []
    for item in fields(record):
        row = item.metadata.get(ROW)
        if isinstance(row, Setting):
            made = item.default_factory
            default = item.default if made is MISSING else made()
            found.append(replace(row, name=item.name, default=default))
    return tuple(found)


def read_into(target: Any, env: Mapping[str, str], flags: Mapping[str, str | None]) -> None:
    """Set each field of ``target`` that has a row from its flag, else its variable;
    the first value refused raises ``SettingError``."""
    for row in rows(type(target)):
        given = row.given(env, flags)
        if given is not None:
            setattr(target, row.name, row.parse(given[1], given[0]))
