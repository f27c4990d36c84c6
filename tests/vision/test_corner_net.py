"""The corner network's numpy forward pass, its input normalisation, and enrolled-deck prototypes."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from vision.corner_net import (
    INPUT_H,
    INPUT_W,
    RANK_CLASSES,
    SUIT_CLASSES,
    CornerNet,
    CornerOutput,
    builtin_net,
    byte_percentiles,
    corner_input,
    corner_inputs,
)
from vision.deck import Deck, Prototypes, net_id


def test_input_is_the_same_in_dim_and_bright_light() -> None:
    rng = np.random.default_rng(2)
    corner = np.full((126, 62, 3), 235, np.uint8)
    corner[20:60, 15:40] = (30, 30, 200)  # a red mark
    corner = np.clip(corner + rng.normal(0, 2, corner.shape), 0, 255).astype(np.uint8)
    dim = (corner * 0.5).astype(np.uint8)
    a, b = corner_input(corner), corner_input(dim)
    assert a.shape == (INPUT_H, INPUT_W, 2)
    assert np.abs(a - b).mean() < 0.05
    assert a[..., 1].max() > 1.0 and a[..., 1][:5].max() < 0.1  # red where the mark is only


def test_a_batch_of_corners_is_normalised_each_on_its_own() -> None:
    """One pass over a frame's corners gives each the input it would get alone: its own paper
    and ink levels, whatever the others' light and size."""
    rng = np.random.default_rng(5)
    corners = [
        (rng.random((126, 62, 3)) * 255).astype(np.uint8),
        np.full((90, 45, 3), 40, np.uint8),
        (rng.random((200, 100, 3)) * 120 + 120).astype(np.uint8),
    ]
    batch = corner_inputs(corners)
    assert batch.shape == (3, INPUT_H, INPUT_W, 2)
    for one, corner in zip(batch, corners, strict=True):
        np.testing.assert_allclose(one, corner_inputs([corner])[0], atol=1e-5)
        # The normalisation written out for one corner.
        small = cv2.resize(corner, (INPUT_W, INPUT_H), interpolation=cv2.INTER_AREA).astype(np.float32)
        dark = 255 - small.min(axis=2)
        paper, ink = np.percentile(dark, (50, 98))
        expected = np.clip((dark - paper) / max(ink - paper, 25.0), -1.0, 3.0)
        np.testing.assert_allclose(one[..., 0], expected, atol=1e-4)


@given(
    arrays(np.uint8, st.tuples(st.integers(1, 6), st.integers(1, 300))),
    st.lists(st.floats(0, 100), min_size=1, max_size=3),
)
def test_percentiles_of_bytes_are_numpys(rows: np.ndarray, percents: list[float]) -> None:
    """The corner inputs' paper and ink levels, taken from histograms, are numpy's (linear) percentiles."""
    ours = byte_percentiles(rows, tuple(percents))
    for q, got in zip(percents, ours, strict=True):
        np.testing.assert_allclose(got, np.percentile(rows.astype(np.float64), q, axis=1), rtol=0, atol=1e-3)


def test_the_shipped_network_gives_probabilities_and_unit_embeddings() -> None:
    net = builtin_net()
    out = net.read([np.full((126, 62, 3), 200, np.uint8), np.zeros((126, 62, 3), np.uint8)])
    assert out.rank.shape == (2, len(RANK_CLASSES)) and out.suit.shape == (2, len(SUIT_CLASSES))
    np.testing.assert_allclose(out.rank.sum(axis=1), 1, rtol=1e-5)
    np.testing.assert_allclose(np.linalg.norm(out.embedding, axis=1), 1, rtol=1e-4)
    assert RANK_CLASSES[int(out.rank[0].argmax())] == "none"  # a blank card shows no index
    assert net.read([]).rank.shape[0] == 0


def test_prototypes_tip_an_open_question_but_never_overrule_no_index() -> None:
    net = builtin_net()
    emb = np.eye(4, 128, dtype=np.float32)
    q = RANK_CLASSES.index("Q")
    ten = RANK_CLASSES.index("10")
    deck = Deck(net, Prototypes(emb[:2], np.array([q, ten]), np.array([0, 1])))
    rank = np.zeros((2, len(RANK_CLASSES)), np.float32)
    rank[0, [q, ten]] = 0.5  # the network cannot tell Q from 10
    rank[1, -1] = 0.9  # fairly sure there is no index
    rank[1, q] = 0.1
    suit = np.full((2, len(SUIT_CLASSES)), 0.2, np.float32)
    out = CornerOutput(rank, suit, emb[[0, 0]])  # both corners look exactly like the enrolled queen
    r, s = deck.posteriors(out)
    assert r[0].argmax() == q and r[0, q] > 0.9
    assert r[1, -1] == pytest.approx(0.9) and r[1].argmax() == len(RANK_CLASSES) - 1
    np.testing.assert_allclose(r.sum(axis=1), 1, rtol=1e-5)
    # A suit's pip is one shape in every deck: the prototypes leave the network's suits as they are.
    np.testing.assert_array_equal(s, suit)


