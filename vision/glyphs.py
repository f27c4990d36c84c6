"""Glyphs of a card's corner index as feature vectors, and the built-in templates to match them.

A glyph (the rank, or the suit pip under it) is cut out as a binary image, scaled to a fixed grid
and normalised, so that matching is one dot product against a template matrix. The built-in
templates are drawn at start-up with OpenCV's own vector fonts in several weights and widths and
with simple pip shapes: nothing is read from disk, and no one deck's pictures are baked in. An
enrolled deck profile (``vision.profile``) adds templates cut from that deck's own cards.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

import cv2
import numpy as np

GRID_W, GRID_H = 16, 24
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("C", "D", "H", "S")
# "O" (the second letter of JOKER written down the corner) is what tells a joker's J from a jack's.
SUIT_CLASSES = (*SUITS, "O")
FONTS = (
    cv2.FONT_HERSHEY_SIMPLEX,
    cv2.FONT_HERSHEY_DUPLEX,
    cv2.FONT_HERSHEY_COMPLEX,
    cv2.FONT_HERSHEY_TRIPLEX,
    cv2.FONT_HERSHEY_COMPLEX_SMALL,
    cv2.FONT_HERSHEY_SIMPLEX | cv2.FONT_ITALIC,
    cv2.FONT_HERSHEY_TRIPLEX | cv2.FONT_ITALIC,
)


def features(mask: np.ndarray, grid: tuple[int, int] = (GRID_W, GRID_H), blur: bool = True) -> np.ndarray:
    """A binary glyph (ink > 0), tightly cropped, as a unit vector on the fixed grid."""
    grid_w, grid_h = grid
    ys, xs = np.nonzero(mask)
    if len(xs) == 0:
        return np.zeros(grid_w * grid_h + 1, np.float32)
    crop = mask[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1].astype(np.float32)
    h, w = crop.shape
    # Keep the shape's proportions (a "1" is narrow) by padding to the grid's aspect first.
    target = grid_w / grid_h
    if w / h < target:
        pad = round(h * target) - w
        crop = np.pad(crop, ((0, 0), (pad // 2, pad - pad // 2)))
    else:
        pad = round(w / target) - h
        crop = np.pad(crop, ((pad // 2, pad - pad // 2), (0, 0)))
    cells = cv2.resize(crop, (grid_w, grid_h), interpolation=cv2.INTER_AREA)
    if blur:
        cells = cv2.GaussianBlur(cells, (3, 3), 0)
    vec = np.append(cells.ravel() - cells.mean(), 0.5 * np.log(max(w, 1) / max(h, 1)))
    norm = float(np.linalg.norm(vec))
    return (vec / norm if norm > 0 else vec).astype(np.float32)


def _text_mask(text: str, font: int, thickness: int, condense: float) -> np.ndarray:
    scale = 2.0
    (w, h), base = cv2.getTextSize(text, font, scale, thickness)
    img = np.zeros((h + base + 20, w + 20), np.uint8)
    cv2.putText(img, text, (10, h + 10), font, scale, 255, thickness, cv2.LINE_AA)
    if condense != 1.0:
        img = cv2.resize(img, (max(1, round(img.shape[1] * condense)), img.shape[0]))
    return (img > 127).astype(np.uint8)


def pip_mask(suit: str, variant: int = 0, size: int = 64) -> np.ndarray:
    """A plain drawing of a suit pip (or the letter O), for the built-in suit templates."""
    img = np.zeros((size, size), np.uint8)
    s = size
    r = round(s * (0.22 + 0.03 * variant))
    if suit == "D":
        w = 0.30 + 0.06 * variant
        pts = np.array([[s / 2, 2], [s * (0.5 + w), s / 2], [s / 2, s - 3], [s * (0.5 - w), s / 2]], np.int32)
        cv2.fillPoly(img, [pts], 255, cv2.LINE_AA)
    elif suit == "H":
        cy = round(s * 0.35)
        cv2.circle(img, (round(s / 2 - r * 0.85), cy), r, 255, -1, cv2.LINE_AA)
        cv2.circle(img, (round(s / 2 + r * 0.85), cy), r, 255, -1, cv2.LINE_AA)
        pts = np.array([[s / 2 - r * 1.8, cy + r * 0.3], [s / 2 + r * 1.8, cy + r * 0.3], [s / 2, s - 4]], np.int32)
        cv2.fillPoly(img, [pts], 255, cv2.LINE_AA)
    elif suit == "S":
        # A point at the top, two round lobes low down, and a stem with a flared foot.
        cy = round(s * 0.58)
        cv2.circle(img, (round(s / 2 - r * 0.85), cy), r, 255, -1, cv2.LINE_AA)
        cv2.circle(img, (round(s / 2 + r * 0.85), cy), r, 255, -1, cv2.LINE_AA)
        pts = np.array([[s / 2 - r * 1.8, cy - r * 0.3], [s / 2 + r * 1.8, cy - r * 0.3], [s / 2, 3]], np.int32)
        cv2.fillPoly(img, [pts], 255, cv2.LINE_AA)
        stem = np.array([[s / 2, s * 0.55], [s / 2 + s * 0.13, s - 2], [s / 2 - s * 0.13, s - 2]], np.int32)
        cv2.fillPoly(img, [stem], 255, cv2.LINE_AA)
    elif suit == "C":
        r = round(s * (0.18 + 0.02 * variant))
        cv2.circle(img, (s // 2, r + 2), r, 255, -1, cv2.LINE_AA)
        cv2.circle(img, (round(s / 2 - r * 1.2), round(s * 0.55)), r, 255, -1, cv2.LINE_AA)
        cv2.circle(img, (round(s / 2 + r * 1.2), round(s * 0.55)), r, 255, -1, cv2.LINE_AA)
        cv2.circle(img, (s // 2, round(s * 0.45)), round(r * 0.6), 255, -1, cv2.LINE_AA)
        stem = np.array([[s / 2, s * 0.45], [s / 2 + s * 0.13, s - 2], [s / 2 - s * 0.13, s - 2]], np.int32)
        cv2.fillPoly(img, [stem], 255, cv2.LINE_AA)
    else:  # "O"
        cv2.ellipse(img, (s // 2, s // 2), (round(s * 0.3), round(s * 0.45)), 0, 0, 360, 255, round(s * 0.12))
    return (img > 127).astype(np.uint8)


def suit_features(mask: np.ndarray) -> np.ndarray:
    """Pips differ in small details (a spade's point, a club's leaves): a finer grid, no blur."""
    return features(mask, (24, 24), blur=False)


@dataclass
class TemplateBank:
    """Feature vectors with their labels; ``best`` answers the two best labels and scores."""

    labels: list[str] = field(default_factory=list)
    vectors: list[np.ndarray] = field(default_factory=list)
    _index: tuple[np.ndarray, list[str], np.ndarray] | None = None

    def add(self, label: str, vector: np.ndarray) -> None:
        self.labels.append(label)
        self.vectors.append(vector)
        self._index = None

    def _indexed(self) -> tuple[np.ndarray, list[str], np.ndarray]:
        """The vectors sorted by label, the distinct labels, and where each label's run starts."""
        if self._index is None:
            order = sorted(range(len(self.labels)), key=lambda i: self.labels[i])
            names = sorted(set(self.labels))
            starts = np.array([next(k for k, i in enumerate(order) if self.labels[i] == n) for n in names])
            self._index = (np.stack([self.vectors[i] for i in order]), names, starts)
        return self._index

    def best(self, vector: np.ndarray, allowed: tuple[str, ...] | None = None) -> tuple[str, float, float]:
        """The best label, its similarity, and the similarity of the best *other* label."""
        matrix, names, starts = self._indexed()
        per_label = np.maximum.reduceat(matrix @ vector, starts)
        pairs = zip(names, per_label.tolist(), strict=True)
        ranked = sorted(((score, name) for name, score in pairs if allowed is None or name in allowed), reverse=True)
        if not ranked:
            return "", -1.0, -1.0
        second = ranked[1][0] if len(ranked) > 1 else -1.0
        return ranked[0][1], ranked[0][0], second


@lru_cache(maxsize=1)
def builtin_ranks() -> TemplateBank:
    bank = TemplateBank()
    for rank in RANKS:
        for font in FONTS:
            for thickness in (2, 4, 6):
                for condense in (0.7, 0.85, 1.0):
                    bank.add(rank, features(_text_mask(rank, font, thickness, condense)))
    return bank


@lru_cache(maxsize=1)
def builtin_suits() -> TemplateBank:
    bank = TemplateBank()
    for suit in SUIT_CLASSES:
        for variant in range(3):
            for squash in (0.8, 1.0, 1.2):
                mask = pip_mask(suit, variant)
                mask = cv2.resize(mask, (round(mask.shape[1] * squash), mask.shape[0]), interpolation=cv2.INTER_NEAREST)
                bank.add(suit, suit_features(mask))
    for font in FONTS[:4]:
        for thickness in (2, 4, 6):
            bank.add("O", suit_features(_text_mask("O", font, thickness, 1.0)))
    return bank
