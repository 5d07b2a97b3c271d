"""-tf-outside-compiled-to-host-launch: failures leave the module unchanged, and on TPU programs
with clusters formed every outside-compiled op of a cluster ends up alone in a launch on the
expected host, nothing else moves, and the output verifies (TF 2.21 has no such pass to compare
with)."""
import collections
import os

import pytest
from mlir import ir

import tfmlir  # noqa: F401  (registers the dialects)
import generated_inputs
import tpu_cluster_programs
from conftest import have_tensorflow

PASS = "tf-outside-compiled-to-host-launch"
OC = "_xla_outside_compilation"
_DEVICES = ('tf.devices = ["/job:w/replica:0/task:0/device:CPU:0", '
            '"/job:w/replica:0/task:0/device:TPU_SYSTEM:0", "/job:w/replica:0/task:0/device:TPU:0"]')


def _run(text, pipeline=PASS):
    from tfmlir.passes import framework

    module = ir.Module.parse(text, ir.Context())
    framework.run(module, f"builtin.module({pipeline})")
    module.operation.verify()
    return module


def _snapshot(module):
    return module.operation.get_asm(print_generic_op_form=True, enable_debug_info=True)


# -- failures leave the module unchanged ----------------------------------------------

# The first cluster is fine (its ops would be wrapped), the second has no host: the whole module
# stays as it was.
_FAILING = f'''
module attributes {{{_DEVICES}}} {{
  func.func @ok(%arg0: tensor<i32>) -> tensor<i32> {{
    %0 = "tf_device.cluster"() ({{
      %1 = "tf.Abs"(%arg0) {{_xla_outside_compilation = "a"}} : (tensor<i32>) -> tensor<i32>
      tf_device.return %1 : tensor<i32>
    }}) {{num_cores_per_replica = 1, topology = "", device_assignment = []}} : () -> tensor<i32>
    func.return %0 : tensor<i32>
  }}
  func.func @bad(%arg0: tensor<i32>) -> tensor<i32> {{
    %0 = "tf_device.cluster"() ({{
      %1 = "tf.Neg"(%arg0) {{_xla_outside_compilation = "b"}} : (tensor<i32>) -> tensor<i32>
      tf_device.return %1 : tensor<i32>
    }}) {{num_cores_per_replica = 2, topology = "", device_assignment = []}} : () -> tensor<i32>
    func.return %0 : tensor<i32>
  }}
  func.func @terminator(%arg0: tensor<i1>, %arg1: tensor<i32>) -> tensor<i32> {{
    %0 = "tf_device.cluster"() ({{
      %1 = "tf.IfRegion"(%arg0) ({{
        "tf.Yield"(%arg1) {{_xla_outside_compilation = "TERMINATOR"}} : (tensor<i32>) -> ()
      }}, {{
        "tf.Yield"(%arg1) : (tensor<i32>) -> ()
      }}) {{is_stateless = true}} : (tensor<i1>) -> tensor<i32>
      tf_device.return %1 : tensor<i32>
    }}) {{num_cores_per_replica = 1, topology = "", device_assignment = []}} : () -> tensor<i32>
    func.return %0 : tensor<i32>
  }}
}}
'''


@pytest.mark.parametrize("case, message", [
    ("model_parallel", "'num_cores_per_replica' must be equal to 1, got 2"),
    ("terminator", "cannot wrap the block terminator 'tf.Yield'"),
    ("no_host", "no CPU:0 device in the module's 'tf.devices'"),
])
def test_failure_leaves_module_unchanged(case, message):
    from tfmlir.passes import framework

    text = _FAILING
    if case != "terminator":
        text = text.replace('_xla_outside_compilation = "TERMINATOR"', "")
    else:
        text = text.replace("num_cores_per_replica = 2", "num_cores_per_replica = 1")
    if case == "no_host":
        text = text.replace(_DEVICES, 'tf.devices = ["/job:w/replica:0/task:0/device:GPU:0"]')
    module = ir.Module.parse(text, ir.Context())
    before = _snapshot(module)
    with pytest.raises(ir.MLIRError) as failure:
        framework.run(module, f"builtin.module({PASS})")
    assert message in failure.value.error_diagnostics[0].message
    module.operation.verify()
    assert _snapshot(module) == before


