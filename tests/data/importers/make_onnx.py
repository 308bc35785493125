#!/usr/bin/python3
"""Writes the small ONNX files the importer tests read (tests/data/importers/onnx/).

Run with Debian's interpreter, which has python3-onnx:  /usr/bin/python3 make_onnx.py
The output is deterministic (fixed seed, fixed node order), so re-running it leaves the
committed files unchanged. Dimensions are tiny so that each file is a few KB; the tests derive
their expected GEMM shapes, FLOPs and parameter counts from the constants below by hand.
"""
import os

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "onnx")
OPSET = [helper.make_opsetid("", 17)]
RNG = np.random.RandomState(7)

# GPT-style model: vocabulary, positions, hidden, heads, head size, FFN width, blocks.
V, P, H, NH, D, F, BLOCKS = 40, 32, 24, 3, 8, 96, 2


def weight(name, *shape):
    return numpy_helper.from_array(RNG.standard_normal(shape).astype(np.float32) * 0.02, name)


def ints(name, values):
    return numpy_helper.from_array(np.array(values, dtype=np.int64), name)


def constant(node_name, output, array):
    return helper.make_node("Constant", [], [output], name=node_name,
                            value=numpy_helper.from_array(array, output))


def model(graph, opsets=OPSET):
    m = helper.make_model(graph, opset_imports=opsets, producer_name="tandem-tests")
    m.ir_version = 8
    return m


