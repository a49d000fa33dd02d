"""The settings table (the rows of ``Settings``): every row reads its own default back, a
value out of its bounds is refused in one line naming the flag or variable, what it got
and what it accepts, ``eights serve`` has a flag for every row that names one, and the
README's table is the one made from the rows."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from eights.cli.main import build_parser
from eights.cli.serve import settings_from
from eights.cli.settingsdoc import COMMAND, markdown_table, table_in, with_table
from eights.web import Settings
from eights.web.setting import Setting, SettingError, rows
from eights.web.settingkinds import WHOLE

ROWS = rows(Settings)
BOUNDED = [row for row in ROWS if row.low is not None or row.high is not None]


def _env(row: Setting, text: str) -> dict[str, str]:
    assert row.env is not None, f"{row.name} has no variable"
    return {row.env: text}


def test_every_row_has_a_variable_or_a_flag_and_none_is_named_twice() -> None:
    assert all(row.env or row.flag for row in ROWS)
    envs = [row.env for row in ROWS if row.env]
    flags = [row.flag for row in ROWS if row.flag]
    assert len(envs) == len(set(envs))
    assert len(flags) == len(set(flags))
    assert all("\n" not in row.says for row in ROWS)


@pytest.mark.parametrize("row", ROWS, ids=lambda row: row.name)
def test_every_row_reads_its_default_back(row: Setting) -> None:
    if row.default is None:
        assert row.shown is not None, f"{row.name}: say what not set means (or shown='')"
        return
    text = row.kind.show(row.default)
    assert row.parse(text, "test") == row.default
    flags = {} if row.env else {row.name: text}
    given = Settings.from_env(_env(row, text) if row.env else {}, flags)
    assert getattr(given, row.name) == row.default


def test_nothing_set_is_every_default() -> None:
    read, made = Settings.from_env({}), Settings()
    for row in ROWS:
        assert getattr(read, row.name) == getattr(made, row.name), row.name


def _outside(row: Setting) -> list[str]:
    """Texts just outside the row's bounds."""
    step = 1 if row.kind is WHOLE else 0.05
    texts = []
    if row.low is not None:
        texts.append(f"{row.low - step:g}")
    if row.high is not None:
        texts.append(f"{row.high + step:g}")
    return texts


@pytest.mark.parametrize("row", BOUNDED, ids=lambda row: row.name)
def test_a_value_outside_the_bounds_is_refused_in_one_line(row: Setting) -> None:
    for text in _outside(row):
        with pytest.raises(SettingError) as refused:
            Settings.from_env(_env(row, text))
        said = str(refused.value)
        assert said == f"{row.env} is {row.accepts()}, not {text!r}"
    assert row.parse(f"{row.low if row.low is not None else row.high:g}", "test") is not None


@pytest.mark.parametrize(
    ("env", "said"),
    [
        ({"EIGHTS_BOT_WORKERS": "99"}, "EIGHTS_BOT_WORKERS is a whole number from 1 to 64, "
                                       "not '99'"),
        ({"EIGHTS_SOCKET_RATE": "fast"}, "EIGHTS_SOCKET_RATE is a number of at least 0, "
                                         "not 'fast'"),
        ({"EIGHTS_HTTP_RATE": "nan"}, "EIGHTS_HTTP_RATE is a number of at least 0, not 'nan'"),
        ({"EIGHTS_PORT": "80x"}, "EIGHTS_PORT is a whole number from 0 to 65535, not '80x'"),
        ({"PORT": "-1"}, "PORT is a whole number from 0 to 65535, not '-1'"),
        ({"EIGHTS_TRUST_PROXY": "maybe"}, "EIGHTS_TRUST_PROXY is one of 1, true, yes, on (on) "
                                          "or 0, false, no, off (off), not 'maybe'"),
        ({"EIGHTS_LOG_FORMAT": "xml"}, "EIGHTS_LOG_FORMAT is one of text, json, not 'xml'"),
        ({"EIGHTS_REDIS_FSYNC": "never"}, "EIGHTS_REDIS_FSYNC is one of always, everysec, "
                                          "not 'never'"),
        ({"EIGHTS_REDIS_MAXMEMORY": "lots"}, "EIGHTS_REDIS_MAXMEMORY is an amount as Redis "
                                             "writes it, such as 256mb or 2gb, not 'lots'"),
        ({"REDIS_URL": "localhost:6379"}, "REDIS_URL is a URL whose scheme is one of redis://, "
         "rediss://, unix://, redis+cluster://, rediss+cluster://, not 'localhost:6379'"),
        ({"EIGHTS_GC_THRESHOLDS": "1,2"}, "EIGHTS_GC_THRESHOLDS is three whole numbers such as "
                                          "50000,20,100, not '1,2'"),
    ],
)  # fmt: skip
def test_a_refusal_names_the_variable_what_it_accepts_and_what_it_got(
    env: dict[str, str], said: str
) -> None:
    with pytest.raises(SettingError) as refused:
        Settings.from_env(env)
    assert str(refused.value) == said


