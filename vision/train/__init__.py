"""Training the vision networks (needs the ``train`` extra): ``python -m vision.train`` for the
corner reader, ``python -m vision.train.segment`` for the card segmenter."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

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


def read_model(path: str):  # -> onnx.ModelProto (onnx is imported only when a model is read)
    """A written model, or a clear exit naming the file and what is wrong with it."""
    import onnx

    try:
        return onnx.load(path)
    except OSError as exc:
        raise SystemExit(f"{path}: cannot read it ({exc.strerror})") from None
    except Exception as exc:  # protobuf's DecodeError: not an ONNX file
        raise SystemExit(f"{path}: not an ONNX model ({exc})") from None


def weights_of(model, shapes: dict[str, tuple[int, ...]], what: str, path: str | None = None) -> dict[str, np.ndarray]:
    """The weights of a model (a path or a read ``onnx.ModelProto``, read from ``path``) that a
    trainer wrote, in the trainer's layout again (convolutions HWIO, ONNX's are OIHW), to go on
    training from them; ``shapes`` are the trainer's own, and a model of another shape is refused
    as not ``what``, naming its file."""
    from onnx import numpy_helper

    proto = read_model(model) if isinstance(model, str) else model
    params = {}
    for tensor in proto.graph.initializer:
        value = numpy_helper.to_array(tensor)
        params[tensor.name] = value.transpose(2, 3, 1, 0).copy() if value.ndim == 4 else value
    if {name: params[name].shape for name in shapes if name in params} != shapes:
        name = model if isinstance(model, str) else path or "the model"
        raise SystemExit(f"{name} is not {what}")
    return {name: params[name] for name in shapes}


def recipe_of(model) -> object:
    """The training record a model carries (its ``training`` metadata), None if it has none."""
    return json.loads(next((p.value for p in model.metadata_props if p.key == "training"), "null"))
