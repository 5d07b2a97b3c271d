"""No element type and no Python hook exception kills the process.

* Every TensorFlow element type (TF's DataType table: floats, ints,
  unsigned, complex, bool, string, quantized, resource, variant,
  bf16/f8/f4/i4/i2 and the reference types) through every op tfmlir folds
  (C++ folders and patterns, the constant-folding hook's ops), under
  canonicalize and tf-shape-inference, from the CLI and from Python
  (``element_type_sweep.py``, in child processes).
* Each hook C++ calls back into Python (the constant evaluator, the device
  name merger, diagnostic handlers, Python passes and rewrite patterns) made
  to raise or to return garbage on purpose: a failed fold, an unchanged
  device, a reported diagnostic; never std::terminate.
"""
import json
import os
import re
import subprocess
import sys
import textwrap

import pytest

from conftest import REPO_ROOT

SWEEP = REPO_ROOT / "tests" / "python" / "element_type_sweep.py"
CRASH_MARKERS = ("terminate called", "Assertion", "PLEASE submit a bug report", "Traceback",
                 "Segmentation fault", "Fatal Python error")


def _sweep(mode, tmp_path):
    proc = subprocess.run([sys.executable, str(SWEEP), mode, str(tmp_path)], capture_output=True,
                          text=True, errors="replace", timeout=1800)
    last = ""
    if (tmp_path / "progress.txt").exists():
        lines = (tmp_path / "progress.txt").read_text().splitlines()
        last = lines[-1] if lines else ""
    assert proc.returncode == 0, f"the sweep died (exit {proc.returncode}) at {last!r}: {proc.stderr[-3000:]}"
    return json.loads((tmp_path / f"report-{mode}.json").read_text())


def _types_and_ops(labels):
    types = {label.split("/")[0] for label in labels}
    ops = {label.split("/")[1] for label in labels}
    return types, ops


def _check_coverage(labels):
    types, ops = _types_and_ops(labels)
    for name in ("DT_COMPLEX64", "DT_COMPLEX128", "DT_STRING", "DT_QINT8", "DT_RESOURCE", "DT_VARIANT",
                 "DT_BFLOAT16", "DT_FLOAT8_E4M3FN", "DT_INT4", "DT_UINT64", "DT_BOOL", "DT_FLOAT_REF"):
        assert name in types, name
    for name in ("AddV2", "Neg", "Cast", "Fill", "ConcatV2", "Sum", "Transpose", "Select", "Reshape"):
        assert name in ops, name
    assert len(types) >= 60 and len(ops) >= 45


@pytest.mark.slow
def test_every_element_type_through_folding_ops_from_python(tmp_path):
    report = _sweep("python", tmp_path)
    results = report["python"]
    _check_coverage([r["label"] for r in results])
    unexpected = [(r["label"], r["unexpected"]) for r in results if r["unexpected"]]
    assert not unexpected, unexpected[:10]
    by_label = {r["label"]: r for r in results}
    # Complex constants fold where TF's kernels are numpy's bit for bit, and
    # every numeric type is accepted for the elementwise ops TF allows it on.
    for label in ("DT_COMPLEX64/AddV2", "DT_COMPLEX128/Neg", "DT_COMPLEX64/Equal", "DT_COMPLEX128/Sub", "DT_INT32/AddV2",
                  "DT_FLOAT/Neg"):
        assert by_label[label]["accepted"] and by_label[label]["folded"], by_label[label]
    for label in ("DT_COMPLEX64/Mul", "DT_COMPLEX128/RealDiv", "DT_QINT8/Snapshot"):
        assert by_label[label]["accepted"] and not by_label[label]["folded"], by_label[label]
    accepted_types, _ = _types_and_ops([r["label"] for r in results if r["accepted"]])
    assert len(accepted_types) >= 55


@pytest.mark.slow
def test_every_element_type_through_folding_ops_from_the_cli(tmp_path):
    report = _sweep("cli", tmp_path)
    _check_coverage(report["cases"])
    for run in report["cli"]:
        stderr = run["stderr"]
        assert run["returncode"] in (0, 1), (run["pipeline"], run["returncode"], stderr[-2000:])
        for marker in CRASH_MARKERS:
            assert marker not in stderr, (run["pipeline"], marker)
        # Every chunk printed its module or reported errors, each a diagnostic.
        printed = run["stdout"].count("func.func @")
        errors = set(re.findall(r"sweep\.mlir:(\d+):\d+: error:", stderr))
        assert printed + len(errors) >= len(report["cases"]) * 0.99, (printed, len(errors))
        # (Many (type, op) pairs are invalid for TF's type constraints: clean errors.)
        assert printed > len(report["cases"]) * 0.4


