"""After a restart: what each zone showed when the table stopped, against what the camera shows
there now, so that every card laid while the table was down is played once, in the order it lies.

A camera started afresh reports each zone's top card once more. The card the journal left on
top is still lying there: it is not played again. Another card on top was laid while the table
was down (or was still being confirmed when it stopped), and perhaps more than one: the cards
the frame shows under it, down to the one the journal left on top, are played first, lowest
first. Where the frame does not show that far (cards squared on one another hide the ones
under them) the table cannot tell how many were laid: the game waits, asking the players to
take the cards off until the journal's top card shows and lay them again one by one, each then
played as in any game (or to fan them out so that every corner shows: the reader does not read
every covered card of a fan, so this is the second way); ``resume`` says the top card was the
only one.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from table.cards import Card, CardError, parse_card
from table.events import CardGone, CardSeen, Event

log = logging.getLogger("cardtable")

LAID_PART = "cards laid while the table was down"  # the fault the game waits on while it asks

Key = tuple[str, int | None]  # a zone and its seat
View = tuple[str | None, ...]  # the codes a frame reads in a zone, lowest first, its top card last


@dataclass
class _Question:
    seen: CardSeen  # the top card the camera reported, held while the players are asked
    after: Card  # the journal's top card: the cards above it are wanted


def zone_name(key: Key) -> str:
    zone, seat = key
    if seat is None:
        return zone
    return f"seat {seat}'s place" if zone == "seat" else f"{zone} of seat {seat}"


def laid_since(view: View, last: Card | None) -> list[Card] | None:
    """The cards ``view`` shows laid above ``last`` (the zone's top card when the table stopped;
    None: the zone was bare), lowest first; None where the view does not show them all: ``last``
    not seen, or a card between it and the top that could not be read. A card face down (a
    trick won, a back) is no card played."""
    codes = list(view)
    if last is not None:
        below = [n for n, code in enumerate(codes) if code == last.code]
        if not below:
            return None
        codes = codes[below[-1] + 1 :]
    cards = []
    for code in codes:
        if code is None:
            return None
        try:
            cards.append(parse_card(code))
        except CardError:  # a back
            continue
    return cards


class LaidWhileDown:
    """The zones a resumed game has not yet seen again, and the questions it asks the players."""

    def __init__(self, inputs: Iterable[Event]) -> None:
        """``inputs``: the journal's inputs, in their order."""
        self.last: dict[Key, Card] = {}
        for event in inputs:
            if isinstance(event, CardSeen) and event.card is not None:
                self.last[(event.zone, event.seat)] = event.card
            elif isinstance(event, CardGone):
                self.last.pop((event.zone, event.seat), None)
        self._seen_again: set[Key] = set()  # zones the camera has reported since the restart
        self.views: dict[Key, View] = {}
        self.questions: dict[Key, _Question] = {}

    def see(self, views: Sequence[tuple[str, int | None, View]]) -> None:
        """The latest frame's zones, as it reads them."""
        self.views = {(zone, seat): codes for zone, seat, codes in views}

    def take(self, event: Event) -> list[Event] | None:
        """What the camera's ``event`` stands for: None, itself (not a card, or its zone was seen
        again already); else the inputs to take in its place (none: the card lay there before
        the restart, or the players are asked)."""
        if not isinstance(event, CardSeen | CardGone):
            return None
        key = (event.zone, event.seat)
        if key in self.questions:
            return []  # the zone's view answers the question, not the tracker's reports
        if key in self._seen_again:
            return None
        self._seen_again.add(key)
        if not isinstance(event, CardSeen) or event.card is None:
            return None
        last = self.last.get(key)
        if event.card == last:
            log.info("%s on the %s lay there before the restart: not played again", last, zone_name(key))
            return []
        cards = laid_since(self.views.get(key, (event.card.code,)), last)
        if cards is not None and cards and cards[-1] == event.card:
            return self._played(key, cards, event)
        if last is None:  # a bare zone's card over one unread: its own card is sure
            return [event]
        self.questions[key] = _Question(event, last)
        return []

    def answers(self, t_ns: int) -> list[Event]:
        """The inputs the latest frame's views answer the questions with (the cards laid since,
        lowest first, the top one at ``t_ns``), the questions answered no longer asked."""
        inputs: list[Event] = []
        for key, question in list(self.questions.items()):
            view = self.views.get(key)
            if view is None:
                continue
            if view[-1] == question.after.code:
                shows = zone_name(key)
                log.warning("%s shows on the %s again: the cards laid on it are laid again", question.after, shows)
                del self.questions[key]
                self._seen_again.discard(key)  # its report of the card uncovered is not a card played
                continue
            cards = laid_since(view, question.after)
            if cards:
                del self.questions[key]
                inputs += self._played(key, cards, dataclasses.replace(question.seen, t_ns=t_ns, card=cards[-1]))
        return inputs

    def go_on(self) -> list[Event]:
        """The players say each top card asked about was the only one laid: played as it is."""
        inputs: list[Event] = []
        for key, question in self.questions.items():
            inputs += self._played(key, [question.seen.card], question.seen) if question.seen.card else []
        self.questions.clear()
        return inputs

    def question(self) -> str | None:
        """What the players are asked, or None."""
        if not self.questions:
            return None
        asked = []
        for key, question in self.questions.items():
            top = question.seen.card
            after = question.after
            asked.append(
                f"{top} lies on the {zone_name(key)} where {after} lay when the table stopped, and the camera "
                f"cannot see what lies between: take the cards off until {after} shows and lay them again one by "
                f"one (or fan them out, {after} too, so that every corner shows; resume if {top} was the only one)"
            )
        return "; ".join(asked)

    def _played(self, key: Key, cards: list[Card], top: CardSeen) -> list[Event]:
        """The cards laid while the table was down, lowest first, dated a nanosecond apart up to
        the top card's report."""
        if len(cards) > 1:
            laid = " ".join(card.code for card in cards)
            log.warning("laid on the %s while the table was down: %s, played in that order", zone_name(key), laid)
        count = len(cards)
        return [dataclasses.replace(top, t_ns=top.t_ns - (count - 1 - n), card=card) for n, card in enumerate(cards)]
