"""The card segmenter: a small fully convolutional network that marks where card faces lie.

Outline cues (whiteness, closed edges) fail where the table is as white as the cards, printed
paper lies about, or light cuts a card in two. The segmenter has learnt, from rendered scenes on
cluttered tables (``python -m vision.train.segment``), what a card looks like as a whole: a pale
rounded rectangle with an index and pips. It gives, for every 4 x 4 block of a frame shrunk to
``INPUT_LONG`` pixels, the chance that the block lies inside the face of the card on top there,
kept a little away from the card's edges so that cards touching or overlapping stay apart.
``detect.find_cards`` turns its map into one more mask of candidate cards, and uses it to throw
out card-shaped things that are not cards. It ships as ONNX, run by ONNX Runtime (``vision.runtime``).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from vision.runtime import ModelError, OnnxNet

INPUT_LONG = 192  # the frame's long side as the network sees it
STRIDE = 4  # one output cell per 4 x 4 input pixels
ALIGN = 16  # input sides are padded to a multiple of this (four halvings)
MARGIN = 0.06  # the map stops this fraction of a card's short side inside its edges
WEIGHTS = Path(__file__).with_name("models") / "card_segmenter.onnx"

# (name, kernel, stride, channels out): the encoder halves four times, the decoder doubles twice,
# adding the encoder's map of the same size (a U-Net with sums instead of concatenation).
ENCODER = (
    ("e1", 3, 2, 16),
    ("e2", 3, 2, 32),
    ("e3", 3, 1, 32),
    ("e4", 3, 2, 48),
    ("e5", 3, 1, 48),
    ("e6", 3, 2, 64),
    ("e7", 3, 1, 64),
    ("e8", 3, 1, 64),
)
SKIPS = {"d1": "e5", "d2": "e3"}  # decoder stage -> encoder output it adds
DECODER = (("d1", 48), ("d2", 32))


def input_size(width: int, height: int) -> tuple[int, int]:
    """The network's input size (w, h) for a frame: long side INPUT_LONG, both padded to ALIGN."""
    scale = INPUT_LONG / max(width, height)
    w, h = max(1, round(width * scale)), max(1, round(height * scale))
    return -(-w // ALIGN) * ALIGN, -(-h // ALIGN) * ALIGN


def shrink(image: np.ndarray, width: int, height: int) -> np.ndarray:
    """The image at a smaller size: halved by an image pyramid (which averages, so a carpet's or a
    cloth's fine pattern does not alias into blotches) while it is over twice the size, then
    interpolated the rest of the way, which samples. A fraction of the time of an area resize at an
    odd ratio; the benchmark's rendered tables read within a card or two of what they did."""
    while image.shape[1] >= 2 * width and image.shape[0] >= 2 * height:
        image = cv2.pyrDown(image)
    if image.shape[1] == width and image.shape[0] == height:
        return image
    return cv2.resize(image, (width, height), interpolation=cv2.INTER_LINEAR)


def net_input(image: np.ndarray) -> tuple[np.ndarray, float]:
    """A BGR frame as the network's NCHW input, and the factor from frame to input pixels.

    The frame is shrunk with its aspect kept and padded at the right and bottom with its own edge
    (a black border would look like a table edge next to a card)."""
    h, w = image.shape[:2]
    scale = INPUT_LONG / max(w, h)
    sw, sh = max(1, round(w * scale)), max(1, round(h * scale))
    small = shrink(image, sw, sh)
    pw, ph = input_size(w, h)
    small = cv2.copyMakeBorder(small, 0, ph - sh, 0, pw - sw, cv2.BORDER_REPLICATE)
    x = small.astype(np.float32) * np.float32(1 / 255) - np.float32(0.5)
    return np.ascontiguousarray(x.transpose(2, 0, 1)[None]), scale


class CardSegmenter:
    """Runs the segmenter model (ONNX bytes or a file)."""

    def __init__(self, model: bytes | Path = WEIGHTS) -> None:
        try:
            data = model if isinstance(model, bytes) else Path(model).read_bytes()
            self._net = OnnxNet(data)
        except (OSError, ValueError) as exc:
            raise ModelError(
                f"cannot load the card segmenter {model if isinstance(model, Path) else '(bytes)'}: {exc}; "
                "reinstall cardtable or retrain it with `python -m vision.train.segment`"
            ) from exc

    def forward(self, batch: np.ndarray) -> np.ndarray:
        """N x 1 x H/4 x W/4 card-face probabilities for an N x 3 x H x W input."""
        return self._net.run(batch)[0]

    def face_map(self, image: np.ndarray) -> tuple[np.ndarray, float]:
        """The probability map of a BGR frame, and the frame pixels per map cell."""
        x, scale = net_input(image)
        return self.forward(x)[0, 0], STRIDE / scale


@lru_cache(maxsize=1)
def builtin_segmenter() -> CardSegmenter:
    return CardSegmenter(WEIGHTS)
