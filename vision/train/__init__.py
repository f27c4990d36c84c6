"""Training the vision networks (needs the ``train`` extra): ``python -m vision.train`` for the
corner reader, ``python -m vision.train.segment`` for the card segmenter."""

from __future__ import annotations

import argparse
from pathlib import Path

OPSET = 13
IR_VERSION = 8  # the model format's version: every ONNX Runtime pyproject.toml admits reads it


def training_parser(prog: str, description: str, epochs: int, batch: int, out: Path) -> argparse.ArgumentParser:
    """The options every trainer shares: epochs, batch, learning rate, seed, workers and output."""
    parser = argparse.ArgumentParser(prog=prog, description=description)
    parser.add_argument("--epochs", type=int, default=epochs)
    parser.add_argument("--batch", type=int, default=batch)
    parser.add_argument("--lr", type=float, default=2e-3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", default=str(out))
    return parser


def write_checked(model: bytes, out: str, meta: dict[str, object], matches: bool) -> None:
    """Write an exported model, only if ONNX Runtime's run of it gave the training graph's answers."""
    if not matches:
        raise SystemExit("ONNX Runtime's run of the exported model does not match the training graph")
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    Path(out).write_bytes(model)
    print(f"wrote {out}: {meta}")
