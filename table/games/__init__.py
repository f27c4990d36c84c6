"""The games a table can referee, and the set-up that starts one (also the journal's header)."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from table.cards import CardError, parse_card
from table.games import cuckoo, eights, ers, oh_hell
from table.games.game import Game
from table.referee import GameSetupError, Referee
from table.rules import RulesError, build_rules, load_preset, rules_to_dict

# The games, by name: a new game is a package of its own beside these and one entry here.
GAMES: dict[str, Game] = {game.name: game for game in (ers.GAME, cuckoo.GAME, oh_hell.GAME, eights.GAME)}
DEFAULT_GAME = ers.GAME.name  # what a table plays when its configuration names no game
MOST_PLAYERS = 52  # the most seats a set-up may name (a card each); each game allows fewer


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
        """The rules value, built and checked when first asked for: a set-up is a value (its
        rules are never changed in place), and a study makes thousands of referees from one."""
        return self._rules_value

    @functools.cached_property
    def _rules_value(self) -> Any:
        return build_rules(game_named(self.game).rules, self.rules)

    def referee(self) -> Referee:
        referee_cls = game_named(self.game).referee
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
        game, players, dealer, seed = data["game"], data["players"], data.get("dealer", 0), data.get("seed", 0)
        if not isinstance(game, str):
            raise GameSetupError(f"game must be a game's name, not {game!r}")
        game_named(game)
        if not isinstance(data["rules"], dict):
            raise GameSetupError(f"rules must be a table of rules, not {data['rules']!r}")
        if type(players) is not int or not 2 <= players <= MOST_PLAYERS:
            raise GameSetupError(f"players must be a whole number from 2 to {MOST_PLAYERS}, not {players!r}")
        if type(dealer) is not int or not 0 <= dealer < players:
            raise GameSetupError(f"dealer must be a seat from 0 to {players - 1}, not {dealer!r}")
        if type(seed) is not int:
            raise GameSetupError(f"seed must be a whole number, not {seed!r}")
        deal = data.get("deal")
        if deal is not None and not (
            isinstance(deal, list) and all(isinstance(h, list) and all(isinstance(c, str) for c in h) for h in deal)
        ):
            raise GameSetupError("deal must be a list of hands, each a list of card codes")
        for hand in deal or ():
            for code in hand:  # named now, where the set-up is read (its file and line), not at the deal
                try:
                    parse_card(code)
                except CardError as exc:
                    raise GameSetupError(f"deal: {exc}") from None
        if not isinstance(data.get("preset", ""), str):
            raise GameSetupError(f"preset must be a preset's name, not {data['preset']!r}")
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


def _blame_the_preset(game: Game, preset: str, values: dict[str, Any], exc: RulesError) -> None:
    """The rules error ``exc`` named as the preset's, where the preset's own values make it."""
    try:
        build_rules(game.rules, values)
    except RulesError as own:
        if str(own) == str(exc):
            raise RulesError(f"preset {preset!r}: {exc}") from None


def game_named(name: str) -> Game:
    """The registered game of that name, or a ``GameSetupError`` listing the games there are."""
    try:
        return GAMES[name]
    except KeyError:
        raise GameSetupError(f"unknown game {name!r} (known: {', '.join(GAMES)})") from None


def game_of(referee: Referee) -> Game:
    """The registered game a referee referees."""
    return game_named(referee.GAME)


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
    known = game_named(game)
    chosen = load_preset(game, preset or known.preset)
    values = {**chosen.values, **(overrides or {})}
    try:
        rules = build_rules(known.rules, values)
    except RulesError as exc:
        _blame_the_preset(known, preset or known.preset, chosen.values, exc)
        raise
    seats = players if players is not None else chosen.players or 4
    if hasattr(rules, "for_players"):  # rules that change with the number of players (a second deck)
        rules = rules.for_players(seats)
    setup = GameSetup(game, chosen.name, rules_to_dict(rules), seats, dealer, seed, deal)
    setup.referee()  # refuse impossible seat counts or deals now, not mid-game
    return setup


__all__ = ["DEFAULT_GAME", "GAMES", "Game", "GameSetup", "RulesError", "game_named", "game_of", "setup_game"]
