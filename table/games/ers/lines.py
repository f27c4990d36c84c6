"""The terminal's line for each decision of Egyptian Rat Screw's own (``table.terminal_view``)."""

from __future__ import annotations

from table.cards import counted, spoken
from table.decisions import (
    BadSlap,
    CardDead,
    CardMismatch,
    CardsBurned,
    ChallengeLost,
    ChallengePassed,
    ChallengeStarted,
    Decision,
    GameStarted,
    GameWon,
    GoodSlap,
    LastChance,
    PenaltyCard,
    PenaltyOwed,
    PileWon,
    PlayContested,
    PlayerBackIn,
    SlapIgnored,
    SlapLead,
    StrikeGiven,
)
from table.games.game import Line, Names
from table.referee import Referee

TITLE = "Egyptian Rat Screw"
PAD = "      "
# Each slap condition as said after "slaps": "Bob slaps a double".
SLAPS = {
    "joker": "the joker",
    "double": "a double",
    "triple": "a triple",
    "sandwich": "a sandwich",
    "hoagie": "a hoagie",
    "top_bottom": "top and bottom",
    "tens": "tens",
    "run": "a run",
    "marriage": "a marriage",
    "suit_run": "a run of one suit",
    "colour_run": "a run of one colour",
    "counted": "the counted card",
}


def lead_text(ns: int) -> str:
    """A slap's lead as people say it: "23 ms", "0.41 ms", "3 µs"."""
    if ns >= 10_000_000:
        return f"{ns / 1e6:.0f} ms"
    if ns >= 100_000:
        return f"{ns / 1e6:.2g} ms" if ns < 1_000_000 else f"{ns / 1e6:.1f} ms"
    return f"{max(ns, 0) / 1e3:.2g} µs" if ns < 10_000 else f"{ns / 1e3:.0f} µs"


def describe(d: Decision, referee: Referee, names: Names) -> Line | None:
    """The line for a decision of the game's own and its style; None for others."""
    n = names.name
    if isinstance(d, GameStarted):
        seats = ", ".join(f"{names.names[s]} {k}" for s, k in enumerate(d.hand_sizes))
        return f"{TITLE}, {d.players} players; cards dealt: {seats}", "bold"
    if isinstance(d, ChallengeStarted):
        return f"{PAD}{n(d.challenger)} challenges: {n(d.seat)} has {counted(d.chances, 'chance')}", "yellow"
    if isinstance(d, ChallengePassed):
        return f"{PAD}{n(d.from_seat)} ran out: {n(d.seat)} goes on, {counted(d.chances, 'chance')} left", "yellow"
    if isinstance(d, ChallengeLost):
        return f"{PAD}{n(d.seat)} lost the challenge: {n(d.challenger)} takes the pile", "yellow"
    if isinstance(d, CardMismatch):  # the card is taken as seen; the deal's guess was wrong
        seen, dealt = spoken(d.seen.code), spoken(d.expected.code)
        return f"{PAD}{n(d.seat)}'s card was {seen}, not {dealt} as dealt: taken as seen", "yellow"
    if isinstance(d, GoodSlap):
        tie = f", in an exact tie with {', '.join(n(s) for s in d.tied_with)}" if d.tied_with else ""
        return f"{n(d.seat):>4} slaps {SLAPS.get(d.condition, d.condition)}{tie}", "bold green"
    if isinstance(d, SlapLead):
        close = d.lead_ns < names.close_call_ns()
        text = f"{PAD}{n(d.seat)} took the pile, {lead_text(d.lead_ns)} ahead of {n(d.behind)}"
        return text + (": a close call" if close else ""), "bold yellow" if close else "green"
    if isinstance(d, BadSlap):
        return f"{n(d.seat):>4}'s slap was bad", "bold red"
    if isinstance(d, CardsBurned):
        return f"{PAD}{n(d.seat)} burns {counted(d.count, 'card')} under the pile", "red"
    if isinstance(d, PenaltyOwed):
        return f"{PAD}{n(d.seat)} lays {counted(d.count, 'penalty card')} on top of the pile", "red"
    if isinstance(d, PenaltyCard):
        return f"{PAD}{n(d.seat)}'s penalty card {spoken(d.card.code)} lies dead on the pile", "red"
    if isinstance(d, CardDead):
        return f"{PAD}{n(d.seat)} laid {spoken(d.card.code)} out of turn: a dead card, no slap on it", "yellow"
    if isinstance(d, PlayContested):
        what = "was wrong" if d.upheld else "was right"
        giver, taker = (d.player, d.seat) if d.upheld else (d.seat, d.player)
        moved = f"{n(giver)} gives {n(taker)} a card" if d.cards else f"{n(giver)} has no card to give"
        return f"{PAD}{n(d.seat)} contests: {n(d.player)} {what}; {moved}", "yellow"
    if isinstance(d, StrikeGiven):
        if d.strikes == 0:  # out_slaps = "hand-under": no strikes are counted
            return f"{PAD}{n(d.seat)} slapped with no cards: hand under the pile until it is won", "red"
        return f"{PAD}{n(d.seat)} gets strike {d.strikes}{': barred' if d.barred else ''}", "red"
    if isinstance(d, SlapIgnored):
        return f"{n(d.seat):>4}'s slap does not count: {d.reason}", "dim"
    if isinstance(d, PileWon):
        how = "" if d.reason.startswith("slap") else f" ({d.reason})"
        return f"{PAD}{n(d.seat)} takes the pile, {counted(d.cards, 'card')}{how}", "cyan"
    if isinstance(d, PlayerBackIn):
        return f"{PAD}{n(d.seat)} slaps back in!", "bold magenta"
    if isinstance(d, LastChance):
        return f"{PAD}{n(d.seat)} holds every card: {counted(d.cards, 'card')} more for a last slap-in", "magenta"
    if isinstance(d, GameWon):
        return f"{n(d.seat)} wins the game, holding all the cards!", "bold green"
    return None
