"""Decisions: the typed values a referee answers events with.

Outputs (seat lights, MQTT, the terminal view, the journal replay) subscribe to decisions; the
referee knows none of them. Every decision carries ``t_ns``, the timestamp of the input that
caused it, so a decision is as reproducible as the events it came from.

Decisions are values: a referee makes one and nothing changes it after. They are slotted but
not frozen dataclasses, because a frozen one costs three times as much to make and a study of
the rules makes millions; outputs only read them.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar

from table.cards import Card


def _jsonable(value: Any) -> Any:
    if isinstance(value, Card):
        return value.code
    if isinstance(value, tuple | list):
        return [_jsonable(v) for v in value]
    return value


@dataclass(slots=True)
class Decision:
    t_ns: int

    KIND: ClassVar[str] = ""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.KIND}
        for f in fields(self):
            value = getattr(self, f.name)
            if value is not None:
                out["t" if f.name == "t_ns" else f.name] = _jsonable(value)
        return out


@dataclass(slots=True)
class Rejected(Decision):
    """An impossible or illegal event: nothing changed, and ``reason`` says why."""

    reason: str
    event: str = ""
    seat: int | None = None
    KIND: ClassVar[str] = "rejected"


@dataclass(slots=True)
class GameStarted(Decision):
    game: str
    players: int
    dealer: int
    hand_sizes: tuple[int, ...]
    KIND: ClassVar[str] = "game-started"


@dataclass(slots=True)
class TurnChanged(Decision):
    seat: int
    KIND: ClassVar[str] = "turn"


@dataclass(slots=True)
class CardPlayed(Decision):
    seat: int
    card: Card
    pile_size: int
    KIND: ClassVar[str] = "card-played"


@dataclass(slots=True)
class CardMismatch(Decision):
    """The camera saw another card than the one the referee knew was on top of that hand."""

    seat: int
    expected: Card
    seen: Card
    KIND: ClassVar[str] = "card-mismatch"


@dataclass(slots=True)
class ChallengeStarted(Decision):
    """``challenger`` played a face card; ``seat`` must answer within ``chances`` cards."""

    challenger: int
    seat: int
    card: Card
    chances: int
    KIND: ClassVar[str] = "challenge"


@dataclass(slots=True)
class ChallengePassed(Decision):
    """The player answering ran out of cards; the next player goes on with the chances left."""

    from_seat: int
    seat: int
    chances: int
    KIND: ClassVar[str] = "challenge-passed"


@dataclass(slots=True)
class ChallengeLost(Decision):
    """``seat`` failed to answer; the pile goes to ``challenger`` (unless slapped first)."""

    seat: int
    challenger: int
    KIND: ClassVar[str] = "challenge-lost"


@dataclass(slots=True)
class GoodSlap(Decision):
    seat: int
    condition: str
    tied_with: tuple[int, ...] = ()
    KIND: ClassVar[str] = "good-slap"


@dataclass(slots=True)
class SlapLead(Decision):
    """By how much a good slap beat the next seat's press on the same card: ``seat`` took the
    pile, ``behind`` pressed ``lead_ns`` later (at this decision's ``t_ns``)."""

    seat: int
    behind: int
    lead_ns: int
    KIND: ClassVar[str] = "slap-lead"


@dataclass(slots=True)
class BadSlap(Decision):
    """A slap on a pile that was not slappable; the penalty follows as burn or strike (or, where
    bad slaps are contested, only a contest costs)."""

    seat: int
    KIND: ClassVar[str] = "bad-slap"


@dataclass(slots=True)
class PlayContested(Decision):
    """``seat`` contested ``player``'s last play (a pile taken, or a bad slap). ``upheld``: the
    play was wrong, and the player gives the contester a card; otherwise the contester gives
    the player one. ``cards``: how many moved (none when the giver holds none)."""

    seat: int
    player: int
    upheld: bool
    cards: int
    KIND: ClassVar[str] = "contested"


@dataclass(slots=True)
class SlapIgnored(Decision):
    """A press that is neither a winner nor a penalty (late on a won pile, lost a tie, ...)."""

    seat: int
    reason: str
    KIND: ClassVar[str] = "slap-ignored"


@dataclass(slots=True)
class CardsBurned(Decision):
    seat: int
    count: int
    cards: tuple[Card | None, ...] = ()
    KIND: ClassVar[str] = "burned"


@dataclass(slots=True)
class CardDead(Decision):
    """``card``, the pile's top card, was laid out of turn by ``seat``: it is dead (no slap
    counts on it) and came from that seat's hand, not the hand of the seat whose turn it is."""

    seat: int
    card: Card
    KIND: ClassVar[str] = "card-dead"


@dataclass(slots=True)
class PenaltyOwed(Decision):
    """``seat`` lays ``count`` cards on top of the pile as dead cards for a bad slap (its
    penalty cards, ``penalty_cards = "on-top"``) before play goes on."""

    seat: int
    count: int
    KIND: ClassVar[str] = "penalty-owed"


@dataclass(slots=True)
class PenaltyCard(Decision):
    """``card``, seen on the pile, is ``seat``'s penalty card, dead; ``left``: how many more it owes."""

    seat: int
    card: Card
    left: int
    KIND: ClassVar[str] = "penalty-card"


@dataclass(slots=True)
class CountCorrected(Decision):
    """A player said they hold no card where the referee counted ``count``: cards the camera
    missed (played unseen, so lying in the pile). They go under the pile, unknown."""

    seat: int
    count: int
    KIND: ClassVar[str] = "count-corrected"


@dataclass(slots=True)
class StrikeGiven(Decision):
    seat: int
    strikes: int
    barred: bool
    KIND: ClassVar[str] = "strike"


@dataclass(slots=True)
class PileWon(Decision):
    seat: int
    cards: int
    reason: str
    KIND: ClassVar[str] = "pile-won"


@dataclass(slots=True)
class PlayerOut(Decision):
    seat: int
    KIND: ClassVar[str] = "player-out"


@dataclass(slots=True)
class PlayerBackIn(Decision):
    seat: int
    KIND: ClassVar[str] = "back-in"


@dataclass(slots=True)
class LastChance(Decision):
    """The only player with cards plays ``cards`` more for the others' last slap-in chance."""

    seat: int
    cards: int
    KIND: ClassVar[str] = "last-chance"


@dataclass(slots=True)
class GameWon(Decision):
    seat: int
    KIND: ClassVar[str] = "game-won"


@dataclass(slots=True)
class InputTooLate(Decision):
    """An input that reached the sequencer after its moment had already been decided."""

    event: str
    seat: int | None
    late_by_ns: int
    KIND: ClassVar[str] = "too-late"


# ------------------------------------------------------ games played in rounds (Cuckoo, Oh Hell)


@dataclass(slots=True)
class RoundStarted(Decision):
    """A new deal: round (or hand) number, the dealer, the seats dealt in, cards each."""

    round: int
    dealer: int
    seats: tuple[int, ...]
    cards: int = 1
    KIND: ClassVar[str] = "round-started"


@dataclass(slots=True)
class TurnSkipped(Decision):
    seat: int
    reason: str
    KIND: ClassVar[str] = "turn-skipped"


@dataclass(slots=True)
class GameOver(Decision):
    """The end of a game: its winners (none when undecided), final scores and the pot."""

    winners: tuple[int, ...]
    scores: tuple[int, ...]
    reason: str
    pot: int = 0
    KIND: ClassVar[str] = "game-over"
