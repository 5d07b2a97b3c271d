"""The generated TensorFlow op set: TF's ODS facts, the registry, real models.

- Every op TensorFlow 2.21 defines in ODS is registered in tfmlir with the same
  stored (property) and derived attribute names, so TF's printed IR parses and
  prints back identically.
- Every op of TF's registry is registered.
- The snapshot under third_party/tensorflow matches the installed TensorFlow.
- Real models traced with TF parse with no unregistered tf.* op left, verify
  and print back byte-identical.
"""
import json
import os
import subprocess
import sys

import pytest

import tfmlir
from mlir import ir
from tfmlir import _tfmlir

from conftest import REPO_ROOT, have_tensorflow

THIRD_PARTY = REPO_ROOT / "third_party" / "tensorflow"


@pytest.fixture(scope="module")
def ods_facts():
    with open(THIRD_PARTY / "tf_ods_ops.json") as f:
        return json.load(f)["ops"]


@pytest.fixture(scope="module")
def registry():
    with open(THIRD_PARTY / "op_registry.json") as f:
        return json.load(f)


@pytest.fixture(scope="module")
def ctx():
    return ir.Context()


def test_snapshot_is_complete(ods_facts, registry):
    assert len(ods_facts) == 826
    assert len(registry["ops"]) == 1910
    assert len(registry["xla_cpu_jit_ops"]) == 489


def _tf_stored_names(facts):
    # MLIR 22's ODS does not list `resultSegmentSizes` among an op's attribute
    # names (TF's MLIR does); the property itself is stored and printed, which
    # test_result_segment_sizes_are_stored_and_printed and
    # test_ops_with_result_segments_declare_them check.
    return sorted(set(facts["stored"]) - {"resultSegmentSizes"})


def test_ops_with_result_segments_declare_them(ods_facts):
    import re

    text = "".join(p.read_text() for p in (REPO_ROOT / "td").rglob("*.td"))
    for name, facts in ods_facts.items():
        if "resultSegmentSizes" in facts["stored"]:
            m = re.search(r'TF_Op<"%s", \[([^\]]*)\]>' % re.escape(name[3:]), text)
            assert m and "AttrSizedResultSegments" in m.group(1), name


def test_every_tf_ods_op_has_tfs_stored_and_derived_attributes(ctx, ods_facts):
    mismatches = []
    for name, facts in ods_facts.items():
        info = _tfmlir.registered_op_attributes(ctx, name)
        if info is None:
            mismatches.append(f"{name}: not registered")
            continue
        stored, derived = sorted(set(info[0]) - {"resultSegmentSizes"}), sorted(info[1])
        if stored != _tf_stored_names(facts) or derived != sorted(facts["derived"]):
            mismatches.append(f"{name}: stored {stored} vs TF {sorted(facts['stored'])}; "
                              f"derived {derived} vs TF {sorted(facts['derived'])}")
    assert not mismatches, f"{len(mismatches)} of {len(ods_facts)} ops differ:\n" + "\n".join(mismatches[:40])


def test_result_segment_sizes_are_stored_and_printed(ctx):
    src = ('func.func @f(%arg0: tensor<2x!tf_type.string>, %arg1: tensor<!tf_type.string>, %arg2: tensor<f32>) {\n'
           '  %sparse_indices, %sparse_values, %sparse_shapes, %dense_values = "tf.ParseExample"'
           '(%arg0, %arg0, %arg1, %arg1, %arg2) <{dense_shapes = [#tf_type.shape<>], '
           'operandSegmentSizes = array<i32: 1, 1, 1, 1, 1>, resultSegmentSizes = array<i32: 1, 1, 1, 1>}> : '
           '(tensor<2x!tf_type.string>, tensor<2x!tf_type.string>, tensor<!tf_type.string>, '
           'tensor<!tf_type.string>, tensor<f32>) -> (tensor<?x2xi64>, tensor<?x!tf_type.string>, '
           'tensor<2xi64>, tensor<2xf32>)\n  return\n}')
    with ctx:
        module = ir.Module.parse(src)
        module.operation.verify()
        op_line = src.splitlines()[1].strip()
        assert op_line in [line.strip() for line in str(module).splitlines()]
        bad = src.replace("resultSegmentSizes = array<i32: 1, 1, 1, 1>", "resultSegmentSizes = array<i32: 2, 1, 0, 1>")
        with pytest.raises(ir.MLIRError):
            ir.Module.parse(bad)


_FUNCTIONAL_CASE = r'''
import sys
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec([8], tf.int32), tf.TensorSpec([4, 6], tf.float32)])
def f(ids, x):
    y, idx = tf.unique(ids)
    a, b, c = tf.split(x, 3, axis=1)
    mean, var = tf.nn.moments(x, axes=[0])
    q = tf.quantization.quantize(x, -1.0, 1.0, tf.qint8)
    top = tf.math.top_k(x, k=2)
    return y, idx, a + b + c, mean, var, q.output, top.values, top.indices

sys.stdout.write(tf.mlir.experimental.convert_function(f.get_concrete_function()))
'''


