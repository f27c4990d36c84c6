"""The shared frame of the referees that keep their state in one dataclass (Cuckoo, Oh Hell).

It checks what every game checks the same way (events in time order, seats that exist, a card
the decks can hold) and snapshots the state dataclass and the seeded generator with one codec.
"""

from __future__ import annotations

import functools
import random
from abc import abstractmethod
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, ClassVar, Self

from table.cards import Card, pack_counts, pack_size
from table.decisions import Decision, Rejected
from table.events import Command, Event
from table.referee import GameSetupError, Referee
from table.rules import RulesError, build_rules, rules_to_dict
from table.snapshots import SnapshotError, decode_state, encode_state, rng_state, set_rng_state


class StatefulReferee(Referee):
    NAME: ClassVar[str]
    RULES: ClassVar[type]
    STATE: ClassVar[type]
    MIN_PLAYERS: ClassVar[int] = 3
    SHARED_ON_COPY = frozenset({"rules", "copies", "_allowed"})

    def __init__(self, rules: Any, players: int, dealer: int = 0, seed: int = 0, deal: Any = None) -> None:
        if deal is not None:
            raise GameSetupError(f"{self.NAME} is dealt afresh every round: a set-up takes no deal")
        self.rules = rules
        self.players = players
        self.dealer = dealer
        self._seed = seed
        pack = getattr(rules, "decks", 1), getattr(rules, "jokers_per_deck", 0)
        copies, self._allowed = pack_counts(*pack)
        self.copies: Mapping[Card, int] = MappingProxyType(copies)
        self.pack_size = pack_size(*pack)
        self._seen: list[Card] = []  # the list last counted, how many of it, and by card key
        self._seen_n = 0
        self._seen_by_key: dict[int, int] = {}
        top = self.max_players()
        if not self.MIN_PLAYERS <= players <= top:
            raise GameSetupError(
                f"{self.NAME} needs {self.MIN_PLAYERS} to {top} players with these rules, not {players}"
            )
        if not 0 <= dealer < players:
            raise GameSetupError(f"dealer must be a seat from 0 to {players - 1}, not {dealer}")
        self.state = self.new_state()

    @functools.cached_property
    def rng(self) -> random.Random:
        """The seeded generator, made when first asked for: most games deal nothing."""
        return random.Random(self._seed)

    @abstractmethod
    def max_players(self) -> int: ...

    @abstractmethod
    def new_state(self) -> Any: ...

    @abstractmethod
    def on_event(self, event: Event) -> list[Decision]:
        """Handle an event that is in time order and names no missing seat."""

    def handle(self, event: Event) -> list[Decision]:
        t = event.t_ns
        if t < self.state.last_t:
            return [Rejected(t, f"out of order: {t} is before {self.state.last_t}", event.TYPE)]
        self.state.last_t = t
        # What waited on time up to this input is settled first, as a live table's clock
        # (``advance``) would have settled it: replay gives the same decisions in the same order.
        due = self.advance(t)
        seat = getattr(event, "seat", None)
        if seat is not None and seat >= self.players:
            out = [Rejected(t, f"seat {seat} does not exist at a table of {self.players}", event.TYPE, seat)]
        elif isinstance(event, Command):
            out = self.on_command(event)
        else:
            out = self.on_event(event)
        return due + out if due else out

    def on_command(self, event: Command) -> list[Decision]:
        """A game command: ``end`` (the players end the game where it stands) where the game
        takes it (``COMMANDS``), refused otherwise and once the game is over."""
        if event.name not in self.COMMANDS:
            return [Rejected(event.t_ns, f"{self.NAME} takes no command {event.name!r}", event.TYPE)]
        if self.finished:
            return [Rejected(event.t_ns, "the game is over already", event.TYPE)]
        return self.end_game(event.t_ns)

    def end_game(self, t: int) -> list[Decision]:
        """The game ended by the players where it stands (for games whose ``COMMANDS`` has ``END``)."""
        raise NotImplementedError(f"{self.NAME} cannot be ended by the players")

    def unknown_card(self, card: Card, seen: list[Card]) -> str | None:
        """Why ``card`` cannot be a new card of this deal (``seen``: the deal's cards so far).

        The cards seen are counted by card key as they come, not again at every card: a deal's
        cards seen only grow, and a new deal is a new list."""
        key = card.key
        allowed = self._allowed.get(key, 0)
        if allowed == 0:
            return f"{card} is not in this game's deck"
        counts, n = self._seen_by_key, self._seen_n
        if seen is not self._seen or n > len(seen):
            self._seen, counts, n = seen, {}, 0
            self._seen_by_key = counts
        if n < len(seen):
            for earlier in seen[n:]:
                counts[earlier.key] = counts.get(earlier.key, 0) + 1
            self._seen_n = len(seen)
        if counts.get(key, 0) >= allowed:
            copies = "the only copy" if allowed == 1 else f"all {allowed} copies"
            return f"{card} was already seen this deal ({copies}): show the card again"
        return None

    def admit_card(self, card: Card, seen: list[Card]) -> str | None:
        """``unknown_card``; a card that may be new is added to ``seen`` (and counted) at once."""
        key = card.key
        if seen is not self._seen or self._seen_n != len(seen):
            why = self.unknown_card(card, seen)  # counts ``seen`` afresh
            if why is not None:
                return why
        counts = self._seen_by_key
        n = counts.get(key, 0)
        if n >= self._allowed.get(key, 0):
            return self.unknown_card(card, seen)
        counts[key] = n + 1
        self._seen_n += 1
        seen.append(card)
        return None

    # ------------------------------------------------------- snapshot/restore

    def snapshot(self) -> dict[str, Any]:
        return {
            "game": self.GAME,
            "rules": rules_to_dict(self.rules),
            "players": self.players,
            "dealer": self.dealer,
            "rng": rng_state(self.rng),
            "state": encode_state(self.state),
        }

    @classmethod
    def restore(cls, snapshot: dict[str, Any]) -> Self:
        try:
            if snapshot.get("game") != cls.GAME:
                raise SnapshotError(f"it is for game {snapshot.get('game')!r}")
            ref = cls(build_rules(cls.RULES, snapshot["rules"]), snapshot["players"], snapshot["dealer"])
            set_rng_state(ref.rng, snapshot["rng"])
            ref.state = decode_state(cls.STATE, snapshot["state"])
        except (KeyError, TypeError, AttributeError, SnapshotError, RulesError) as exc:
            raise GameSetupError(f"not a {cls.NAME} snapshot: {exc}") from None
        return ref
