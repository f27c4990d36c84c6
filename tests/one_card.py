"""One rendered card lying on a plain table: the simplest picture the reader is shown."""

from __future__ import annotations

import cv2
import numpy as np

from sim.render_cards import DECK_STYLES, render_card


def on_table(code: str, style: str, angle: float = 0.0, table=(40, 110, 40)) -> np.ndarray:
    """A photo-like picture of one card lying on a plain table, turned by ``angle`` degrees."""
    face = render_card(code, DECK_STYLES[style])
    canvas = np.zeros((600, 600, 3), np.uint8)
    canvas[:] = table
    alpha = face[:, :, 3:].astype(np.float32) / 255
    y, x = (600 - face.shape[0]) // 2, (600 - face.shape[1]) // 2
    region = canvas[y : y + face.shape[0], x : x + face.shape[1]]
    region[:] = (face[:, :, :3] * alpha + region * (1 - alpha)).astype(np.uint8)
    turn = cv2.getRotationMatrix2D((300, 300), angle, 0.8)
    return cv2.warpAffine(canvas, turn, (600, 600), borderValue=table)
