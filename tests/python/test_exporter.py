"""tfmlir.exporters: GraphDef -> our import -> our export -> TensorFlow runs it.

Outputs of the exported graph must equal the original graph's on the same
random inputs (exact for integers/booleans, 1e-6 relative for floats). All
executions run in one TensorFlow child process.
"""
import json

import pytest

from conftest import TESTS_DIR, describe_failure, require_tensorflow, run_python, SAMPLES_DIR

import tfmlir  # noqa: F401
from mlir import ir

from tfmlir import exporters
from tfmlir.tfcore import protobuf as pb
from tfmlir.importers.api import import_graph_def, import_function_def

CORPUS = ["resnet50", "transformer_encoder", "lstm", "tf1_v1_control_flow"]


@pytest.fixture(scope="module")
def execution_results(tmp_path_factory):
    require_tensorflow()
    from tfmlir.testing import corpus
    tmp = tmp_path_factory.mktemp("export_runs")
    jobs = []
    for model in CORPUS:
        frozen = corpus.get_protos(model)["frozen"]
        # Graph mode: every node keeps its name.
        m = import_graph_def(frozen["path"])
        out = tmp / f"{model}.pb"
        out.write_bytes(exporters.export_graph_def(m))
        jobs.append({"name": model, "original": frozen["path"], "exported": str(out),
                     "inputs": frozen["inputs"], "outputs": frozen["outputs"], "init": frozen["init"]})
        # Feeds and fetches: the main function gets arguments and results.
        if not frozen["init"]:
            names = [i[0].split(":")[0] for i in frozen["inputs"]]
            shapes = [",".join(str(d) for d in i[1]) for i in frozen["inputs"]]
            m = import_graph_def(frozen["path"], input_names=names, input_data_shapes=shapes,
                                 output_names=[o.split(":")[0] for o in frozen["outputs"]])
            out = tmp / f"{model}_feeds.pb"
            out.write_bytes(exporters.export_graph_def(m))
            jobs.append({"name": model + "_feeds", "original": frozen["path"], "exported": str(out),
                         "inputs": frozen["inputs"], "outputs": frozen["outputs"]})
    # Library functions: If/StatelessIf/Case/While, calls, LegacyCall, gradients, _input_shapes.
    cases = tmp_path_factory.getbasetemp() / "export_lib_case"
    proc = run_python([TESTS_DIR / "importer_cases.py", cases])
    if proc.returncode != 0:
        pytest.fail("generating importer cases failed:\n" + describe_failure(proc))
    lib = cases / "library_functions" / "graph_def.pb"
    m = import_graph_def(lib.read_bytes())
    out = tmp / "library_functions.pb"
    out.write_bytes(exporters.export_graph_def(m))
    jobs.append({"name": "library_functions", "original": str(lib), "exported": str(out),
                 "inputs": [["x:0", [2], "float32"], ["pred:0", [], "bool"], ["idx:0", [], "int32", [0, 1]]],
                 "outputs": ["if:0", "sif:0", "case:0", "call:0", "legacy:0", "shaped:0", "while:1"]})
    jobs_path = tmp / "jobs.json"
    results_path = tmp / "results.json"
    jobs_path.write_text(json.dumps(jobs))
    proc = run_python([TESTS_DIR / "exporter_run.py", jobs_path, results_path], timeout=600)
    if proc.returncode != 0:
        pytest.fail("running exported graphs failed:\n" + describe_failure(proc))
    return json.loads(results_path.read_text())


@pytest.mark.parametrize("name", CORPUS + [m + "_feeds" for m in CORPUS if m != "tf1_v1_control_flow"]
                         + ["library_functions"])
def test_exported_graph_runs_like_the_original(execution_results, name):
    r = execution_results[name]
    assert r["ok"], r["detail"]


# --- without TensorFlow ------------------------------------------------------------------------

def _sample_module():
    gd = pb.parse_text("GraphDef", (SAMPLES_DIR / "b_tf1_v1cf_graphdef.pbtxt").read_text())
    return import_graph_def(gd)


def _generic(m):
    return m.operation.get_asm(print_generic_op_form=True, enable_debug_info=False)


def test_v1_control_flow_round_trips_structurally():
    m = _sample_module()
    again = import_graph_def(exporters.export_graph_def(m))
    assert _generic(again) == _generic(m)


def test_text_export_parses_back():
    m = _sample_module()
    text = exporters.export_graph_def(m, as_text=True)
    assert 'op: "NextIteration"' in text and 'op: "Merge"' in text
    again = import_graph_def(pb.parse_text("GraphDef", text))
    assert _generic(again) == _generic(m)


def test_export_does_not_modify_the_module():
    m = _sample_module()
    before = _generic(m)
    exporters.export_graph_def(m)
    assert _generic(m) == before


def test_functional_form_is_exported_through_the_executor_passes():
    ctx = ir.Context()
    m = ir.Module.parse('''
      func.func @main(%arg0: tensor<2xf32>) -> tensor<2xf32>
          attributes {tf.entry_function = {control_outputs = "", inputs = "x", outputs = "y"}} {
        %0 = "tf.AddV2"(%arg0, %arg0) {device = ""} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
        %1 = "tf.Neg"(%0) {device = ""} : (tensor<2xf32>) -> tensor<2xf32>
        return %1 : tensor<2xf32>
      }''', ctx)
    gd = exporters.export_graph_def_message(m)
    ops = [n.op for n in gd.node]
    assert ops.count("Placeholder") == 1 and "AddV2" in ops and "Neg" in ops
    assert [n.name for n in gd.node if n.op == "Identity"] == ["y"]


@pytest.mark.parametrize("body, message", [
    ('"tf_device.launch"() ({ "tf_device.return"() : () -> () }) {device = "/cpu:0"} : () -> ()', "tf_device"),
    ('%0 = "arith.constant"() {value = 1 : i32} : () -> i32', "arith.constant"),
])
def test_unrepresentable_ops_are_errors(body, message):
    ctx = ir.Context()
    ctx.allow_unregistered_dialects = True
    m = ir.Module.parse(f'''
      func.func @main() {{
        tf_executor.graph {{
          %c = tf_executor.island {{
            {body}
            tf_executor.yield
          }}
          tf_executor.fetch
        }}
        return
      }}''', ctx)
    with pytest.raises(exporters.TFExportError, match=message):
        exporters.export_graph_def(m)


def test_saved_model_ops_are_errors():
    ctx = ir.Context()
    m = ir.Module.parse('''
      module attributes {tf_saved_model.semantics} {
        "tf_saved_model.global_tensor"() <{is_mutable, sym_name = "w", type = tensor<2xf32>,
                                           value = dense<1.0> : tensor<2xf32>}> : () -> ()
        func.func @main() attributes {tf_saved_model.exported_names = ["main"]} {
          tf_executor.graph { tf_executor.fetch } return
        }
      }''', ctx)
    with pytest.raises(exporters.TFExportError, match="tf_saved_model"):
        exporters.export_graph_def(m)
