"""Train the corner reader: ``python -m vision.train [--samples N] [--epochs E] [--varied] [--init M]``.

Draws synthetic corners (``vision.train.synth``), fits the network of ``vision.corner_net`` with
JAX and Adam, checks that the numpy forward pass gives the same answers as the training graph,
and writes the weights (``--varied``: the second network, on corners with pips of random
shapes and hard shadows; ``--init``: go on training a written model, whose recipe is recorded
in the new one). Deterministic for a seed. Needs the ``train`` extra and fonts (docs/training.md).
"""

from __future__ import annotations

import argparse
import json
import time
from concurrent.futures import ProcessPoolExecutor

import numpy as np

from vision.corner_net import INPUT_H, INPUT_W, RANK_CLASSES, SECOND_WEIGHTS, SUIT_CLASSES, WEIGHTS, CornerNet
from vision.train import read_model, recipe_of, training_parser, weights_of, write_checked
from vision.train.export import to_onnx
from vision.train.synth import dataset, font_files

CHANNELS = (16, 32, 64)
HIDDEN = 128


def _chunk(args: tuple[int, int, list[str], bool]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    count, seed, fonts, varied = args
    return dataset(count, seed, fonts, varied)


def make_data(count: int, seed: int, workers: int, varied: bool = False) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    fonts = font_files()
    chunks = [(count // workers + (i < count % workers), seed * 1000 + i, fonts, varied) for i in range(workers)]
    with ProcessPoolExecutor(workers) as pool:
        parts = list(pool.map(_chunk, chunks))
    return tuple(np.concatenate([p[k] for p in parts]) for k in range(3))  # type: ignore[return-value]


def init_params(seed: int, in_shape: tuple[int, int, int]) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    params: dict[str, np.ndarray] = {}
    c_in = in_shape[2]
    for i, c_out in enumerate(CHANNELS, 1):
        params[f"conv{i}_w"] = rng.normal(0, np.sqrt(2 / (9 * c_in)), (3, 3, c_in, c_out)).astype(np.float32)
        params[f"conv{i}_b"] = np.zeros(c_out, np.float32)
        c_in = c_out
    flat = (in_shape[0] // 8) * (in_shape[1] // 8) * c_in
    params["dense_w"] = rng.normal(0, np.sqrt(2 / flat), (flat, HIDDEN)).astype(np.float32)
    params["dense_b"] = np.zeros(HIDDEN, np.float32)
    for head, classes in (("rank", RANK_CLASSES), ("suit", SUIT_CLASSES)):
        params[f"{head}_w"] = rng.normal(0, np.sqrt(1 / HIDDEN), (HIDDEN, len(classes))).astype(np.float32)
        params[f"{head}_b"] = np.zeros(len(classes), np.float32)
    return params


def train(args: argparse.Namespace) -> None:
    import jax
    import jax.numpy as jnp
    import optax

    # The model to go on from is read first: a wrong one is named before minutes of drawing.
    fresh = init_params(args.seed, (INPUT_H, INPUT_W, 2))
    parent = read_model(args.init) if args.init else None  # read once: its weights and its recipe
    shapes = {name: value.shape for name, value in fresh.items()}
    start = weights_of(parent, shapes, "a corner reader of this shape", args.init) if parent is not None else fresh
    t0 = time.time()
    x, y_rank, y_suit = make_data(args.samples, args.seed, args.workers, args.varied)
    xv, yv_rank, yv_suit = make_data(args.samples // 20, args.seed + 1, args.workers, args.varied)
    print(f"drew {len(x)} + {len(xv)} corners in {time.time() - t0:.0f} s", flush=True)

    def logits(p, xb, train_key=None):
        h = xb
        for i in (1, 2, 3):
            h = jax.lax.conv_general_dilated(
                h, p[f"conv{i}_w"], (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC")
            )
            h = jax.nn.relu(h + p[f"conv{i}_b"])
            h = jax.lax.reduce_window(h, -jnp.inf, jax.lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")
        h = h.reshape(h.shape[0], -1)
        h = jax.nn.relu(h @ p["dense_w"] + p["dense_b"])
        if train_key is not None:  # dropout on the embedding, so no single unit carries a class
            keep = jax.random.bernoulli(train_key, 0.8, h.shape)
            h = jnp.where(keep, h / 0.8, 0)
        return h @ p["rank_w"] + p["rank_b"], h @ p["suit_w"] + p["suit_b"]

    def loss_fn(p, xb, rb, sb, key):
        lr, ls = logits(p, xb, key)
        ce = optax.softmax_cross_entropy_with_integer_labels
        return jnp.mean(ce(lr, rb)) + jnp.mean(ce(ls, sb))

    steps = args.epochs * (len(x) // args.batch)
    schedule = optax.cosine_decay_schedule(args.lr, steps)
    opt = optax.adamw(schedule, weight_decay=1e-4)
    params = {k: jnp.asarray(v) for k, v in start.items()}
    state = opt.init(params)

    @jax.jit
    def step(p, s, xb, rb, sb, key):
        loss, grads = jax.value_and_grad(loss_fn)(p, xb, rb, sb, key)
        updates, s = opt.update(grads, s, p)
        return optax.apply_updates(p, updates), s, loss

    predict = jax.jit(lambda p, xb: logits(p, xb))
    rng = np.random.default_rng(args.seed)
    key = jax.random.PRNGKey(args.seed)
    for epoch in range(args.epochs):
        order = rng.permutation(len(x))
        losses = []
        for i in range(0, len(order) - args.batch + 1, args.batch):
            idx = order[i : i + args.batch]
            key, sub = jax.random.split(key)
            params, state, loss = step(params, state, x[idx], y_rank[idx], y_suit[idx], sub)
            losses.append(float(loss))
        lr_, ls_ = predict(params, xv)
        acc_r = float(np.mean(np.argmax(lr_, 1) == yv_rank))
        acc_s = float(np.mean(np.argmax(ls_, 1) == yv_suit))
        print(
            f"epoch {epoch + 1}: loss {np.mean(losses):.3f}  held-out rank {acc_r:.3%} suit {acc_s:.3%}"
            f"  ({time.time() - t0:.0f} s)",
            flush=True,
        )

    weights = {k: np.asarray(v, np.float32) for k, v in params.items()}
    meta = {
        "samples": args.samples,
        "epochs": args.epochs,
        "seed": args.seed,
        **({"varied": True} if args.varied else {}),
        "rank_accuracy": acc_r,
        "suit_accuracy": acc_s,
        "fonts": len(font_files()),
        **({"init": recipe_of(parent)} if parent is not None else {}),
    }
    model = to_onnx(weights, {"training": json.dumps(meta)})
    check = CornerNet(model).forward(xv[:256])
    lr_, _ = predict(params, xv[:256])
    write_checked(model, args.out, meta, np.allclose(check.rank, np.asarray(jax.nn.softmax(lr_)), atol=1e-4))


def main() -> None:
    parser = training_parser("python -m vision.train", __doc__.splitlines()[0], epochs=10, batch=256, out=WEIGHTS)
    parser.add_argument("--samples", type=int, default=120_000)
    parser.add_argument("--varied", action="store_true", help=f"the second network (default --out {SECOND_WEIGHTS})")
    parser.add_argument("--init", help="a corner reader's ONNX file to go on training from (its recipe is recorded)")
    args = parser.parse_args()
    if args.varied and args.out == str(WEIGHTS):
        args.out = str(SECOND_WEIGHTS)
    train(args)


if __name__ == "__main__":
    main()
