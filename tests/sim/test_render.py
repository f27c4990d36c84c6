"""The card and scene renderer: every face drawn right, and ground truth that matches the pixels.

Vision code is developed against these frames, so a renderer whose truth drifts from its pixels
would silently teach the pipeline wrong answers; these tests compare the two directly.
"""

from __future__ import annotations

import itertools
import random

import cv2
import numpy as np
import pytest

from sim.hands import SKIN_TONES, HandPlacement
from sim.render import (
    ALL_CODES,
    CARD_H,
    CARD_W,
    DECK_STYLES,
    TABLES,
    CardPlacement,
    SceneSpec,
    card_corners,
    random_scene,
    render_card,
    render_scene,
    table_background,
)
from sim.render_cards import index_region, parse_code

pytestmark = pytest.mark.slow

CODES = (*ALL_CODES, "back")
FACES = tuple(c for c in ALL_CODES if c not in ("RJ", "BJ"))
QUIET = {"light": 0.0, "glare": 0.0, "blur": 0.0, "noise": 0.0}


def polygon_mask(shape: tuple[int, ...], corners: np.ndarray, scale: float) -> np.ndarray:
    """Mask of the polygon scaled by `scale` about its centre."""
    centre = corners.mean(axis=0)
    pts = np.round((centre + (corners - centre) * scale) * 16).astype(np.int32)
    mask = np.zeros(shape[:2], np.uint8)
    cv2.fillPoly(mask, [pts], 1, cv2.LINE_8, 4)
    return mask > 0


def mean_inside(image: np.ndarray, corners: np.ndarray, scale: float = 0.9) -> np.ndarray:
    return image[polygon_mask(image.shape, corners, scale)].mean(axis=0)


def mean_around(image: np.ndarray, corners: np.ndarray) -> np.ndarray:
    """Mean colour of a ring just outside the polygon."""
    ring = polygon_mask(image.shape, corners, 1.35) & ~polygon_mask(image.shape, corners, 1.1)
    return image[ring].mean(axis=0)


def index_box(style_name: str) -> tuple[int, int, int, int]:
    x0, y0, x1, y1 = index_region(DECK_STYLES[style_name])
    return round(x0 * CARD_W), round(y0 * CARD_H), round(x1 * CARD_W), round(y1 * CARD_H)


def ink(image: np.ndarray, paper: tuple[int, int, int], threshold: int) -> np.ndarray:
    """Pixels printed on, i.e. far from the card stock's colour."""
    return np.abs(image[..., :3].astype(np.int16) - np.int16(paper)).sum(axis=2) > threshold


# ---------------------------------------------------------------- single cards


@pytest.mark.parametrize("style", DECK_STYLES)
def test_every_card_renders_with_the_right_size_and_alpha(style: str) -> None:
    for code in CODES:
        img = render_card(code, DECK_STYLES[style])
        assert img.shape == (CARD_H, CARD_W, 4) and img.dtype == np.uint8, code
        alpha = img[..., 3]
        assert alpha[0, 0] == alpha[0, -1] == alpha[-1, 0] == alpha[-1, -1] == 0, code  # rounded corners
        assert (alpha[5:-5, 25:-25] == 255).all() and (alpha[25:-25, 5:-5] == 255).all(), code


def test_ten_is_accepted_as_t_and_bad_codes_are_refused() -> None:
    style = DECK_STYLES["classic"]
    assert np.array_equal(render_card("TD", style), render_card("10D", style))
    assert np.array_equal(render_card("qh", style), render_card("QH", style))
    for bad in ("1H", "QX", "11C", "", "JOKER"):
        with pytest.raises(ValueError, match="not a card code"):
            render_card(bad, style)


