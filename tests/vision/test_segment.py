"""The card segmenter and outline refinement, on rendered scenes whose answer is known."""

from __future__ import annotations

import random
import tempfile
from dataclasses import replace

import cv2
import numpy as np
import pytest

from sim.render import CardPlacement, SceneSpec, random_scene, render_scene
from vision.corner_net import WEIGHTS as CORNER_WEIGHTS
from vision.detect import (
    CardQuad,
    face_belief_map,
    face_support,
    find_cards,
    portrait_corners,
    refine_quad,
    refine_quads,
    warp_card,
    warp_source,
)
from vision.runtime import ModelError
from vision.segment import STRIDE, CardSegmenter, builtin_segmenter, input_size, net_input


def _face(image: np.ndarray) -> np.ndarray:
    """The segmenter's map stretched over the whole frame."""
    face, cell = builtin_segmenter().face_map(image)
    big = cv2.resize(face, None, fx=cell, fy=cell, interpolation=cv2.INTER_LINEAR)
    return big[: image.shape[0], : image.shape[1]]


def test_input_keeps_the_aspect_and_pads_to_whole_cells() -> None:
    assert input_size(800, 600) == (192, 144)
    assert input_size(504, 378) == (192, 144)
    assert input_size(540, 960) == (112, 192)
    x, scale = net_input(np.zeros((540, 960, 3), np.uint8))
    assert x.shape == (1, 3, 112, 192) and scale == pytest.approx(0.2)
    assert x.dtype == np.float32 and x.min() == pytest.approx(-0.5)


def test_the_map_is_high_on_card_faces_and_low_on_paper_and_table() -> None:
    """Cards on a cluttered table: printed paper, objects, covers and cables under them."""
    rng = random.Random(11)
    inside, outside = [], []
    for _ in range(6):
        spec = replace(random_scene(rng, 800, 600, cards=3), clutter=1.0)
        image, truth = render_scene(spec)
        face = _face(image)
        cards = np.zeros(face.shape, np.uint8)
        for card in truth:
            cv2.fillPoly(cards, [np.round(card.corners).astype(np.int32)], 1)
        core = cv2.erode(cards, np.ones((25, 25), np.uint8))
        away = cv2.dilate(cards, np.ones((25, 25), np.uint8)) == 0
        inside.append(float(face[core > 0].mean()))
        outside.append(float((face[away] > 0.5).mean()))
    assert min(inside) > 0.7, inside
    assert max(outside) < 0.05, outside


def test_a_white_card_on_a_white_table_is_found() -> None:
    """White on white, under a light gradient: the segmenter's outline, refitted, is the card's."""
    found = 0
    for seed in range(8):
        card = CardPlacement("9H", 400 + seed * 5, 300, 20 * seed, 230)
        spec = SceneSpec(table="paper", cards=(card,), clutter=0.0, seed=seed, light=0.3)
        image, truth = render_scene(spec)
        quads = find_cards(image)
        want = truth[0].corners
        found += any(np.abs(portrait_corners(q.corners).mean(0) - want.mean(0)).max() < 10 for q in quads)
    assert found >= 7


def test_face_support_tells_a_card_from_a_patch_of_table() -> None:
    image, truth = render_scene(SceneSpec(table="wood", cards=(CardPlacement("KS", 300, 300, 15, 220),), seed=3))
    face = _face(image)
    card = CardQuad(truth[0].corners, 1.0)
    empty = CardQuad(truth[0].corners + np.float32([330, 0]), 1.0)
    assert face_support(face, card) > 0.8
    assert face_support(face, empty) < 0.1


@pytest.mark.parametrize("seed", range(5))
def test_refinement_moves_a_rough_outline_onto_the_cards_edges(seed: int) -> None:
    rng = np.random.default_rng(seed)
    spec = SceneSpec(table="felt", cards=(CardPlacement("QD", 400, 300, float(rng.uniform(0, 90)), 240),), seed=seed)
    image, truth = render_scene(spec)
    gray = cv2.GaussianBlur(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), (3, 3), 0)
    want = truth[0].corners
    rough = want + rng.uniform(-6, 6, want.shape).astype(np.float32)
    refined = refine_quad(gray, CardQuad(rough, 1.0), reach=10).corners
    assert np.abs(refined - want).max() < 2.0 < np.abs(rough - want).max()


def test_refinement_keeps_an_outline_with_no_edges_near_it() -> None:
    gray = np.full((300, 300), 128, np.uint8)
    quad = CardQuad(np.float32([[100, 80], [200, 80], [200, 220], [100, 220]]), 1.0)
    assert refine_quad(gray, quad, reach=8) is quad