@pytest.mark.skipif(not have_tensorflow(), reason="tensorflow is not installed")
def test_functional_form_with_multi_result_ops_roundtrips():
    # In functional form TF names the results of multi-result ops after their
    # ODS results (%y, %idx = "tf.Unique"...): ours must print the same.
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3")
    text = subprocess.run([sys.executable, "-c", _FUNCTIONAL_CASE], check=True, env=env,
                          capture_output=True, text=True, timeout=300).stdout
    assert '"tf.Unique"' in text and '"tf.Split"' in text and '"tf.TopKV2"' in text
    with ir.Context() as c:
        module = ir.Module.parse(text)
        module.operation.verify()
        unregistered = []
        module.operation.walk(lambda op: (unregistered.append(op.name) if op.name.startswith("tf.")
                                          and not c.is_registered_operation(op.name) else None,
                                          ir.WalkResult.ADVANCE)[1])
        assert not unregistered
        assert str(module) == text


def test_every_registry_op_is_registered(ctx, registry):
    missing = [op["name"] for op in registry["ops"]
               if op["name"].isidentifier() and not ctx.is_registered_operation("tf." + op["name"])]
    assert not missing, f"{len(missing)} registry ops are not registered: {missing[:20]}"


def test_xla_cpu_ops_are_registered(ctx, registry):
    missing = [n for n in registry["xla_cpu_jit_ops"] if not ctx.is_registered_operation("tf." + n)]
    assert not missing


@pytest.mark.skipif(not have_tensorflow(), reason="tensorflow is not installed")
def test_snapshot_matches_installed_tensorflow(tmp_path):
    # Re-extract TF's ODS facts from the installed wheel's headers and compare.
    script = REPO_ROOT / "scripts" / "dump_tf_registry.py"
    code = ("import importlib.util, json, sys\n"
            f"spec = importlib.util.spec_from_file_location('dump', {str(script)!r})\n"
            "mod = importlib.util.module_from_spec(spec); spec.loader.exec_module(mod)\n"
            "json.dump(mod.dump_ods_facts(), open(sys.argv[1], 'w'))\n")
    out = tmp_path / "facts.json"
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3")
    subprocess.run([sys.executable, "-c", code, str(out)], check=True, env=env,
                   capture_output=True, timeout=300)
    live = json.load(open(out))
    with open(THIRD_PARTY / "tf_ods_ops.json") as f:
        snapshot = json.load(f)
    assert live["tensorflow_version"] == snapshot["tensorflow_version"]
    assert live["ops"] == snapshot["ops"]


def test_generated_attribute_verifier(ctx):
    # tf.StaticRegexReplace is not in TF's ODS (TF prints it as an unregistered
    # op, attributes in the discardable dictionary): its attributes are
    # checked against the OpDef.
    good = ('%0 = "tf.StaticRegexReplace"(%arg0) {pattern = "a", rewrite = "b"} '
            ': (tensor<!tf_type.string>) -> tensor<!tf_type.string>')
    src = "func.func @f(%arg0: tensor<!tf_type.string>) {\n  " + good + "\n  return\n}"
    with ctx:
        ir.Module.parse(src).operation.verify()
        bad = src.replace('rewrite = "b"', "rewrite = 3 : i64")
        with pytest.raises(ir.MLIRError, match="attribute 'rewrite' must be a TF 'string' attribute"):
            ir.Module.parse(bad)


def test_attributes_outside_tfs_ods_are_not_checked(ctx):
    # tf.StringFormat's `template` is an OpDef attribute TF's ODS neither
    # stores nor derives: TF's verifier accepts it in any form, or missing.
    base = ('%0 = "tf.StringFormat"(%arg0) <{placeholder = "{}", strtemplate = "%s", summarize = 3 : i64}> '
            '{template} : (tensor<!tf_type.string>) -> tensor<!tf_type.string>')
    for template in ('{template = "x: {}"}', "{template = 3 : i64}", ""):
        src = ("func.func @f(%arg0: tensor<!tf_type.string>) {\n  "
               + base.replace("{template}", template) + "\n  return\n}")
        with ctx:
            ir.Module.parse(src).operation.verify()


def test_operand_type_constraint_from_allowed_types(ctx):
    src = ('func.func @f(%arg0: tensor<2x!tf_type.string>) -> tensor<2x!tf_type.string> {\n'
           '  %0 = "tf.Relu"(%arg0) : (tensor<2x!tf_type.string>) -> tensor<2x!tf_type.string>\n'
           '  return %0 : tensor<2x!tf_type.string>\n}')
    with ctx:
        with pytest.raises(ir.MLIRError, match="'tf.Relu' op operand #0 must be tensor of"):
            ir.Module.parse(src)


MODELS = ("resnet50", "mobilenetv2", "efficientnetb0", "inceptionv3", "transformer_encoder",
          "lstm", "tf1_v1_control_flow")


@pytest.mark.skipif(not have_tensorflow(), reason="tensorflow is not installed")
@pytest.mark.parametrize("model", MODELS)
def test_real_model_roundtrip_with_every_op_registered(model):
    from tfmlir.testing import corpus

    text = corpus.get(model)
    with ir.Context() as c:
        module = ir.Module.parse(text)
        module.operation.verify()
        unregistered = set()

        def visit(op):
            name = op.name
            if name.startswith("tf.") and not c.is_registered_operation(name):
                unregistered.add(name)
            return ir.WalkResult.ADVANCE

        module.operation.walk(visit)
        assert not unregistered, f"{model}: unregistered {sorted(unregistered)}"
        assert str(module) == text
