"""Players' hands over the table, for the renderer: what the camera sees most between cards.

A hand reaching for the pile is a large, pale, rounded shape with straight-sided fingers: the
kind of thing a card finder must not take for a card, and that hides the cards under it for a
few frames. Each is drawn as a palm, four fingers, a thumb and the forearm it hangs from (which
runs on out of the frame), in one of several skin tones, shaded round its edges, casting a soft
shadow on what lies under it. ``render.render_scene`` draws them over the cards, before the
room's light, and counts them in the cards' ground truth (a card under a hand is less visible).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

# Skin tones in BGR (0-1 of full scale), pale to dark: a camera's white balance leaves them warm.
SKIN_TONES = {
    "pale": (0.72, 0.78, 0.93),
    "light": (0.58, 0.68, 0.87),
    "medium": (0.42, 0.55, 0.74),
    "tan": (0.30, 0.43, 0.62),
    "dark": (0.17, 0.25, 0.38),
}


@dataclass(frozen=True)
class HandPlacement:
    """One hand over the table (pixels before perspective, like ``CardPlacement``)."""

    x: float  # the palm's centre
    y: float
    angle: float  # degrees counter-clockwise: 0 points the fingers up the frame
    size: float = 200.0  # wrist to fingertip, pixels
    skin: str = "medium"  # one of SKIN_TONES

    def __post_init__(self) -> None:
        if self.skin not in SKIN_TONES:
            raise ValueError(f"unknown skin tone {self.skin!r}; expected one of {', '.join(SKIN_TONES)}")
        if not self.size > 0:
            raise ValueError(f"a hand's size must be positive pixels, not {self.size!r}")


def hand_mask(hand: HandPlacement, shape: tuple[int, int], origin: np.ndarray) -> np.ndarray:
    """How much of each pixel of a canvas of ``shape`` (whose pixel (0, 0) lies at ``origin``) the
    hand covers, 0-1, float32: its edges anti-aliased."""
    s = hand.size
    turn = math.radians(hand.angle)
    up = np.array([-math.sin(turn), -math.cos(turn)])  # where the fingers point (image y runs down)
    side = np.array([up[1], -up[0]])
    centre = np.array([hand.x, hand.y]) - origin

    def at(along: float, across: float) -> tuple[int, int]:
        p = centre + up * along * s + side * across * s
        return round(p[0] * 4), round(p[1] * 4)  # two fractional bits: shifted drawing

    mask = np.zeros(shape, np.uint8)
    axes = (round(0.22 * s * 4), round(0.26 * s * 4))  # the palm, its long axis along the fingers
    cv2.ellipse(mask, at(0, 0), axes, -hand.angle, 0, 360, 255, cv2.FILLED, cv2.LINE_AA, 2)  # OpenCV turns clockwise
    fingers = ((-0.15, 0.40, 0.085), (-0.05, 0.48, 0.09), (0.05, 0.46, 0.09), (0.15, 0.38, 0.08))
    for across, reach, width in fingers:  # from the knuckles out, a little fanned
        tip = at(0.2 + reach, across * 1.25)
        cv2.line(mask, at(0.18, across), tip, 255, max(1, round(width * s)), cv2.LINE_AA, 2)
    cv2.line(mask, at(-0.05, -0.2), at(0.2, -0.42), 255, max(1, round(0.1 * s)), cv2.LINE_AA, 2)  # the thumb
    cv2.line(mask, at(-0.2, 0), at(-3.0, 0), 255, max(1, round(0.34 * s)), cv2.LINE_AA, 2)  # the forearm, off the frame
    return mask.astype(np.float32) * np.float32(1 / 255)


def draw_hand(
    canvas: np.ndarray, cover: np.ndarray, hand: HandPlacement, origin: np.ndarray, light_dir: float, seed: int
) -> np.ndarray:
    """Lay a hand on the canvas (float32 BGR, 0-255): its shadow on what is under it, then the hand,
    rounded by shading that darkens towards its edges, its skin a little uneven. ``cover`` (how
    much of each pixel is glossy card) loses what the hand hides. Returns its ``hand_mask``."""
    h, w = canvas.shape[:2]
    mask = hand_mask(hand, (h, w), origin)
    if not mask.any():
        return mask
    reach = 0.08 * hand.size  # a hand hovers: its shadow falls well off it, soft
    shift = np.float32([[1, 0, -math.cos(light_dir) * reach], [0, 1, -math.sin(light_dir) * reach]])
    shadow = cv2.GaussianBlur(cv2.warpAffine(mask, shift, (w, h)), (0, 0), 0.05 * hand.size)
    canvas *= (1 - 0.45 * shadow)[..., None]
    inside = cv2.distanceTransform((mask > 0.5).astype(np.uint8), cv2.DIST_L2, 5)
    rounded = np.clip(inside / (0.06 * hand.size), 0, 1) ** 0.5  # a finger's edge turns away from the light
    rng = np.random.default_rng(seed)
    blotch = cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), 0.03 * hand.size)
    blotch /= max(float(np.abs(blotch).max()), 1e-6)
    skin = np.float32(SKIN_TONES[hand.skin]) * np.float32(255)
    tone = (0.7 + 0.3 * rounded + 0.04 * blotch)[..., None] * skin
    alpha = mask[..., None]
    canvas *= 1 - alpha
    canvas += alpha * tone
    cover *= 1 - mask
    return mask