def gpt_block_graph():
    nodes, inits = [], []
    inits += [weight("wte.weight", V, H), weight("wpe.weight", P, H)]
    nodes += [
        helper.make_node("Gather", ["wte.weight", "input_ids"], ["/wte/out"], name="/wte/Gather"),
        helper.make_node("Gather", ["wpe.weight", "position_ids"], ["/wpe/out"], name="/wpe/Gather"),
        helper.make_node("Add", ["/wte/out", "/wpe/out"], ["/emb/out"], name="/Add"),
    ]
    x = "/emb/out"
    for i in range(BLOCKS):
        p, w = f"/h.{i}", f"h.{i}."
        t = lambda s: p + "/" + s  # noqa: E731  tensor names inside the block
        inits += [
            weight(w + "ln_1.weight", H), weight(w + "ln_1.bias", H),
            weight(w + "attn.c_attn.weight", H, 3 * H), weight(w + "attn.c_attn.bias", 3 * H),
            weight(w + "attn.c_proj.weight", H, H), weight(w + "attn.c_proj.bias", H),
            weight(w + "ln_2.weight", H), weight(w + "ln_2.bias", H),
            weight(w + "mlp.c_fc.weight", H, F), weight(w + "mlp.c_fc.bias", F),
            weight(w + "mlp.c_proj.weight", F, H), weight(w + "mlp.c_proj.bias", H),
            ints(w + "attn.split_sizes", [H, H, H]),
        ]
        mk = helper.make_node
        nodes += [
            mk("LayerNormalization", [x, w + "ln_1.weight", w + "ln_1.bias"], [t("ln_1")],
               name=p + "/ln_1/LayerNormalization", axis=-1, epsilon=1e-5),
            mk("MatMul", [t("ln_1"), w + "attn.c_attn.weight"], [t("qkv_mm")],
               name=p + "/attn/c_attn/MatMul"),
            mk("Add", [t("qkv_mm"), w + "attn.c_attn.bias"], [t("qkv")], name=p + "/attn/c_attn/Add"),
            mk("Split", [t("qkv"), w + "attn.split_sizes"], [t("q"), t("k"), t("v")],
               name=p + "/attn/Split", axis=2),
            constant(p + "/attn/Constant", t("heads_shape"), np.array([0, 0, NH, D], np.int64)),
            mk("Reshape", [t("q"), t("heads_shape")], [t("q4")], name=p + "/attn/Reshape"),
            mk("Reshape", [t("k"), t("heads_shape")], [t("k4")], name=p + "/attn/Reshape_1"),
            mk("Reshape", [t("v"), t("heads_shape")], [t("v4")], name=p + "/attn/Reshape_2"),
            mk("Transpose", [t("q4")], [t("qh")], name=p + "/attn/Transpose", perm=[0, 2, 1, 3]),
            mk("Transpose", [t("k4")], [t("kt")], name=p + "/attn/Transpose_1", perm=[0, 2, 3, 1]),
            mk("Transpose", [t("v4")], [t("vh")], name=p + "/attn/Transpose_2", perm=[0, 2, 1, 3]),
            mk("MatMul", [t("qh"), t("kt")], [t("scores")], name=p + "/attn/MatMul"),
            constant(p + "/attn/Constant_1", t("scale"), np.array(np.sqrt(D), np.float32)),
            mk("Div", [t("scores"), t("scale")], [t("scaled")], name=p + "/attn/Div"),
            mk("Softmax", [t("scaled")], [t("probs")], name=p + "/attn/Softmax", axis=-1),
            mk("MatMul", [t("probs"), t("vh")], [t("ctx")], name=p + "/attn/MatMul_1"),
            mk("Transpose", [t("ctx")], [t("ctx_t")], name=p + "/attn/Transpose_3", perm=[0, 2, 1, 3]),
            constant(p + "/attn/Constant_2", t("merge_shape"), np.array([0, 0, H], np.int64)),
            mk("Reshape", [t("ctx_t"), t("merge_shape")], [t("ctx_m")], name=p + "/attn/Reshape_3"),
            mk("MatMul", [t("ctx_m"), w + "attn.c_proj.weight"], [t("proj_mm")],
               name=p + "/attn/c_proj/MatMul"),
            mk("Add", [t("proj_mm"), w + "attn.c_proj.bias"], [t("attn_out")],
               name=p + "/attn/c_proj/Add"),
            mk("Add", [x, t("attn_out")], [t("res1")], name=p + "/Add"),
            mk("LayerNormalization", [t("res1"), w + "ln_2.weight", w + "ln_2.bias"], [t("ln_2")],
               name=p + "/ln_2/LayerNormalization", axis=-1, epsilon=1e-5),
            mk("MatMul", [t("ln_2"), w + "mlp.c_fc.weight"], [t("fc_mm")], name=p + "/mlp/c_fc/MatMul"),
            mk("Add", [t("fc_mm"), w + "mlp.c_fc.bias"], [t("fc")], name=p + "/mlp/c_fc/Add"),
            # Exact GELU as exporters write it: x * 0.5 * (1 + erf(x / sqrt(2))).
            constant(p + "/mlp/act/Constant", t("sqrt2"), np.array(np.sqrt(2.0), np.float32)),
            mk("Div", [t("fc"), t("sqrt2")], [t("g_div")], name=p + "/mlp/act/Div"),
            mk("Erf", [t("g_div")], [t("g_erf")], name=p + "/mlp/act/Erf"),
            constant(p + "/mlp/act/Constant_1", t("one"), np.array(1.0, np.float32)),
            mk("Add", [t("g_erf"), t("one")], [t("g_add")], name=p + "/mlp/act/Add"),
            mk("Mul", [t("fc"), t("g_add")], [t("g_mul")], name=p + "/mlp/act/Mul"),
            constant(p + "/mlp/act/Constant_2", t("half"), np.array(0.5, np.float32)),
            mk("Mul", [t("g_mul"), t("half")], [t("gelu")], name=p + "/mlp/act/Mul_1"),
            mk("MatMul", [t("gelu"), w + "mlp.c_proj.weight"], [t("down_mm")],
               name=p + "/mlp/c_proj/MatMul"),
            mk("Add", [t("down_mm"), w + "mlp.c_proj.bias"], [t("mlp_out")], name=p + "/mlp/c_proj/Add"),
            mk("Add", [t("res1"), t("mlp_out")], [t("out")], name=p + "/Add_1"),
        ]
        x = t("out")
    inits += [weight("ln_f.weight", H), weight("ln_f.bias", H)]
    nodes += [
        helper.make_node("LayerNormalization", [x, "ln_f.weight", "ln_f.bias"], ["/ln_f/out"],
                         name="/ln_f/LayerNormalization", axis=-1, epsilon=1e-5),
        # Tied output head: the logits reuse the token embedding, transposed.
        helper.make_node("Transpose", ["wte.weight"], ["/lm_head/wte_t"], name="/lm_head/Transpose",
                         perm=[1, 0]),
        helper.make_node("MatMul", ["/ln_f/out", "/lm_head/wte_t"], ["logits"], name="/lm_head/MatMul"),
    ]
    inputs = [helper.make_tensor_value_info(n, TensorProto.INT64, ["batch", "sequence"])
              for n in ("input_ids", "position_ids")]
    outputs = [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["batch", "sequence", V])]
    return helper.make_graph(nodes, "gpt_block", inputs, outputs, inits)


