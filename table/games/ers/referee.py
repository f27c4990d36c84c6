"""Egyptian Rat Screw (and Beggar-my-neighbour, its slap-less preset) as a pure referee.

The referee follows the physical game. Hands are face down, so it knows each hand's size and,
where it has seen them (the simulator's deal, piles it watched being won), which cards are in it;
an unknown card is ``None``. Cards come from the camera (``CardSeen`` on the pile zone) and are
always played by the seat whose turn it is; slaps come from seat buttons (``ButtonPressed``).

Timing rules, all decided on event timestamps:

* a press is judged against the pile as it was at the press's own ``t_ns``;
* presses at the very same ``t_ns`` are a tie, settled by ``rules.tie`` once the referee knows no
  other press shares that time (a later event, or ``advance``);
* after the pile is won, presses until the next card are late (``rules.late_slaps``); the first
  by another seat within ``RACE_NS`` tells by how much the winner was first (``SlapLead``);
* when a challenge fails on a slappable card the face-card player's claim waits: a good slap before
  the next card (or before the camera sees the pile taken) still wins the pile;
* where bad slaps are contested (``rules.bad_slaps``), a seat's ``contest`` action (a long press)
  before the next card contests the last pile taken or bad slap by another seat; the press that
  began it is no slap to contest;
* where cards laid out of turn are dead (``rules.out_of_turn``), the table's word that the top
  card was a seat's, laid out of turn, is taken while nothing has been judged since the card:
  the game goes back to before it, and the card lies on the pile from that seat's hand, dead.
"""

from __future__ import annotations

import copy
import random
from collections import Counter, deque
from dataclasses import dataclass, field
from typing import Any, Self

from table.cards import Card, CardError, counted, pack_counts, parse_card
from table.decisions import (
    BadSlap,
    CardDead,
    CardMismatch,
    CardPlayed,
    CardsBurned,
    ChallengeLost,
    ChallengePassed,
    ChallengeStarted,
    CountCorrected,
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
    PlayerOut,
    Rejected,
    SlapIgnored,
    SlapLead,
    StrikeGiven,
    TurnChanged,
)
from table.events import (
    OUT_OF_CARDS,
    OUT_OF_TURN,
    ButtonPressed,
    ButtonReleased,
    CardGone,
    CardSeen,
    Event,
    SeatAction,
    ZoneKind,
)
from table.games.ers.rules import ErsRules
from table.games.ers.slaps import chances as challenge_chances
from table.games.ers.slaps import slap_condition
from table.referee import Expectation, GameSetupError, GameView, Referee
from table.rules import build_rules, rules_to_dict

PILE = ZoneKind.PILE
RACE_NS = 1_000_000_000  # a press this long after a good slap on the same card still ran the race
# A card seen this soon after a bad slap whose cards go on top was already on its way: the play
# of the player whose turn it is, not a penalty card (nobody lays one within 0.6 s of slapping).
IN_FLIGHT_NS = 600_000_000
CONTEST = "contest"  # a seat action: the last pile taken or bad slap by another seat was wrong
WON, LAST_CHANCE = "won", "last-chance"  # how an empty pile with one seat holding cards ends (``_ending``)
CONTESTABLE = "no slap here: the others may contest it"  # a bad slap where bad slaps are contested
TAKE_PILE = "take-pile"  # expected of the seat whose pile, once taken up, wins it the game: no card follows


@dataclass(slots=True)
class _Contestable:
    """A play since the last card that may be contested: ``seat`` took a pile (``right``) or
    slapped badly, at ``t`` (the slap's press); ``contesters`` have contested it already."""

    seat: int
    right: bool
    t: int
    contesters: list[int] = field(default_factory=list)


def _code(card: Card | None) -> str | None:
    return None if card is None else card.code


def _card(code: str | None) -> Card | None:
    return None if code is None else parse_card(code)


