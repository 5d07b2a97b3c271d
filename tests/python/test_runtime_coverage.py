"""Which TF ops tfmlir.runtime legalizes, and the graph route for those the MLIR route leaves.

- The recorded coverage (``runtime/data/legalization_coverage.json``) lists
  exactly the registry's XLA_CPU_JIT ops, is internally consistent, and is
  what ``scripts/gen_legalization_coverage.py`` measures today.
- An op the MLIR route leaves (tf.Reverse, tf.MaxPoolV2) compiles through the
  graph route and runs with the numbers of TF's ``jit_compile``; on ops both
  routes take, the two agree bit for bit.
- An op neither route takes is an error naming it, its location and both
  reasons; a program with host computation or resource arguments never takes
  the graph route.
"""
import json
import re

import numpy as np
import pytest

from conftest import REPO_ROOT, describe_failure, require_tensorflow, run_python, text_diff

jax = pytest.importorskip("jax")

from tfmlir import tf_child  # noqa: E402
from tfmlir.runtime import device, graph_route, legalize, mlir_route  # noqa: E402
from tfmlir.runtime.errors import LegalizationError  # noqa: E402

pytestmark = pytest.mark.tf

COVERAGE = REPO_ROOT / "python" / "tfmlir" / "runtime" / "data" / "legalization_coverage.json"
REGISTRY = REPO_ROOT / "third_party" / "tensorflow" / "op_registry.json"
GENERATOR = REPO_ROOT / "scripts" / "gen_legalization_coverage.py"

SPECIAL = """
module attributes {tf.versions = {producer = 888 : i32}} {
  func.func @main(%arg0: tensor<2x3xf32>, %arg1: tensor<1x4x4x1xf32>) -> (tensor<2x3xf32>, tensor<1x3x3x1xf32>) {
    %d = "tf.Const"() {value = dense<[true, false]> : tensor<2xi1>} : () -> tensor<2xi1>
    %0 = "tf.Reverse"(%arg0, %d) : (tensor<2x3xf32>, tensor<2xi1>) -> tensor<2x3xf32> loc("reverse")
    %k = "tf.Const"() {value = dense<[1, 2, 2, 1]> : tensor<4xi32>} : () -> tensor<4xi32>
    %s = "tf.Const"() {value = dense<1> : tensor<4xi32>} : () -> tensor<4xi32>
    %1 = "tf.MaxPoolV2"(%arg1, %k, %s) {padding = "VALID", data_format = "NHWC"} : (tensor<1x4x4x1xf32>, tensor<4xi32>, tensor<4xi32>) -> tensor<1x3x3x1xf32> loc("pool")
    %2 = "tf.Mul"(%0, %arg0) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    func.return %2, %1 : tensor<2x3xf32>, tensor<1x3x3x1xf32>
  }
}
"""

# The same computation in TensorFlow, compiled by XLA there.
_TF_REFERENCE = r"""
import sys
import numpy as np
import tensorflow as tf
a, b = np.load(sys.argv[1]), np.load(sys.argv[2])
def f(a, b):
    r = tf.raw_ops.Reverse(tensor=a, dims=tf.constant([True, False]))
    p = tf.raw_ops.MaxPoolV2(input=b, ksize=tf.constant([1, 2, 2, 1]), strides=tf.constant([1, 1, 1, 1]),
                             padding="VALID")
    return r * a, p
out = tf.function(f, jit_compile=True)(a, b)
np.save(sys.argv[3], out[0].numpy())
np.save(sys.argv[3].replace(".npy", "_1.npy"), out[1].numpy())
"""

COMMON = """
module attributes {tf.versions = {producer = 888 : i32}} {
  func.func @main(%arg0: tensor<4x8xf32>, %arg1: tensor<8x3xf32>) -> (tensor<4x3xf32>, tensor<4x8xf32>) {
    %0 = "tf.MatMul"(%arg0, %arg1) {transpose_a = false, transpose_b = false} : (tensor<4x8xf32>, tensor<8x3xf32>) -> tensor<4x3xf32>
    %1 = "tf.Softmax"(%0) : (tensor<4x3xf32>) -> tensor<4x3xf32>
    %2 = "tf.Tanh"(%arg0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %3 = "tf.Erf"(%2) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %4 = "tf.Log1p"(%3) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    func.return %1, %4 : tensor<4x3xf32>, tensor<4x8xf32>
  }
}
"""

