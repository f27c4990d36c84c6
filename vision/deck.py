"""What the reader knows about a deck: the built-in network, and optionally an enrolled deck's corners.

An enrolled deck (``vision.profile``) is a set of *prototypes*: the network's embedding of each of
its index corners, with the card they came from. Reading a corner then weighs the network's own
rank by how close the corner is to each rank's prototypes, so the deck's own font settles what a
font the network never saw leaves open. Suits are not weighed so: a suit's pip is one shape in
every deck, and a blurred club lies as near a spade's prototype as its own; what the deck tells
of suits is its inks' colours as its camera shows them (``IndexInks``). The network's "no index
here" is never overruled by a prototype: every prototype is an index.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from vision.corner_net import RANK_CLASSES, CornerNet, CornerOutput, builtin_net
from vision.ink import IndexInks
from vision.pictures import Pictures

TEMPERATURE = 0.03  # cosine-similarity difference that counts as a factor e between two classes


@dataclass(frozen=True)
class Prototypes:
    embeddings: np.ndarray  # N x D, unit length
    ranks: np.ndarray  # N indices into RANK_CLASSES
    suits: np.ndarray  # N indices into SUIT_CLASSES


JOKER, NO_INDEX = RANK_CLASSES.index("joker"), RANK_CLASSES.index("none")


@dataclass(frozen=True)
class Deck:
    net: CornerNet
    prototypes: Prototypes | None = None
    name: str = "built-in"
    # Whether the cards in play include jokers. A game of 52 cards has none, and a corner read as
    # one (the streaks of pale wood grain can be, surely) then shows no index at all.
    jokers: bool = True
    # The enrolled courts' pictures (``vision.pictures``): a witness for a court whose index is unread.
    pictures: Pictures | None = None
    # The enrolled indices' inks, red and black, as the camera showed them: a witness of the suit's colour.
    inks: IndexInks | None = None

    def posteriors(self, out: CornerOutput) -> tuple[np.ndarray, np.ndarray]:
        """Rank and suit probabilities per corner, the prototypes' evidence folded into the ranks."""
        rank, suit = out.rank, out.suit
        if self.prototypes is not None and len(rank):
            sims = out.embedding @ self.prototypes.embeddings.T
            rank = _fold(rank, *_class_evidence(sims, self.prototypes.ranks, len(RANK_CLASSES)))
        if not self.jokers and len(rank):
            rank = rank.copy()
            rank[:, NO_INDEX] += rank[:, JOKER]
            rank[:, JOKER] = 0.0
        return rank, suit


def _class_evidence(sims: np.ndarray, labels: np.ndarray, classes: int) -> tuple[np.ndarray, np.ndarray]:
    """Per corner and class, a softmax over the best similarity to that class's prototypes,
    and which classes have prototypes at all."""
    best = np.full((len(sims), classes), -1.0, np.float32)
    known = np.zeros(classes, bool)
    for c in np.unique(labels):
        best[:, c] = sims[:, labels == c].max(axis=1)
        known[c] = True
    z = np.where(known[None, :], (best - best[:, known].max(axis=1, keepdims=True)) / TEMPERATURE, -np.inf)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True), known


def _fold(net: np.ndarray, evidence: np.ndarray, known: np.ndarray) -> np.ndarray:
    """The network's probabilities with the index classes reweighed by the evidence; "none"
    (the last class) keeps the network's own probability. A class the deck has no prototype of
    (a deck enrolled without its jokers) gets a neutral weight, not none: it was not seen, not
    ruled out."""
    out = net.copy()
    neutral = 1.0 / max(int(known.sum()), 1)
    weight = np.where(known[None, :], evidence, neutral)
    index = net[:, :-1] * (0.02 + weight[:, :-1])
    total = index.sum(axis=1, keepdims=True)
    out[:, :-1] = index / np.maximum(total, 1e-12) * (1 - net[:, -1:])
    return out


def net_id(net: CornerNet) -> str:
    """A short fingerprint of the model: a profile's embeddings belong to one network."""
    return hashlib.sha256(net.model).hexdigest()[:16]


@lru_cache(maxsize=1)
def builtin_deck() -> Deck:
    return Deck(builtin_net())
