"""Values from files checked against type hints: a dataclass's fields checked together agree
with each value checked alone, on every field of every game's rules, and rules made before are
handed out again only for the same values of the same types."""

from __future__ import annotations

import dataclasses
import typing
from typing import Any

import pytest

from table.games import GAMES
from table.rules import RulesError, build_rules
from table.typed import check_value, checked_fields

SAMPLES: list[Any] = [True, False, 0, 1, 3, -2, 1.5, "", "up", "standard", None, [], [1, 2], [True], ["a"], (2,), {}]


def _full(cls: type, key: str, value: Any) -> Any:
    try:
        return check_value(key, typing.get_type_hints(cls)[key], value, RulesError)
    except RulesError:
        return RulesError


def _quick(cls: type, key: str, value: Any) -> Any:
    try:
        return checked_fields(cls, {key: value}, str, RulesError)[key]
    except RulesError:
        return RulesError


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_fields_checked_together_agree_with_each_checked_alone(game: str) -> None:
    cls = GAMES[game].rules
    choices = [c for f in dataclasses.fields(cls) for c in typing.get_args(typing.get_type_hints(cls)[f.name])]
    for field in dataclasses.fields(cls):
        for value in [*SAMPLES, *(c for c in choices if isinstance(c, str | int))]:
            full, quick = _full(cls, field.name, value), _quick(cls, field.name, value)
            assert quick == full and type(quick) is type(full), (field.name, value)


def test_rules_made_before_are_not_handed_out_for_a_value_of_another_type() -> None:
    rules = GAMES["ers"].rules
    assert build_rules(rules, {"slaps": True}) is build_rules(rules, {"slaps": True})
    with pytest.raises(RulesError, match="slaps"):
        build_rules(rules, {"slaps": 1})  # equal to true, and hashed alike, but not true
    with pytest.raises(RulesError, match="unknown rules key"):
        build_rules(rules, {"slapz": True})


@pytest.mark.parametrize(
    ("value", "said"), [(True, "not true"), (False, "not false"), ([True, 1], "not [true, 1]"), ("1", "not '1'")]
)
def test_a_wrong_value_is_spelt_as_it_was_written(value: Any, said: str) -> None:
    with pytest.raises(RulesError) as caught:
        check_value("burn", int, value, RulesError)
    assert str(caught.value) == f"burn: expected a whole number, {said}"