def test_a_network_fingerprint_changes_with_either_model() -> None:
    from vision.corner_net import SECOND_WEIGHTS, WEIGHTS

    first, second = WEIGHTS.read_bytes(), SECOND_WEIGHTS.read_bytes()
    net = builtin_net()
    assert net_id(net) == net_id(CornerNet(first, second)) != net_id(CornerNet(first))
    assert net_id(net) != net_id(CornerNet(first, second.replace(b"cardtable", b"cardtab1e", 1)))


def test_two_networks_answer_as_the_geometric_mean_of_their_answers() -> None:
    """The shipped pair: each network alone, then both; the pair's probabilities are the two
    networks' geometric mean, normalised, and its embedding is the first's (enrolment's)."""
    from vision.corner_net import SECOND_WEIGHTS, WEIGHTS
    from vision.train import synth

    corners = [synth.sample(np.random.default_rng(n), synth.font_files()).image for n in range(12)]
    one, two = CornerNet.load(WEIGHTS).read(corners), CornerNet.load(SECOND_WEIGHTS).read(corners)
    both = builtin_net().read(corners)
    for k in ("rank", "suit"):
        mean = np.sqrt(getattr(one, k) * getattr(two, k))
        np.testing.assert_allclose(getattr(both, k), mean / mean.sum(axis=1, keepdims=True), atol=1e-5)
    np.testing.assert_allclose(both.embedding, one.embedding, atol=1e-6)
    assert not np.allclose(one.rank, two.rank, atol=1e-3)  # two networks, not one twice


def test_the_runtime_gives_the_outputs_asked_for_by_name_and_names_a_bad_model() -> None:
    from vision.corner_net import INPUT_H, INPUT_W, SUIT_CLASSES, WEIGHTS
    from vision.runtime import OnnxNet

    net = OnnxNet(WEIGHTS.read_bytes())
    batch = np.zeros((3, 2, INPUT_H, INPUT_W), np.float32)
    (suit,) = net.run(batch, ("suit",))
    assert suit.shape == (3, len(SUIT_CLASSES)) and np.allclose(suit.sum(axis=1), 1.0, atol=1e-5)
    assert len(net.run(batch)) == 3  # rank, suit and the embedding
    with pytest.raises(ValueError, match="protobuf"):
        OnnxNet(b"\x08\x07not a model")


def test_a_missing_or_damaged_model_is_named(tmp_path) -> None:
    from vision.corner_net import WEIGHTS
    from vision.runtime import ModelError

    with pytest.raises(ModelError, match=r"nowhere\.onnx: cannot read the corner model"):
        CornerNet.load(tmp_path / "nowhere.onnx")
    broken = tmp_path / "broken.onnx"
    broken.write_bytes(b"\x08\x07not a model")
    with pytest.raises(ModelError, match=r"broken\.onnx: not a corner model ONNX Runtime can run"):
        CornerNet.load(WEIGHTS, broken)  # the second of two named, not the first


def test_a_class_the_deck_was_not_enrolled_with_is_not_ruled_out() -> None:
    """A deck enrolled without its jokers: a corner the network is sure is a joker stays one."""
    net = builtin_net()
    emb = np.eye(4, 128, dtype=np.float32)
    q, joker = RANK_CLASSES.index("Q"), RANK_CLASSES.index("joker")
    deck = Deck(net, Prototypes(emb[:1], np.array([q]), np.array([0])))
    rank = np.zeros((1, len(RANK_CLASSES)), np.float32)
    rank[0, joker], rank[0, q] = 0.98, 0.02
    suit = np.full((1, len(SUIT_CLASSES)), 0.2, np.float32)
    r, _ = deck.posteriors(CornerOutput(rank, suit, emb[[0]]))
    assert r[0].argmax() == joker


def test_a_trained_corner_reader_is_read_back_to_train_on(tmp_path) -> None:
    """``--init``: the weights read back from a written model are the same network, and a model
    of another shape (the segmenter) is refused by name."""
    from vision.segment import WEIGHTS as SEGMENTER
    from vision.train import weights_of
    from vision.train.__main__ import init_params
    from vision.train.export import to_onnx

    params = init_params(3, (INPUT_H, INPUT_W, 2))
    shapes = {name: value.shape for name, value in params.items()}
    model = to_onnx(params, {"training": "{}"})
    path = tmp_path / "corner.onnx"
    path.write_bytes(model)
    back = weights_of(str(path), shapes, "a corner reader of this shape")
    assert back.keys() == params.keys()
    assert all(np.array_equal(back[k], params[k]) for k in params)
    x = np.random.default_rng(0).normal(size=(4, INPUT_H, INPUT_W, 2)).astype(np.float32)
    again, first = CornerNet(to_onnx(back, {})).forward(x), CornerNet(model).forward(x)
    assert np.array_equal(again.rank, first.rank) and np.array_equal(again.embedding, first.embedding)
    with pytest.raises(SystemExit, match=r"card_segmenter\.onnx is not a corner reader of this shape"):
        weights_of(str(SEGMENTER), shapes, "a corner reader of this shape")
