"""Running the shipped networks (the corner reader and the card segmenter) with ONNX Runtime.

ONNX Runtime runs these small convolutional networks two to four times faster than OpenCV's
``dnn`` module on one core, with the same answers (``python -m benchmarks vision`` times both),
and it has wheels for the Raspberry Pi's 64-bit OS. Each network runs on one
thread: the table's loop has the camera, the buttons and the broker to serve besides, and a
frame's time stays the same whatever else the Pi is doing.
"""

from __future__ import annotations

import numpy as np
import onnxruntime as ort

from table.errors import CardtableError

ort.set_default_logger_severity(3)  # errors only: a damaged model is reported by ModelError


class ModelError(CardtableError, RuntimeError):
    """A model file is missing or damaged: says which file and what to do."""


class OnnxNet:
    """One ONNX model, ready to run on one thread; ``ValueError`` if the bytes are no model it can run."""

    def __init__(self, model: bytes) -> None:
        options = ort.SessionOptions()
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        try:
            self._session = ort.InferenceSession(model, options, providers=["CPUExecutionProvider"])
        except Exception as exc:  # ONNX Runtime raises its own exception types, one per cause
            raise ValueError(str(exc).strip().splitlines()[-1]) from None
        self._input = self._session.get_inputs()[0].name

    def run(self, batch: np.ndarray, outputs: tuple[str, ...] | None = None) -> list[np.ndarray]:
        """The named outputs (all of them if None) for one float32 input batch."""
        return self._session.run(
            list(outputs) if outputs else None, {self._input: np.ascontiguousarray(batch, np.float32)}
        )
