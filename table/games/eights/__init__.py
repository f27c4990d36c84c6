"""The shedding game: a Crazy Eights variant with two decks, matches, a safe card and specials."""

from table.games.eights import lights, lines
from table.games.eights.referee import Action, EightsReferee
from table.games.eights.rules import EightsRules
from table.games.game import Game

GAME = Game(
    name=EightsReferee.GAME,
    title="The shedding game (Crazy Eights)",
    rules=EightsRules,
    referee=EightsReferee,
    preset="screw-your-neighbour",
    gestures={"count": Action.TAPS, "long-press": Action.HOLD},  # read in context by the referee
    lines=lines.describe,
    news=lights.news,
    zones_read=lambda rules: ("pile", "seat") if rules.safe_card else ("pile",),  # a safe card lies on its seat
)