def test_faces_differ_between_codes_and_styles() -> None:
    seen: dict[bytes, tuple[str, str]] = {}
    for style in DECK_STYLES.values():
        for code in CODES:
            key = render_card(code, style).tobytes()
            assert key not in seen, ((style.name, code), seen.get(key))
            seen[key] = (style.name, code)
    # Not merely by a few pixels: any two cards of one deck differ in a clearly visible area, even when
    # seen at half the size (which also keeps this comparison of ~7000 pairs quick).
    least = {}
    for style in DECK_STYLES.values():
        faces = {
            code: cv2.resize(render_card(code, style)[..., :3], None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
            for code in CODES
        }
        for a, b in itertools.combinations(CODES, 2):
            least[(style.name, a, b)] = np.count_nonzero(cv2.absdiff(faces[a], faces[b]).max(axis=2) > 80)
    worst = min(least, key=least.__getitem__)
    assert least[worst] > 40, (worst, least[worst])


@pytest.mark.parametrize("style", DECK_STYLES)
def test_the_index_has_ink_on_card_stock_and_the_back_has_no_white_index(style: str) -> None:
    x0, y0, x1, y1 = index_box(style)
    paper = DECK_STYLES[style].paper
    for code in ALL_CODES:
        card = render_card(code, DECK_STYLES[style])
        for corner in (card, card[::-1, ::-1]):  # the bottom-right index is the top-left one turned round
            region = corner[y0:y1, x0:x1]
            assert (~ink(region, paper, 40)).mean() > 0.5, (code, "index not on card stock")
            assert ink(region, paper, 200).mean() > 0.04, (code, "no rank or pip printed in the index")
    # Where a face has its index, the back shows its own printed colour, not a white index field.
    back = render_card("back", DECK_STYLES[style])[y0:y1, x0:x1, :3].astype(np.int16)
    back_colour = np.abs(back - np.int16(DECK_STYLES[style].back)).sum(axis=2) < 60
    assert back_colour.mean() > 0.15 and ink(back, paper, 200).mean() > 0.25


@pytest.mark.parametrize("style", DECK_STYLES)
def test_red_suits_are_red_and_black_suits_black(style: str) -> None:
    x0, y0, x1, y1 = index_box(style)
    s = DECK_STYLES[style]
    for code in ALL_CODES:
        rank, suit = parse_code(code)
        region = render_card(code, s)[y0 : y1 + (40 if not suit else 0), x0:x1, :3].astype(np.int16)
        printed = region[ink(region, s.paper, 200)]
        redness = float((printed[:, 2] - printed[:, :2].max(axis=1)).mean())
        if suit in ("D", "H") or rank == "RJ":
            assert redness > 60, (code, redness)
        else:
            assert redness < 25 and printed.mean() < 110, (code, redness, printed.mean())


@pytest.mark.parametrize("style", DECK_STYLES)
def test_nothing_else_touches_the_corner_index(style: str) -> None:
    """Whatever is printed in the index region lies wholly inside it: the court frame and the pips keep clear
    (and index_region really covers the rank and pip)."""
    x0, y0, x1, y1 = index_box(style)
    s = DECK_STYLES[style]
    for code in FACES:
        card = render_card(code, s)
        inside = cv2.erode(card[..., 3], np.ones((7, 7), np.uint8)) == 255  # leave out the grey cut edge
        mask = (ink(card, s.paper, 150) & inside).astype(np.uint8)
        _, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
        touching = set(np.unique(labels[y0:y1, x0:x1])) - {0}
        for i in touching:
            bx, by, bw, bh, _ = stats[i]
            if bw > 0.9 * CARD_W:
                continue  # the printed border line around the whole card
            assert bx >= x0 - 3 and by >= y0 - 3 and bx + bw <= x1 + 3 and by + bh <= y1 + 3, (code, stats[i])


def test_jokers_spell_joker_down_the_corner_in_their_colour() -> None:
    s = DECK_STYLES["classic"]
    for code, red in (("RJ", True), ("BJ", False)):
        card = render_card(code, s)
        column = card[: CARD_H // 2, : round(0.2 * CARD_W), :3].astype(np.int16)
        rows = np.flatnonzero(ink(column, s.paper, 200).any(axis=1))
        assert rows.max() - rows.min() > 0.25 * CARD_H  # five letters stacked, not one line
        printed = column[ink(column, s.paper, 200)]
        assert ((printed[:, 2] - printed[:, :2].max(axis=1)).mean() > 60) == red


# ---------------------------------------------------------------- tables


def test_tables_look_like_their_kind_and_are_reproducible() -> None:
    means = {}
    for kind in TABLES:
        img = table_background(kind, 320, 240, random.Random(3))
        assert img.shape == (240, 320, 3) and img.dtype == np.uint8
        assert np.array_equal(img, table_background(kind, 320, 240, random.Random(3)))
        assert not np.array_equal(img, table_background(kind, 320, 240, random.Random(4)))
        means[kind] = img.reshape(-1, 3).mean(axis=0)  # B, G, R
    assert means["paper"].min() > 200 and means["dark"].max() < 50
    assert means["felt"][1] > means["felt"][0] + 30 and means["felt"][1] > means["felt"][2] + 30
    assert means["cloth"][0] > means["cloth"][2] + 50
    assert means["wood"][2] > means["wood"][0] + 40 and means["carpet"][2] > means["carpet"][0]
    assert abs(means["grey"][0] - means["grey"][2]) < 15
    # Whitewashed wood is as pale as a card, with grain lines far darker than the wood between.
    limed = cv2.cvtColor(table_background("limed", 320, 240, random.Random(3)), cv2.COLOR_BGR2GRAY)
    assert means["limed"].min() > 150 and np.percentile(limed, 2) < 0.75 * np.median(limed)


def test_an_unknown_table_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="unknown table 'marble'"):
        table_background("marble", 10, 10, random.Random(0))


# ---------------------------------------------------------------- scenes


@pytest.mark.parametrize(("perspective", "table"), [(0.0, "dark"), (0.12, "dark"), (0.0, "grey"), (0.15, "felt")])
def test_truth_corners_are_where_the_card_is(perspective: float, table: str) -> None:
    card = CardPlacement("5S", 400, 300, 30, 200)
    spec = SceneSpec(table=table, cards=(card,), perspective=perspective, seed=2, **QUIET)
    image, (truth,) = render_scene(spec)
    inside, outside = mean_inside(image, truth.corners), mean_around(image, truth.corners)
    assert inside.min() > 170 and inside.mean() > outside.mean() + 40, (inside, outside)
    assert truth.visible == pytest.approx(1.0) and truth.index_visible == pytest.approx((1.0, 1.0))
    # The card's edge is where the truth says: just inside is card, just outside is table.
    assert mean_inside(image, truth.corners, 0.97).mean() > outside.mean() + 40
    assert abs(float(mean_around(image, truth.corners).mean()) - float(outside.mean())) < 1e-6


def test_the_top_left_corner_is_where_the_index_is() -> None:
    spec = SceneSpec(table="grey", cards=(CardPlacement("KH", 400, 300, 130, 240),), seed=1, **QUIET)
    image, (truth,) = render_scene(spec)
    tl, tr, _, bl = truth.corners
    x0, y0, x1, y1 = index_region(DECK_STYLES["classic"])

    def redness_at(u: float, v: float) -> float:
        p = tl + (tr - tl) * u + (bl - tl) * v
        patch = image[round(p[1]) - 2 : round(p[1]) + 3, round(p[0]) - 2 : round(p[0]) + 3].astype(int)
        return float((patch[..., 2] - patch[..., :2].max(axis=2)).max())

    xs, ys = np.linspace(x0, x1, 6), np.linspace(y0, y1, 8)
    assert max(redness_at(u, v) for u in xs for v in ys) > 80  # the red K and heart are there
    assert max(redness_at(1 - u, v) for u in xs for v in ys) < 40  # the top-right corner has no index


def test_angles_turn_cards_counter_clockwise_like_opencv() -> None:
    for angle in (0.0, 30.0, 90.0, -135.0):
        upright = card_corners(400, 300, 0, 210)
        turn = cv2.getRotationMatrix2D((400, 300), angle, 1.0)
        expected = upright @ turn[:, :2].T + turn[:, 2]
        assert np.allclose(card_corners(400, 300, angle, 210), expected, atol=1e-3)
    tl = card_corners(0, 0, 90, 210)[0]
    assert tl == pytest.approx((-105, 75), abs=1e-3)  # turned a quarter left, its top edge faces left


def test_a_later_card_covers_an_earlier_one() -> None:
    spec = SceneSpec(cards=(CardPlacement("2H", 400, 300, 0, 200), CardPlacement("KC", 460, 370, 10, 200)))
    _, (under, top) = render_scene(spec)
    assert top.visible == pytest.approx(1.0) and 0.05 < under.visible < 0.9
    assert under.index_visible[0] > 0.9 and under.index_visible[1] < 0.1


def test_visible_fractions_measure_the_overlap_and_the_pixels_show_the_top_card() -> None:
    w = 200 * CARD_W / CARD_H
    cards = (CardPlacement("back", 400, 300, 0, 200), CardPlacement("2C", 400 + w / 2, 300, 0, 200))
    spec = SceneSpec(table="felt", cards=cards, **QUIET)
    image, (under, top) = render_scene(spec)
    assert under.visible == pytest.approx(0.5, abs=0.02) and top.visible == 1.0
    assert under.index_visible[0] == pytest.approx(1.0) and under.index_visible[1] == 0.0
    assert top.index_visible == (1.0, 1.0)
    # Where both overlap the top card's white stock shows, not the red back; left of it the back shows.
    x_top, x_under = round(400 + w / 8), round(400 - w / 4)
    assert image[320:340, x_top - 5 : x_top + 5].min() > 180
    b, g, r = image[320:340, x_under - 10 : x_under + 10].reshape(-1, 3).mean(axis=0)
    assert r > g + 40 and r > b + 40


def test_a_card_fully_under_another_is_invisible() -> None:
    cards = (CardPlacement("AS", 300, 300, 20, 150), CardPlacement("back", 300, 300, 20, 180))
    _, (under, top) = render_scene(SceneSpec(cards=cards))
    assert under.visible < 0.01 and under.index_visible == (0.0, 0.0) and top.visible == 1.0


def test_perspective_moves_the_corners_consistently_with_the_image() -> None:
    cards = (CardPlacement("back", 250, 200, 15, 180), CardPlacement("back", 560, 420, -40, 180))
    flat_img, flat = render_scene(SceneSpec(table="grey", cards=cards, seed=5, **QUIET))
    tilt_img, tilted = render_scene(SceneSpec(table="grey", cards=cards, seed=5, perspective=0.15, **QUIET))
    assert max(float(np.abs(a.corners - b.corners).max()) for a, b in zip(flat, tilted, strict=True)) > 10
    for img, truth in ((flat_img, flat), (tilt_img, tilted)):
        red = img[..., 2].astype(int) - img[..., 0] > 60  # the classic back is red
        for card in truth:
            ring = polygon_mask(img.shape, card.corners, 1.3) & ~polygon_mask(img.shape, card.corners, 1.05)
            assert red[polygon_mask(img.shape, card.corners, 0.95)].mean() > 0.3 and red[ring].mean() < 0.005
            # The back's pattern is symmetric, so its red is centred where the truth polygon is.
            ys, xs = (red & polygon_mask(img.shape, card.corners, 1.3)).nonzero()
            py, px = polygon_mask(img.shape, card.corners, 1.0).nonzero()
            assert np.hypot(xs.mean() - px.mean(), ys.mean() - py.mean()) < 2
    # One homography relates the flat and tilted truth of both cards, as one camera would.
    src = np.vstack([c.corners for c in flat])
    dst = np.vstack([c.corners for c in tilted])
    h, _ = cv2.findHomography(src[:4], dst[:4])
    moved = cv2.perspectiveTransform(src[4:].reshape(-1, 1, 2).astype(np.float64), h).reshape(-1, 2)
    assert np.abs(moved - dst[4:]).max() < 0.5


def test_the_same_spec_gives_the_same_frame() -> None:
    spec = random_scene(random.Random(4), cards=3, hard=True)
    a, ta = render_scene(spec)
    b, tb = render_scene(spec)
    assert np.array_equal(a, b)
    assert all(np.array_equal(x.corners, y.corners) for x, y in zip(ta, tb, strict=True))
    other, _ = render_scene(SceneSpec(**{**spec.__dict__, "seed": spec.seed + 1}))
    assert not np.array_equal(a, other)


def test_effects_change_the_frame_the_way_they_should() -> None:
    cards = (CardPlacement("QD", 400, 300, 10, 200),)
    clean, _ = render_scene(SceneSpec(cards=cards, seed=1, **QUIET))
    blurred, _ = render_scene(SceneSpec(cards=cards, seed=1, **{**QUIET, "blur": 2.0}))
    noisy, _ = render_scene(SceneSpec(cards=cards, seed=1, **{**QUIET, "noise": 6.0}))
    glared, _ = render_scene(SceneSpec(cards=cards, table="grey", seed=1, **{**QUIET, "glare": 0.8}))
    unglared, _ = render_scene(SceneSpec(cards=cards, table="grey", seed=1, **QUIET))
    jpeg, _ = render_scene(SceneSpec(cards=cards, seed=1, jpeg_quality=60, **QUIET))

    def sharpness(img: np.ndarray) -> float:
        return float(cv2.Laplacian(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), cv2.CV_64F).var())

    assert sharpness(blurred) < sharpness(clean) / 3
    assert 4.5 < float((noisy.astype(float) - clean).std()) < 7.5
    spot = cv2.absdiff(glared, unglared).max(axis=2)
    assert spot.max() > 60 and spot.min() == 0  # a bright spot, not a wash over the whole frame
    assert 0 < float(np.abs(jpeg.astype(float) - clean).mean()) < 4


