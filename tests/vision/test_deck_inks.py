"""An enrolled deck's index inks (``vision.ink.IndexInks``): learnt from its photos as their
camera shows them, kept in its profile, and a witness of a suit's colour when reading."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from sim.render import CardPlacement, SceneSpec, render_scene
from vision.deck import Prototypes, builtin_deck
from vision.detect import CardQuad, warp_card
from vision.ink import TUNING as INK_TUNING
from vision.ink import IndexInks, mark_red_share
from vision.profile import EnrolError, enrol, load_deck, save_profile
from vision.reader import SUIT_CLASSES, Warped, suit_likelihood

WEBCAM = "cheap webcam"


def _warped(code: str, camera: str | None = None, seed: int = 3) -> Warped:
    spec = SceneSpec(table="grey", cards=(CardPlacement(code, 400, 300, 0.0, 260),), seed=seed, camera=camera)
    image, truth = render_scene(spec)
    return Warped.of(warp_card(image, CardQuad(truth[0].corners, 1.0))).balanced()


def _share(card: Warped) -> float:
    return float(np.mean([s for s in map(mark_red_share, card.index_planes()) if s is not None]))


def test_inks_are_learnt_only_where_the_camera_tells_red_from_black() -> None:
    inks = IndexInks.learnt([-0.05, 0.01], [0.12, 0.2])
    assert inks == IndexInks(0.01, 0.12)
    assert inks.colour(0.15) is True and inks.colour(-0.02) is False
    assert inks.colour(0.065) is None and inks.colour(None) is None  # the middle of the gap says neither
    phone = IndexInks(0.07, 0.45)  # enrolled from a phone's photos
    assert phone.colour(0.5) is True and phone.colour(0.05) is False
    assert phone.colour(0.11) is None  # a webcam's dull red at the table: not taken for black
    assert IndexInks.learnt([0.1, 0.3], [0.25]) is None  # a black as red as a red: no inks
    assert IndexInks.learnt([0.0], [0.05]) is None  # too close to tell apart
    assert IndexInks.learnt([], [0.5]) is None and IndexInks.learnt([0.0], []) is None


def test_a_webcam_s_dull_red_index_is_far_from_the_built_in_red_but_apart_from_its_blacks() -> None:
    """Under the cheap webcam's look a red index shows a small share of red, under the built-in
    ``RED_SHARE``; the deck's own inks, learnt under that camera, still call it red."""

    red, black = _share(_warped("4H", WEBCAM)), _share(_warped("4S", WEBCAM))
    assert black < red < INK_TUNING.red_share
    inks = IndexInks.learnt([black], [red])
    assert inks is not None
    assert inks.colour(_share(_warped("7D", WEBCAM, seed=5))) is True
    assert inks.colour(_share(_warped("7C", WEBCAM, seed=5))) is False


def test_the_ink_rules_out_the_other_colour_s_suits_as_the_big_pips_do() -> None:
    red, black, neither = suit_likelihood(None, True), suit_likelihood(None, False), suit_likelihood(None, None)
    index = {s: SUIT_CLASSES.index(s) for s in "CDHS"}
    assert red[index["D"]] == red[index["H"]] == 1.0 > red[index["C"]] == red[index["S"]]
    assert black[index["C"]] == black[index["S"]] == 1.0 > black[index["D"]] == black[index["H"]]
    assert np.all(neither == 1.0)
    both = suit_likelihood("D", True)
    assert both.argmax() == index["D"] and both[index["C"]] < both[index["H"]] < 1.0


def test_a_deck_enrolled_under_a_webcam_learns_its_inks_and_keeps_them(tmp_path) -> None:
    photos = tmp_path / "photos"
    photos.mkdir()
    for n, code in enumerate(("4H", "9D", "4S", "9C")):
        spec = SceneSpec(table="grey", cards=(CardPlacement(code, 400, 300, 0.0, 260),), seed=n, camera=WEBCAM)
        cv2.imwrite(str(photos / f"{code}_1.png"), render_scene(spec)[0])
    report = enrol(photos, tmp_path / "deck.npz")
    assert "the deck's inks" not in report.doubts and report.inks
    assert report.lines()[0] == "learnt 4 cards (8 index corners, 0 court pictures, the red and black inks)"
    deck = load_deck(tmp_path / "deck.npz")
    assert deck.inks is not None and deck.inks.black_most < deck.inks.red_least
    assert builtin_deck().inks is None


def _photograph(folder, code: str, name: str, seed: int, grey: bool = False) -> None:
    image = render_scene(SceneSpec(table="grey", cards=(CardPlacement(code, 400, 300, 0.0, 260),), seed=seed))[0]
    if grey:  # a light that leaves no colour
        image = cv2.cvtColor(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    cv2.imwrite(str(folder / f"{name}_1.png"), image)


def test_photos_that_leave_red_and_black_alike_are_said_and_read_without_inks(tmp_path) -> None:
    """A red card photographed with no colour left: its index as dark as the blacks'."""
    photos = tmp_path / "photos"
    photos.mkdir()
    for n, (code, grey) in enumerate((("4H", False), ("9D", True), ("4C", False))):
        _photograph(photos, code, code, n, grey)
    report = enrol(photos, tmp_path / "deck.npz")
    assert "look alike" in report.doubts["the deck's inks"] and not report.inks
    assert "check the deck's inks: its red and black indices look alike" in "\n".join(report.lines())
    assert load_deck(tmp_path / "deck.npz").inks is None


def test_a_photo_of_another_card_is_named_and_tells_nothing_of_the_inks(tmp_path) -> None:
    """A four of spades photographed but named a nine of hearts: said, and its black index is
    not taken for a red one."""
    photos = tmp_path / "photos"
    photos.mkdir()
    for n, (code, name) in enumerate((("4H", "4H"), ("4S", "9H"), ("4C", "4C"))):
        _photograph(photos, code, name, n)
    report = enrol(photos, tmp_path / "deck.npz")
    assert "is the photo named for the card it shows?" in report.doubts["9H_1.png"]
    assert "the deck's inks" not in report.doubts and report.inks


@pytest.mark.parametrize("inks", ["red", [0.3, 0.1], [0.1], [0.0, "x"]])
def test_a_profile_with_inks_enrolment_never_writes_is_refused_by_name(tmp_path, inks) -> None:
    path = tmp_path / "deck.npz"
    deck = builtin_deck()
    save_profile(path, Prototypes(np.eye(2, 128, dtype=np.float32), np.array([0, 1]), np.array([0, 1])), ["AC", "2C"])
    with np.load(path) as data:
        parts = dict(data)
    meta = json.loads(str(parts["meta"]))
    meta["inks"] = inks
    parts["meta"] = np.array(json.dumps(meta))
    with open(path, "wb") as f:
        np.savez_compressed(f, **parts)
    with pytest.raises(EnrolError, match=r"deck\.npz: cannot read the deck profile"):
        load_deck(path)
    assert deck.inks is None
