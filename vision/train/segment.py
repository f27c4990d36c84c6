"""Train the card segmenter: ``python -m vision.train.segment [--scenes N] [--epochs E] [--out PATH]``.

Scenes come from the simulator's renderer (``sim.render``): every table, deck style and camera
fault it has, clutter on the table (printed paper, objects, covers, cables), optionally hard
shadows of a window or an object, cards spread apart, in piles, fanned, big and cut by the
frame's edge. The target of each scene is where the face of the card on top lies, kept
``segment.MARGIN`` of a card inside its edges. The network of ``vision.segment`` is fitted with
JAX and Adam; ONNX Runtime's run of the exported model is checked against the training graph before it
is written. Needs the ``train`` extra.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace

import cv2
import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from sim.render import CARD_H, CARD_W, CardPlacement, load_pictures, random_scene, render_scene
from vision.segment import DECODER, ENCODER, MARGIN, SKIPS, STRIDE, WEIGHTS, CardSegmenter
from vision.train import IR_VERSION, OPSET, read_model, recipe_of, training_parser, write_checked
from vision.train import weights_of as trained_weights  # the shared reader, this network's shapes

SCENE_W, SCENE_H = 480, 360  # rendered size; the network sees it at 192 x 144
NET_W, NET_H = 192, 144
PAD = 40  # rendered beyond the crop on each side, so cards may run out of the frame


def _placements(rng: random.Random, width: int, height: int) -> tuple[CardPlacement, ...]:
    """Big cards anywhere, partly out of the frame, sometimes fanned like a hand: what a phone
    photo or a low camera shows, which ``random_scene``'s tidy layouts do not."""
    short = min(width, height)
    card_h = short * rng.uniform(0.35, 0.8)
    out = []
    x, y = rng.uniform(0, width), rng.uniform(0, height)
    angle = rng.uniform(0, 360)
    fan = rng.random() < 0.5
    for _ in range(rng.randint(1, 4)):
        if fan and out:
            step = card_h * CARD_W / CARD_H * rng.uniform(0.15, 0.5)
            x += step * math.cos(math.radians(-angle))
            y += step * math.sin(math.radians(-angle))
            angle += rng.gauss(0, 8)
        elif out:
            x, y, angle = rng.uniform(0, width), rng.uniform(0, height), rng.uniform(0, 360)
        code = rng.choice(["AS", "KH", "QD", "JC", "10S", "9H", "7D", "2C", "RJ", "back", "5S", "8H"])
        out.append(CardPlacement(code, x, y, angle, card_h))
    return tuple(out)


@dataclass(frozen=True)
class SceneOptions:
    """What a run adds to the renderer's scenes beyond the first recipe (all off by default)."""

    pictures: str | None = None  # a folder of photos for the clutter's book covers
    shadows: float = 0.0  # the share of scenes with hard shadows of a window's bars or an object
    limed: float = 0.0  # the share of scenes on whitewashed wood, grey-white with dark grain


def scene(rng: random.Random, options: SceneOptions = SceneOptions()) -> tuple[np.ndarray, np.ndarray]:
    """One training pair: the network's input image (uint8 BGR, NET_H x NET_W) and its target
    (float32, one cell per STRIDE pixels)."""
    w, h = SCENE_W + 2 * PAD, SCENE_H + 2 * PAD
    kind = rng.random()
    spec = random_scene(
        rng,
        w,
        h,
        cards=rng.randint(1, 6),
        pile=kind < 0.3,
        hard=rng.random() < 0.5,
        backs=0.1,
    )
    if kind > 0.7:
        spec = replace(spec, cards=_placements(rng, w, h))
    if rng.random() < 0.1:
        spec = replace(spec, cards=())  # tables with nothing on them teach what is not a card
    spec = replace(spec, clutter=0.0 if rng.random() < 0.3 else rng.uniform(0.3, 1.2), pictures=options.pictures)
    if options.shadows and rng.random() < options.shadows:  # no draw when off: the shipped recipe's scenes
        spec = replace(spec, shade=rng.uniform(0.4, 1.0))
    if rng.random() < 0.2:
        spec = replace(spec, table="paper")  # white on white: the hardest table for finding cards
    elif options.limed and rng.random() < options.limed:  # no draw when off, as for the shadows
        spec = replace(spec, table="limed")
    image, truth = render_scene(spec)
    ox, oy = rng.randint(0, 2 * PAD), rng.randint(0, 2 * PAD)
    crop = image[oy : oy + SCENE_H, ox : ox + SCENE_W]
    net = _exposure(cv2.resize(crop, (NET_W, NET_H), interpolation=cv2.INTER_AREA), rng)
    scale = NET_W / SCENE_W
    polys = [(card.corners - [ox, oy]) * scale for card in truth]
    return net, face_target(polys, NET_W, NET_H)