def test_random_scenes_keep_their_cards_in_the_frame_and_apart() -> None:
    rng = random.Random(9)
    for i in range(12):
        w, h = (800, 600) if i % 3 else (640, 480)
        spec = random_scene(rng, width=w, height=h, cards=1 + i % 8, hard=i % 2 == 1)
        image, truth = render_scene(spec)
        assert image.shape == (h, w, 3) and len(truth) == len(spec.cards)
        for card in truth:
            assert (card.corners >= -0.5).all() and (card.corners[:, 0] <= w).all() and (card.corners[:, 1] <= h).all()
            assert card.visible > 0.99 and min(card.index_visible) > 0.99, (i, card)
        if w == 800 and not spec.perspective:
            assert all(110 <= c.height <= 250 for c in spec.cards)


def test_a_random_fan_lays_each_card_partly_over_the_last() -> None:
    """A trick laid down or a hand spread: one size of card, every lower card showing a strip
    (each next card shifted by 25-60% of a width), the last one whole, all inside the frame."""
    rng = random.Random(3)
    for _ in range(8):
        spec = random_scene(rng, cards=rng.randint(2, 4), fan=True)
        assert len({c.height for c in spec.cards}) == 1
        _, truth = render_scene(spec)
        assert truth[-1].visible == 1.0
        assert all(0.2 <= c.visible <= 0.65 for c in truth[:-1]), [c.visible for c in truth]
        for card in truth:
            assert (card.corners >= -0.5).all() and (card.corners <= [800, 600]).all()


