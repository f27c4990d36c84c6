"""Deck enrolment: learn a deck's own index glyphs from one photo per card.

Each image shows one card and its file name starts with the card's code and an underscore
(``QH_1.jpg``, ``10C_a.png``, ``RJ_1.jpg``). Both index corners of every card are passed through
the corner network (as the photo shows them and a little blurred, ``BLURS``) and their embeddings
kept as the deck's prototypes (``vision.deck``), so a deck with an unusual font is read by its own
shapes; how red its red indices and how dark its black ones show to the camera that took the
photos is kept too (``vision.ink.IndexInks``), so a webcam's dull reds are still told from its
blacks. The cards are seen as the reader sees them, their paper made neutral. The profile is a
small ``.npz`` file tied to the network it was made with: a profile from another network is
refused, not misread.
"""

from __future__ import annotations

import json
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from table.cards import CardError, make_deck, parse_card
from table.errors import CardtableError
from vision.corner_net import RANK_CLASSES, SUIT_CLASSES, CornerOutput, builtin_net
from vision.deck import Deck, Prototypes, net_id
from vision.detect import CardQuad, find_cards, warp_card
from vision.frames import IMAGE_SUFFIXES, ImageFileError, image_files, read_image
from vision.ink import IndexInks, mark_red_share
from vision.pictures import SIGNATURE_PX, Pictures, signature
from vision.reader import COURT_RANKS, NO_INDEX, Warped

FORMAT = "cardtable-deck/4"  # /3 added the courts' pictures (``vision.pictures``), /4 the indices' inks
READABLE = {"cardtable-deck/2", "cardtable-deck/3", FORMAT}  # read without what they lack
# Each corner is learnt as the photo shows it and blurred by these (Gaussian sigmas, in a corner's
# 62 x 126 pixels): an overhead camera sees many cards a little out of focus, and a blurred rank
# lies nearer its sharp prototype's neighbours than a blurred prototype's. Blurred more (1.5, or
# 1.0 and 2.0 together), a jack's J lies as near a blurred 3's prototype as its own.
BLURS = (1.0,)
BLANK = 0.9  # a corner the network is this sure shows no index (covered, cut off) is not learnt
# A photo whose learnt corners the network reads less surely than this as the card's own index is
# reported as weak: it is learnt, but a blurred or washed-out corner makes a prototype other
# cards' corners lie as near as their own, and the enrolled deck may lose a card the built-in
# reader reads.
WEAK = 0.8
# Both corners read surely as one other card: the photo may be named for the wrong card. Only
# reported (a deck unlike any the network knows is what enrolment is for); read surely, though,
# another card's name would teach the reader to misread it.
MISNAMED = 0.95
JOKERS = ["RJ", "BJ"]
HEIC = (".heic", ".heif")


class EnrolError(CardtableError, ValueError):
    """An enrolment that cannot be done, or a profile that cannot be read; names the file."""


