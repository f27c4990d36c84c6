"""The corner reader: a small convolutional network that reads rank and suit from an index corner.

Trained once (``python -m vision.train``) on synthetic corners drawn in many fonts with many pip
shapes, layouts and camera faults (``vision.train.synth``), so it reads decks it has never seen.
Three 3x3 convolutions with max pooling, one dense layer (the *embedding*, which deck enrolment
also uses) and two softmax heads: one for the rank (or joker, or no index), one for the suit.
It ships as a small ONNX file run by ONNX Runtime (``vision.runtime``), with a second network
of the same shape trained on corners with pips of random shapes and hard shadows
(``--varied``): their probabilities are averaged (a geometric mean), since two networks that
learnt differently are rarely sure of the same wrong answer. Enrolment uses the first's embedding.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from vision.runtime import ModelError, OnnxNet

CORNER_PX = (62, 126)  # what reader.corner_image cuts from a 250 x 350 warped card (w, h)
INPUT_W, INPUT_H = 32, 64
RANK_CLASSES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "joker", "none")
SUIT_CLASSES = ("C", "D", "H", "S", "none")
WEIGHTS = Path(__file__).with_name("models") / "corner_net.onnx"
SECOND_WEIGHTS = WEIGHTS.with_name("corner_net_varied.onnx")
OUTPUTS = ("rank", "suit", "embedding")  # the model's output names


def corner_input(corner: np.ndarray) -> np.ndarray:
    """A BGR corner as the network's input: darkness and redness, normalised for the light.

    Darkness (255 minus the darkest channel) makes ink of any colour dark on any paper; it is
    measured against the paper (the median) and scaled by the ink's contrast, so a dim photo and
    a bright one look alike. Redness (red over the other two) tells hearts and diamonds.
    """
    return corner_inputs([corner])[0]


def corner_inputs(corners: list[np.ndarray]) -> np.ndarray:
    """``corner_input`` of many corners, N x INPUT_H x INPUT_W x 2, in one pass over the batch."""
    small = np.stack([cv2.resize(c, (INPUT_W, INPUT_H), interpolation=cv2.INTER_AREA) for c in corners])
    b, g, r = small[..., 0], small[..., 1], small[..., 2]
    dark8 = 255 - np.minimum(np.minimum(b, g), r)  # in bytes: numpy's reductions over channels are slow
    paper, ink = (p[:, None, None] for p in byte_percentiles(dark8.reshape(len(corners), -1), (50, 98)))
    dark = np.clip((dark8.astype(np.float32) - paper) / np.maximum(ink - paper, 25.0), -1.0, 3.0)
    brightness = np.maximum(255 - paper, 40.0)
    red = np.clip((r.astype(np.float32) - np.maximum(b, g)) / brightness * 2, 0.0, 2.0)
    return np.stack([dark, red], axis=-1).astype(np.float32)


def byte_percentiles(rows: np.ndarray, percents: tuple[float, ...]) -> list[np.ndarray]:
    """``np.percentile(rows, q, axis=1)`` (linear) for each q, of rows of bytes, from each row's
    histogram: a third of numpy's time (which sorts) for a frame's corners (0.07 ms for 16)."""
    count, n = rows.shape
    histograms = np.bincount((rows + np.arange(count, dtype=np.int32)[:, None] * 256).ravel(), minlength=count * 256)
    below = np.cumsum(histograms.reshape(count, 256), axis=1)  # how many of each row lie at or below each value

    def nth(k: int) -> np.ndarray:  # each row's k-th smallest value (from 0)
        return (below <= k).sum(axis=1).astype(np.float32)

    out = []
    for q in percents:
        at = q / 100 * (n - 1)
        low = int(at)
        lower, upper = nth(low), nth(min(low + 1, n - 1))
        out.append(lower + np.float32(at - low) * (upper - lower))
    return out


BATCH_MOST = 256  # corners the networks read in one pass at most (memory stays bounded)


@dataclass(frozen=True)
class CornerOutput:
    rank: np.ndarray  # N x len(RANK_CLASSES) probabilities
    suit: np.ndarray  # N x len(SUIT_CLASSES) probabilities
    embedding: np.ndarray  # N x D, unit length: what enrolled decks are matched on


class CornerNet:
    """The networks, loaded, and their forward pass: one network's answers, or several averaged."""

    def __init__(self, model: bytes, *more: bytes) -> None:
        models = (model, *more)
        self._set(models, [_runnable(m) for m in models])

    def _set(self, models: tuple[bytes, ...], nets: list[OnnxNet]) -> None:
        self.model = b"".join(models)  # what a fingerprint (``deck.net_id``) is taken of
        self._nets = nets

    @classmethod
    def load(cls, *paths: str | Path) -> CornerNet:
        """The networks in those files; by default the shipped two (``WEIGHTS``, ``SECOND_WEIGHTS``)."""
        models, nets = [], []
        for path in paths or (WEIGHTS, SECOND_WEIGHTS):
            try:
                models.append(_read(path))
                nets.append(_runnable(models[-1]))
            except ModelError as exc:
                raise ModelError(f"{path}: {exc}; reinstall cardtable or retrain (docs/training.md)") from None
        net = cls.__new__(cls)
        net._set(tuple(models), nets)
        return net

    def forward(self, inputs: np.ndarray) -> CornerOutput:
        """Inputs are N x INPUT_H x INPUT_W x 2 (``corner_input``); one call for all corners of a frame."""
        planar = inputs.transpose(0, 3, 1, 2)
        outs = [net.run(planar, OUTPUTS) for net in self._nets]
        rank, suit = (_mean_probabilities([out[k] for out in outs]) for k in (0, 1))
        hidden = outs[0][2]
        norm = np.linalg.norm(hidden, axis=1, keepdims=True)
        return CornerOutput(rank, suit, hidden / np.maximum(norm, 1e-6))

    def read(self, corners: list[np.ndarray]) -> CornerOutput:
        """The corners' answers, ``BATCH_MOST`` corners a pass at most: a frame of noise holds
        thousands of index candidates, and one pass over all took gigabytes (ONNX Runtime's
        buffers grow with the batch). Each corner's answer is the same, to the bit, either way."""
        if not corners:
            empty = np.zeros((0, 1), np.float32)
            return CornerOutput(empty, empty, empty)
        if len(corners) <= BATCH_MOST:
            return self.forward(corner_inputs(corners))
        parts = [self.forward(corner_inputs(corners[i : i + BATCH_MOST])) for i in range(0, len(corners), BATCH_MOST)]
        return CornerOutput(*(np.concatenate([getattr(p, k) for p in parts]) for k in ("rank", "suit", "embedding")))


def _read(path: str | Path) -> bytes:
    try:
        return Path(path).read_bytes()
    except OSError as exc:
        raise ModelError(f"cannot read the corner model ({exc.strerror})") from None


def _runnable(model: bytes) -> OnnxNet:
    try:
        return OnnxNet(model)
    except ValueError as exc:
        raise ModelError(f"not a corner model ONNX Runtime can run ({exc})") from None


def _mean_probabilities(rows: list[np.ndarray]) -> np.ndarray:
    """Several networks' probabilities (N x classes each) as one: their geometric mean, normalised."""
    if len(rows) == 1:
        return rows[0]
    mean = np.exp(np.mean([np.log(np.maximum(r, 1e-9)) for r in rows], axis=0))
    return (mean / mean.sum(axis=1, keepdims=True)).astype(np.float32)


@lru_cache(maxsize=1)
def builtin_net() -> CornerNet:
    return CornerNet.load()
