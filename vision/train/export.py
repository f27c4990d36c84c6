"""Writing the trained weights as the ONNX model the table loads (``vision.corner_net``)."""

from __future__ import annotations

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from vision.corner_net import INPUT_H, INPUT_W, OUTPUTS, RANK_CLASSES, SUIT_CLASSES
from vision.train import IR_VERSION, OPSET


def to_onnx(params: dict[str, np.ndarray], meta: dict[str, str]) -> bytes:
    """The network as an ONNX graph. Weights are trained in NHWC / HWIO; ONNX convolutions are
    NCHW / OIHW, and the feature map is put back in NHWC order before the dense layer."""
    nodes, weights = [], []

    def const(name: str, value: np.ndarray) -> str:
        weights.append(numpy_helper.from_array(np.asarray(value, np.float32), name))
        return name

    x = "input"
    for i in (1, 2, 3):
        w = const(f"conv{i}_w", params[f"conv{i}_w"].transpose(3, 2, 0, 1))
        b = const(f"conv{i}_b", params[f"conv{i}_b"])
        nodes += [
            helper.make_node("Conv", [x, w, b], [f"conv{i}"], pads=[1, 1, 1, 1], kernel_shape=[3, 3]),
            helper.make_node("Relu", [f"conv{i}"], [f"relu{i}"]),
            helper.make_node("MaxPool", [f"relu{i}"], [f"pool{i}"], kernel_shape=[2, 2], strides=[2, 2]),
        ]
        x = f"pool{i}"
    hidden = params["dense_w"].shape[1]
    nodes += [
        helper.make_node("Transpose", [x], ["nhwc"], perm=[0, 2, 3, 1]),
        helper.make_node("Flatten", ["nhwc"], ["flat"], axis=1),
        helper.make_node(
            "Gemm", ["flat", const("dense_w", params["dense_w"]), const("dense_b", params["dense_b"])], ["dense"]
        ),
        helper.make_node("Relu", ["dense"], [OUTPUTS[2]]),
    ]
    for head in ("rank", "suit"):
        w, b = const(f"{head}_w", params[f"{head}_w"]), const(f"{head}_b", params[f"{head}_b"])
        nodes += [
            helper.make_node("Gemm", [OUTPUTS[2], w, b], [f"{head}_logits"]),
            helper.make_node("Softmax", [f"{head}_logits"], [head], axis=1),
        ]
    outputs = [
        helper.make_tensor_value_info("rank", TensorProto.FLOAT, ["N", len(RANK_CLASSES)]),
        helper.make_tensor_value_info("suit", TensorProto.FLOAT, ["N", len(SUIT_CLASSES)]),
        helper.make_tensor_value_info(OUTPUTS[2], TensorProto.FLOAT, ["N", hidden]),
    ]
    inputs = [helper.make_tensor_value_info("input", TensorProto.FLOAT, ["N", 2, INPUT_H, INPUT_W])]
    graph = helper.make_graph(nodes, "cardtable_corner_reader", inputs, outputs, weights)
    model = helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", OPSET)], producer_name="cardtable", ir_version=IR_VERSION
    )
    for key, value in meta.items():
        model.metadata_props.append(onnx.StringStringEntryProto(key=key, value=value))
    onnx.checker.check_model(model)
    return model.SerializeToString()
