"""The terminal's line for each decision of the shedding game (``table.terminal_view``)."""

from __future__ import annotations

from table.cards import counted, spoken
from table.decisions import Decision
from table.games.eights import decisions as ed
from table.games.game import Line, Names
from table.referee import Referee

PAD = "      "
REASONS = {
    "draw": "draws",
    "king-try": "tries the stock for a king",
    "two": "draws for the twos",
    "queen": "draws for the queen of spades",
    "kings": "draws for the kings",
    "bomb": "is bombed",
    "bomb-returned": "gets the bomb back",
    "shielded": "is shielded back",
    "last-card": "forgot last card",
    "reshuffle-extra": "is dealt the reshuffle's extra card",
}
# A choice offered, as said after "chooses", and each option in words.
CHOICES = {
    "order": "what comes first",
    "switch": "what to switch",
    "pair": "where the pair's draw goes",
    "suit": "the suit",
    "red-ace": "whom to swap hands with",
}
OPTIONS = {
    "pass-first": "pass the hands first",
    "swap-first": "swap first",
    "hands": "the hands",
    "safe-card": "the safe card",
    "all-to-next": "all to the next player",
    "split": "split it",
    "none": "nobody",
}


def describe(d: Decision, referee: Referee, names: Names) -> Line | None:
    """The line for a decision of the game's own and its style; None for others."""
    n = names.name
    if isinstance(d, ed.CardTurned):
        return f"{PAD}{spoken(d.card.code)} turned up", "yellow"
    if isinstance(d, ed.TurnedCardTaken):
        return f"{PAD}{n(d.seat)} takes the turned card, and discards", ""
    if isinstance(d, ed.MatchPlayed):
        what = "a natural pair" if d.natural else "a match"
        return f"{PAD}{n(d.seat)} plays {' '.join(spoken(c.code) for c in d.cards)} as one play, {what}", "cyan"
    if isinstance(d, ed.Misplay):
        return f"{PAD}{n(d.seat)}: {d.reason}: take it back", "red"
    if isinstance(d, ed.CardsDrawn):
        return f"{PAD}{n(d.seat)} {REASONS.get(d.reason, d.reason)}: {counted(d.count, 'card')}, holds {d.holds}", "dim"
    if isinstance(d, ed.DrawOwed):
        if d.skips:
            return f"{PAD}{n(d.seat)} misses {counted(d.skips, 'turn')} unless a four is played", "yellow"
        if d.reason == "kings":
            return f"{PAD}{n(d.seat)}: a king, or {d.draw} cards after a card", "yellow"
        return f"{PAD}{n(d.seat)} owes {d.draw} cards: stack, shield with a joker, or take them", "yellow"
    if isinstance(d, ed.Shielded):
        onto = "nobody" if d.onto is None else n(d.onto)
        return f"{PAD}{n(d.seat)} shields with a joker: {onto} takes the {d.count}", "magenta"
    if isinstance(d, ed.ChoiceOffered):
        said = (OPTIONS.get(o, o) for o in d.options)
        options = ", ".join(f"{counted(i, 'tap')}: {o}" for i, o in enumerate(said, 1))
        what = CHOICES.get(d.choice, d.choice)
        return f"{PAD}{n(d.seat)} chooses {what}: {options}; hold: {OPTIONS.get(d.default, d.default)}", "dim"
    if isinstance(d, ed.ChoiceMade):
        option = OPTIONS.get(d.option, d.option)
        if d.choice == "red-aces":
            return f"{PAD}{n(d.seat)} has the red aces this hand", "magenta"
        if d.choice == "red-ace":
            return f"{PAD}{n(d.seat)} swaps hands with {option}", ""
        if d.choice == "suit":
            return f"{PAD}{n(d.seat)} names {option}", ""
        return f"{PAD}{n(d.seat)} chooses: {option}", ""
    if isinstance(d, ed.DirectionChanged):
        return f"{PAD}play turns {'left' if d.direction == 1 else 'right'}", "yellow"
    if isinstance(d, ed.HandsSwapped):
        return f"{PAD}{n(d.seat)} and {n(d.other)} swap hands: now {d.holds} and {d.other_holds}", "magenta"
    if isinstance(d, ed.HandsPassed):
        way = "left" if d.direction == 1 else "right"
        return f"{PAD}every hand passes {counted(d.steps, 'seat')} {way}: now {names.seats(d.hands)}", "magenta"
    if isinstance(d, ed.HandRenewed):
        return f"{PAD}{n(d.seat)}'s {d.returned} cards go under the stock: {d.count} new ones", "magenta"
    if isinstance(d, ed.SafeCardTraded):
        return f"{PAD}{n(d.seat)} trades a card for {n(d.other)}'s safe card", "magenta"
    if isinstance(d, ed.SafeCardUsed):
        return f"{PAD}{n(d.seat)}'s safe card is in play", "dim"
    if isinstance(d, ed.StockReshuffled):
        kept = " ".join(spoken(c.code) for c in d.kept) or "nothing"
        return f"{PAD}the stock ran out: {d.cards} cards of the pile reshuffled into it (kept {kept})", "yellow"
    if isinstance(d, ed.LastCardCalled):
        return f"{n(d.seat):>4} says: last card!", "bold"
    if isinstance(d, ed.LastCardCaught):
        return f"{PAD}{n(d.by)} caught {n(d.seat)} holding one card unannounced", "bold red"
    if isinstance(d, ed.HandMiscounted):
        return f"{PAD}{n(d.seat)} played a card the table had not counted: a draw went unseen", "red"
    if isinstance(d, ed.RoundWon):
        return f"{PAD}{n(d.seat)} is out of cards! Totals: {names.seats(d.totals)}", "bold green"
    return None