class ErsReferee(Referee):
    GAME = "ers"
    # (``_settled_copy`` too: made from this very state, and dropped by a copy's first input)
    SHARED_ON_COPY = frozenset({"rules", "_deck_counts", "_deck_by_key", "_settled_copy"})

    def __init__(
        self,
        rules: ErsRules,
        players: int,
        dealer: int = 0,
        seed: int = 0,
        deal: list[list[Card]] | None = None,
    ) -> None:
        total = rules.total_cards
        if not 2 <= players <= total:
            raise GameSetupError(f"Egyptian Rat Screw needs 2 to {total} players, not {players}")
        if not 0 <= dealer < players:
            raise GameSetupError(f"dealer must be a seat from 0 to {players - 1}, not {dealer}")
        self.rules = rules
        self.players = players
        self.dealer = dealer
        self.rng = random.Random(seed)
        self._deck_counts, self._deck_by_key = pack_counts(rules.decks, rules.jokers_per_deck)
        if deal is None:
            sizes = [0] * players
            for i in range(total):
                sizes[(dealer + 1 + i) % players] += 1
            self.hands: list[deque[Card | None]] = [deque([None] * k) for k in sizes]
        else:
            self.hands = [deque(c.face for c in hand) for hand in self._checked_deal(deal)]
        self.played: list[Card] = []
        self.on_pile: dict[int, int] = {}  # the played cards counted by card key
        # The keys of every card that may be guessed to lie in a hand or burned (from the deal,
        # won piles and the camera's corrections): a card played from a hand's unknown cards
        # is looked for only among these.
        self._guessed: set[int] = {c.key for hand in self.hands for c in hand if c is not None}
        self.burned: list[Card | None] = []
        self.turn = (dealer + 1) % players
        self.top_player: int | None = None
        self.challenger: int | None = None
        self.chances = 0
        self.answered = 0  # cards played answering the challenge under way
        self.pending_award: int | None = None
        self.pending_reason = ""
        self.won_on_this_card = False
        self.strikes = [0] * players
        self.hands_under: list[int] = []  # seats whose hand is under the pile until it is won (out_slaps)
        self.lone: int | None = None
        self.last_chance_left = 0
        self.winner: int | None = None
        self.last_t = 0
        self.pending_t: int | None = None
        self.pending_presses: list[int] = []
        self.race: tuple[int, int] | None = None  # (when, who): the good slap no other press has followed yet
        self.contestable: list[_Contestable] = []  # where bad slaps are contested: the plays since the last card
        self.pressed_at: list[int | None] = [None] * players  # where contests are on, each seat's last press
        self.told_dead = rules.out_of_turn != "credited"  # a card may be told as laid out of turn
        self.dead: list[int] = []  # where in ``played`` the dead cards lie (rules.out_of_turn, penalty_cards)
        self.penalty_owed: list[int] = []  # a seat for each penalty card to be laid on top, in turn
        self.penalty_since = 0  # when the last bad slap that owes them was judged
        # Where cards laid out of turn are dead: the game as it stood before the top card, while
        # nothing has been judged since it (a snapshot), else None.
        self.before_card: dict[str, Any] | None = None
        self._settled_copy: ErsReferee | None = None  # ``_settled``'s, until the next input
        while not self.hands[self.turn]:  # fewer cards than seats: start at the first seat that has some
            self.turn = (self.turn + 1) % players

    # ----------------------------------------------------------------- set-up

    def _checked_deal(self, deal: list[list[Card]]) -> list[list[Card]]:
        if len(deal) != self.players:
            raise GameSetupError(f"the deal has {len(deal)} hands for {self.players} players")
        counts: dict[Card, int] = {}
        for hand in deal:
            for card in hand:
                counts[card.face] = counts.get(card.face, 0) + 1
        if counts != self._deck_counts:
            extra = sorted(c.code for c in counts if counts[c] > self._deck_counts.get(c, 0))
            missing = sorted(c.code for c in self._deck_counts if counts.get(c, 0) < self._deck_counts[c])
            raise GameSetupError(
                "the deal is not the rules' deck: "
                f"too many {' '.join(extra) or '-'}; missing {' '.join(missing) or '-'}"
            )
        return deal

    def start(self, t_ns: int = 0) -> list[Decision]:
        """The opening decisions: the game, the hand sizes, whose turn it is."""
        self.last_t = max(self.last_t, t_ns)
        sizes = tuple(len(h) for h in self.hands)
        return [GameStarted(t_ns, self.GAME, self.players, self.dealer, sizes), TurnChanged(t_ns, self.turn)]

    # ---------------------------------------------------------------- queries

    @property
    def finished(self) -> bool:
        return self.winner is not None

    def holders(self) -> list[int]:
        return [s for s in range(self.players) if self.hands[s]]

    def pile_size(self) -> int:
        return len(self.played) + len(self.burned)

    def cards_held(self, seat: int) -> int | None:
        return len(self.hands[seat])

    def legal_actions(self) -> dict[int, frozenset[str]]:
        """The seat whose turn it is plays (or takes up the pile that wins it the game); every
        seat that may slap (``_why_not``) slaps. Presses still to be judged are judged before
        the next input: what may follow is what may follow them (a contest of a bad slap among
        them, no card told as laid out of turn once one was judged on it)."""
        if self.pending_presses:
            return self._settled().legal_actions()
        if self.winner is not None:
            return {}
        out = {seat: {"slap"} for seat in range(self.players) if self._why_not(seat) is None}
        out.setdefault(self._to_play(), set()).add(self.expects().action)
        for seat in range(self.players):
            play = self._contest_target(seat)
            if play is not None and seat not in self.contestable[play].contesters and self.hands[seat]:
                out.setdefault(seat, set()).add(CONTEST)
            if self._why_not_out_of_turn(seat) is None:
                out.setdefault(seat, set()).add(OUT_OF_TURN)
        return {seat: frozenset(actions) for seat, actions in out.items()}

    def view(self) -> GameView:
        held = tuple(len(h) for h in self.hands)
        over = self.winner is not None
        return GameView(
            score="cards",
            scores=held,
            counts="cards",
            shown=tuple(map(str, held)),
            middle=f"pile of {self.pile_size()}" if self.pile_size() else "the pile is empty",
            cards=tuple(c.code for c in self.played[-4:]),
            round=None,
            phase="over" if over else "challenge" if self.challenger is not None else "playing",
            dealer=self.dealer,
            out=tuple(s for s in range(self.players) if not self.hands[s]),
            winners=() if self.winner is None else (self.winner,),
            facts=self._facts(),
            notes=tuple(self._note(seat) for seat in range(self.players)),
        )

    def _facts(self) -> tuple[tuple[str, str], ...]:
        facts = []
        if self.challenger is not None:
            chances = counted(self.chances, "chance")
            facts.append(("challenge", f"seat {self.turn} answers seat {self.challenger}: {chances} left"))
        if self.lone is not None:
            facts.append(("last chance", f"{counted(self.last_chance_left, 'card')} more to slap back in on"))
        return tuple(facts)

    def _note(self, seat: int) -> str:
        if seat in self.hands_under:
            return "hand under the pile"
        if self.strikes[seat]:
            barred = self.strikes[seat] >= self.rules.strikes_limit
            return counted(self.strikes[seat], "strike") + (": barred" if barred else "")
        return ""

    def _settled(self) -> ErsReferee:
        """A copy with the presses still to be judged judged, as they will be before any later
        input (a card or press at their very moment joins them instead). Made once for each
        moment: the table asks ``expects`` for every decision while a race is judged."""
        if self._settled_copy is None:
            settled = copy.deepcopy(self)
            settled._resolve_presses()
            self._settled_copy = settled
        return self._settled_copy

    def expects(self) -> Expectation:
        """What moves the game on, once the presses still to be judged are judged."""
        if self.pending_presses:
            return self._settled().expects()
        if self.winner is not None:
            return Expectation("none", None, f"game over: seat {self.winner} won")
        if self.penalty_owed:
            seat = self._to_play()
            owed = self.penalty_owed.count(seat)
            return Expectation("play", seat, f"lay {owed} penalty card(s) on top of the pile")
        if self.lone is not None and (self.last_chance_left or self.pending_award is None):
            return Expectation("play", self.turn, f"last chance: {self.last_chance_left} more card(s)")
        if self.pending_award is not None:
            if self._award_ends(self.pending_award) == WON:
                return Expectation(TAKE_PILE, self.turn, "takes the pile and wins")
            return Expectation("play", self.turn, "takes the pile, then leads")
        if self.challenger is not None:
            return Expectation("play", self.turn, f"answer seat {self.challenger}: {self.chances} chance(s) left")
        return Expectation("play", self.turn)

    def _award_ends(self, seat: int) -> str | None:
        """What ``seat`` taking the pile waiting for it means (``_ending``): ``WON``, or play goes on."""
        holders = sorted({*self.holders(), seat})
        return self._ending(holders, self.lone if self.lone == seat else None)

    def _to_play(self) -> int:
        """Who lays the next card: the first seat owing penalty cards, else the turn's player."""
        return self.penalty_owed[0] if self.penalty_owed else self.turn

    def slap_condition(self) -> str | None:
        """The condition the pile shows right now, or None. Dead cards make no slap: only the
        cards above the last of them count, and top-bottom not at all."""
        if self.dead:
            return slap_condition(self.played[self.dead[-1] + 1 :], True, self.rules, self.answered)
        return slap_condition(self.played, bool(self.burned), self.rules, self.answered)

    def next_holder(self, seat: int) -> int | None:
        for i in range(1, self.players):
            s = (seat + i) % self.players
            if self.hands[s]:
                return s
        return None

    # ----------------------------------------------------------------- events

    def handle(self, event: Event) -> list[Decision]:
        self._settled_copy = None
        t = event.t_ns
        if t < self.last_t:
            return [Rejected(t, f"out of order: {t} is before {self.last_t}", event.TYPE)]
        out: list[Decision] = []
        # Presses wait for every other input of their moment; a card seen at that very moment is
        # played first (it landed as the hands came down: they are judged on it).
        if self.pending_t is not None and (t > self.pending_t or not isinstance(event, (ButtonPressed, CardSeen))):
            out += self._resolve_presses()
        self.last_t = t
        seat = getattr(event, "seat", None)
        if seat is not None and seat >= self.players:
            out.append(Rejected(t, f"seat {seat} does not exist at a table of {self.players}", event.TYPE, seat))
            return out
        cls = event.__class__
        if cls is CardSeen:
            out += self._card_seen(t, event)  # type: ignore[arg-type]
        elif cls is ButtonPressed:
            if self.winner is not None:
                out.append(Rejected(t, "the game is over", event.TYPE, seat))
            elif event.seat not in self.pending_presses:
                self.pending_t = t
                self.pending_presses.append(event.seat)
                if self.rules.bad_slaps == "contest":
                    self.pressed_at[event.seat] = t
        elif cls is CardGone:
            if event.zone == PILE and event.card is None and self.pending_award is not None:
                out += self._award(t, self.pending_award, self.pending_reason)
        elif isinstance(event, SeatAction) and event.action == OUT_OF_CARDS:
            out += self._out_of_cards(t, event.seat)
        elif isinstance(event, SeatAction) and event.action == CONTEST:
            out += self._contest(t, event.seat)
        elif isinstance(event, SeatAction) and event.action == OUT_OF_TURN:
            out += self._out_of_turn(t, event.seat, event.value)
        elif not isinstance(event, ButtonReleased):
            what = f"{event.TYPE} {getattr(event, 'name', '')}".strip()
            out.append(Rejected(t, f"Egyptian Rat Screw takes no {what}", event.TYPE))
        if self.penalty_owed:
            self._owed_within_hands()
            if not self.penalty_owed:  # all let off
                out += self._penalties_settled(t)
        return out

    def _owed_within_hands(self) -> None:
        """No seat owes more penalty cards than it holds (a hand that played a card in flight)."""
        kept: list[int] = []
        for seat in self.penalty_owed:
            if kept.count(seat) < len(self.hands[seat]):
                kept.append(seat)
        self.penalty_owed = kept

    def advance(self, t_ns: int) -> list[Decision]:
        self._settled_copy = None
        if self.pending_t is not None and t_ns >= self.pending_t:
            return self._resolve_presses()
        return []

    # ------------------------------------------------------------------ cards

    def _card_seen(self, t: int, event: CardSeen) -> list[Decision]:
        card = event.card
        assert card is not None
        if card.deck:
            card = card.face
        if self.winner is not None:
            return [Rejected(t, "the game is over", event.TYPE)]
        if event.zone != PILE:
            return [Rejected(t, f"zone {event.zone!r} plays no part in Egyptian Rat Screw", event.TYPE)]
        allowed = self._deck_by_key.get(card.key, 0)
        if allowed == 0:
            return [Rejected(t, f"{card} is not in this game's deck", event.TYPE)]
        # Burned cards went under the pile face down: what they were is the referee's guess from
        # the deal, not something seen. A card guessed burned that is played was not burned.
        on_pile = self.on_pile.get(card.key, 0)
        if on_pile >= allowed:
            return [Rejected(t, f"{card} is already on the pile: show the new card again", event.TYPE)]
        if self.penalty_owed and t - self.penalty_since >= IN_FLIGHT_NS:
            return self._penalty_card(t, card)
        out: list[Decision] = []
        if self.pending_award is not None:
            out += self._award(t, self.pending_award, self.pending_reason)
            if self.winner is not None:
                return [*out, Rejected(t, "the game is over", event.TYPE)]
        seat = self.turn
        hand = self.hands[seat]
        if not hand:  # no count should leave the turn with an empty hand; refused rather than guessed
            return [*out, Rejected(t, f"seat {seat} holds no card by the referee's count", event.TYPE, seat)]
        if self.told_dead:
            self.before_card = self._play_state()
        self._lay(t, seat, card, out)
        self.top_player = seat
        self.contestable.clear()
        out.append(CardPlayed(t, seat, card, self.pile_size()))
        if not hand:
            out.append(PlayerOut(t, seat))
        if self.lone is not None:
            self.last_chance_left -= 1
            if self.last_chance_left <= 0 or not hand:
                out += self._claim(t, seat, "last chance over")
            return out
        chances = challenge_chances(card, self.rules)
        self.answered = 0 if chances is not None or self.challenger is None else self.answered + 1
        if chances is not None:
            self.challenger, self.chances = seat, chances
            nxt = self.next_holder(seat)
            if nxt is None:
                return out + self._claim(t, seat, "no one left to answer")
            self.turn = nxt
            return [*out, ChallengeStarted(t, seat, nxt, card, chances), TurnChanged(t, nxt)]
        if self.challenger is not None:
            self.chances -= 1
            if self.chances == 0:
                return out + self._challenge_lost(t)
            if hand:
                return out
        return out + self._cannot_go_on(t, seat) if not hand else out + self._pass_turn(t, seat)

    def _lay(self, t: int, seat: int, card: Card, out: list[Decision]) -> None:
        """``card``, from ``seat``'s hand, onto the pile: what was known of that hand put right
        where the camera saw another card than the deal put there (said in ``out``)."""
        known = self.hands[seat].popleft()
        if known is not None and known != card:
            out.append(CardMismatch(t, seat, known, card))
            self._swap_knowledge(card, known)
        self.played.append(card)
        self.on_pile[card.key] = self.on_pile.get(card.key, 0) + 1
        if known is None and card.key in self._guessed:
            self._forget_copies_too_many(card)
        self.won_on_this_card = False
        self.race = None

    def _out_of_cards(self, t: int, seat: int) -> list[Decision]:
        """``seat`` says it holds no card, where the referee counts some. The camera missed a
        card (a play under the next one): the referee credited the next card to the wrong
        player, and this one's count is too high. The cards counted go under the pile, where
        the missed ones lie, so every card is still somewhere; the seat is out."""
        if self.winner is not None:
            return [Rejected(t, "the game is over", SeatAction.TYPE, seat)]
        hand = self.hands[seat]
        if not hand:
            return [Rejected(t, "it holds no card by the referee's count already", SeatAction.TYPE, seat)]
        count = len(hand)
        self.burned[:0] = hand
        hand.clear()
        self.before_card = None  # counts put right: the top card's player can no longer change
        out: list[Decision] = [CountCorrected(t, seat, count), PlayerOut(t, seat)]
        if seat in self.penalty_owed:  # no card left to lay on top
            self.penalty_owed = [s for s in self.penalty_owed if s != seat]
            if self.turn != seat:
                return out + self._penalties_settled(t)
        if self.turn != seat or self.pending_award is not None:
            return out
        if self.lone == seat:  # the last chance ends with the cards: it takes the pile back, and has won
            self.last_chance_left = 0
            return out + self._claim(t, seat, "last chance over")
        return out + self._cannot_go_on(t, seat)

    def _forget_copies_too_many(self, card: Card) -> None:
        """``card`` came from a hand's unknown cards (a won pile put on top, a card misread
        before): where more copies of it than the decks hold were guessed to lie, in a hand or
        burned under the pile, what lies there is not known."""
        key = card.key
        spare = self._deck_by_key[key] - self.on_pile[key]
        for place in (*self.hands, self.burned):
            for i in [i for i, guess in enumerate(place) if guess is not None and guess.key == key]:
                if spare > 0:
                    spare -= 1
                else:
                    place[i] = None

    def _swap_knowledge(self, seen: Card, expected: Card) -> None:
        """The camera is right: where we thought ``seen`` was (a hand, or burned under the pile),
        ``expected`` must be instead."""
        for hand in [*sorted(self.hands, key=lambda h: h[0] != seen if h else True), self.burned]:
            for i, card in enumerate(hand):
                if card == seen:
                    hand[i] = expected
                    self._guessed.add(expected.key)
                    return

    def _pass_turn(self, t: int, seat: int) -> list[Decision]:
        nxt = self.next_holder(seat)
        if nxt is None:
            return self._claim(t, seat, "only player with cards")
        self.turn = nxt
        return [TurnChanged(t, nxt)]

    def _cannot_go_on(self, t: int, seat: int) -> list[Decision]:
        """``seat`` has no card left to play on its turn."""
        if self.challenger is None:
            return self._pass_turn(t, seat)
        if self.rules.runout == "challenger-takes":
            return self._challenge_lost(t)
        nxt = self.next_holder(seat)
        if nxt is None or nxt == self.challenger:
            return self._challenge_lost(t)
        self.turn = nxt
        return [ChallengePassed(t, seat, nxt, self.chances), TurnChanged(t, nxt)]

    def _challenge_lost(self, t: int) -> list[Decision]:
        winner = self.challenger
        assert winner is not None
        out: list[Decision] = [ChallengeLost(t, self.turn, winner)]
        self.challenger, self.chances = None, 0
        return out + self._claim(t, winner, "challenge")

    def _claim(self, t: int, seat: int, reason: str) -> list[Decision]:
        """``seat`` takes the pile, unless its top card is slappable, or may yet be told as laid
        out of turn (``before_card``): then it takes the pile as it is picked up (the next card,
        or the camera seeing it go), and a good slap before then still wins it."""
        others_may_slap = any(self._why_not(other) is None for other in range(self.players) if other != seat)
        slappable = others_may_slap and self.slap_condition() is not None
        if slappable or self.before_card is not None:
            self.pending_award, self.pending_reason = seat, reason
            self.turn = seat
            return [TurnChanged(t, seat)]
        return self._award(t, seat, reason)

    def _award(self, t: int, seat: int, reason: str) -> list[Decision]:
        hand = self.hands[seat]
        was_out = not hand
        hand.extend(self.burned)
        hand.extend(self.played)
        self._guessed.update(self.on_pile)
        out: list[Decision] = [PileWon(t, seat, self.pile_size(), reason)]
        if was_out and hand:
            out.append(PlayerBackIn(t, seat))
        self.burned.clear()
        self.played.clear()
        self.on_pile.clear()
        self.dead.clear()
        self.before_card = None
        self.challenger, self.chances = None, 0
        self.pending_award = None
        self.hands_under.clear()
        self.won_on_this_card = True
        if self.rules.bad_slaps == "contest":
            self.contestable.append(_Contestable(seat, True, t))
        if self.lone is not None and seat != self.lone:
            self.lone, self.last_chance_left = None, 0
        self.turn = seat
        out.append(TurnChanged(t, seat))
        return out + self._check_end(t)

    def _ending(self, holders: list[int], lone: int | None) -> str | None:
        """What an empty pile with only ``holders`` holding cards means (``lone``: the seat on
        its last chance): ``WON``, ``LAST_CHANCE`` given, or None, the game going on."""
        if len(holders) != 1:
            return None
        last = holders[0]
        if lone == last and self.last_chance_left > 0:
            return None
        if lone is None and self.rules.slaps and self.rules.last_chance_cards and self._anyone_may_slap_in(last):
            return LAST_CHANCE
        return WON

    def _check_end(self, t: int) -> list[Decision]:
        holders = self.holders()
        ending = None if self.pile_size() else self._ending(holders, self.lone)
        if ending is None:
            return []
        last = holders[0]
        if ending == LAST_CHANCE:
            self.lone = last
            self.last_chance_left = min(self.rules.last_chance_cards, len(self.hands[last]))
            return [LastChance(t, last, self.last_chance_left)]
        self.lone = None
        self.winner = last
        self.penalty_owed.clear()  # the winner's own, to a pile that is no more
        return [GameWon(t, last)]

    def _anyone_may_slap_in(self, holder: int) -> bool:
        return self.rules.slap_in and any(
            self.strikes[s] < self.rules.strikes_limit for s in range(self.players) if s != holder
        )

    # ------------------------------------------------------------------ slaps

    def _why_not(self, seat: int) -> str | None:
        """Why ``seat`` may not slap now, or None when it may."""
        rules = self.rules
        if not rules.slaps:
            return "this game has no slaps"
        if self.winner is not None:
            return "the game is over"
        if self.hands[seat]:
            return None
        if not rules.slap_in:
            return "out of cards, and slapping back in is off"
        if seat in self.hands_under:
            return "your hand is under the pile until it is won"
        if self.strikes[seat] >= rules.strikes_limit:
            return f"out of cards with {self.strikes[seat]} strikes: no more slapping in"
        if self.lone is None and len(self.holders()) < 2 and not rules.slap_in_always:
            return "fewer than two players hold cards"
        return None

    def _resolve_presses(self) -> list[Decision]:
        t = self.pending_t
        assert t is not None
        seats, self.pending_presses, self.pending_t = sorted(self.pending_presses), [], None
        out: list[Decision] = []
        eligible = []
        for seat in seats:
            reason = self._why_not(seat)
            if reason is None:
                eligible.append(seat)
            else:
                out.append(SlapIgnored(t, seat, reason))
        if not eligible:
            return out
        self.before_card = None  # a slap judged on the top card: whose it was can no longer change
        if self.won_on_this_card:
            if self.race is not None and (behind := [s for s in eligible if s != self.race[1]]):
                won_at, winner = self.race
                if t - won_at <= RACE_NS:
                    out.append(SlapLead(t, winner, behind[0], t - won_at))
                self.race = None
            if self.rules.late_slaps == "penalty":  # all but the winner, whose pile it is
                out += [SlapIgnored(t, self.turn, "the pile is yours already")] if self.turn in eligible else []
                return out + self._bad_slaps(t, [s for s in eligible if s != self.turn])
            return out + [SlapIgnored(t, seat, "late: the pile was already won on this card") for seat in eligible]
        condition = self.slap_condition()
        if condition is None:
            return out + self._bad_slaps(t, eligible)
        winner = eligible[0] if len(eligible) == 1 else self._break_tie(eligible)
        if winner is None:
            return out + [SlapIgnored(t, s, "exact tie: nobody takes the pile") for s in eligible]
        others = tuple(s for s in eligible if s != winner)
        out.append(GoodSlap(t, winner, condition, others))
        self.race = None if others else (t, winner)
        out += [SlapIgnored(t, s, f"exact tie lost to seat {winner}") for s in others]
        return out + self._award(t, winner, f"slap: {condition}")

    def _break_tie(self, seats: list[int]) -> int | None:
        if self.rules.tie == "nobody":
            return None
        if self.rules.tie == "random":
            return self.rng.choice(sorted(seats))
        start = self.top_player if self.top_player is not None else self.turn
        return min(seats, key=lambda s: (s - start - 1) % self.players)

    def _bad_slaps(self, t: int, seats: list[int]) -> list[Decision]:
        """Bad slaps at one moment, settled together: every seat burns (or, out of cards, is
        struck) first; then the game goes on from what the burns left. The seat whose turn it
        is burned its last card: it cannot go on; in its last chance, the chance is over."""
        out: list[Decision] = []
        for seat in seats:
            out += self._burn(t, seat)
        return out + self._turn_emptied(t) if self.turn in seats else out

    def _turn_emptied(self, t: int) -> list[Decision]:
        """The seat whose turn it is may have just lost its last card outside play (burned,
        given): it cannot go on; in its last chance, the chance is over."""
        seat = self.turn
        if self.hands[seat] or self.pending_award is not None or self.winner is not None:
            return []
        if self.lone == seat:
            self.last_chance_left = 0
            return self._claim(t, seat, "last chance over")
        return self._cannot_go_on(t, seat) if self.lone is None else []

    def _burn(self, t: int, seat: int) -> list[Decision]:
        """One bad slap's penalty: ``rules.burn`` cards under the pile, or a strike for a seat
        slapping in with none. Where bad slaps are contested, the table keeps quiet about one by
        a seat holding cards (the players judge it, as at a table without a referee): it is a
        bad slap once a contest upholds it."""
        hand = self.hands[seat]
        if hand and self.rules.bad_slaps == "contest":
            self.contestable.append(_Contestable(seat, False, t))
            return [SlapIgnored(t, seat, CONTESTABLE)]
        return [BadSlap(t, seat), *self._penalty(t, seat)]

    def _penalty(self, t: int, seat: int) -> list[Decision]:
        """A bad slap's penalty: ``rules.burn`` of ``seat``'s cards under the pile (as many as it
        holds), or, holding none, a strike or its hand under the pile (``rules.out_slaps``)."""
        hand = self.hands[seat]
        if not hand:
            if self.rules.out_slaps == "hand-under":
                self.hands_under.append(seat)
                return [StrikeGiven(t, seat, self.strikes[seat], True)]
            self.strikes[seat] += 1
            barred = self.strikes[seat] >= self.rules.strikes_limit
            return [StrikeGiven(t, seat, self.strikes[seat], barred)]
        if self.rules.penalty_cards == "on-top":
            count = min(self.rules.burn, len(hand) - self.penalty_owed.count(seat))
            if not self.penalty_owed:  # while cards are owed, the turn's player waits: no card is in flight
                self.penalty_since = t
            self.penalty_owed += [seat] * count
            return [PenaltyOwed(t, seat, count), TurnChanged(t, self.penalty_owed[0])] if count else []
        burned = [hand.popleft() for _ in range(min(self.rules.burn, len(hand)))]
        self.burned[:0] = burned
        out: list[Decision] = [CardsBurned(t, seat, len(burned), tuple(burned))]
        if not hand:
            out.append(PlayerOut(t, seat))
        return out

    def _penalty_card(self, t: int, card: Card) -> list[Decision]:
        """``card`` is the first owing seat's penalty card, laid on top of the pile, dead; once
        none is owed, play goes on with the player whose turn it is."""
        seat = self.penalty_owed.pop(0)
        out: list[Decision] = []
        self._lay(t, seat, card, out)
        self.dead.append(len(self.played) - 1)
        self.before_card = None
        out.append(PenaltyCard(t, seat, card, self.penalty_owed.count(seat)))
        if not self.hands[seat]:
            out.append(PlayerOut(t, seat))
        return out + self._penalties_settled(t) if not self.penalty_owed else out

    def _penalties_settled(self, t: int) -> list[Decision]:
        """Who plays once the penalty cards owed have changed: the next owing seat, else the
        player whose turn it is, unless it laid its last card meanwhile (then it cannot go on)."""
        if self.winner is not None:
            return []
        if self.penalty_owed:
            return [TurnChanged(t, self._to_play())]
        if not self.hands[self.turn]:
            return self._turn_emptied(t)
        return [TurnChanged(t, self.turn)]

    def _contest(self, t: int, seat: int) -> list[Decision]:
        """``seat`` contests the last pile taken or bad slap by another seat since the last card:
        whoever was wrong gives the other the top card of their hand (to its bottom)."""

        def no(reason: str) -> list[Decision]:
            return [Rejected(t, reason, SeatAction.TYPE, seat)]

        if self.rules.bad_slaps != "contest" or not self.rules.slaps:
            return []  # a slap button held long, where contests are off: it means nothing
        if self.winner is not None:
            return no("the game is over")
        # The press this long press began with is no slap to contest, the contest taken or not;
        # this seat's slaps before it still are.
        began = self.pressed_at[seat]
        self.contestable = [p for p in self.contestable if p.seat != seat or p.t != began]
        if not self.hands[seat]:
            return no("no card to give if the contest is wrong: only a player holding cards contests")
        target = self._contest_target(seat)
        if target is None:
            return no("nothing to contest: no pile taken or bad slap by another player since the last card")
        play = self.contestable[target]
        if seat in play.contesters:
            return no(f"seat {play.seat}'s play is contested by this seat already")
        play.contesters.append(seat)
        self.before_card = None  # cards given: the top card's player can no longer change
        giver, taker = (seat, play.seat) if play.right else (play.seat, seat)
        out: list[Decision] = [PlayContested(t, seat, play.seat, not play.right, 1 if self.hands[giver] else 0)]
        if not self.hands[giver]:
            return out
        came_back = not self.hands[taker]
        self.hands[taker].append(self.hands[giver].popleft())
        out += [PlayerBackIn(t, taker)] if came_back else []
        if not self.hands[giver]:
            out.append(PlayerOut(t, giver))
            out += self._turn_emptied(t) if giver == self.turn else []
        return out + (self._check_end(t) if self.winner is None and not self.pile_size() else [])

    def _why_not_out_of_turn(self, seat: int) -> str | None:
        """Why the top card cannot be taken as ``seat``'s, laid out of turn, or None when it can."""
        if not self.told_dead:
            return "cards laid out of turn count as the turn's player's here (out_of_turn = 'credited')"
        if self.winner is not None:
            return "the game is over"
        if self.dead and self.dead[-1] == len(self.played) - 1:
            return "the top card is dead already"
        if not self.played or self.before_card is None:
            return "only the pile's top card, before anything else is judged on it, can be told as laid out of turn"
        if seat == self.top_player:
            return f"seat {seat} laid the top card in turn"
        if not self.hands[seat]:
            return f"seat {seat} holds no card by the referee's count"
        return None

    def _out_of_turn(self, t: int, seat: int, key: int | None) -> list[Decision]:
        """The top card (the card of ``key``, where the table was told which) was ``seat``'s,
        laid out of turn: the game goes back to before it (nothing has been judged since), and
        the card lies on the pile from ``seat``'s hand, dead. The turn, a challenge's chances
        and a last chance are as they were before it; a pile it gave away is not given."""
        why = self._why_not_out_of_turn(seat)
        if why is None and key is not None and self.played[-1].face.key != key:
            why = f"the top card is {self.played[-1]}, not the card named"
        if why is not None:
            return [Rejected(t, why, SeatAction.TYPE, seat)]
        assert self.before_card is not None
        card = self.played[-1]
        was_out = {s for s in range(self.players) if not self.hands[s]}
        self._load(self.before_card)
        self.last_t, self.pending_t, self.pending_presses = t, None, []  # presses were settled before this
        out: list[Decision] = [PlayerBackIn(t, s) for s in sorted(was_out) if self.hands[s]]
        self._lay(t, seat, card, out)
        self.dead.append(len(self.played) - 1)
        self.contestable.clear()
        out.append(CardDead(t, seat, card))
        if not self.hands[seat]:
            out.append(PlayerOut(t, seat))
        if self.rules.out_of_turn == "dead-and-burn":
            out += self._penalty(t, seat)
        return [*out, TurnChanged(t, self._to_play())]

    def _contest_target(self, seat: int) -> int | None:
        """Where in ``contestable`` the play ``seat`` would contest is: the last by another seat."""
        return next((i for i in range(len(self.contestable) - 1, -1, -1) if self.contestable[i].seat != seat), None)

    # ------------------------------------------------------- snapshot/restore

    def snapshot(self) -> dict[str, Any]:
        state = self.rng.getstate()
        return {
            "game": self.GAME,
            "rules": rules_to_dict(self.rules),
            "players": self.players,
            "dealer": self.dealer,
            "rng": [state[0], list(state[1]), state[2]],
            **self._play_state(),
            "before_card": self.before_card,
        }

    def _play_state(self) -> dict[str, Any]:
        """Where the play stands: the snapshot but for the rules, seats and generator, which
        the play does not change, and the game before the top card."""
        return {
            "hands": [[_code(c) for c in h] for h in self.hands],
            "played": [c.code for c in self.played],
            "burned": [_code(c) for c in self.burned],
            "turn": self.turn,
            "top_player": self.top_player,
            "challenger": self.challenger,
            "chances": self.chances,
            "answered": self.answered,
            "pending_award": self.pending_award,
            "pending_reason": self.pending_reason,
            "won_on_this_card": self.won_on_this_card,
            "strikes": list(self.strikes),
            "hands_under": list(self.hands_under),
            "lone": self.lone,
            "last_chance_left": self.last_chance_left,
            "winner": self.winner,
            "last_t": self.last_t,
            "pending_t": self.pending_t,
            "pending_presses": list(self.pending_presses),
            "race": None if self.race is None else list(self.race),
            "contestable": [[p.seat, p.right, list(p.contesters), p.t] for p in self.contestable],
            "pressed_at": list(self.pressed_at),
            "dead": list(self.dead),
            "penalty_owed": list(self.penalty_owed),
            "penalty_since": self.penalty_since,
        }

    @classmethod
    def restore(cls, snapshot: dict[str, Any]) -> Self:
        try:
            rules = build_rules(ErsRules, snapshot["rules"])
            ref = cls(rules, snapshot["players"], snapshot["dealer"])
            ref._load(snapshot)
        except (KeyError, TypeError, ValueError, CardError) as exc:
            raise GameSetupError(f"not an Egyptian Rat Screw snapshot: {exc!r}") from None
        return ref

    def _load(self, snapshot: dict[str, Any]) -> None:
        """The game as ``snapshot`` holds it (the rules, players and dealer are this referee's;
        the game before the top card holds no generator: nothing drew from it since)."""
        if "rng" in snapshot:
            version, internal, gauss = snapshot["rng"]
            self.rng.setstate((version, tuple(internal), gauss))
        self.hands = [deque(_card(c) for c in h) for h in snapshot["hands"]]
        self.played = [parse_card(c) for c in snapshot["played"]]
        self.on_pile = dict(Counter(card.key for card in self.played))
        self.burned = [_card(c) for c in snapshot["burned"]]
        self._guessed = {c.key for place in (*self.hands, self.burned) for c in place if c is not None}
        for key in (
            "turn",
            "top_player",
            "challenger",
            "chances",
            "pending_award",
            "pending_reason",
            "won_on_this_card",
            "lone",
            "last_chance_left",
            "winner",
            "last_t",
            "pending_t",
        ):
            setattr(self, key, snapshot[key])
        self.strikes = list(snapshot["strikes"])
        self.hands_under = [int(seat) for seat in snapshot.get("hands_under", [])]
        self.answered = int(snapshot.get("answered", 0))
        self.pending_presses = list(snapshot["pending_presses"])
        race = snapshot.get("race")
        self.race = None if race is None else (int(race[0]), int(race[1]))
        self.contestable = [  # (a play kept before its press's time was: at no press)
            _Contestable(int(play[0]), bool(play[1]), int(play[3]) if len(play) > 3 else -1, [int(c) for c in play[2]])
            for play in snapshot.get("contestable", [])
        ]
        self.pressed_at = list(snapshot.get("pressed_at", [None] * self.players))
        self.dead = [int(i) for i in snapshot.get("dead", [])]
        self.penalty_owed = [int(seat) for seat in snapshot.get("penalty_owed", [])]
        self.penalty_since = int(snapshot.get("penalty_since", 0))
        before = snapshot.get("before_card")
        self.before_card = dict(before) if before is not None else None
