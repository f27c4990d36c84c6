"""The bidding game: Oh Hell, in its two scorings."""

from table.games.game import Game
from table.games.oh_hell import lights, lines
from table.games.oh_hell.referee import Action, OhHellReferee
from table.games.oh_hell.rules import OhHellRules

GAME = Game(
    name=OhHellReferee.GAME,
    title="The bidding game (Oh Hell)",
    rules=OhHellRules,
    referee=OhHellReferee,
    preset="classic",
    gestures={"count": Action.BID},
    played_to="trick",
    lines=lines.describe,
    news=lights.news,
    zones_read=lambda rules: ("pile", "trump"),
)