STRING_TO_NUMBER = """
module attributes {tf.versions = {producer = 888 : i32}} {
  func.func @main(%arg0: tensor<2xf32>) -> tensor<2xf32> {
    %0 = "tf.AsString"(%arg0) : (tensor<2xf32>) -> tensor<2x!tf_type.string> loc("format_it")
    %1 = "tf.StringToNumber"(%0) : (tensor<2x!tf_type.string>) -> tensor<2xf32> loc("parse_it")
    %2 = "tf.AddV2"(%1, %arg0) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    func.return %2 : tensor<2xf32>
  }
}
"""

# Host computation plus an op only the graph route could lower.
HOST_COMPUTE_AND_REVERSE = """
module attributes {tf.versions = {producer = 888 : i32}} {
  func.func @main(%arg0: tensor<3xf32>) -> tensor<3xf32> {
    %d = "tf.Const"() {value = dense<[true]> : tensor<1xi1>} : () -> tensor<1xi1>
    %0 = "tf.Reverse"(%arg0, %d) : (tensor<3xf32>, tensor<1xi1>) -> tensor<3xf32> loc("reverse")
    %1:2 = "tf._XlaHostComputeMlir"(%0, %arg0) {recv_key = "host_compute_channel_0_retvals", send_key = "host_compute_channel_0_args", host_mlir_module = "", manual_sharding = false} : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<i32>) loc("outside")
    %2 = "tf.Add"(%1#0, %0) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    func.return %2 : tensor<3xf32>
  }
}
"""

RESOURCE_AND_REVERSE = """
module attributes {tf.versions = {producer = 888 : i32}} {
  func.func @main(%arg0: tensor<!tf_type.resource<tensor<3xf32>>>) -> tensor<3xf32> {
    %0 = "tf.ReadVariableOp"(%arg0) : (tensor<!tf_type.resource<tensor<3xf32>>>) -> tensor<3xf32>
    %d = "tf.Const"() {value = dense<[true]> : tensor<1xi1>} : () -> tensor<1xi1>
    %1 = "tf.Reverse"(%0, %d) : (tensor<3xf32>, tensor<1xi1>) -> tensor<3xf32> loc("reverse")
    func.return %1 : tensor<3xf32>
  }
}
"""


@pytest.fixture(scope="module")
def coverage():
    with open(COVERAGE) as f:
        return json.load(f)


@pytest.fixture(scope="module")
def _tensorflow():
    require_tensorflow()
    yield
    tf_child.shutdown()


def test_coverage_lists_the_registry_ops_and_is_consistent(coverage):
    with open(REGISTRY) as f:
        registry = json.load(f)
    ops = coverage["ops"]
    assert sorted(ops) == registry["xla_cpu_jit_ops"] and len(ops) == 489
    assert coverage["tensorflow_version"] == registry["tensorflow_version"]
    statuses = ("mlir", "graph", "none", "not_probed")
    counts = coverage["counts"]
    assert counts["total"] == len(ops) == sum(counts[s] for s in statuses)
    for status in statuses:
        assert counts[status] == sum(r["status"] == status for r in ops.values()), status
    for flag in ("xla_compiles",):
        assert counts[flag] == sum(bool(r.get(flag)) for r in ops.values()), flag
    for name, record in ops.items():
        status = record["status"]
        assert status in statuses, name
        assert ("reason" in record) == (status in ("none", "not_probed")), name
        if status == "not_probed":
            assert set(record) == {"status", "reason"}, name
            continue
        # The MLIR route either left ops or failed, unless it is the route that worked.
        assert (status == "mlir") == ("mlir_left" not in record and "mlir_error" not in record), name
        assert ("xla_compiles" in record) == (status in ("mlir", "graph")), name
        assert ("xla_error" in record) == (record.get("xla_compiles") is False), name
    # Stored sorted and stable, as the generator writes it.
    assert COVERAGE.read_text() == json.dumps(coverage, indent=1, sort_keys=True) + "\n"
    # Known anchors: the graph route closes the gap for these.
    assert ops["Reverse"]["status"] == ops["MaxPoolV2"]["status"] == "graph"
    assert ops["Erfinv"]["status"] == ops["Igamma"]["status"] == "mlir"  # the tf2xla fallback
    assert ops["MatMul"]["status"] == "mlir"


