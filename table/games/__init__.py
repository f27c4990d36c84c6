"""The games a table can referee, and the set-up that starts one (also the journal's header)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from table.cards import CardError, parse_card
from table.games.cuckoo import CuckooReferee
from table.games.cuckoo_rules import CuckooRules
from table.games.eights import EightsReferee
from table.games.eights_rules import EightsRules
from table.games.ers import ErsReferee
from table.games.ers_rules import ErsRules
from table.games.ohhell import OhHellReferee
from table.games.ohhell_rules import OhHellRules
from table.referee import GameSetupError, Referee
from table.rules import RulesError, build_rules, load_preset, rules_to_dict

GAMES: dict[str, tuple[type, type[Referee]]] = {
    "ers": (ErsRules, ErsReferee),
    "cuckoo": (CuckooRules, CuckooReferee),
    "oh-hell": (OhHellRules, OhHellReferee),
    "eights": (EightsRules, EightsReferee),
}
DEFAULT_PRESET = {"ers": "standard", "cuckoo": "cuckoo", "oh-hell": "classic", "eights": "screw-your-neighbour"}


@dataclass(frozen=True)
class GameSetup:
    """Everything that, with the input events, decides a game: replaying needs nothing else."""

    game: str
    preset: str
    rules: dict[str, Any]
    players: int
    dealer: int = 0
    seed: int = 0
    deal: list[list[str]] | None = None

    def rules_value(self) -> Any:
        rules_cls, _ = _game(self.game)
        return build_rules(rules_cls, self.rules)

    def referee(self) -> Referee:
        _, referee_cls = _game(self.game)
        deal = None
        if self.deal is not None:
            try:
                deal = [[parse_card(c) for c in hand] for hand in self.deal]
            except CardError as exc:
                raise GameSetupError(f"deal: {exc}") from None
        return referee_cls(self.rules_value(), self.players, self.dealer, self.seed, deal)  # type: ignore[call-arg]

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "preset": self.preset,
            "rules": self.rules,
            "players": self.players,
            "dealer": self.dealer,
            "seed": self.seed,
            "deal": self.deal,
        }

    @classmethod
    def from_json(cls, data: Any) -> GameSetup:
        if not isinstance(data, dict):
            raise GameSetupError("a game set-up must be a JSON object")
        missing = {"game", "rules", "players"} - set(data)
        if missing:
            raise GameSetupError(f"game set-up lacks {', '.join(sorted(missing))}")
        known = {"game", "preset", "rules", "players", "dealer", "seed", "deal"}
        unknown = set(data) - known
        if unknown:
            raise GameSetupError(f"game set-up has unknown key(s) {', '.join(sorted(unknown))}")
        setup = cls(
            game=data["game"],
            preset=data.get("preset", ""),
            rules=data["rules"],
            players=data["players"],
            dealer=data.get("dealer", 0),
            seed=data.get("seed", 0),
            deal=data.get("deal"),
        )
        setup.rules_value()
        return setup


def _game(name: str) -> tuple[type, type[Referee]]:
    try:
        return GAMES[name]
    except KeyError:
        raise GameSetupError(f"unknown game {name!r} (known: {', '.join(GAMES)})") from None


def setup_game(
    game: str,
    preset: str | None = None,
    overrides: dict[str, Any] | None = None,
    players: int | None = None,
    dealer: int = 0,
    seed: int = 0,
    deal: list[list[str]] | None = None,
) -> GameSetup:
    """A checked set-up from a preset name or file plus ``key=value`` overrides."""
    rules_cls, _ = _game(game)
    chosen = load_preset(game, preset or DEFAULT_PRESET[game])
    values = {**chosen.values, **(overrides or {})}
    rules = build_rules(rules_cls, values)
    seats = players if players is not None else chosen.players or 4
    setup = GameSetup(game, chosen.name, rules_to_dict(rules), seats, dealer, seed, deal)
    setup.referee()  # refuse impossible seat counts or deals now, not mid-game
    return setup


__all__ = ["GAMES", "GameSetup", "RulesError", "setup_game"]
