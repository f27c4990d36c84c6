"""Rules as data: a frozen value per game, named presets shipped as TOML, strict checking.

Every house rule is a field with the rule texts' most common choice as its default. A preset file
(shipped in the game's package, ``table/games/<game>/presets/``, or the user's own) sets only the fields it changes::

    description = "..."
    players = 2             # optional: how many seats the preset is meant for
    based_on = "standard"   # optional: start from another shipped preset
    [rules]
    slaps = false

Unknown keys, wrong types and impossible combinations are refused with a message naming the key.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import stat
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Protocol, TypeVar

from table.errors import CardtableError
from table.typed import checked_fields


class RulesError(CardtableError, ValueError):
    """A rules key, value, combination or preset that cannot be used; the message names it."""


class RulesValue(Protocol):
    def check(self, given: frozenset[str]) -> None:
        """Raise RulesError for impossible combinations (``given``: keys set away from defaults)."""


R = TypeVar("R", bound=RulesValue)


@functools.cache
def _defaults(cls: type[R]) -> R:
    return cls()


_BUILT: dict[tuple[Any, ...], Any] = {}  # rules values already made, by what they were made from
_MOST_BUILT = 1_024


def _typed(value: Any) -> Any:
    """``value`` with its type, so that equal values of other types (``1`` and ``true``) differ."""
    if value.__class__ is list or value.__class__ is tuple:
        return value.__class__, tuple(_typed(v) for v in value)
    return value.__class__, value


def build_rules(cls: type[R], values: Mapping[str, Any]) -> R:
    """Make a rules value from a mapping, refusing unknown keys and bad values by name. Rules
    values are immutable, so one made from the same mapping before is handed out again: a
    study sets up thousands of games from a few rule sets."""
    parts: list[Any] = [cls]
    for k, v in values.items():  # each key, its value's type and the value: flat, as this is made for every game
        kind = v.__class__
        parts += (k, kind, tuple(map(_typed, v)) if kind is list or kind is tuple else v)
    try:
        key: tuple[Any, ...] | None = tuple(parts)
        hash(key)
    except TypeError:  # a value that cannot be a key (a table of keys) is checked afresh
        key = None
    rules = _BUILT.get(key) if key is not None else None
    if rules is None:
        rules = _build(cls, values)
        if key is not None and len(_BUILT) < _MOST_BUILT:
            _BUILT[key] = rules
    return rules


def _build(cls: type[R], values: Mapping[str, Any]) -> R:
    checked = checked_fields(cls, values, lambda key: f"rules key {key!r}", RulesError)
    rules = cls(**checked)
    defaults = _defaults(cls)
    rules.check(frozenset(k for k, v in checked.items() if getattr(defaults, k) != v))
    return rules


def rules_to_dict(rules: Any) -> dict[str, Any]:
    """The rules as JSON data (lists for tuples), as the journal and snapshots hold them."""
    return {k: list(v) if isinstance(v, tuple) else v for k, v in dataclasses.asdict(rules).items()}


@dataclass(frozen=True)
class Preset:
    """A named, consistent set of rules for one game."""

    game: str
    name: str
    description: str
    players: int | None
    values: dict[str, Any]


def _preset_dir(game: str) -> Any:
    """A game's shipped presets: its package's ``presets`` folder (``oh-hell``'s in ``oh_hell``)."""
    return resources.files("table.games") / game.replace("-", "_") / "presets"


def shipped_presets(game: str) -> list[str]:
    folder = _preset_dir(game)
    if not folder.is_dir():
        return []
    return sorted(p.name[: -len(".toml")] for p in folder.iterdir() if p.name.endswith(".toml"))


def is_preset_file(name: str) -> bool:
    """Whether a preset is named as a file (``house.toml``, ``presets/house``), not by a shipped
    preset's name."""
    return name.endswith(".toml") or "/" in name


def games_with_preset(name: str) -> list[str]:
    """The games that ship a preset of that name."""
    if not name or "/" in name or name.startswith("."):
        return []
    games = resources.files("table.games")
    found = (d.name.replace("_", "-") for d in games.iterdir() if (d / "presets" / f"{name}.toml").is_file())
    return sorted(found)


def _read_preset_text(game: str, name: str) -> tuple[str, str]:
    if is_preset_file(name):
        path = Path(name)
        return path.stem, read_text_file(path, "preset file")
    resource = _preset_dir(game) / f"{name}.toml"
    if not resource.is_file():
        available = ", ".join(shipped_presets(game)) or "none"
        elsewhere = [other for other in games_with_preset(name) if other != game]
        if _preset_dir(name).is_dir():
            hint = f"; {name!r} is another game's name: name it as the game"
        elif elsewhere:
            hint = f"; {name!r} is a preset of {' and '.join(elsewhere)}: name that game too"
        else:
            hint = ""
        raise RulesError(f"unknown {game} preset {name!r} (shipped presets: {available}){hint}")
    return name, resource.read_text(encoding="utf-8")


MOST_TEXT_BYTES = 256 * 1024  # a preset or a configuration is a few kilobytes; larger is refused unread


def read_text_file(path: Path, what: str) -> str:
    """A small UTF-8 text file's text: one that is not a plain file (a device, a folder), larger
    than ``MOST_TEXT_BYTES`` or not text (a program) is a ``RulesError`` saying so."""
    try:
        with open(path, "rb") as f:
            if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
                raise RulesError(f"{what} {str(path)!r} is not a plain file")
            data = f.read(MOST_TEXT_BYTES + 1)
    except OSError as exc:
        raise RulesError(f"cannot read {what} {str(path)!r}: {exc.strerror}") from None
    if len(data) > MOST_TEXT_BYTES:
        raise RulesError(f"{what} {str(path)!r} is larger than {MOST_TEXT_BYTES // 1024} KiB: not a {what}")
    try:
        text = data.decode("utf-8-sig")  # (a byte-order mark, as Windows' Notepad writes, passed over)
    except UnicodeDecodeError:
        raise RulesError(f"{what} {str(path)!r} is not UTF-8 text") from None
    if "\x00" in text:
        raise RulesError(f"{what} {str(path)!r} is not text (it holds NUL bytes)")
    return text


def load_preset(game: str, name: str, _seen: tuple[str, ...] = ()) -> Preset:
    """A shipped preset by name, or the user's own preset file by path (``*.toml``)."""
    stem, text = _read_preset_text(game, name)
    try:
        data = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, RecursionError) as exc:  # (nested past Python's depth)
        raise RulesError(f"preset {name!r} is not valid TOML: {exc}") from None
    allowed = {"description", "players", "based_on", "rules", "game"}
    unknown = set(data) - allowed
    if unknown:
        raise RulesError(
            f"preset {name!r}: unknown key(s) {', '.join(sorted(unknown))} (a preset's rules go under [rules])"
        )
    if data.get("game", game) != game:
        raise RulesError(f"preset {name!r} is for {data['game']!r}, not {game!r}")
    values: dict[str, Any] = {}
    players = data.get("players")
    base = data.get("based_on")
    if base is not None:
        if base in _seen:
            raise RulesError(f"preset {name!r}: based_on loops back to {base!r}")
        try:
            parent = load_preset(game, base, (*_seen, name))
        except RulesError as exc:
            raise RulesError(f"preset {name!r}: based_on: {exc}") from None
        values.update(parent.values)
        players = players if players is not None else parent.players
    rules = data.get("rules", {})
    if not isinstance(rules, dict):
        raise RulesError(f"preset {name!r}: [rules] must be a table")
    values.update(rules)
    if players is not None and (isinstance(players, bool) or not isinstance(players, int)):
        raise RulesError(f"preset {name!r}: players must be a whole number, not {players!r}")
    return Preset(game, stem, str(data.get("description", "")), players, values)


def parse_override(text: str) -> tuple[str, Any]:
    """``key=value`` from the command line; the value is read as TOML (``true``, ``3``, ``"x"``)."""
    key, sep, raw = text.partition("=")
    key = key.strip()
    if not sep or not key:
        raise RulesError(f"rules override {text!r} must look like key=value")
    try:
        value = tomllib.loads(f"v = {raw.strip()}")["v"]
    except (tomllib.TOMLDecodeError, RecursionError):
        value = raw.strip()
    return key.replace("-", "_"), value