def test_a_random_pile_is_stacked_with_the_last_card_on_top() -> None:
    rng = random.Random(2)
    for _ in range(6):
        spec = random_scene(rng, cards=6, pile=True)
        _, truth = render_scene(spec)
        assert truth[-1].visible == 1.0 and truth[-1].index_visible == (1.0, 1.0)
        assert all(c.visible < 0.9 for c in truth[:-1])
        centres = np.array([c.corners.mean(axis=0) for c in truth])
        assert np.abs(centres - [400, 300]).max() < 150
        for card in truth:
            assert (card.corners >= -0.5).all() and (card.corners <= [800, 600]).all()


def test_random_scene_options_are_honoured() -> None:
    spec = random_scene(random.Random(1), cards=3, style="vintage", table="cloth", codes=["AS", "KH", "back"])
    assert spec.style == "vintage" and spec.table == "cloth"
    assert [c.code for c in spec.cards] == ["AS", "KH", "back"]
    spec = random_scene(random.Random(1), cards=5, backs=1.0)
    assert all(c.code == "back" for c in spec.cards)
    _, truth = render_scene(SceneSpec(cards=(CardPlacement("7C", 400, 300, 0, style="jumbo"),)))
    assert truth[0].style == "jumbo"


def test_clutter_lies_under_the_cards_and_leaves_them_untouched() -> None:
    """Paper, objects and cables change the table around a card, never the card's own pixels."""
    card = CardPlacement("7S", 400, 300, 25, 220)
    bare, truth = render_scene(SceneSpec(cards=(card,), seed=5, **QUIET))
    busy, busy_truth = render_scene(SceneSpec(cards=(card,), seed=5, clutter=1.0, **QUIET))
    again, _ = render_scene(SceneSpec(cards=(card,), seed=5, clutter=1.0, **QUIET))
    assert np.array_equal(busy, again)
    assert np.array_equal(truth[0].corners, busy_truth[0].corners)
    face = np.zeros(bare.shape[:2], np.uint8)
    cv2.fillPoly(face, [np.round(truth[0].corners).astype(np.int32)], 1)
    face = cv2.erode(face, np.ones((9, 9), np.uint8)) > 0  # away from the soft shadow at its edge
    changed = cv2.absdiff(bare, busy).max(axis=2) > 10
    assert not changed[face].any()
    assert changed[~face].mean() > 0.05