def _exposure(image: np.ndarray, rng: random.Random) -> np.ndarray:
    """A phone's or a webcam's idea of exposure and white balance: gain (often enough to burn
    white paper and card alike to 255, so that whiteness alone cannot tell them apart), gamma,
    contrast and a colour cast."""
    x = image.astype(np.float32) / 255
    x = x ** rng.uniform(0.6, 1.5)
    x = (x - 0.5) * rng.uniform(0.7, 1.2) + 0.5
    x = x * np.float32([rng.uniform(0.85, 1.15) for _ in range(3)]) * rng.uniform(0.8, 1.5)
    return np.clip(x * 255 + 0.5, 0, 255).astype(np.uint8)


def face_target(polys: list[np.ndarray], width: int, height: int) -> np.ndarray:
    """Where the top card's face is, MARGIN of its short side inside its edges, averaged over
    STRIDE x STRIDE cells. ``polys`` are in drawing order (later ones on top)."""
    label = np.zeros((height, width), np.uint8)
    for i, poly in enumerate(polys):
        cv2.fillPoly(label, [np.round(poly * 16).astype(np.int32)], i + 1, cv2.LINE_8, 4)
    inside = np.zeros((height, width), np.uint8)
    for i, poly in enumerate(polys):
        own = (label == i + 1).astype(np.uint8)
        if not own.any():
            continue
        margin = MARGIN * float(np.linalg.norm(poly[1] - poly[0]))
        # Distance to the nearest pixel that is not this card's: the frame's edge is not an edge.
        padded = cv2.copyMakeBorder(own, 1, 1, 1, 1, cv2.BORDER_REPLICATE)
        dist = cv2.distanceTransform(padded, cv2.DIST_L2, 3)[1:-1, 1:-1]
        inside |= (dist > margin).astype(np.uint8)
    return cv2.resize(inside.astype(np.float32), (width // STRIDE, height // STRIDE), interpolation=cv2.INTER_AREA)


def _chunk(args: tuple[int, int, SceneOptions]) -> tuple[np.ndarray, np.ndarray]:
    count, seed, options = args
    rng = random.Random(seed)
    pairs = [scene(rng, options) for _ in range(count)]
    return np.stack([p[0] for p in pairs]), np.stack([p[1] for p in pairs])


def make_data(count: int, seed: int, workers: int, options: SceneOptions) -> tuple[np.ndarray, np.ndarray]:
    chunks = [(count // workers + (i < count % workers), seed * 1000 + i, options) for i in range(workers)]
    with ProcessPoolExecutor(workers) as pool:
        parts = list(pool.map(_chunk, chunks))
    return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])


def init_params(seed: int) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    params: dict[str, np.ndarray] = {}

    def conv(name: str, k: int, c_in: int, c_out: int) -> None:
        params[f"{name}_w"] = rng.normal(0, np.sqrt(2 / (k * k * c_in)), (k, k, c_in, c_out)).astype(np.float32)
        params[f"{name}_b"] = np.zeros(c_out, np.float32)

    c_in, widths = 3, {}
    for name, k, _, c_out in ENCODER:
        conv(name, k, c_in, c_out)
        c_in = widths[name] = c_out
    for name, c_out in DECODER:
        conv(f"{name}_up", 1, c_in, widths[SKIPS[name]])
        conv(name, 3, widths[SKIPS[name]], c_out)
        c_in = c_out
    conv("head", 1, c_in, 1)
    return params


def weights_of(model: str | onnx.ModelProto, path: str | None = None) -> dict[str, np.ndarray]:
    """The weights of a segmenter written by ``to_onnx`` (HWIO again), to train on from them."""
    shapes = {name: value.shape for name, value in init_params(0).items()}
    return trained_weights(model, shapes, f"a segmenter of this shape ({ENCODER}, {DECODER})", path)


def to_onnx(params: dict[str, np.ndarray], meta: dict[str, str]) -> bytes:
    """The network as an ONNX graph (NCHW / OIHW, as ONNX Runtime runs it)."""
    nodes, weights = [], []

    def conv(name: str, x: str, stride: int = 1, relu: bool = True) -> str:
        w = params[f"{name}_w"]
        weights.append(numpy_helper.from_array(w.transpose(3, 2, 0, 1).copy(), f"{name}_w"))
        weights.append(numpy_helper.from_array(params[f"{name}_b"], f"{name}_b"))
        k, pad = w.shape[0], w.shape[0] // 2
        nodes.append(
            helper.make_node(
                "Conv",
                [x, f"{name}_w", f"{name}_b"],
                [name],
                kernel_shape=[k, k],
                strides=[stride, stride],
                pads=[pad] * 4,
            )
        )
        if not relu:
            return name
        nodes.append(helper.make_node("Relu", [name], [f"{name}_relu"]))
        return f"{name}_relu"

    x = "input"
    for name, _, stride, _ in ENCODER:
        x = conv(name, x, stride)
    weights.append(numpy_helper.from_array(np.float32([1, 1, 2, 2]), "twice"))
    for name, _ in DECODER:
        up = conv(f"{name}_up", x, relu=False)
        nodes.append(helper.make_node("Resize", [up, "", "twice"], [f"{name}_big"], mode="nearest"))
        nodes.append(helper.make_node("Add", [f"{name}_big", f"{SKIPS[name]}_relu"], [f"{name}_sum"]))
        nodes.append(helper.make_node("Relu", [f"{name}_sum"], [f"{name}_in"]))
        x = conv(name, f"{name}_in")
    nodes.append(helper.make_node("Sigmoid", [conv("head", x, relu=False)], ["face"]))
    graph = helper.make_graph(
        nodes,
        "cardtable_card_segmenter",
        [helper.make_tensor_value_info("input", TensorProto.FLOAT, [1, 3, "H", "W"])],
        [helper.make_tensor_value_info("face", TensorProto.FLOAT, [1, 1, "h", "w"])],
        weights,
    )
    model = helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", OPSET)], producer_name="cardtable", ir_version=IR_VERSION
    )
    for key, value in meta.items():
        model.metadata_props.append(onnx.StringStringEntryProto(key=key, value=value))
    onnx.checker.check_model(model)
    return model.SerializeToString()


def train(args: argparse.Namespace) -> None:
    import jax
    import jax.numpy as jnp
    import optax

    # The model to go on from is read first: a wrong one is named before minutes of drawing.
    parent = read_model(args.init) if args.init else None  # read once: its weights and its recipe
    start = weights_of(parent, args.init) if parent is not None else init_params(args.seed)
    t0 = time.time()
    options = SceneOptions(args.pictures, args.shadows, args.limed)
    x, y = make_data(args.scenes, args.seed, args.workers, options)
    xv, yv = make_data(max(64, args.scenes // 20), args.seed + 1, args.workers, options)
    print(f"rendered {len(x)} + {len(xv)} scenes in {time.time() - t0:.0f} s", flush=True)

    def conv(p, name, h, stride=1):
        out = jax.lax.conv_general_dilated(
            h, p[f"{name}_w"], (stride, stride), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC")
        )
        return out + p[f"{name}_b"]

    def logits(p, xb):
        h = xb.astype(jnp.float32) * (1 / 255) - 0.5
        saved = {}
        for name, _, stride, _ in ENCODER:
            # SAME padding with stride 2 on an even size pads (0, 1); ONNX pads (1, 1) and drops the
            # last row: pad explicitly so both graphs compute the same thing.
            if stride == 2:
                h = jnp.pad(h, ((0, 0), (1, 1), (1, 1), (0, 0)))
                h = jax.lax.conv_general_dilated(
                    h, p[f"{name}_w"], (2, 2), "VALID", dimension_numbers=("NHWC", "HWIO", "NHWC")
                )
                h = jax.nn.relu(h + p[f"{name}_b"])
            else:
                h = jax.nn.relu(conv(p, name, h))
            saved[name] = h
        for name, _ in DECODER:
            up = conv(p, f"{name}_up", h)
            up = jnp.repeat(jnp.repeat(up, 2, axis=1), 2, axis=2)
            h = jax.nn.relu(conv(p, name, jax.nn.relu(up + saved[SKIPS[name]])))
        return conv(p, "head", h)[..., 0]

    def loss_fn(p, xb, yb):
        z = logits(p, xb)
        return jnp.mean(optax.sigmoid_binary_cross_entropy(z, yb))

    steps = args.epochs * (len(x) // args.batch)
    opt = optax.adamw(optax.cosine_decay_schedule(args.lr, steps), weight_decay=1e-4)
    params = {k: jnp.asarray(v) for k, v in start.items()}
    state = opt.init(params)

    @jax.jit
    def step(p, s, xb, yb):
        loss, grads = jax.value_and_grad(loss_fn)(p, xb, yb)
        updates, s = opt.update(grads, s, p)
        return optax.apply_updates(p, updates), s, loss

    predict = jax.jit(lambda p, xb: jax.nn.sigmoid(logits(p, xb)))
    rng = np.random.default_rng(args.seed)
    for epoch in range(args.epochs):
        order = rng.permutation(len(x))
        losses = []
        for i in range(0, len(order) - args.batch + 1, args.batch):
            idx = np.sort(order[i : i + args.batch])
            params, state, loss = step(params, state, x[idx], y[idx])
            losses.append(float(loss))
        pv = np.concatenate([np.asarray(predict(params, xv[i : i + 64])) for i in range(0, len(xv), 64)])
        iou = float(((pv > 0.5) & (yv > 0.5)).sum() / max(1, ((pv > 0.5) | (yv > 0.5)).sum()))
        took = time.time() - t0
        print(f"epoch {epoch + 1}: loss {np.mean(losses):.4f}  held-out IoU {iou:.3f}  ({took:.0f} s)", flush=True)

    weights = {k: np.asarray(v, np.float32) for k, v in params.items()}
    meta = {
        "scenes": args.scenes,
        "epochs": args.epochs,
        "seed": args.seed,
        "pictures": len(load_pictures(args.pictures)) if args.pictures else 0,
        "shadows": args.shadows,
        "limed": args.limed,
        "init": recipe_of(parent) if parent is not None else None,
        "held_out_iou": round(iou, 4),
    }
    model = to_onnx(weights, {"training": json.dumps(meta)})
    sample = xv[:1].astype(np.float32) * np.float32(1 / 255) - np.float32(0.5)
    check = CardSegmenter(model).forward(np.ascontiguousarray(sample.transpose(0, 3, 1, 2)))
    write_checked(model, args.out, meta, np.allclose(check[0, 0], pv[0], atol=1e-3))


def main() -> None:
    parser = training_parser("python -m vision.train.segment", __doc__.splitlines()[0], epochs=8, batch=32, out=WEIGHTS)
    parser.add_argument("--scenes", type=int, default=20_000)
    parser.add_argument(
        "--pictures", help="a folder of photos to print on the clutter's book covers (docs/training.md)"
    )
    parser.add_argument(
        "--shadows", type=float, default=0.0, help="share of scenes with hard shadows (docs/training.md)"
    )
    parser.add_argument(
        "--limed", type=float, default=0.0, help="share of scenes on whitewashed wood (docs/training.md)"
    )
    parser.add_argument("--init", help="a segmenter's ONNX file to go on training from (its recipe is recorded)")
    train(parser.parse_args())


if __name__ == "__main__":
    main()
