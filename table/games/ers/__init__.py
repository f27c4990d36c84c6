"""Egyptian Rat Screw, and Beggar-my-neighbour (its preset without slaps)."""

from table.games.ers import lines
from table.games.ers.referee import ErsReferee
from table.games.ers.rules import ErsRules
from table.games.game import Game

GAME = Game(
    name=ErsReferee.GAME,
    title=lines.TITLE,
    rules=ErsRules,
    referee=ErsReferee,
    preset="standard",
    timed_races=True,
    deals=False,
    lines=lines.describe,
)
