"""Robustness of the GraphDef importer and exporter on unusual and malformed input.

Whatever the input, ``tfmlir.importers`` raises only ``TFImportError`` and
``tfmlir.exporters`` only ``TFExportError`` (naming the node / attribute), and
whatever the exporter writes, the importer reads back.
"""
import pytest

from conftest import SAMPLES_DIR, describe_failure, require_tensorflow, run_python

import tfmlir  # noqa: F401
from mlir import ir

from tfmlir import exporters, importers
from tfmlir.importers import protobuf as pb
from tfmlir.importers import tf_types as T
from tfmlir.importers.api import import_graph_def


def _gd(text):
    return pb.parse_text("GraphDef", text)


def _generic(m):
    return m.operation.get_asm(print_generic_op_form=True, enable_debug_info=False)


def _op_names(module):
    names = []

    def cb(op):
        names.append(op.name)
        return ir.WalkResult.ADVANCE
    module.operation.walk(cb)
    return sorted(names)


def _round_trip(module):
    """Export, import again; returns the re-imported module."""
    return import_graph_def(exporters.export_graph_def(module))


_PH = 'attr { key: "dtype" value { type: DT_FLOAT } } attr { key: "shape" value { shape { } } }'


# --- strings in the MLIR text the importer writes --------------------------------------------------

@pytest.mark.parametrize("value, literal", [
    (b"\n", '"\\0A"'), ("\n", '"\\0A"'), (b"a\nb\n", '"a\\0Ab\\0A"'), (b'q"\\', '"q\\22\\5C"'),
    ("tab\there", '"tab\\09here"'), (b"\x00\xff", '"\\00\\FF"'), ("plain text", '"plain text"'),
])
def test_mlir_string_escapes_every_non_printable_byte(value, literal):
    assert T.mlir_string(value) == literal
    attr = ir.StringAttr(ir.Attribute.parse(T.mlir_string(value), ir.Context()))
    assert attr.value_bytes == (value.encode() if isinstance(value, str) else value)


def test_strings_with_newlines_quotes_and_backslashes_import_and_round_trip():
    # PrintV2's default `end` is "\n"; names and attribute keys may hold any byte too.
    text = ('node { name: "s" op: "Const" attr { key: "dtype" value { type: DT_STRING } } '
            'attr { key: "value" value { tensor { dtype: DT_STRING tensor_shape { } string_val: "x\\n" } } } } '
            'node { name: "p\\"q\\\\r" op: "PrintV2" input: "s" '
            'attr { key: "end" value { s: "\\n" } } attr { key: "output_stream" value { s: "stderr\\"\\\\" } } '
            'attr { key: "_note\\n" value { s: "\\001\\n" } } }')
    m = import_graph_def(_gd(text))
    again = _round_trip(m)
    assert _generic(again) == _generic(m)
    gd = exporters.export_graph_def_message(again)
    p = next(n for n in gd.node if n.op == "PrintV2")
    assert p.attr["end"].s == b"\n" and p.attr["output_stream"].s == b'stderr"\\'
    assert p.attr["_note\n"].s == b"\x01\n"


@pytest.mark.skipif(not (SAMPLES_DIR / "a_tf2_function_raw_generic.mlir").exists(),
                    reason="shared reference samples not present")
def test_reference_sample_exports_and_imports_again():
    ctx = ir.Context()
    m = ir.Module.parse((SAMPLES_DIR / "a_tf2_function_raw_generic.mlir").read_text(), ctx)
    again = _round_trip(m)
    # Library functions are renamed on import (TensorFlow's unique names), so compare the ops.
    assert _op_names(_round_trip(again)) == _op_names(again)
    assert _op_names(again).count("tf.PrintV2") == _op_names(m).count("tf.PrintV2") > 0


_TF_PRINT_CHILD = r'''
import tfmlir
from tfmlir import exporters, importers
from tfmlir.testing.tf_oracle import canonical
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec([2], tf.float32)])
def f(x):
    tf.print("x is", x, sep=' "q" \\ ')
    return x * 2.0

concrete = f.get_concrete_function()
ours = importers.import_function(concrete)
theirs = tf.mlir.experimental.convert_function(concrete, pass_pipeline="")
generic = ours.operation.get_asm(print_generic_op_form=True, enable_debug_info=False)
assert generic == canonical(theirs), "import differs from TensorFlow's"
data = exporters.export_graph_def(ours)
again = importers.import_graph_def(data)
gd = tf.compat.v1.GraphDef()
gd.ParseFromString(data)
nodes = list(gd.node) + [n for fn in gd.library.function for n in fn.node_def]
ends = [n.attr["end"].s for n in nodes if n.op == "PrintV2"]
assert ends == [b"\n"], ends
with tf.Graph().as_default():
    tf.compat.v1.import_graph_def(gd, name="")
print("ROUND TRIP OK")
'''


@pytest.mark.tf
def test_tf_print_function_imports_exports_and_imports_again():
    require_tensorflow()
    proc = run_python([], code=_TF_PRINT_CHILD)
    assert proc.returncode == 0, describe_failure(proc)
    assert proc.stdout.strip().endswith("ROUND TRIP OK"), describe_failure(proc)