@dataclass
class EnrolReport:
    cards: dict[str, int] = field(default_factory=dict)  # code -> corners learnt
    missing: list[str] = field(default_factory=list)
    duplicates: list[str] = field(default_factory=list)
    failed: dict[str, str] = field(default_factory=dict)  # file -> why nothing was learnt
    doubts: dict[str, str] = field(default_factory=dict)  # file -> what is wrong with what was learnt
    pictures: list[str] = field(default_factory=list)  # the courts whose pictures were learnt
    inks: bool = False  # whether the red and black indices' inks were learnt (``IndexInks``)

    def lines(self) -> list[str]:
        learnt = f"{sum(self.cards.values())} index corners, {len(self.pictures)} court pictures"
        learnt += ", the red and black inks" if self.inks else ""
        out = [f"learnt {len(self.cards)} cards ({learnt})"]
        if self.missing:
            out.append(f"missing: {' '.join(self.missing)}")
        if self.duplicates:
            out.append(f"more than one photo: {' '.join(self.duplicates)}")
        out += [f"not learnt from {name}: {why}" for name, why in sorted(self.failed.items())]
        out += [f"check {name}: {why}" for name, why in sorted(self.doubts.items())]
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
    _writable(Path(out))
    if not folder.is_dir():
        raise EnrolError(f"{folder}: not a folder of card photos")
    files = image_files(folder)
    heic = image_files(folder, HEIC)  # a phone's own format, which OpenCV does not read
    if not files:
        also = f"; its {len(heic)} HEIC photos must be exported as JPEG first" if heic else ""
        raise EnrolError(f"{folder}: no photos in it ({', '.join(IMAGE_SUFFIXES)}){also}")
    report = EnrolReport()
    codes = {}
    for path in files:  # a photo whose name names no card is left out, and said so
        try:
            codes[path] = card_code_of(path)
        except EnrolError as exc:
            report.failed[path.name] = str(exc).removeprefix(f"{path.name}: ")
    report.failed.update((p.name, "an HEIC photo, which OpenCV cannot read: export it as JPEG") for p in heic)
    embeddings, ranks, suits = [], [], []
    pictures: dict[str, np.ndarray] = {}  # court code -> its picture's signature
    inks: dict[str, list[float]] = {"black": [], "red": []}  # the indices' ``mark_red_share``s, by colour
    named: set[str] = set()
    for path, code in codes.items():
        if code in named and code not in report.duplicates:
            report.duplicates.append(code)
        named.add(code)
        try:
            image = read_image(path)
        except ImageFileError as exc:
            report.failed[path.name] = str(exc)
            continue
        quads = find_cards(image)
        if not quads:
            report.failed[path.name] = "no card found in the photo"
            continue
        seen, card = _the_card(image, quads)
        corners = list(card.corners)
        joker = code in ("RJ", "BJ")
        learnt = [which for which in (0, 1) if seen.rank[which, NO_INDEX] <= BLANK]
        if not learnt:
            report.failed[path.name] = "no index found in either corner"
            continue
        blurred = builtin_net().read([cv2.GaussianBlur(corners[w], (0, 0), s) for w in learnt for s in BLURS])
        for n, which in enumerate(learnt):
            for embedding in (seen.embedding[which], *blurred.embedding[n * len(BLURS) : (n + 1) * len(BLURS)]):
                embeddings.append(embedding)
                ranks.append(RANK_CLASSES.index("joker" if joker else code[:-1]))
                suits.append(SUIT_CLASSES.index("none" if joker else code[-1]))
        report.cards[code] = report.cards.get(code, 0) + len(learnt)
        if _read_as(seen) in (None, "joker" if code in JOKERS else code):  # a photo of another card tells no ink
            index = card.index_planes()
            shares = [mark_red_share(index[which]) for which in learnt]
            inks["red" if code == "RJ" or code[-1] in "DH" else "black"] += [x for x in shares if x is not None]
        if code[:-1] in COURT_RANKS and code not in pictures:
            pictures[code] = signature(card.face)
        if doubt := _doubt(seen, code, learnt):
            report.doubts[path.name] = doubt
    expected = [c.code for c in make_deck()]
    if named & set(JOKERS):  # a deck photographed with a joker has its jokers: most carry a red and a black
        expected += JOKERS
    report.missing = [c for c in expected if c not in report.cards]
    if not report.cards:
        raise EnrolError(f"{folder}: no card could be learnt; " + "; ".join(report.lines()[1:]))
    prototypes = Prototypes(np.stack(embeddings), np.array(ranks), np.array(suits))
    courts = report.pictures = sorted(pictures)
    signatures = np.stack([pictures[c] for c in courts]) if courts else np.zeros((0, 0), np.float32)
    learnt_inks = IndexInks.learnt(inks["black"], inks["red"])
    report.inks = learnt_inks is not None
    if learnt_inks is None and inks["black"] and inks["red"]:
        report.doubts["the deck's inks"] = (
            "its red and black indices look alike to this camera (a photo named for a card of the other colour, "
            "or a light that leaves no red): suits are read without them"
        )
    save_profile(out, prototypes, sorted(report.cards), Pictures(tuple(courts), signatures), learnt_inks)
    return report


def _doubt(seen: CornerOutput, code: str, learnt: list[int]) -> str | None:
    """What is wrong with a photo's two corners as the network reads them (``seen``) for the card
    ``code``, if anything: read surely as another card (``MISNAMED``), or one of the corners
    ``learnt`` read as its own index less surely than ``WEAK``."""
    reads = [_corner_says(seen, which) for which in (0, 1)]
    own = "joker" if code in ("RJ", "BJ") else code
    (first, p), (_, q) = reads
    if _read_as(seen) not in (None, own):
        return f"both corners read {first} ({p:.2f}, {q:.2f}), not {code}: is the photo named for the card it shows?"
    if any(reads[n][0] != own or reads[n][1] < WEAK for n in learnt):
        said = ", ".join(f"{name} {p:.2f}" for name, p in reads)
        return f"its corners read {said}: a sharper, evenly lit photo of the card lying whole would teach more"
    return None


def _read_as(seen: CornerOutput) -> str | None:
    """The card (a code, or "joker") both of a photo's corners read ``MISNAMED`` surely, if any."""
    (first, p), (second, q) = (_corner_says(seen, which) for which in (0, 1))
    return first if first == second != "no index" and min(p, q) >= MISNAMED else None


def _corner_says(seen: CornerOutput, which: int) -> tuple[str, float]:
    """What the network reads in one corner: a card code, "joker" or "no index", and how surely
    (a code: the lesser of its rank's and its suit's probabilities)."""
    rank = int(np.argmax(seen.rank[which]))
    sure = float(seen.rank[which, rank])
    if rank == NO_INDEX:
        return "no index", sure
    if RANK_CLASSES[rank] == "joker":
        return "joker", sure
    suit = int(np.argmax(seen.suit[which, :-1]))  # an index always has a suit
    return RANK_CLASSES[rank] + SUIT_CLASSES[suit], min(sure, float(seen.suit[which, suit]))


