"""The development photographs: where they are, and their split into a tuning part and a
validation part.

The photographs (real cards of one deck on many tables, from a phone and a webcam, labelled with
each card's rank and box) live outside the project. Their folder is ``$CARDTABLE_PHOTOS``, or
``shared/data/real_cards_dev`` beside the checkout when that is unset.

They were split once into a tuning part and a validation part (about two thirds and one third,
``photo_split.json``), at random within strata: by camera (the phone's ``IMG_`` photographs, the
webcam's ``cam_image`` frames) and by background (the colour round the edge of the picture, in
five groups). From then on constants and rules are tuned on the tuning part only, and the
figures quoted are the validation part's. The reader's rules were written against all of the
photographs before the split, and some name validation photographs still (``named_then`` in the
file): until those rules are taken out or re-derived on the tuning part, the validation figure
is an upper bound. ``tests/benchmarks/test_photos.py`` refuses any validation photograph named anew.
"""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import cv2
import numpy as np

from vision.quads import iou

ROOT = Path(__file__).resolve().parents[1]
ENV = "CARDTABLE_PHOTOS"
SPLIT_FILE = Path(__file__).with_name("photo_split.json")
NAME = re.compile(r"(?:IMG_\d{4}|cam_image\d+)\.(?:JPG|jpg)")
STEM = re.compile(r"(?<![\w])(?:IMG_\d{4}|cam_image\d+)(?![\d])")  # a photograph named, with or without its extension
RANKS = {"nine": "9", "ten": "10", "jack": "J", "queen": "Q", "king": "K", "ace": "A"}


def photos_folder() -> Path:
    """Where the photographs are: ``$CARDTABLE_PHOTOS``, else beside the checkout."""
    chosen = os.environ.get(ENV)
    return Path(chosen) if chosen else ROOT.parent / "shared" / "data" / "real_cards_dev"


def missing() -> str | None:
    """Why the photographs cannot be used (for a test's skip), or None when they can."""
    folder = photos_folder()
    if folder.is_dir():
        return None
    return f"the card photographs are not at {folder} (set {ENV} to their folder)"


def split() -> dict[str, list[str]]:
    """The photographs of each part, by file name: ``tuning`` and ``validation``; and
    ``named_then``, the validation photographs the project named when the split was made."""
    return json.loads(SPLIT_FILE.read_text(encoding="utf-8"))


def part_of(photo: str) -> str:
    """``tuning`` or ``validation``."""
    parts = split()
    return "validation" if photo in parts["validation"] else "tuning"


def labelled(photo: str) -> list[tuple[str, tuple[int, int, int, int]]]:
    """A photograph's labelled cards: each card's rank ("9" to "A") and the box of what shows of it."""
    root = ET.parse(photos_folder() / (Path(photo).stem + ".xml")).getroot()
    out = []
    for obj in root.findall("object"):
        box = tuple(int(obj.findtext(f"bndbox/{k}", "0")) for k in ("xmin", "ymin", "xmax", "ymax"))
        out.append((RANKS[obj.findtext("name", "")], box))
    return out


def label_overlap(corners: np.ndarray, box: tuple[int, int, int, int]) -> float:
    """How much an outline's box (its corners' extent) and a label's box overlap, over their union."""
    outline = np.array([*corners.min(axis=0), *corners.max(axis=0)], np.float64)
    return float(iou(outline, np.array([box], np.float64))[0])


def named_in_project() -> set[str]:
    """Every photograph the project's tracked files name (by its stem: "IMG_2548's jack" too), as
    file names."""
    files = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    stems: set[str] = set()
    for name in files:
        path = ROOT / name
        if path.suffix in (".py", ".md", ".toml") and path.is_file():
            stems.update(STEM.findall(path.read_text(encoding="utf-8", errors="replace")))
    return {f"{stem}.JPG" if stem.startswith("IMG_") else f"{stem}.jpg" for stem in stems}


def _background(image: np.ndarray) -> np.ndarray:
    """The picture's edge, a tenth of it all round, as a median colour (Lab)."""
    h, w = image.shape[:2]
    k = max(1, min(h, w) // 10)
    lab = cv2.cvtColor(image, cv2.COLOR_BGR2LAB).astype(np.float32)
    edge = np.concatenate(
        [lab[:k].reshape(-1, 3), lab[-k:].reshape(-1, 3), lab[:, :k].reshape(-1, 3), lab[:, -k:].reshape(-1, 3)]
    )
    return np.median(edge, axis=0)


def make_split(folder: Path, teach: set[str], groups: int = 5, validation: float = 1 / 3) -> dict[str, list[str]]:
    """The split as it was made: photographs stratified by camera and by background (k-means of
    their edges' colour, seeded), each stratum shuffled (seeded) and a third of it given to
    validation, but for the photographs that ``teach`` (those an enrolled deck is learnt from,
    ``bench_vision.ENROLMENT``); and the validation photographs the project named then
    (``named_then``)."""
    photos = sorted(p.name for p in folder.iterdir() if NAME.fullmatch(p.name))
    colours = np.array([_background(cv2.imread(str(folder / p), cv2.IMREAD_REDUCED_COLOR_4)) for p in photos])
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 100, 0.1)
    cv2.setRNGSeed(62)
    _, cluster, _ = cv2.kmeans(colours, groups, None, criteria, 10, cv2.KMEANS_PP_CENTERS)
    strata: dict[tuple[str, int], list[str]] = {}
    for photo, c in zip(photos, cluster.ravel(), strict=True):
        strata.setdefault((photo.split("_")[0], int(c)), []).append(photo)
    rng = random.Random(62)
    chosen: list[str] = []
    for key in sorted(strata):
        members = strata[key]
        rng.shuffle(members)
        chosen += [p for p in members if p not in teach][: round(len(members) * validation)]
    kept = sorted(chosen)
    return {
        "tuning": sorted(set(photos) - set(chosen)),
        "validation": kept,
        "named_then": sorted(set(kept) & named_in_project()),
    }
