"""The training corners: deterministic for a seed, labelled consistently, shaped like the reader's input."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("PIL")
from vision.corner_net import CORNER_PX, INPUT_H, INPUT_W, RANK_CLASSES, SUIT_CLASSES
from vision.train import synth

FONTS = synth.font_files()
pytestmark = pytest.mark.skipif(not FONTS, reason="no TrueType fonts installed")


def test_samples_are_the_same_for_a_seed_and_shaped_like_a_corner() -> None:
    a = [synth.sample(np.random.default_rng(4), FONTS) for _ in range(3)]
    b = [synth.sample(np.random.default_rng(4), FONTS) for _ in range(3)]
    for x, y in zip(a, b, strict=True):
        assert x.image.shape == (CORNER_PX[1], CORNER_PX[0], 3) and x.image.dtype == np.uint8
        assert np.array_equal(x.image, y.image) and (x.rank, x.suit) == (y.rank, y.suit)


def test_labels_pair_up_as_cards_do() -> None:
    xs, ranks, suits = synth.dataset(300, seed=9, fonts=FONTS)
    assert xs.shape == (300, INPUT_H, INPUT_W, 2)
    none_rank, none_suit = RANK_CLASSES.index("none"), SUIT_CLASSES.index("none")
    joker = RANK_CLASSES.index("joker")
    assert np.all(suits[(ranks == none_rank) | (ranks == joker)] == none_suit)  # only an index has a suit
    # ... and an index whose pip something lies over has none either: its suit cannot be read.
    hidden_pip = (suits == none_suit) & (ranks != none_rank) & (ranks != joker)
    assert 0 < hidden_pip.sum() < 0.1 * len(ranks)
    assert set(np.unique(ranks)) >= {none_rank, *range(13)}  # every rank and the blank corners turn up


def test_a_cover_over_the_pip_alone_takes_the_suit_and_leaves_the_rank() -> None:
    """What lies over the corner is measured on each box: a card's edge over the lower half
    hides the pip's box and not the rank's above it."""
    canvas = np.full((120, 60, 3), 240.0, np.float32)
    rng = np.random.default_rng(0)
    for _ in range(50):
        shares = synth.thumb_mark(rng, canvas.copy(), [(10, 2, 30, 12), (10, 100, 30, 118)])
        if shares[1] > 0.5 and shares[0] < 0.2:
            break
    else:
        pytest.fail("no cover hid the pip and left the rank")
    assert synth.thumb_mark(np.random.default_rng(1), canvas.copy(), []) == []


def test_a_court_picture_lies_beside_the_index_and_never_over_it() -> None:
    """A court's frame, big pip and figure are drawn right of (and below the top of) the index's
    box, close to it: the index stays as it was, and the frame shows within a card's width."""
    w, h = CORNER_PX[0] * synth.SS, CORNER_PX[1] * synth.SS
    right, top = 50.0, 10.0  # the index's (its rank's and pip's box's) right side and top
    ink = np.array([20.0, 20, 180])
    for seed in range(20):
        canvas = np.full((h, w, 3), 240.0, np.float32)
        synth.court_picture(np.random.default_rng(seed), canvas, ink, "H", (right, top), (), False)
        changed = np.abs(canvas - 240.0).max(axis=2) > 1
        assert not changed[:, : round(right)].any()  # nothing left of the index's right side
        columns = np.nonzero(changed.any(axis=0))[0]
        assert len(columns) and columns[0] <= 0.92 * w + 4  # the frame: beside the index, on the card


def test_fonts_without_the_index_characters_are_left_out() -> None:
    assert all(synth.has_ink(path, "A234567890JQK") for path in FONTS[:5])


@pytest.mark.parametrize("suit", ["S", "C", "H", "D"])
def test_random_pips_vary_and_are_shaped_as_their_suit(suit: str) -> None:
    """The drawn pips differ from one another, and each reads as its own suit to the middle's
    pip reader (which was measured on printed designs): a spade pointed, a club's leaf round."""
    from vision.middle import pip_suit

    rng = np.random.default_rng(0)
    masks = [synth.random_pip(rng, suit, 64) > 127 for _ in range(60)]
    assert len({m.tobytes() for m in masks}) == len(masks)
    read = []
    for m in masks:
        ys, xs = np.nonzero(m)
        read.append(pip_suit(m[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1], suit in "HD"))
    assert read.count(suit) >= 0.95 * len(read) and set(read) <= {suit, None}


def test_print_is_rows_of_dark_marks_across_the_corner() -> None:
    """Lines of print (a no-index corner's page): dark marks in rows, blank space between them."""
    rng = np.random.default_rng(3)
    for _ in range(5):
        canvas = np.full((240, 120, 3), 235.0, np.float32)
        synth.print_mark(rng, canvas, 240)
        ink = canvas.min(axis=2) < 150
        rows = ink.any(axis=1)
        assert 0.01 < ink.mean() < 0.5
        assert rows.sum() > 10 and (~rows).sum() > 10  # rows of print, and the space between them


def test_out_of_focus_keeps_the_corner_and_sometimes_blurs_it_far() -> None:
    """The camera's blur keeps a corner's shape and type; some draws blur a sharp edge far more
    than the slight blur most get (a step's transition widens)."""
    step = np.zeros((64, 64), np.float32)
    step[:, 32:] = 255.0
    rng = np.random.default_rng(8)
    widths = []
    for _ in range(200):
        out = synth.out_of_focus(rng, step.copy())
        assert out.shape == step.shape and out.dtype == np.float32
        row = out[32]
        widths.append(int(((row > 25) & (row < 230)).sum()))  # pixels in the edge's ramp
    assert min(widths) == 0 and max(widths) >= 6 and 20 < sum(w >= 4 for w in widths) < 120
