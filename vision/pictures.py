"""An enrolled deck's court pictures: a witness for a king, queen or jack whose indices do not read.

A webcam washes a court card's thin red index out to a few grey levels over the paper, or a
wire mesh or a glare lies across it, while the picture beside it still shows plainly. Each
deck draws its twelve courts differently, so a deck enrolled from photos (``vision.profile``)
keeps a small *signature* of each court's picture: the face's middle, grey, a few dozen
pixels a side, with the light's slow changes taken out (``signature``). An unsure card whose
picture is near one court's signature and clearly nearer it than any other's is that court,
when its corners do not say otherwise (``reader.read_cards``).

Measured on the photographs' deck, enrolled from its 24 photos (the benchmark's): of the 250
cards read as courts, none but their own court's signature reached ``picture_least`` with a
lead of ``picture_lead`` (covered pictures mostly match nothing); of the 250 pip cards read,
none came nearer any court's signature than 0.37.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.tuning import tuned

SIGNATURE_PX = (28, 40)  # a signature's width and height, in pixels


@dataclass(frozen=True)
class PictureTuning:
    """The tuned numbers of telling court cards by their pictures, each with its unit and why it has its value
    (``vision.tuning``: a test or an experiment reads with others)."""

    # The picture's part of the face (top, bottom, left, right, shares of its sides): the indices
    # and the paper round them left out, so a card's signature is its picture.
    inner: tuple[float, float, float, float] = (0.12, 0.88, 0.15, 0.85)
    light_sigma: float = 5.0  # pixels of a signature: changes of light slower than this are taken out
    picture_least: float = 0.5  # correlation with a court's signature the picture must reach ...
    picture_lead: float = 0.2  # ... ahead of every other court's, to be taken for that court


TUNING = PictureTuning()


@dataclass(frozen=True)
class Pictures:
    """The courts' signatures of one deck: ``codes[i]`` is the card of ``signatures[i]``."""

    codes: tuple[str, ...]
    signatures: np.ndarray  # N x (SIGNATURE_PX's pixels), unit length

    def court_of(self, face: np.ndarray, suit: str | None = None) -> str | None:
        """The court whose picture a face (a warped card, either way up) shows, or None when no
        court's signature is near enough and ahead of the others by ``picture_lead``; with a
        ``suit``, of that suit's courts only."""
        tune = tuned(TUNING)
        among = [n for n, code in enumerate(self.codes) if suit is None or code[-1] == suit]
        if not among:
            return None
        turned = cv2.rotate(face, cv2.ROTATE_180)
        near = np.max(self.signatures[among] @ np.stack([signature(face), signature(turned)]).T, axis=1)
        order = np.argsort(-near)
        best = float(near[order[0]])
        second = float(near[order[1]]) if len(order) > 1 else -1.0
        return (
            self.codes[among[order[0]]] if best >= tune.picture_least and best - second >= tune.picture_lead else None
        )


def signature(face: np.ndarray) -> np.ndarray:
    """A face's picture as a unit vector: the middle (``inner``), grey, ``SIGNATURE_PX`` big,
    less its blur by ``light_sigma`` (an uneven light, a washed-out photo) and its mean."""
    tune = tuned(TUNING)
    grey = cv2.cvtColor(face, cv2.COLOR_BGR2GRAY) if face.ndim == 3 else face
    h, w = grey.shape
    top, bottom, left, right = (round(share * side) for share, side in zip(tune.inner, (h, h, w, w), strict=True))
    middle = grey[top : max(bottom, top + 1), left : max(right, left + 1)]
    small = cv2.resize(middle.astype(np.float32), SIGNATURE_PX, interpolation=cv2.INTER_AREA)
    detail = small - cv2.GaussianBlur(small, (0, 0), tune.light_sigma)
    detail = (detail - detail.mean()).ravel()
    return detail / max(float(np.linalg.norm(detail)), 1e-6)