def _child(code):
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                          errors="replace", timeout=300, cwd=str(REPO_ROOT))


FOLDABLE = '''
func.func @f() -> tensor<2xi32> {
  %0 = "tf.Const"() <{value = dense<[1, 2]> : tensor<2xi32>}> : () -> tensor<2xi32>
  %1 = "tf.Const"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
  %2 = "tf.Sum"(%0, %1) <{keep_dims = true}> : (tensor<2xi32>, tensor<i32>) -> tensor<1xi32>
  %3 = "tf.Const"() <{value = dense<[3, 4]> : tensor<2xi32>}> : () -> tensor<2xi32>
  %4 = "tf.FloorDiv"(%3, %0) : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  return %4 : tensor<2xi32>
}
'''


@pytest.mark.parametrize("behaviour", [
    "raise ValueError('evaluator failed on purpose')",
    "raise KeyboardInterrupt",
    "return 42",
    "return ['not an attribute']",
    "return []",
    "return [ir.StringAttr.get('x')]",
    "return [ir.DenseElementsAttr.get_splat(ir.RankedTensorType.get([7], ir.F32Type.get()), "
    "ir.FloatAttr.get_f32(1.0))]",
])
def test_constant_evaluator_misbehaving_is_a_failed_fold(behaviour):
    proc = _child(f'''
        import tfmlir
        from mlir import ir
        from tfmlir import _tfmlir, passes
        calls = []
        def evaluator(name, attrs, operands, types):
            calls.append(name)
            {behaviour}
        _tfmlir.set_constant_evaluator(evaluator)
        with ir.Context(), ir.Location.unknown():
            m = ir.Module.parse({FOLDABLE!r})
            passes.run(m, "builtin.module(func.func(canonicalize))")
            text = str(m)
        assert calls, "the hook was not called"
        assert '"tf.FloorDiv"' in text, text
        print("alive")
    ''')
    assert proc.returncode == 0 and "alive" in proc.stdout, proc.stderr[-2000:]


CALL_ON_DEVICE = '''
func.func @main(%arg0: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "tf.PartitionedCall"(%arg0) <{config = "", config_proto = "", executor_type = "", f = @callee}> {device = "/job:worker/replica:0/task:1/device:CPU:0"} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
func.func private @callee(%arg0: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "tf.Neg"(%arg0) {device = "/device:CPU:1"} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
'''


@pytest.mark.parametrize("behaviour", [
    "raise RuntimeError('merger failed on purpose')",
    "raise KeyboardInterrupt",
    "return 17",
    "return b'bytes'",
])
def test_device_name_merger_misbehaving_leaves_devices(behaviour):
    proc = _child(f'''
        import tfmlir
        from mlir import ir
        from tfmlir import _tfmlir, passes
        calls = []
        def merger(caller, node):
            calls.append((caller, node))
            {behaviour}
        _tfmlir.set_device_name_merger(merger)
        with ir.Context(), ir.Location.unknown():
            m = ir.Module.parse({CALL_ON_DEVICE!r})
            passes.run(m, "builtin.module(inline)")
            text = str(m)
        assert calls, "the hook was not called"
        assert '"tf.Neg"(%arg0) {{device = "/device:CPU:1"}}' in text, text
        print("alive")
    ''')
    assert proc.returncode == 0 and "alive" in proc.stdout, proc.stderr[-2000:]


def test_diagnostic_handler_raising_is_reported_not_fatal():
    proc = _child('''
        import tfmlir
        from mlir import ir
        from tfmlir import _tfmlir
        seen = []
        def handler(diag):
            seen.append(diag[2])
            raise ValueError("handler failed on purpose")
        with ir.Context() as ctx, ir.Location.unknown():
            _tfmlir.attach_diagnostic_handler(ctx, handler)
            try:
                ir.Module.parse('"tf.Const"() : () -> tensor<i32>')
            except ir.MLIRError:
                pass
            _tfmlir.emit_diagnostic(ir.Location.unknown(), "warning", "on purpose")
        assert seen, seen
        print("alive")
    ''')
    assert proc.returncode == 0 and "alive" in proc.stdout, proc.stderr[-2000:]
    assert "handler failed on purpose" in proc.stderr  # reported as unraisable, not swallowed


