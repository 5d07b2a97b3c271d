"""Writes python/tfmlir/tfcore/data/opdb.json.gz: the op facts the importer needs.

Needs TensorFlow (run it when TensorFlow's op registry changes):

    python scripts/gen_importer_opdb.py

Contents (compact JSON, gzipped):
  "graph_def_version": TF_GRAPH_DEF_VERSION (the producer TF writes),
  "graph_def_version_min_consumer",
  "ops": {op: [inputs, outputs, attrs, is_stateful]} from TF's OpDef registry, where an
         arg is [name, dtype, type_attr, number_attr, type_list_attr, is_ref] and an attr
         is [name, type, default AttrValue (base64 wire bytes) or null],
  "ods": {op: [derived attrs, stored attrs, attr_sized_operands, attr_sized_results, commutative]}
         for the ops TensorFlow models in ODS (read from third_party/tensorflow/tf_ods_ops.json,
         which scripts/dump_tf_registry.py derives from the headers TF ships).
"""
import base64
import gzip
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
OUT = os.path.join(REPO, "python", "tfmlir", "tfcore", "data", "opdb.json.gz")


def main():
    sys.modules.setdefault("tensorflow.python.pywrap_dlopen_global_flags", None)
    import tensorflow as tf
    from tensorflow.core.framework import op_def_pb2
    from tensorflow.python.client import pywrap_tf_session

    buf = pywrap_tf_session.TF_GetAllOpList()
    op_list = op_def_pb2.OpList.FromString(pywrap_tf_session.TF_GetBuffer(buf))
    ops = {}
    for op in sorted(op_list.op, key=lambda o: o.name):
        def arg(a):
            return [a.name, a.type, a.type_attr, a.number_attr, a.type_list_attr, bool(a.is_ref)]
        attrs = []
        for a in op.attr:
            default = None
            if a.HasField("default_value"):
                default = base64.b64encode(a.default_value.SerializeToString(deterministic=True)).decode()
            attrs.append([a.name, a.type, default])
        ops[op.name] = [[arg(a) for a in op.input_arg], [arg(a) for a in op.output_arg], attrs,
                        bool(op.is_stateful)]
    with open(os.path.join(REPO, "third_party", "tensorflow", "tf_ods_ops.json")) as f:
        ods_json = json.load(f)["ops"]
    ods = {}
    for name, v in sorted(ods_json.items()):
        ods[name[3:]] = [sorted(v["derived"]), sorted(v["stored"]), bool(v["attr_sized_operands"]),
                         bool(v["attr_sized_results"]), bool(v["commutative"])]
    data = {"tensorflow_version": tf.__version__,
            "graph_def_version": tf.version.GRAPH_DEF_VERSION,
            "graph_def_version_min_consumer": tf.version.GRAPH_DEF_VERSION_MIN_CONSUMER,
            "ops": ops, "ods": ods}
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    raw = json.dumps(data, separators=(",", ":"), sort_keys=True).encode()
    with open(OUT, "wb") as f:
        f.write(gzip.compress(raw, mtime=0))
    print(f"{OUT}: {len(ops)} ops, {len(ods)} ODS ops, {len(raw)} bytes raw")


if __name__ == "__main__":
    main()
