"""The trading game: Cuckoo (Chase the Ace, Screw Your Neighbor)."""

from table.games.cuckoo import lights, lines
from table.games.cuckoo.referee import Action, CuckooReferee
from table.games.cuckoo.rules import CuckooRules
from table.games.game import Game

GAME = Game(
    name=CuckooReferee.GAME,
    title="The trading game (Cuckoo)",
    rules=CuckooRules,
    referee=CuckooReferee,
    preset="cuckoo",
    gestures={"tap": Action.KEEP, "long-press": Action.TRADE},
    lines=lines.describe,
    news=lights.news,
    puts_out=lights.puts_out,
    zones_read=lambda rules: ("seat", "stock"),  # a cut too lies on its seat's zone
)