def test_graph_route_runs_an_op_the_mlir_route_leaves(_tensorflow, tmp_path):
    _, left = mlir_route.to_stablehlo(SPECIAL)
    assert sorted(name for name, _ in left) == ["tf.MaxPoolV2", "tf.Reverse"]
    stablehlo = legalize.legalize(SPECIAL)  # takes the graph route
    executable = device.Executable(stablehlo, 1)
    a = np.linspace(0.05, 0.9, 6, dtype=np.float32).reshape(2, 3)
    b = np.random.default_rng(0).standard_normal((1, 4, 4, 1)).astype(np.float32)
    out = executable.run([[a, b]])[0]
    executable.release()
    np.save(tmp_path / "a.npy", a)
    np.save(tmp_path / "b.npy", b)
    proc = run_python([tmp_path / "a.npy", tmp_path / "b.npy", tmp_path / "ref.npy"], code=_TF_REFERENCE)
    assert proc.returncode == 0, describe_failure(proc)
    np.testing.assert_array_equal(out[0], np.load(tmp_path / "ref.npy"))
    np.testing.assert_array_equal(out[1], np.load(tmp_path / "ref_1.npy"))
    np.testing.assert_array_equal(out[0], a[::-1] * a)


def test_routes_agree_bit_for_bit_where_both_work(_tensorflow):
    mlir_text, left = mlir_route.to_stablehlo(COMMON)
    assert left == []
    graph_text = graph_route.to_stablehlo(COMMON)
    rng = np.random.default_rng(0)
    args = [rng.standard_normal((4, 8)).astype(np.float32), rng.standard_normal((8, 3)).astype(np.float32)]
    results = []
    for text in (mlir_text, graph_text):
        executable = device.Executable(text, 1)
        results.append(executable.run([args])[0])
        executable.release()
    for by_mlir, by_graph in zip(*results):
        np.testing.assert_array_equal(by_mlir, by_graph)


def test_an_op_neither_route_lowers_is_named_with_both_reasons(_tensorflow):
    with pytest.raises(LegalizationError) as info:
        legalize.legalize(STRING_TO_NUMBER)
    message = str(info.value)
    assert re.search(r"cannot be lowered to XLA: .*'tf.StringToNumber' at loc\(\"parse_it\"\)", message)
    assert "MLIR route: TensorFlow's MLIR legalization" in message
    graph = message.split("Graph route: ")[1]
    assert graph.startswith("tf.function(jit_compile=True) cannot compile it") and "\n" not in graph
    assert "No registered" in graph
    assert ("tf.StringToNumber", 'loc("parse_it")') in info.value.ops


@pytest.mark.parametrize("program, why", [
    (HOST_COMPUTE_AND_REVERSE, r"host computation \('tf._XlaHostComputeMlir' at loc\(\"outside\"\)\)"),
    (RESOURCE_AND_REVERSE, r"argument 0 is a resource"),
])
def test_programs_the_graph_route_must_not_take(_tensorflow, legalization_jobs, program, why):
    kinds = legalization_jobs
    with pytest.raises(LegalizationError) as info:
        legalize.legalize(program)
    message = str(info.value)
    assert "'tf.Reverse' at loc(\"reverse\")" in message
    assert re.search(r"Graph route not taken: .*" + why, message), message
    assert "graph" not in kinds and "pipeline" in kinds


def test_result_types_the_graph_route_accepts():
    refines = graph_route._refines
    assert refines("tensor<2x3xf32>", "tensor<2x3xf32>")
    assert refines("tensor<2x3xf32>", "tensor<*xf32>") and refines("tensor<2x3xf32>", "tensor<?x3xf32>")
    assert refines("tensor<2xi8>", "tensor<2x!tf_type.qint8>")
    assert not refines("tensor<2x3xf32>", "tensor<3x2xf32>")
    assert not refines("tensor<2x2xcomplex<f32>>", "tensor<2x2xf32>")
    assert not refines("tensor<?xf32, #stablehlo.bounds<2>>", "tensor<?xf32>")


def _regenerate(tmp_path, ops=None):
    out = tmp_path / "coverage.json"
    args = [GENERATOR, "--quiet", "--output", out] + (["--ops", ",".join(ops)] if ops else [])
    proc = run_python(args, timeout=1200)
    assert proc.returncode == 0, describe_failure(proc)
    return out.read_text()


@pytest.mark.slow
def test_a_regenerated_sample_matches_the_record(_tensorflow, coverage, tmp_path):
    ops = ["Reverse", "Erfinv", "MatMul", "StackPushV2", "Unique", "ResourceApplyAdaMax",
           "ControlTrigger", "XlaSend"]
    fresh = json.loads(_regenerate(tmp_path, ops))["ops"]
    assert fresh == {op: coverage["ops"][op] for op in ops}


@pytest.mark.slow
def test_regenerated_coverage_is_identical(_tensorflow, tmp_path):
    """The full measurement, all 489 ops (about 1.5 minutes on two cores)."""
    expected = COVERAGE.read_text()
    fresh = _regenerate(tmp_path)
    assert fresh == expected, "regenerate with scripts/gen_legalization_coverage.py:\n" + text_diff(
        expected, fresh, "recorded", "measured now")