def test_running_twice_changes_nothing_more():
    text = _FAILING.replace('num_cores_per_replica = 2', 'num_cores_per_replica = 1').replace(
        '_xla_outside_compilation = "TERMINATOR"', "")
    once = _snapshot(_run(text))
    assert once.count('"tf_device.launch"') == 2
    assert _snapshot(_run(once)) == once


# -- structural properties on generated TPU programs -------------------------------------

def _is_oc(op):
    return OC in op.attributes and isinstance(op.attributes[OC], ir.StringAttr)


def _walk(op, visit):
    def callback(nested):
        visit(nested.operation)
        return ir.WalkResult.ADVANCE
    op.walk(callback, ir.WalkOrder.PRE_ORDER)


def _ident(op):
    return (op.name, str(op.location))


def _in_cluster(op):
    """(innermost cluster ancestor or None, whether a tf_device.replicate is around it)."""
    parent = op.parent
    while parent is not None:
        parent = parent.operation
        if parent.name == "tf_device.cluster":
            replicated = False
            up = parent.parent
            while up is not None:
                if up.operation.name == "tf_device.replicate":
                    replicated = True
                up = up.operation.parent
            return parent, replicated
        parent = parent.parent
    return None, False


def _facts(module):
    ops = collections.Counter()
    oc_in_clusters = collections.Counter()
    oc_outside = collections.Counter()
    launches = []
    _walk_all = []
    _walk(module.operation, _walk_all.append)
    for op in _walk_all:
        if op.name in ("tf_device.launch", "tf_device.return", "builtin.module"):
            if op.name == "tf_device.launch":
                launches.append(op)
            continue
        ops[_ident(op)] += 1
        if _is_oc(op):
            if _in_cluster(op)[0] is not None:
                oc_in_clusters[_ident(op)] += 1
            else:
                oc_outside[_ident(op)] += 1
    return ops, oc_in_clusters, oc_outside, launches


def _generated():
    if not have_tensorflow() and not os.environ.get("TFMLIR_CORPUS_DIR"):
        return []
    return tpu_cluster_programs.input_names()


@pytest.mark.parametrize("name", _generated())
@pytest.mark.parametrize("pipeline", [PASS, f"tf-tpu-cleanup-cluster-attributes,{PASS}"])
def test_generated_tpu_programs(name, pipeline):
    text = generated_inputs.read(tpu_cluster_programs.__file__, name)
    module_in = ir.Module.parse(text, ir.Context())
    ops_in, oc_in, outside_in, launches_in = _facts(module_in)
    out = _run(text, pipeline)
    ops_out, oc_out, outside_out, launches_out = _facts(out)
    # Every op is still there (the cleanup pass only drops attributes); outside-compiled ops of
    # clusters lost their marker, the others kept it.
    assert ops_out == ops_in
    assert not oc_out
    assert outside_out == outside_in
    assert len(launches_out) == len(launches_in) + sum(oc_in.values())
    wrapped = collections.Counter()
    for launch in launches_out:
        body = [op.operation for op in launch.regions[0].blocks[0].operations]
        if len(body) != 2 or body[0].name == "tf_device.launch":
            continue
        inner = body[0]
        if _ident(inner) not in oc_in:
            continue
        cluster, replicated = _in_cluster(launch)
        assert cluster is not None
        expected = ("TPU_REPLICATED_HOST_0" if replicated
                    else "/job:localhost/replica:0/task:0/device:CPU:0")
        assert ir.StringAttr(launch.attributes["device"]).value == expected
        assert "device" not in inner.attributes and OC not in inner.attributes
        assert [v.get_name() for v in body[1].operands] == [v.get_name() for v in inner.results]
        wrapped[_ident(inner)] += 1
    assert wrapped == oc_in
    assert oc_in  # every generated program has outside compilation