def test_a_card_warped_from_the_four_channel_copy_is_the_card_warped_from_the_frame() -> None:
    spec = SceneSpec(table="wood", cards=(CardPlacement("7H", 400, 300, 33.0, 220),), seed=4)
    image, truth = render_scene(spec)
    quad = CardQuad(truth[0].corners, 1.0)
    direct, fast = warp_card(image, quad), warp_card(warp_source(image), quad)
    assert fast.shape == direct.shape == (350, 250, 3)
    assert int(np.abs(fast.astype(int) - direct).max()) <= 1
    assert float(fast[..., 2].mean()) > float(fast[..., 0].mean())  # the red pips stay red: BGR kept
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    from_gray = warp_card(warp_source(gray), quad)
    assert (
        from_gray.shape == (350, 250, 3)
        and int(np.abs(from_gray[..., 0].astype(int) - warp_card(gray, quad)).max()) <= 1
    )


def test_a_missing_or_damaged_segmenter_is_named(tmp_path) -> None:
    with pytest.raises(ModelError, match="card segmenter"):
        CardSegmenter(tmp_path / "nothing.onnx")
    (tmp_path / "bad.onnx").write_bytes(b"not a model")
    with pytest.raises(ModelError, match="retrain"):
        CardSegmenter(tmp_path / "bad.onnx")


def test_the_shipped_segmenter_maps_every_cell_of_a_frame() -> None:
    face, cell = builtin_segmenter().face_map(np.zeros((600, 800, 3), np.uint8))
    assert face.shape == (144 // STRIDE, 192 // STRIDE)
    assert cell == pytest.approx(800 / 192 * STRIDE)
    assert 0.0 <= face.min() <= face.max() <= 1.0


def test_refinement_refuses_to_bend_an_outline_onto_a_slanted_edge() -> None:
    """A cable or a shadow's edge crossing near one side must not turn the card into a trapezoid
    (the warp would distort its index): the outline is kept as it was."""
    gray = np.full((400, 400), 40, np.uint8)
    cv2.rectangle(gray, (120, 100), (220, 240), 230, -1)
    cv2.line(gray, (222, 95), (235, 245), 255, 3)  # just outside the right side, leaning
    quad = CardQuad(np.float32([[121, 101], [219, 101], [219, 239], [121, 239]]), 1.0)
    assert refine_quad(gray, quad, reach=14) is quad
    cv2.line(gray, (222, 95), (235, 245), 40, 3)  # without it, the same outline is refined
    assert refine_quad(gray, quad, reach=14) is not quad


def test_shrinking_averages_a_fine_pattern_and_gives_the_size_asked() -> None:
    """A carpet's or a cloth's pattern finer than the new pixels turns grey, not into blotches."""
    from vision.segment import shrink

    checks = (np.indices((720, 1280)).sum(axis=0) % 2 * 255).astype(np.uint8)
    small = shrink(cv2.merge([checks] * 3), 480, 270)
    assert small.shape == (270, 480, 3)
    assert abs(float(small.mean()) - 127.5) < 3 and float(small.std()) < 12


class _MapOnly:
    """A stand-in segmenter that answers one fixed face map (cells of 4 pixels)."""

    def __init__(self, face: np.ndarray) -> None:
        self.face = face

    def face_map(self, image: np.ndarray) -> tuple[np.ndarray, float]:
        return self.face, 4.0


def _ragged_blob(shape: tuple[int, int], x: int, y: int) -> np.ndarray:
    """A card-sized blob (30 x 45 cells) with a corner bitten off: it fills 0.7 of its rectangle."""
    face = np.zeros(shape, np.float32)
    face[y : y + 45, x : x + 30] = 1.0
    bite = np.array([[x + 30, y + 45], [x + 2, y + 45], [x + 30, y + 17]], np.int32)
    cv2.fillPoly(face, [bite], 0.0)
    return face


def test_a_ragged_blob_is_a_card_only_where_nothing_else_was_found() -> None:
    """On a pale, busy table the map bleeds and a card's blob fills its rectangle poorly: it is
    taken as a card where no other outline lies, and never over one."""
    from vision.detect import find_card_outlines, ragged

    table = np.full((360, 480, 3), 90, np.uint8)
    alone = find_card_outlines(table, _MapOnly(_ragged_blob((90, 120), 20, 20)))
    assert len(alone) == 1 and ragged(alone[0].quad)
    # A white card on the table, the segmenter marking it cleanly, with the ragged blob beside it.
    card = table.copy()
    cv2.rectangle(card, (250, 80), (370, 250), (245, 245, 245), -1)
    both = _ragged_blob((90, 120), 20, 20)
    both[22:61, 64:91] = 1.0
    beside = find_card_outlines(card, _MapOnly(both))
    assert sorted(ragged(f.quad) for f in beside) == [False, True]
    # The ragged blob lying on the white card: the card's own outline wins, nothing is added.
    over = find_card_outlines(card, _MapOnly(_ragged_blob((90, 120), 62, 20)))
    assert [ragged(f.quad) for f in over] == [False]


def test_a_card_the_segmenter_misses_is_found_by_the_size_of_the_cards_it_believes() -> None:
    """Cards of one deck are one size: a clean white rectangle of the size and shape of the card
    the segmenter believes is a card too, though the segmenter sees nothing there (measured: a
    rendered jumbo ten of clubs on a dark table, its belief 0.02). A smaller one is not."""
    from vision.detect import find_card_outlines

    table = np.full((360, 480, 3), 40, np.uint8)
    cv2.rectangle(table, (250, 80), (370, 250), (245, 245, 245), -1)  # believed
    cv2.rectangle(table, (40, 100), (160, 270), (245, 245, 245), -1)  # missed: the same size
    cv2.rectangle(table, (190, 270), (250, 355), (245, 245, 245), -1)  # missed: a quarter of it
    face = np.zeros((90, 120), np.float32)
    face[22:61, 64:91] = 1.0
    found = sorted(
        np.round(f.quad.corners.mean(axis=0)).astype(int).tolist() for f in find_card_outlines(table, _MapOnly(face))
    )
    assert len(found) == 2
    assert np.abs(np.array(found) - [[100, 185], [310, 165]]).max() <= 3


def test_outlines_refined_together_are_each_refined_alone() -> None:
    """A frame's outlines are refitted in one batch: the same corners, to the bit, as one by one,
    and an outline kept as it was (no edge near it) does not disturb the others."""
    rng = np.random.default_rng(3)
    cards = tuple(CardPlacement(code, x, 300, float(rng.uniform(0, 90)), 200) for code, x in (("QD", 200), ("7S", 600)))
    image, truth = render_scene(SceneSpec(table="felt", cards=cards, seed=3))
    gray = cv2.GaussianBlur(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), (3, 3), 0)
    rough = [CardQuad(t.corners + rng.uniform(-6, 6, (4, 2)).astype(np.float32), 1.0) for t in truth]
    nowhere = CardQuad(np.float32([[5, 5], [45, 5], [45, 60], [5, 60]]), 1.0)  # the table's corner: no edges
    together = refine_quads(gray, [rough[0], nowhere, rough[1]], reach=10)
    assert together[1] is nowhere
    for quad, alone in zip((together[0], together[2]), rough, strict=True):
        assert np.array_equal(quad.corners, refine_quad(gray, alone, reach=10).corners)
        assert quad is not alone


