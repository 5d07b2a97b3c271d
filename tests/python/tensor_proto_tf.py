"""TensorFlow side of test_tensor_proto.py (runs in a child process).

    python tensor_proto_tf.py make OUT_JSON
        Builds GraphDefs holding constants TensorFlow's importer keeps as
        #tf_type tensor_proto attributes (quantized, 4-bit, resource, variant)
        and string constants, in several TensorProto encodings; writes
        {name: {"graph": hex GraphDef, "tf_text": convert_graph_def text}}.

    python tensor_proto_tf.py run JOBS_JSON OUT_JSON
        JOBS: {name: {"original": hex, "exported": hex, "nodes": [names]}}. Runs
        both graphs fetching every listed node (resources and variants through
        SerializeTensor, variants also through TensorListLength) and writes
        {name: {"ok", "detail"}}.
"""
import json
import sys

sys.modules.setdefault("tensorflow.python.pywrap_dlopen_global_flags", None)

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
from tensorflow.core.framework import graph_pb2, resource_handle_pb2, tensor_pb2  # noqa: E402
from tensorflow.python.ops import list_ops  # noqa: E402


def tensor(dtype, dims, **fields):
    tp = tensor_pb2.TensorProto(dtype=dtype)
    for d in dims:
        tp.tensor_shape.dim.add().size = d
    for k, v in fields.items():
        if k == "tensor_content":
            tp.tensor_content = v
        else:
            getattr(tp, k).extend(v)
    return tp


def serialized(t):
    tp = tensor_pb2.TensorProto()
    tp.ParseFromString(tf.raw_ops.SerializeTensor(tensor=t).numpy())
    return tp


def cases():
    out = {}
    for dt, base in ((tf.qint8, np.int8), (tf.quint8, np.uint8), (tf.qint16, np.int16),
                     (tf.quint16, np.uint16), (tf.qint32, np.int32)):
        e = dt.as_datatype_enum
        arr = np.array([[1, -2, 3], [4, 5, 127]]).astype(base)
        out[f"{dt.name}_content"] = [tensor(e, [2, 3], tensor_content=arr.tobytes())]
        out[f"{dt.name}_scalar"] = [tensor(e, [], int_val=[7])]
        out[f"{dt.name}_fill"] = [tensor(e, [5], int_val=[9, 39, 10])]   # \t ' \n, last repeated
    out["qint8_empty"] = [tensor(11, [0, 2])]
    out["qint8_zeros"] = [tensor(11, [3])]
    out["int4_uint4"] = [tensor(29, [3], int_val=[1, -2, 7]), tensor(30, [2], int_val=[15, 0])]
    out["string"] = [tensor(7, [3], string_val=[b"a", b"b\x00'\"\xff"]), tensor(7, [2], string_val=[b"same"])]
    v = tf.Variable([1.0, 2.0], name="vv")
    h = resource_handle_pb2.ResourceHandleProto(device="/job:localhost/replica:0/task:0/device:CPU:0",
                                                container="c", name="n1", hash_code=123,
                                                maybe_type_name="N10tensorflow3VarE")
    ds = h.dtypes_and_shapes.add()
    ds.dtype = 1
    ds.shape.dim.add().size = -1
    h.dtypes_and_shapes.add(dtype=3).shape.unknown_rank = True
    h2 = resource_handle_pb2.ResourceHandleProto(name="n2")
    h2.dtypes_and_shapes.add(dtype=2)
    out["resource"] = [serialized(v.handle), tensor(20, [2])]
    # Several handles with dtypes_and_shapes: TensorFlow's encoder reuses one proto, so every
    # decode/encode cycle (import, and again when the graph runs) accumulates more of them.
    out["resource_many"] = [tensor(20, [3], resource_handle_val=[h, h2])]
    tl = list_ops.tensor_list_from_tensor(tf.constant([[1.0, 2.0], [3.0, 4.0]]), element_shape=[2])
    tl_empty = list_ops.empty_tensor_list(element_shape=[-1, 3], element_dtype=tf.int32, max_num_elements=5)
    tl_int = list_ops.tensor_list_from_tensor(tf.constant([[1, 2], [3, 4]], dtype=tf.int64), element_shape=None)
    a, b = serialized(tl), serialized(tl_int)
    elems = []
    for tp in (a, b):
        size = tp.tensor_content[0]          # one element, a size below 128
        e = tensor_pb2.VariantTensorDataProto()
        e.ParseFromString(tp.tensor_content[1:1 + size])
        elems.append(e)
    as_content = tensor_pb2.VariantTensorDataProto()
    as_content.CopyFrom(elems[0])
    for t in as_content.tensors:            # inner tensors in tensor_content form
        vals = np.array(t.float_val, np.float32)
        t.ClearField("float_val")
        t.tensor_content = vals.tobytes()
    out["variant"] = [a, serialized(tl_empty), tensor(21, [3], variant_val=[as_content, elems[1]])]
    return out


