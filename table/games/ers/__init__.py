"""Egyptian Rat Screw, and Beggar-my-neighbour (its preset without slaps)."""

from table.games.ers import lights, lines
from table.games.ers.referee import CONTEST, ErsReferee
from table.games.ers.rules import ErsRules
from table.games.game import Game

GAME = Game(
    name=ErsReferee.GAME,
    title=lines.TITLE,
    rules=ErsRules,
    referee=ErsReferee,
    preset="standard",
    timed_races=True,
    gestures={"long-press": CONTEST},
    gestures_used=lambda rules: rules.bad_slaps == "contest",
    deals=False,
    lines=lines.describe,
    news=lights.news,
)