def test_a_trained_segmenter_is_read_back_to_train_on() -> None:
    """``--init``: the weights read back from a written model are the same network."""
    from vision.train.segment import init_params, to_onnx, weights_of

    params = init_params(7)
    model = to_onnx(params, {"training": "{}"})
    x = np.random.default_rng(0).uniform(-0.5, 0.5, (1, 3, 64, 96)).astype(np.float32)
    with tempfile.TemporaryDirectory() as folder:
        path = f"{folder}/seg.onnx"
        with open(path, "wb") as out:
            out.write(model)
        back = weights_of(path)
        assert back.keys() == params.keys()
        assert all(np.array_equal(back[k], params[k]) for k in params)
        assert np.array_equal(CardSegmenter(to_onnx(back, {})).forward(x), CardSegmenter(model).forward(x))
    with pytest.raises(SystemExit, match="not a segmenter of this shape"):
        weights_of(str(CORNER_WEIGHTS))  # another network's weights


class _CellOf:
    """A stand-in segmenter answering a random map with cells of a given size in pixels."""

    def __init__(self, cell: float) -> None:
        self.cell = cell

    def face_map(self, image: np.ndarray) -> tuple[np.ndarray, float]:
        rows, cols = (int(np.ceil(side / self.cell)) + 1 for side in image.shape[:2])
        return np.random.default_rng(3).random((rows, cols), np.float32), self.cell


@pytest.mark.parametrize("cell", [10.0, 7.3])
def test_face_map_puts_each_cell_centre_where_the_warp_does(cell: float) -> None:
    """The map is stretched over the working image by a plain resize where a cell is a whole
    number of pixels: each cell's value lands on its centre, as the affine warp puts it."""
    small = np.zeros((270, 480, 3), np.uint8)
    face, _ = _CellOf(cell).face_map(small)
    m = np.float32([[cell, 0, (cell - 1) / 2], [0, cell, (cell - 1) / 2]])
    warped = cv2.warpAffine(face, m, (480, 270), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    stretched = face_belief_map(_CellOf(cell), small)
    assert stretched.shape == (270, 480)
    np.testing.assert_allclose(stretched, warped, atol=1e-5)
