"""What cheap cameras and room lights do to a picture, for rendered scenes (``SceneSpec.camera``).

A rendered scene is what a good camera sees in white light. A family's webcam and living room do
worse: the light is warm or green, the camera's white balance guesses wrong, its colours are
dull and its reds come out dark and brownish, it exposes for the wrong thing, it has few pixels
and squeezes them into a small JPEG, its corners are dark, and a hand's movement smears the
frame. ``apply`` does these to a finished frame, in the order light and camera do them; ``LOOKS``
names the combinations the benchmark measures the reader under, ``UNDER_LIMIT`` those that
draw fewer pixels than a camera set up for the table gives.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True)
class CameraLook:
    """One camera in one room. Colours are (blue, green, red) gains, as OpenCV keeps them."""

    name: str
    light: tuple[float, float, float] = (1.0, 1.0, 1.0)  # the room's light: warm lamps are red-heavy
    balance: tuple[float, float, float] = (1.0, 1.0, 1.0)  # the camera's white balance, right or wrong
    saturation: float = 1.0  # below 1: dull colours
    red_bleed: float = 0.0  # a cheap sensor's red taking green and blue in: reds dark and brownish
    exposure: float = 1.0  # the automatic exposure's gain: above 1 whites clip, below 1 all is dark
    gamma: float = 1.0  # the camera's tone curve, on top of the screen's
    vignette: float = 0.0  # how much darker the corners are (0-1)
    motion_px: float = 0.0  # a smear this long, across the frame (a bumped table, a moving hand)
    pixels: float = 1.0  # the sensor's resolution as a share of the frame's, scaled up to it
    jpeg: int | None = None  # the stream's JPEG quality
    noise: float = 0.0  # sensor noise (grey levels), on top of the scene's

    def apply(self, image: np.ndarray, seed: int = 0) -> np.ndarray:
        """The frame as this camera, in this light, delivers it."""
        img = image.astype(np.float32) / 255.0
        gains = np.float32(self.light) * np.float32(self.balance) * np.float32(self.exposure)
        img *= gains
        if self.red_bleed:
            b, g, r = cv2.split(img)
            r = (1 - self.red_bleed) * r + self.red_bleed * 0.5 * (g + b)
            img = cv2.merge([b, g, r])
        if self.saturation != 1.0:
            grey = cv2.cvtColor(np.clip(img, 0, 1), cv2.COLOR_BGR2GRAY)[..., None]
            img = grey + self.saturation * (img - grey)
        if self.gamma != 1.0:
            img = np.power(np.clip(img, 0, 1), np.float32(self.gamma))
        h, w = img.shape[:2]
        if self.vignette:
            y, x = np.ogrid[:h, :w]
            far = ((x - w / 2) ** 2 + (y - h / 2) ** 2) / ((w / 2) ** 2 + (h / 2) ** 2)
            img *= (1 - self.vignette * far).astype(np.float32)[..., None]
        if self.motion_px >= 1:
            k = round(self.motion_px)
            kernel = np.zeros((k, k), np.float32)
            kernel[k // 2, :] = 1.0 / k
            angle = (seed * 37) % 180
            rotation = cv2.getRotationMatrix2D((k / 2 - 0.5, k / 2 - 0.5), angle, 1.0)
            kernel = cv2.warpAffine(kernel, rotation, (k, k))
            img = cv2.filter2D(img, -1, kernel / max(float(kernel.sum()), 1e-6))
        if self.pixels < 1.0:
            small = (max(1, round(w * self.pixels)), max(1, round(h * self.pixels)))
            img = cv2.resize(
                cv2.resize(img, small, interpolation=cv2.INTER_AREA), (w, h), interpolation=cv2.INTER_LINEAR
            )
        if self.noise:
            img += np.random.default_rng(seed).normal(0, self.noise / 255, img.shape).astype(np.float32)
        out = np.clip(img * 255 + 0.5, 0, 255).astype(np.uint8)
        if self.jpeg is not None:
            ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, self.jpeg])
            if ok:
                out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
        return out


WARM = (0.72, 0.9, 1.12)  # a tungsten lamp's light, blue to red
FLUORESCENT = (0.95, 1.1, 0.9)  # a tube's greenish light

# ``pixels`` is a camera's own resolution against the 800 x 600 frame it is scaled up to: 0.8 is
# a 640 x 480 webcam (the least a webcam streams today), 0.6 a 480 x 360 stream. The benchmark's
# scenes' cards are 90-175 pixels wide (median 127) at full resolution.
LOOKS = {
    look.name: look
    for look in (
        CameraLook(
            "cheap webcam",
            balance=(1.08, 1.0, 0.92),
            saturation=0.6,
            red_bleed=0.3,
            exposure=1.1,
            vignette=0.35,
            pixels=0.8,
            jpeg=55,
            noise=3.0,
        ),
        CameraLook("warm lamp, white balance fooled", light=WARM, balance=(1.15, 1.0, 0.95), saturation=0.85),
        CameraLook("fluorescent tube", light=FLUORESCENT, saturation=0.8, jpeg=75),
        CameraLook("exposed for the dark table", exposure=1.45, gamma=0.9, jpeg=80),
        CameraLook("dim room, gain up", exposure=0.55, gamma=1.1, noise=7.0, jpeg=70),
        CameraLook("a knock: motion blur", motion_px=5.0, jpeg=80),
        CameraLook("low resolution, webcam JPEG", pixels=0.6, jpeg=45, saturation=0.8),
        # A 320 x 240 stream: the cards' ranks 5-10 pixels tall. Measured and shown, with no
        # target: no camera a family would buy streams so few pixels unless set to.
        CameraLook("320 x 240 stream (set it to 640 x 480)", pixels=0.4, jpeg=45, saturation=0.8),
    )
}
UNDER_LIMIT = frozenset({"320 x 240 stream (set it to 640 x 480)"})  # looks measured with no target