def graph_of(tensors):
    gd = graph_pb2.GraphDef()
    gd.versions.producer = 1994
    for i, tp in enumerate(tensors):
        n = gd.node.add()
        n.name, n.op = f"c{i}", "Const"
        n.attr["value"].tensor.CopyFrom(tp)
        n.attr["dtype"].type = tp.dtype
    return gd


def make(path):
    result = {}
    for name, tensors in cases().items():
        gd = graph_of(tensors)
        text = tf.mlir.experimental.convert_graph_def(gd, pass_pipeline="")
        result[name] = {"graph": gd.SerializeToString().hex(), "tf_text": text}
    with open(path, "w") as f:
        json.dump(result, f)


def run_graph(data, nodes):
    gd = graph_pb2.GraphDef()
    gd.ParseFromString(bytes.fromhex(data))
    graph = tf.Graph()
    with graph.as_default():
        tf.compat.v1.import_graph_def(gd, name="")
        fetches = []
        for node in nodes:
            t = graph.get_tensor_by_name(node + ":0")
            if t.dtype not in (tf.resource, tf.variant):
                fetches.append(t)          # quantized / 4-bit / string values themselves
                continue
            fetches.append(tf.raw_ops.SerializeTensor(tensor=t))
            if t.dtype == tf.variant:
                fetches.append(tf.raw_ops.SerializeTensor(tensor=tf.raw_ops.TensorListLength(input_handle=tf.reshape(t, [-1])[0]) if t.shape.rank else tf.raw_ops.TensorListLength(input_handle=t)))
    with tf.compat.v1.Session(graph=graph) as sess:
        return sess.run(fetches)


def run(jobs_path, out_path):
    jobs = json.load(open(jobs_path))
    results = {}
    for name, job in jobs.items():
        try:
            a = run_graph(job["original"], job["nodes"])
            b = run_graph(job["exported"], job["nodes"])
            bad = []
            for i, (x, y) in enumerate(zip(a, b)):
                if isinstance(x, bytes):   # a serialized TensorProto (resource / variant)
                    px, py = tensor_pb2.TensorProto(), tensor_pb2.TensorProto()
                    px.ParseFromString(x)
                    py.ParseFromString(y)
                    if px != py:
                        bad.append(f"fetch {i}: {px} vs {py}")
                    continue
                x, y = np.asarray(x), np.asarray(y)
                same = x.dtype == y.dtype and x.shape == y.shape and (
                    x.tolist() == y.tolist() if x.dtype == object else x.tobytes() == y.tobytes())
                if not same:
                    bad.append(f"fetch {i}: {x!r} vs {y!r}")
            results[name] = {"ok": not bad and len(a) == len(b), "detail": "; ".join(bad)[:2000]}
        except Exception as exc:  # reported to the test
            results[name] = {"ok": False, "detail": f"{type(exc).__name__}: {exc}"[:2000]}
    with open(out_path, "w") as f:
        json.dump(results, f)


if __name__ == "__main__":
    if sys.argv[1] == "make":
        make(sys.argv[2])
    else:
        run(sys.argv[2], sys.argv[3])
