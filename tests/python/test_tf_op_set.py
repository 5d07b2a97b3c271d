"""The generated TensorFlow op set: TF's ODS facts, the registry, real models.

- Every op TensorFlow 2.21 defines in ODS is registered in tfmlir with the same
  stored (property) and derived attribute names, so TF's printed IR parses and
  prints back identically.
- The other ops of TF's registry are unknown ops of the tf dialect, as in TF:
  any operands, results and attributes verify; they keep Python op classes
  (typed builders) and TF's registry fallback for effects.
- The snapshot under third_party/tensorflow matches the installed TensorFlow.
- Real models traced with TF parse with every op TF registers registered,
  verify and print back byte-identical.
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
        assert not [n for n in unregistered if n in _tf_ods_names()]
        assert str(module) == text


def _tf_ods_names():
    with open(THIRD_PARTY / "tf_ods_ops.json") as f:
        return set(json.load(f)["ops"])


def _hand_written():
    import re
    text = (REPO_ROOT / "td" / "TfOps.td").read_text()
    return {"tf." + n for n in re.findall(r'TF_(?:Op|CallOp)<"([^"]+)"', text)}


def test_registered_tf_ops_are_exactly_tfs_ods_ops(ctx, registry, ods_facts):
    # TF's dialect defines 826 ops in ODS; those (and tfmlir's hand-written
    # ones) are op classes here, every other registry op is an unknown op.
    missing = [n for n in ods_facts if not ctx.is_registered_operation(n)]
    assert not missing, f"{len(missing)} ops of TF's ODS are not registered: {missing[:20]}"
    extra = [op["name"] for op in registry["ops"]
             if op["name"].isidentifier() and "tf." + op["name"] not in ods_facts
             and "tf." + op["name"] not in _hand_written()
             and ctx.is_registered_operation("tf." + op["name"])]
    assert not extra, f"{len(extra)} registry ops outside TF's ODS are registered: {extra[:20]}"


def test_unknown_registry_ops_keep_python_op_classes(ctx, registry, ods_facts):
    # Parsed unknown ops come back as their generated OpView classes.
    names = [op["name"] for op in registry["ops"]
             if op["name"].isidentifier() and "tf." + op["name"] not in ods_facts]
    assert len(names) > 1000
    src = "func.func @f() {\n" + "".join(f'  "tf.{n}"() : () -> ()\n' for n in names) + "  return\n}"
    with ctx:
        module = ir.Module.parse(src)
        ops = list(module.body.operations[0].regions[0].blocks[0].operations)[:-1]
        missing = [n for n, op in zip(names, ops)
                   if getattr(type(op), "OPERATION_NAME", None) != "tf." + n]
    assert not missing, missing[:20]


def test_xla_cpu_ops_are_registered_where_tf_defines_them(ctx, registry, ods_facts):
    # The ops with XLA CPU kernels that TF's dialect defines are registered;
    # the rest are unknown ops in TF's dialect too.
    known = [n for n in registry["xla_cpu_jit_ops"] if "tf." + n in ods_facts]
    assert len(known) > 300
    assert not [n for n in known if not ctx.is_registered_operation("tf." + n)]


def test_unknown_tf_ops_verify_with_anything_as_in_tf(ctx):
    # TF's test ops A and B (and every registry op TF's ODS does not define)
    # take any operands, results and attributes.
    src = """
func.func @f(%arg0: tensor<?xi32>, %arg1: tensor<*x!tf_type.string>) -> tensor<?xi32> {
  %0 = "tf.A"(%arg0) : (tensor<?xi32>) -> tensor<?xi32>
  %1:2 = "tf.B"(%arg0, %arg1, %0) {T = f32, anything = [1, "x"]} : (tensor<?xi32>, tensor<*x!tf_type.string>, tensor<?xi32>) -> (tensor<f32>, i64)
  %2 = "tf.StaticRegexReplace"(%arg1) {pattern = 3 : i64} : (tensor<*x!tf_type.string>) -> tensor<*x!tf_type.string>
  "tf.NotInAnyRegistry"() : () -> ()
  return %0 : tensor<?xi32>
}"""
    with ctx:
        module = ir.Module.parse(src)
        module.operation.verify()
        assert str(module).count('"tf.A"') == 1


def test_unknown_ops_get_tfs_registry_effects(ctx):
    # TF's fallback: an unknown op of the registry that is not stateful has no
    # memory effects (CSE merges two of them); a stateful one (or one outside
    # the registry) has unknown effects (kept apart).
    from mlir import passmanager
    src = """
func.func @f(%arg0: tensor<?xi32>) -> (tensor<?xi32>, tensor<?xi32>, tensor<?xi32>, tensor<?xi32>, tensor<?xi32>, tensor<?xi32>) {
  %0 = "tf.A"(%arg0) : (tensor<?xi32>) -> tensor<?xi32>
  %1 = "tf.A"(%arg0) : (tensor<?xi32>) -> tensor<?xi32>
  %2 = "tf.AllCandidateSampler"(%arg0, %arg0, %arg0) : (tensor<?xi32>, tensor<?xi32>, tensor<?xi32>) -> tensor<?xi32>
  %3 = "tf.AllCandidateSampler"(%arg0, %arg0, %arg0) : (tensor<?xi32>, tensor<?xi32>, tensor<?xi32>) -> tensor<?xi32>
  %4 = "tf.NotInAnyRegistry"(%arg0) : (tensor<?xi32>) -> tensor<?xi32>
  %5 = "tf.NotInAnyRegistry"(%arg0) : (tensor<?xi32>) -> tensor<?xi32>
  return %0, %1, %2, %3, %4, %5 : tensor<?xi32>, tensor<?xi32>, tensor<?xi32>, tensor<?xi32>, tensor<?xi32>, tensor<?xi32>
}"""
    with ctx:
        assert not ctx.is_registered_operation("tf.AllCandidateSampler")
        module = ir.Module.parse(src)
        passmanager.PassManager.parse("builtin.module(cse)").run(module.operation)
        text = str(module)
    assert text.count('"tf.A"') == 1
    assert text.count('"tf.AllCandidateSampler"') == 2
    assert text.count('"tf.NotInAnyRegistry"') == 2


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


def test_attributes_of_unknown_ops_are_not_checked(ctx):
    # tf.StaticRegexReplace is not in TF's ODS: TF prints it as an unknown op,
    # attributes in the discardable dictionary, and accepts them in any form.
    good = ('%0 = "tf.StaticRegexReplace"(%arg0) {pattern = "a", rewrite = "b"} '
            ': (tensor<!tf_type.string>) -> tensor<!tf_type.string>')
    src = "func.func @f(%arg0: tensor<!tf_type.string>) {\n  " + good + "\n  return\n}"
    with ctx:
        for text in (src, src.replace('rewrite = "b"', "rewrite = 3 : i64"),
                     src.replace(', rewrite = "b"', "")):
            module = ir.Module.parse(text)
            module.operation.verify()
            assert str(module).count('"tf.StaticRegexReplace"') == 1


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
def test_real_model_roundtrip_with_tfs_ops_registered(model):
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
        wrong = sorted(unregistered & _tf_ods_names())
        assert not wrong, f"{model}: ops of TF's ODS unregistered: {wrong}"
        assert str(module) == text