def test_a_long_refused_value_is_quoted_cut() -> None:
    with pytest.raises(SettingError) as refused:
        Settings.from_env({"EIGHTS_TURN_TIMER": "9" * 500})
    assert len(str(refused.value)) < 100


def test_an_empty_variable_counts_as_not_set() -> None:
    env = {row.env: "" for row in ROWS if row.env}
    assert Settings.from_env(env) == Settings.from_env({})


def test_eights_port_comes_before_port() -> None:
    assert Settings.from_env({"PORT": "9000"}).port == 9000
    assert Settings.from_env({"PORT": "9000", "EIGHTS_PORT": "9001"}).port == 9001


def test_a_flag_comes_before_its_variable() -> None:
    flags: dict[str, Any] = {"port": "9002", "bot_workers": None}
    read = Settings.from_env({"EIGHTS_PORT": "9001", "EIGHTS_BOT_WORKERS": "3"}, flags)
    assert (read.port, read.bot_workers) == (9002, 3)
    with pytest.raises(SettingError, match=r"^--port is a whole number"):
        Settings.from_env({"EIGHTS_PORT": "9001"}, {"port": "http"})


def _serve(*flags: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "eights.cli.main", "serve", *flags],
        capture_output=True, text=True, timeout=60, env={**os.environ, **(env or {})},
    )  # fmt: skip


def test_every_flag_of_the_table_is_in_serve_help() -> None:
    done = _serve("--help")
    assert done.returncode == 0, done.stderr
    flagged = [row for row in ROWS if row.flag]
    assert len(flagged) >= 14
    for row in flagged:
        assert f"{row.flag} {row.kind.metavar}" in done.stdout
        assert row.env is None or row.env in done.stdout


@pytest.mark.parametrize(
    ("flags", "env", "said"),
    [
        (["--bot-workers", "99"], {}, "eights: --bot-workers is a whole number from 1 to 64, "
                                      "not '99'"),
        ([], {"EIGHTS_SOCKET_RATE": "-1"}, "eights: EIGHTS_SOCKET_RATE is a number of at "
                                           "least 0, not '-1'"),
    ],
)  # fmt: skip
def test_serve_refuses_a_bad_value_in_one_line_and_exits_non_zero(
    flags: list[str], env: dict[str, str], said: str
) -> None:
    done = _serve(*flags, env=env)
    assert done.returncode == 2
    assert "Traceback" not in done.stdout + done.stderr
    assert (done.stdout + done.stderr).strip() == said


def test_a_flag_of_serve_comes_before_its_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EIGHTS_PORT", "9001")
    monkeypatch.setenv("EIGHTS_TURN_TIMER", "30")
    args = build_parser().parse_args(["serve", "--port", "9002", "--unix", "/run/e.sock"])
    settings = settings_from(args)
    assert (settings.port, settings.turn_timer, settings.unix) == (9002, 30, "/run/e.sock")
    assert settings_from(build_parser().parse_args(["serve"])).port == 9001


README = Path(__file__).resolve().parents[1] / "README.md"


def test_the_readmes_table_is_the_settings_table() -> None:
    readme = README.read_text(encoding="utf-8")
    assert table_in(readme) == markdown_table(ROWS), f"the README's table is stale: {COMMAND}"
    assert with_table(readme, table_in(readme)) == readme  # only the table's lines move