@pytest.mark.parametrize("raising", ["ValueError('pass failed on purpose')", "KeyboardInterrupt",
                                     "SystemExit(3)", "RecursionError('deep')"])
def test_python_pass_raising_becomes_a_diagnostic(raising):
    proc = _child(f'''
        import tfmlir
        from mlir import ir, rewrite
        from tfmlir import passes
        from tfmlir.passes import Pass, register_pass

        @register_pass
        class RaiseInPass(Pass):
            argument = "test-raise-in-pass"
            anchor = "builtin.module"
            def run_on_operation(self, module):
                raise {raising}

        @register_pass
        class RaiseInPattern(Pass):
            argument = "test-raise-in-pattern"
            anchor = "builtin.module"
            def run_on_operation(self, module):
                def pattern(op, rewriter):
                    raise {raising}
                patterns = rewrite.RewritePatternSet()
                patterns.add("tf.Neg", pattern)
                rewrite.apply_patterns_and_fold_greedily(module, patterns.freeze())

        src = 'func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {{\\n  %0 = "tf.Neg"(%a) : (tensor<2xf32>) -> tensor<2xf32>\\n  return %0 : tensor<2xf32>\\n}}'
        for name in ("test-raise-in-pass", "test-raise-in-pattern"):
            with ir.Context():
                m = ir.Module.parse(src)
                try:
                    passes.run(m, f"builtin.module({{name}})")
                except ir.MLIRError as e:
                    print(name, "error", str(e).splitlines()[-1])
                except BaseException as e:
                    print(name, "raised", type(e).__name__)
                assert str(m).count('"tf.Neg"') == 1
        print("alive")
    ''')
    assert proc.returncode == 0 and "alive" in proc.stdout, proc.stderr[-2000:]
    outcomes = [line.split()[:2] for line in proc.stdout.splitlines() if line.startswith("test-raise-in-")]
    assert [o[0] for o in outcomes] == ["test-raise-in-pass", "test-raise-in-pattern"], proc.stdout
    if raising.startswith(("ValueError", "RecursionError")):
        assert all(o[1] == "error" for o in outcomes), proc.stdout  # a diagnostic, IR unchanged


def test_complex_attributes_survive_a_failed_pass_and_the_folding_hook():
    # NamedAttribute.attr of the upstream bindings aborts on attributes they
    # cannot downcast (complex dense constants); the rollback of a failed
    # module pass and the constant evaluator read attributes without it.
    proc = _child('''
        import tfmlir
        from mlir import ir
        from tfmlir import _tfmlir, passes
        from tfmlir.passes import framework

        class FailOnModule(framework.Pass):
            """Adds an attribute, then fails."""
            argument = "test-fail-on-complex-module"
            anchor = framework.MODULE

            def run_on_operation(self, op):
                op.operation.attributes["tf.x"] = ir.UnitAttr.get()
                self.fail("failed on purpose")

        passes.register_pass(FailOnModule)
        src = 'module attributes {tf.c = dense<(1.0, 2.0)> : tensor<complex<f32>>} {}'
        with ir.Context():
            m = ir.Module.parse(src)
            try:
                passes.run(m, "builtin.module(test-fail-on-complex-module)")
            except ir.MLIRError:
                pass
            assert "tf.x" not in str(m) and "tensor<complex<f32>>" in str(m)
            items = dict(_tfmlir.attribute_items(m.operation))
            assert set(items) == {"tf.c"} and "complex" in str(items["tf.c"].type)
        folded = """
        func.func @f() -> tensor<2xcomplex<f32>> {
          %0 = "tf.Const"() <{value = dense<(1.0, 2.0)> : tensor<2xcomplex<f32>>}> : () -> tensor<2xcomplex<f32>>
          %1 = "tf.Neg"(%0) {_c = dense<(3.0, 4.0)> : tensor<complex<f32>>} : (tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>>
          return %1 : tensor<2xcomplex<f32>>
        }"""
        with ir.Context():
            m = ir.Module.parse(folded)
            passes.run(m, "builtin.module(func.func(canonicalize))")
            assert '"tf.Neg"' not in str(m), str(m)
        print("alive")
    ''')
    assert proc.returncode == 0 and "alive" in proc.stdout, proc.stderr[-2000:]