def test_clutter_prints_covers_from_a_folder_of_pictures(tmp_path) -> None:
    """Book covers show pieces of the pictures given, so a detector learns real printed matter."""
    magenta = np.zeros((64, 64, 3), np.uint8)
    magenta[:] = (255, 0, 255)
    cv2.imwrite(str(tmp_path / "cover.png"), magenta)
    (tmp_path / "notes.txt").write_text("not a picture")  # skipped, not an error
    shown = 0
    for seed in range(6):
        image, _ = render_scene(SceneSpec(seed=seed, clutter=1.0, pictures=str(tmp_path), **QUIET))
        b, g, r = (image[..., k].astype(int) for k in range(3))
        shown += int(((b > 200) & (r > 200) & (g < 60)).sum() > 500)
    assert shown >= 2


def test_hard_shadows_darken_table_and_card_with_a_sharp_edge() -> None:
    """Sun through a window cuts a card's face into a lit and a shaded part: the shadow falls on
    table and card alike, has a sharp edge, and leaves the ground truth as it was."""
    card = CardPlacement("7S", 400, 300, 25, 300)
    darker = 0
    for seed in range(3, 9):  # shadows fall at random: most scenes shade part of a big card
        lit, truth = render_scene(SceneSpec(cards=(card,), seed=seed, **QUIET))
        shaded, shaded_truth = render_scene(SceneSpec(cards=(card,), seed=seed, shade=1.0, **QUIET))
        assert np.array_equal(truth[0].corners, shaded_truth[0].corners)
        assert (shaded.astype(int) <= lit.astype(int) + 3).all()  # shadows only take light away
        face = np.zeros(lit.shape[:2], np.uint8)
        cv2.fillPoly(face, [np.round(truth[0].corners).astype(np.int32)], 1)
        ratio = shaded.mean(axis=2) / np.maximum(lit.mean(axis=2), 1)
        on_face = ratio[cv2.erode(face, np.ones((15, 15), np.uint8)) > 0]
        # Part of the face is in full light and part in deep shade, with little in between.
        if (on_face > 0.97).mean() > 0.1 and (on_face < 0.8).mean() > 0.1:
            darker += 1
            assert ((on_face > 0.8) & (on_face < 0.95)).mean() < 0.15
    assert darker >= 2


def test_a_hand_is_skin_over_the_table_hides_the_card_under_it_and_names_a_bad_tone() -> None:
    """A hand is drawn over everything, in its skin tone, its forearm running off the frame; the
    card under it is less visible in the ground truth; an unknown tone is refused by name."""
    card = CardPlacement("7C", 400, 300, 0.0, 200)
    bare, truth = render_scene(SceneSpec(cards=(card,), seed=1, noise=0.0))
    hand = HandPlacement(400, 300, 0.0, 240, "dark")
    covered, under = render_scene(SceneSpec(cards=(card,), seed=1, noise=0.0, hands=(hand,)))
    assert truth[0].visible == 1.0 and 0.3 < under[0].visible < 0.9
    palm = covered[290:310, 390:410].reshape(-1, 3).mean(axis=0)
    assert np.abs(palm - 255 * np.array(SKIN_TONES["dark"])).max() < 25  # the palm's own colour, not the card's
    assert np.abs(covered[-3:, 395:405].astype(int) - bare[-3:, 395:405]).mean() > 30  # the forearm, at the edge
    with pytest.raises(ValueError, match="unknown skin tone 'green'"):
        HandPlacement(0, 0, 0, skin="green")
