"""Deck enrolment: learn a deck's own index glyphs from one photo per card.

Each image shows one card and its file name starts with the card's code and an underscore
(``QH_1.jpg``, ``10C_a.png``, ``RJ_1.jpg``). Both index corners of every card are cut into glyphs
and kept as templates, so a deck with an unusual font or pip is read by its own shapes. The
profile is a small ``.npz`` file; the built-in templates stay in the bank as a fallback.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from table.cards import CardError, make_deck, parse_card
from vision.detect import find_cards, warp_card
from vision.glyphs import TemplateBank, builtin_ranks, builtin_suits, features, suit_features
from vision.identify import Deck
from vision.reader import corner_image, cut_glyphs

FORMAT = "cardtable-deck/1"
IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".bmp"}


class EnrolError(ValueError):
    """An enrolment that cannot be done, or a profile that cannot be read; names the file."""


@dataclass
class EnrolReport:
    cards: dict[str, int] = field(default_factory=dict)  # code -> corners learnt
    missing: list[str] = field(default_factory=list)
    duplicates: list[str] = field(default_factory=list)
    failed: dict[str, str] = field(default_factory=dict)  # file -> why nothing was learnt

    def lines(self) -> list[str]:
        out = [f"learnt {len(self.cards)} cards ({sum(self.cards.values())} index corners)"]
        if self.missing:
            out.append(f"missing: {' '.join(self.missing)}")
        if self.duplicates:
            out.append(f"more than one photo: {' '.join(self.duplicates)}")
        out += [f"not learnt from {name}: {why}" for name, why in sorted(self.failed.items())]
        return out


def card_code_of(path: Path) -> str:
    """The card code a file name starts with, or EnrolError naming the file."""
    prefix = path.stem.split("_", 1)[0]
    if "_" not in path.stem or not prefix:
        raise EnrolError(f"{path.name}: the name must start with a card code and '_', like QH_1.jpg")
    try:
        return parse_card(prefix).code
    except CardError as exc:
        raise EnrolError(f"{path.name}: {exc}") from None


def enrol(folder: str | Path, out: str | Path) -> EnrolReport:
    """Learn the deck in ``folder`` and write the profile to ``out``."""
    folder = Path(folder)
    if not folder.is_dir():
        raise EnrolError(f"{folder}: not a folder of card photos")
    files = sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
    if not files:
        raise EnrolError(f"{folder}: no .jpg, .png or .bmp photos in it")
    codes = {p: card_code_of(p) for p in files}  # every bad name is refused before any work
    report = EnrolReport()
    ranks, suits = TemplateBank(), TemplateBank()
    for path, code in codes.items():
        if code in report.cards:
            report.duplicates.append(code)
        image = cv2.imread(str(path))
        if image is None:
            report.failed[path.name] = "not an image OpenCV can read"
            continue
        quads = sorted(find_cards(image), key=lambda q: q.area, reverse=True)
        if not quads:
            report.failed[path.name] = "no card found in the photo"
            continue
        card = warp_card(image, quads[0])
        learnt = 0
        for which in (0, 1):
            glyphs = cut_glyphs(corner_image(card, which))
            if glyphs is None or glyphs.suit is None:
                continue
            joker = code in ("RJ", "BJ")
            ranks.add(code if joker else code[:-1], features(glyphs.rank))
            suits.add("O" if joker else code[-1], suit_features(glyphs.suit))
            learnt += 1
        if learnt == 0:
            report.failed[path.name] = "no index found in either corner"
        else:
            report.cards[code] = report.cards.get(code, 0) + learnt
    expected = [c.code for c in make_deck()]
    report.missing = [c for c in expected if c not in report.cards]
    if not report.cards:
        raise EnrolError(f"{folder}: no card could be learnt; " + "; ".join(report.lines()[1:]))
    save_profile(out, ranks, suits, sorted(report.cards))
    return report


def save_profile(path: str | Path, ranks: TemplateBank, suits: TemplateBank, cards: list[str]) -> None:
    meta = json.dumps({"format": FORMAT, "cards": cards})
    with open(path, "wb") as f:
        np.savez_compressed(
            f,
            meta=np.array(meta),
            rank_labels=np.array(ranks.labels),
            rank_vectors=np.stack(ranks.vectors),
            suit_labels=np.array(suits.labels),
            suit_vectors=np.stack(suits.vectors),
        )


def load_deck(path: str | Path) -> Deck:
    """An enrolled deck's templates with the built-in ones behind them."""
    try:
        with np.load(path, allow_pickle=False) as data:
            meta = json.loads(str(data["meta"]))
            if meta.get("format") != FORMAT:
                raise EnrolError(f"{path}: not a deck profile (format {meta.get('format')!r})")
            ranks, suits = TemplateBank(), TemplateBank()
            for label, vec in zip(data["rank_labels"].tolist(), data["rank_vectors"], strict=True):
                ranks.add(str(label), vec)
            for label, vec in zip(data["suit_labels"].tolist(), data["suit_vectors"], strict=True):
                suits.add(str(label), vec)
    except (OSError, ValueError, KeyError) as exc:
        if isinstance(exc, EnrolError):
            raise
        raise EnrolError(f"{path}: cannot read the deck profile ({exc})") from None
    for bank, builtin in ((ranks, builtin_ranks()), (suits, builtin_suits())):
        for label, vec in zip(builtin.labels, builtin.vectors, strict=True):
            bank.add(label, vec)
    return Deck(ranks, suits, Path(path).stem)