def cnn_graph():
    inits = [weight("conv1.weight", 8, 3, 3, 3), weight("conv1.bias", 8),
             weight("conv2.weight", 16, 4, 3, 3), weight("conv2.bias", 16),
             weight("fc.weight", 10, 16), weight("fc.bias", 10)]
    mk = helper.make_node
    nodes = [
        mk("Conv", ["x", "conv1.weight", "conv1.bias"], ["c1"], name="/features/conv1/Conv",
           kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
        mk("Relu", ["c1"], ["r1"], name="/features/relu1/Relu"),
        mk("MaxPool", ["r1"], ["p1"], name="/features/pool/MaxPool", kernel_shape=[2, 2], strides=[2, 2]),
        mk("Conv", ["p1", "conv2.weight", "conv2.bias"], ["c2"], name="/features/conv2/Conv",
           kernel_shape=[3, 3], pads=[1, 1, 1, 1], group=2),
        mk("Relu", ["c2"], ["r2"], name="/features/relu2/Relu"),
        mk("GlobalAveragePool", ["r2"], ["gap"], name="/pool/GlobalAveragePool"),
        mk("Flatten", ["gap"], ["flat"], name="/Flatten", axis=1),
        mk("Gemm", ["flat", "fc.weight", "fc.bias"], ["logits"], name="/classifier/Gemm", transB=1),
    ]
    inputs = [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 3, 8, 8])]
    outputs = [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["N", 10])]
    return helper.make_graph(nodes, "small_cnn", inputs, outputs, inits)


def unknown_op_model():
    inits = [weight("fc1.weight", 8, 16), weight("fc2.weight", 16, 4)]
    mk = helper.make_node
    nodes = [
        mk("MatMul", ["x", "fc1.weight"], ["h"], name="/fc1/MatMul"),
        mk("FancyAct", ["h"], ["a"], name="/act/FancyAct", domain="com.example"),
        mk("MatMul", ["a", "fc2.weight"], ["y"], name="/fc2/MatMul"),
    ]
    graph = helper.make_graph(
        nodes, "unknown_op",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", 8])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["batch", 4])], inits)
    return model(graph, OPSET + [helper.make_opsetid("com.example", 1)])


def cyclic_model():
    mk = helper.make_node
    nodes = [mk("Add", ["x", "r"], ["s"], name="/a/Add"), mk("Relu", ["s"], ["r"], name="/b/Relu")]
    graph = helper.make_graph(
        nodes, "cyclic",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", 4])],
        [helper.make_tensor_value_info("r", TensorProto.FLOAT, ["batch", 4])])
    return model(graph)  # not checked: onnx.checker rightly rejects it


def main():
    os.makedirs(OUT, exist_ok=True)
    path = lambda name: os.path.join(OUT, name)  # noqa: E731

    gpt = model(gpt_block_graph())
    onnx.checker.check_model(gpt)
    onnx.save(gpt, path("gpt_block.onnx"))

    cnn = model(cnn_graph())
    onnx.checker.check_model(cnn)
    onnx.save(cnn, path("cnn.onnx"))

    unknown = unknown_op_model()
    onnx.checker.check_model(unknown)
    onnx.save(unknown, path("unknown_op.onnx"))

    onnx.save(cyclic_model(), path("cyclic.onnx"))

    with open(path("gpt_block.onnx"), "rb") as f:
        data = f.read()
    with open(path("truncated.onnx"), "wb") as f:
        f.write(data[: len(data) * 3 // 5])

    # The same GPT model with its weights in an external file that is then deleted: the importer
    # must never need it. Tensors under 1 KiB (shape constants, norms) stay inline, as onnx does.
    external = model(gpt_block_graph())
    onnx.save(external, path("gpt_block_external.onnx"), save_as_external_data=True,
              all_tensors_to_one_file=True, location="gpt_block_external.bin", size_threshold=1024)
    os.remove(path("gpt_block_external.bin"))


if __name__ == "__main__":
    main()