def _the_card(image: np.ndarray, quads: list[CardQuad]) -> tuple[CornerOutput, Warped]:
    """The network's reading of the two index corners of the card a photo shows: of the outlines
    found, the first showing an index in a corner, those most an edge all round first (a card
    lying whole), then the biggest: the biggest alone is often the table or a sheet of paper
    round the card. Also the card as the reader sees it (``Warped``, its paper made neutral)."""
    seen, card = None, None
    for quad in sorted(quads, key=lambda q: (q.edges, q.area), reverse=True):
        card = Warped.of(warp_card(image, quad)).balanced()  # its colours as the reader judges them
        seen = builtin_net().read(list(card.corners))
        if (seen.rank[:, NO_INDEX] <= BLANK).any():
            break
    return seen, card


def save_profile(
    path: str | Path,
    prototypes: Prototypes,
    cards: list[str],
    pictures: Pictures | None = None,
    inks: IndexInks | None = None,
) -> None:
    learnt = None if inks is None else [inks.black_most, inks.red_least]
    meta = json.dumps({"format": FORMAT, "cards": cards, "net": net_id(builtin_net()), "inks": learnt})
    pictures = pictures or Pictures((), np.zeros((0, 0), np.float32))
    try:
        with open(path, "wb") as f:
            np.savez_compressed(
                f,
                meta=np.array(meta),
                embeddings=prototypes.embeddings.astype(np.float32),
                ranks=np.array([RANK_CLASSES[i] for i in prototypes.ranks]),
                suits=np.array([SUIT_CLASSES[i] for i in prototypes.suits]),
                picture_codes=np.array(pictures.codes, dtype=str),
                pictures=pictures.signatures.astype(np.float32),
            )
    except OSError as exc:
        raise EnrolError(f"{path}: cannot write the deck profile ({exc.strerror or exc})") from None


def _writable(out: Path) -> None:
    """Refuse a profile path that cannot be written before any photo is read."""
    if out.is_dir():
        raise EnrolError(f"{out}: is a folder; give the profile's file name, like mydeck.npz")
    if not out.parent.is_dir():
        raise EnrolError(f"{out}: its folder {out.parent} does not exist")


def load_deck(path: str | Path) -> Deck:
    """An enrolled deck: the built-in network with the deck's own corners as prototypes."""
    try:
        with np.load(path, allow_pickle=False) as data:
            meta = json.loads(str(data["meta"]))
            if meta.get("format") not in READABLE:
                raise EnrolError(
                    f"{path}: not a deck profile of this version (format {meta.get('format')!r}); enrol again"
                )
            if meta.get("net") != net_id(builtin_net()):
                raise EnrolError(f"{path}: made with another version of the corner reader; enrol the deck again")
            prototypes = Prototypes(
                data["embeddings"].astype(np.float32),
                np.array([RANK_CLASSES.index(str(r)) for r in data["ranks"]]),
                np.array([SUIT_CLASSES.index(str(s)) for s in data["suits"]]),
            )
            pictures = _pictures(data) if "pictures" in data else None
            inks = _inks(meta.get("inks"))
    except OSError as exc:
        raise EnrolError(f"{path}: cannot read the deck profile ({exc.strerror or exc})") from None
    except (ValueError, KeyError, EOFError, zipfile.BadZipFile) as exc:
        if isinstance(exc, EnrolError):
            raise
        raise EnrolError(f"{path}: cannot read the deck profile (not a file `cardtable vision enrol` wrote)") from None
    return Deck(builtin_net(), prototypes, Path(path).stem, pictures=pictures, inks=inks)


def _inks(learnt: object) -> IndexInks | None:
    """A profile's indices' inks, None if it has none; anything but two shares, black's under
    red's, is a ``ValueError`` (a profile not written by enrolment)."""
    if learnt is None:
        return None
    if not isinstance(learnt, list) or len(learnt) != 2 or not all(isinstance(x, int | float) for x in learnt):
        raise ValueError("inks")
    inks = IndexInks.learnt([float(learnt[0])], [float(learnt[1])])
    if inks is None:
        raise ValueError("inks")
    return inks


def _pictures(data: np.lib.npyio.NpzFile) -> Pictures | None:
    """A profile's court pictures, None if it has none; a court code or a size that is wrong is a
    ``ValueError`` (a profile not written by enrolment)."""
    codes = tuple(str(c) for c in data["picture_codes"])
    signatures = data["pictures"].astype(np.float32)
    if not codes:
        return None
    size = SIGNATURE_PX[0] * SIGNATURE_PX[1]
    if signatures.shape != (len(codes), size) or any(c[:-1] not in COURT_RANKS or c[-1] not in "CDHS" for c in codes):
        raise ValueError("court pictures")
    return Pictures(codes, signatures)
