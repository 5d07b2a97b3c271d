"""Sample device programs, one per TensorFlow op, for the legalization coverage (needs TensorFlow).

Run by ``gen_legalization_coverage.py`` as a child process: op names come on
stdin (one a line), and for each op one JSON line goes to stdout, either
``{"op": ..., "program": <tf-dialect text>}`` or ``{"op": ..., "not_probed":
<reason>}``.

A sample is a ``tf.function`` with a static input signature that applies the
op once. Most samples come from the op's registry entry (:func:`heuristic`):
type attributes get the first allowed of a preference list, inputs whose
names say they are shapes, axes, sizes ... become constants, the others
arguments of one shape ``[2] * rank``, required attributes get values by
name; ranks 2, 4, 1, 3, 5, 0 are tried in turn and the first that TensorFlow
traces is kept. Ops that need more (functions, tensor lists, stacks,
particular shapes) have an entry in :data:`OVERRIDES`.

The traced function is converted with ``tf.mlir.experimental.convert_function``
using only the passes that make it functional (TF's standard pipeline would
canonicalize, and fold e.g. ``tf.Shape`` of a static shape away), renamed
``@main``, its captured variables typed as resources of the variable's type,
and shapes refined with ``tf-shape-inference``.
"""
import json
import os
import re
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
REGISTRY = os.path.join(HERE, "..", "third_party", "tensorflow", "op_registry.json")

# Passes that turn the imported tf_executor graph into functional form, and nothing else.
CONVERT_PIPELINE = ("func.func(tf-executor-graph-pruning,tf-executor-island-coarsening,"
                    "tf-executor-to-functional-conversion)")
RANKS = (2, 4, 1, 3, 5, 0)
PREFERRED = ("DT_FLOAT", "DT_INT32", "DT_INT64", "DT_BOOL", "DT_COMPLEX64", "DT_DOUBLE", "DT_UINT8",
             "DT_INT8", "DT_INT16", "DT_UINT16", "DT_UINT32", "DT_UINT64", "DT_BFLOAT16", "DT_HALF",
             "DT_COMPLEX128", "DT_QINT8", "DT_QUINT8", "DT_QINT32", "DT_STRING")

# Ops that TensorFlow's importer renames (the op name in a tf-dialect program).
MLIR_NAMES = {"StatelessIf": "If", "StatelessWhile": "While", "StatelessCase": "Case"}

# Ops no sample program can hold, and why.
NOT_PROBED = {
    "_Arg": "function argument marker: a tf-dialect program has block arguments instead",
    "_Retval": "function result marker: a tf-dialect program has func.return instead",
    "_ArrayToList": "internal op of TF's gradient machinery, not importable into a program",
    "_ListToArray": "internal op of TF's gradient machinery, not importable into a program",
    "ControlTrigger": "exists only as tf_executor.ControlTrigger: TF cannot lift it into a functional "
                      "program",
}


class Sample:
    """What a sample function takes (specs, variables) and does (body)."""

    def __init__(self, specs, body, variables=()):
        self.specs = list(specs)
        self.body = body
        self.variables = list(variables)


class Unbuildable(Exception):
    """The heuristic has no way to feed this op."""


def _tf():
    import tensorflow as tf
    return tf


def _dtype(name):
    from tensorflow.core.framework import types_pb2
    tf = _tf()
    return tf.dtypes.as_dtype(types_pb2.DataType.Value(name))


def _choose_type(attr):
    if attr is None:
        return "DT_FLOAT"
    if attr.get("default") and attr["default"].get("kind") == "type":
        return attr["default"]["value"]
    allowed = (attr.get("allowed") or {}).get("value")
    for name in PREFERRED:
        if not allowed or name in allowed:
            return name
    return allowed[0]


def _values(dtype, shape, salt=0):
    """Deterministic values of `dtype` and `shape` (numpy), small and positive, for variables."""
    count = int(np.prod(shape)) if shape else 1
    base = (np.arange(count) + salt) % 7
    if dtype.is_bool:
        return (base % 2 == 0).reshape(shape)
    if dtype.is_complex:
        return (0.25 + 0.1 * base + 0.05j * base).astype(dtype.as_numpy_dtype).reshape(shape)
    if dtype.is_floating:
        return (0.1 + 0.1 * base).astype(dtype.as_numpy_dtype).reshape(shape)
    if dtype.is_integer:
        return (base % 2).astype(dtype.as_numpy_dtype).reshape(shape)
    raise Unbuildable(f"no sample values of {dtype.name}")


# Inputs that are scalars whatever the rank of the data (hyperparameters of
# training ops, image adjustment factors).
SCALARS = frozenset({
    "lr", "alpha", "beta", "beta1", "beta2", "beta1_power", "beta2_power", "epsilon", "rho", "momentum",
    "l1", "l2", "l2_shrinkage", "lr_power", "logbase", "sign_decay", "global_step", "contrast_factor",
    "delta", "scale", "min", "max", "input_min", "input_max", "min_range", "max_range",
    "constant_values", "padding_value",
})


# Constant inputs by name: value from the rank of the data arguments.
def _const_value(name, rank):
    shape = [2] * rank
    table = {
        "axis": 0, "dim": 0, "split_dim": 0, "concat_dim": 0, "dimension": 0, "reduction_indices": 0,
        "perm": list(reversed(range(rank))), "shape": shape, "dims": shape, "begin": [0] * rank,
        "size": [1] * rank, "end": [1] * rank, "strides": [1] * rank, "paddings": [[1, 1]] * rank,
        "multiples": [2] * rank, "k": 1, "num_segments": 2, "depth": 3, "num_samples": 2,
        "max_output_size": 2, "num_lower": 0, "num_upper": 0, "num": 3, "num_bits": 8,
        "ksize": [1] * rank, "group_size": 1, "group_key": 1, "instance_key": 1, "seed": [1, 2], "max_size": 4,
        "element_shape": shape, "num_elements": 2, "size_splits": [1, 1], "dim_index": 0,
        "algorithm": 1, "alg": 1, "delta": 1, "start": 0, "limit": 4, "stop": 1.0,
    }
    if name not in table:
        return None
    return table[name]


def _attr_value(attr, rank, chosen):
    """A value for a required attribute the inputs do not determine."""
    name, kind = attr["name"], attr["type"]
    if kind == "type":
        return _dtype(chosen.get(name) or _choose_type(attr))
    if kind == "int":
        return {"block_size": 2, "num_split": 2, "num": 2, "seq_dim": 1, "k": 1, "num_partitions": 2,
                "exponent_bits": 8, "mantissa_bits": 7, "max_iter": 10, "index": 0,
                "quantization_min_val": -128, "quantization_max_val": 127}.get(name, 1)
    if kind == "list(int)":
        if name in ("ksize", "strides", "dilations", "rates", "ksizes"):
            return [1] * rank
        if name in ("num_concats", "num_splits"):
            return [1] * rank
        if name == "dimensions_to_reduce":
            return [0]
        return [1]
    if kind == "string":
        return {"padding": "VALID", "mode": "REFLECT", "merge_op": "Add", "final_op": "Id",
                "message": "probe", "reduce_op": "Add", "tensor_name": "probe",
                "source": "probe"}.get(name, "")
    if kind == "float":
        return {"epsilon": 1e-3, "max_range": 1.0}.get(name, 0.0)
    if kind == "bool":
        return False
    if kind == "shape":
        return [2] * rank
    if kind == "list(float)":
        return [0.5]
    if kind == "list(type)":
        return [_tf().float32]
    raise Unbuildable(f"required attribute {name} of kind {kind}")


def heuristic(opdef, rank):
    """A sample for `opdef` with data arguments of shape [2] * rank."""
    tf = _tf()
    attrs = {a["name"]: a for a in opdef["attrs"]}
    chosen = {}  # type attr -> DT_ name
    shape = [2] * rank
    specs, variables = [], []
    feeds = []  # (input name, takes a list, [(kind: "arg" | "const" | "variable", payload)])
    inferred = set()
    for arg in opdef["inputs"]:
        name = arg["name"]
        if arg["type_list_attr"]:
            inferred.add(arg["type_list_attr"])
            dtypes = [_dtype("DT_FLOAT")]
        else:
            if arg["type"]:
                dtype_name = arg["type"]
            else:
                attr_name = arg["type_attr"]
                inferred.add(attr_name)
                chosen.setdefault(attr_name, _choose_type(attrs.get(attr_name)))
                dtype_name = chosen[attr_name]
            dtypes = [_dtype(dtype_name)]
        if arg["number_attr"]:
            inferred.add(arg["number_attr"])
            minimum = attrs.get(arg["number_attr"], {}).get("minimum", 1)
            dtypes = dtypes * max(2, minimum)
        group = []
        for dtype in dtypes:
            if dtype == tf.resource:
                value_type = _dtype(_choose_type(attrs.get("dtype") or attrs.get("T")))
                group.append(("variable", (value_type, shape)))
            elif dtype == tf.variant:
                raise Unbuildable(f"input {name} is a variant")
            else:
                value = _const_value(name, rank) if dtype.is_integer or name in ("stop", "start") else None
                if value is not None:
                    group.append(("const", np.asarray(value, dtype.as_numpy_dtype)))
                else:
                    group.append(("arg", (dtype, [] if name in SCALARS else shape)))
        feeds.append((name, bool(arg["number_attr"] or arg["type_list_attr"]), group))
    extra = {}
    for attr in opdef["attrs"]:
        if "default" in attr or attr["name"] in inferred:
            continue
        extra[attr["name"]] = _attr_value(attr, rank, chosen)
    for _, _, group in feeds:
        for kind, payload in group:
            if kind == "arg":
                specs.append(tf.TensorSpec(payload[1], payload[0]))
            elif kind == "variable":
                variables.append(tf.Variable(_values(payload[0], payload[1])))

    def body(*args):
        pending, handles = list(args), [v.handle for v in variables]
        kwargs = dict(extra)
        for name, is_list, group in feeds:
            tensors = []
            for kind, payload in group:
                if kind == "arg":
                    tensors.append(pending.pop(0))
                elif kind == "variable":
                    tensors.append(handles.pop(0))
                else:
                    tensors.append(tf.constant(payload))
            kwargs[name] = tensors if is_list else tensors[0]
        return _results(_raw(opdef["name"], **kwargs), args)

    return Sample(specs, body, variables)


def _results(op, args_for_empty=()):
    """The op's outputs a device program can return (no resources, no variants)."""
    tf = _tf()
    outs = [t for t in op.outputs if t.dtype not in (tf.resource, tf.variant)]
    if outs:
        return outs
    # Nothing to return: the op stays for its effect; return an argument or a constant.
    if args_for_empty:
        return [tf.identity(args_for_empty[0])]
    return [tf.constant(0.0)]


# -- Overrides -------------------------------------------------------------

def _f32(*shape):
    return _tf().TensorSpec(list(shape), _tf().float32)


def _spec(dtype, *shape):
    return _tf().TensorSpec(list(shape), dtype)


def _raw(name, **kwargs):
    """Adds op `name` to the graph being traced (attributes not given take their defaults)."""
    from tensorflow.python.framework import op_def_library, op_def_registry
    op_def = op_def_registry.get(name)
    inferred = {a.number_attr for a in op_def.input_arg} | {a.type_list_attr for a in op_def.input_arg}
    for attr in op_def.attr:
        if attr.name in kwargs or attr.name in inferred or attr.type in ("type", "list(type)"):
            continue
        if attr.HasField("default_value"):
            kwargs[attr.name] = _python_value(attr.default_value)
    return op_def_library._apply_op_helper(name, name="probe", **kwargs)[2]


def _python_value(value):
    """An AttrValue proto as the Python value TF's op construction takes."""
    kind = value.WhichOneof("value")
    if kind == "list":
        for field in ("s", "i", "f", "b", "type", "shape", "tensor", "func"):
            items = list(getattr(value.list, field))
            if items:
                return [_scalar_value(field, x) for x in items]
        return []
    return _scalar_value(kind, getattr(value, kind))


def _scalar_value(kind, x):
    tf = _tf()
    if kind == "type":
        return tf.dtypes.as_dtype(x)
    if kind == "shape":
        return tf.TensorShape(x)
    return x


def _fn(body, *specs):
    """A concrete function (for function-valued attributes)."""
    return _tf().function(body, input_signature=list(specs), autograph=False).get_concrete_function()


def _overrides():
    tf = _tf()
    f32, i32 = tf.float32, tf.int32
    c = tf.constant
    O = {}

    def op(name, specs, body, variables=()):
        O[name] = lambda: Sample(specs, body, variables)

    def outs(o):
        return _results(o)

    # Constants and structure.
    op("Const", [], lambda: outs(_raw("Const", value=tf.make_tensor_proto(np.ones([2, 2], np.float32)),
                                      dtype=f32)))
    op("_EagerConst", [_f32(2, 2)], lambda x: outs(_raw("_EagerConst", input=x)))
    op("NoOp", [_f32(2)], lambda x: [_noop_then(x)])
    op("FakeParam", [], lambda: outs(_raw("FakeParam", dtype=f32, shape=[2, 2])))
    op("PlaceholderWithDefault", [_f32(2, 2)],
       lambda x: outs(_raw("PlaceholderWithDefault", input=x, shape=[2, 2])))
    op("IdentityN", [_f32(2), _spec(i32, 3)], lambda x, y: outs(_raw("IdentityN", input=[x, y])))
    op("Assert", [_f32(2)], lambda x: [_assert_then(x)])
    op("CheckNumerics", [_f32(2, 2)], lambda x: outs(_raw("CheckNumerics", tensor=x, message="m")))
    op("EnsureShape", [_f32(2, 2)], lambda x: outs(_raw("EnsureShape", input=x, shape=[2, 2])))
    op("DeviceIndex", [], lambda: outs(_raw("DeviceIndex", device_names=["CPU", "GPU"])))

    # Calls and control flow.
    add_one = lambda: _fn(lambda x: x + 1.0, _f32(2))
    is_small = lambda: _fn(lambda x: tf.reduce_sum(x) < 10.0, _f32(2))
    for name in ("PartitionedCall", "StatefulPartitionedCall"):
        op(name, [_f32(2)], (lambda n: lambda x: outs(_raw(n, args=[x], Tout=[f32], f=add_one())))(name))
    op("SymbolicGradient", [_f32(2)],
       lambda x: outs(_raw("SymbolicGradient", input=[x, tf.ones([2])], Tout=[f32], f=add_one())))
    for name in ("If", "StatelessIf"):
        op(name, [_spec(tf.bool), _f32(2)],
           (lambda n: lambda p, x: outs(_raw(n, cond=p, input=[x], Tout=[f32], then_branch=add_one(),
                                             else_branch=_fn(lambda x: x * 2.0, _f32(2)))))(name))
    op("XlaIf", [_spec(tf.bool), _f32(2)],
       lambda p, x: outs(_raw("XlaIf", cond=p, inputs=[x], Tout=[f32], then_branch=add_one(),
                              else_branch=_fn(lambda x: x * 2.0, _f32(2)))))
    for name in ("Case", "StatelessCase"):
        op(name, [_spec(i32), _f32(2)],
           (lambda n: lambda i, x: outs(_raw(n, branch_index=i, input=[x], Tout=[f32],
                                             branches=[add_one(), _fn(lambda x: x * 2.0, _f32(2))])))(name))
    for name in ("While", "StatelessWhile", "XlaWhile"):
        op(name, [_f32(2)], (lambda n: lambda x: outs(_raw(n, input=[x], cond=is_small(), body=add_one(),
                                                           **({} if n == "XlaWhile" else
                                                              {"output_shapes": [[2]]}))))(name))
    scalar_add = lambda: _fn(lambda a, b: a + b, _f32(), _f32())
    op("XlaReduce", [_f32(2, 3)], lambda x: outs(_raw("XlaReduce", input=x, init_value=c(0.0),
                                                       dimensions_to_reduce=[1], reducer=scalar_add())))
    op("XlaVariadicReduce", [_f32(2, 3)],
       lambda x: outs(_raw("XlaVariadicReduce", input=[x], init_value=[c(0.0)], dimensions_to_reduce=[1],
                           reducer=scalar_add())))
    op("XlaVariadicReduceV2", [_f32(2, 3)],
       lambda x: outs(_raw("XlaVariadicReduceV2", inputs=[x], init_values=[c(0.0)],
                           dimensions_to_reduce=[1], reducer=scalar_add())))
    op("XlaReduceWindow", [_f32(4)],
       lambda x: outs(_raw("XlaReduceWindow", input=x, init_value=c(0.0), window_dimensions=c([2]),
                           window_strides=c([1]), base_dilations=c([1]), window_dilations=c([1]),
                           padding=c([[0, 0]]), computation=scalar_add())))
    op("XlaScatter", [_f32(4), _spec(f32, 1)],
       lambda x, u: outs(_raw("XlaScatter", operand=x, scatter_indices=c([[1]]), updates=u,
                              update_computation=scalar_add(), indices_are_sorted=False,
                              dimension_numbers=_xla_proto(
                                  "ScatterDimensionNumbers", update_window_dims=[],
                                  inserted_window_dims=[0], scatter_dims_to_operand_dims=[0],
                                  index_vector_dim=1))))
    op("XlaSelectAndScatter", [_f32(4), _f32(3)],
       lambda x, s: outs(_raw("XlaSelectAndScatter", operand=x, window_dimensions=c([2]),
                              window_strides=c([1]), padding=c([[0, 0]]), source=s, init_value=c(0.0),
                              select=_fn(lambda a, b: a >= b, _f32(), _f32()), scatter=scalar_add())))
    op("XlaVariadicSort", [_f32(4)],
       lambda x: outs(_raw("XlaVariadicSort", inputs=[x], dimension=c(0), is_stable=False,
                           comparator=_fn(lambda a, b: a < b, _f32(), _f32()))))
    op("XlaCallModule", [_f32(2)], _xla_call_module)

    # XLA ops with proto-valued string attributes.
    op("XlaDot", [_f32(2, 3), _f32(3, 4)],
       lambda a, b: outs(_raw("XlaDot", lhs=a, rhs=b, precision_config="", dimension_numbers=_xla_proto(
           "DotDimensionNumbers", lhs_contracting_dimensions=[1], rhs_contracting_dimensions=[0]))))
    op("XlaDotV2", [_f32(2, 3), _f32(3, 4)],
       lambda a, b: outs(_raw("XlaDotV2", lhs=a, rhs=b, precision_config="", preferred_element_type=f32,
                              dimension_numbers=_xla_proto("DotDimensionNumbers",
                                                           lhs_contracting_dimensions=[1],
                                                           rhs_contracting_dimensions=[0]))))
    conv_dims = lambda: _xla_proto("ConvolutionDimensionNumbers", input_batch_dimension=0,
                                   input_feature_dimension=3, input_spatial_dimensions=[1, 2],
                                   kernel_input_feature_dimension=2, kernel_output_feature_dimension=3,
                                   kernel_spatial_dimensions=[0, 1], output_batch_dimension=0,
                                   output_feature_dimension=3, output_spatial_dimensions=[1, 2])
    conv_args = lambda: dict(window_strides=c([1, 1]), padding=c([[0, 0], [0, 0]]), lhs_dilation=c([1, 1]),
                             rhs_dilation=c([1, 1]), feature_group_count=c(1), precision_config="")
    op("XlaConv", [_f32(1, 3, 3, 2), _f32(2, 2, 2, 2)],
       lambda a, b: outs(_raw("XlaConv", lhs=a, rhs=b, dimension_numbers=conv_dims(), **conv_args())))
    op("XlaConvV2", [_f32(1, 3, 3, 2), _f32(2, 2, 2, 2)],
       lambda a, b: outs(_raw("XlaConvV2", lhs=a, rhs=b, dimension_numbers=conv_dims(),
                              preferred_element_type=f32, **conv_args())))
    op("XlaGather", [_f32(4, 3)],
       lambda x: outs(_raw("XlaGather", operand=x, start_indices=c([[1]]), slice_sizes=c([1, 3]),
                           indices_are_sorted=False, dimension_numbers=_xla_proto(
                               "GatherDimensionNumbers", offset_dims=[1], collapsed_slice_dims=[0],
                               start_index_map=[0], index_vector_dim=1))))
    op("XlaEinsum", [_f32(2, 3), _f32(3, 4)],
       lambda a, b: outs(_raw("XlaEinsum", a=a, b=b, equation="ab,bc->ac")))
    op("Einsum", [_f32(2, 3), _f32(3, 4)],
       lambda a, b: outs(_raw("Einsum", inputs=[a, b], equation="ab,bc->ac")))
    op("XlaSvd", [_f32(3, 3)], lambda a: outs(_raw("XlaSvd", a=a, max_iter=10, epsilon=1e-3,
                                                     precision_config="")))
    op("XlaSelfAdjointEig", [_f32(3, 3)],
       lambda a: outs(_raw("XlaSelfAdjointEig", a=a, lower=True, max_iter=10, epsilon=1e-3)))
    op("XlaSharding", [_f32(2, 2)], lambda x: outs(_raw("XlaSharding", input=x, sharding="")))
    op("XlaSpmdFullToShardShape", [_f32(2, 2)],
       lambda x: outs(_raw("XlaSpmdFullToShardShape", input=x, manual_sharding=_replicated())))
    op("XlaSpmdShardToFullShape", [_f32(2, 2)],
       lambda x: outs(_raw("XlaSpmdShardToFullShape", input=x, manual_sharding=_replicated(),
                           full_shape=[2, 2])))
    op("XlaCustomCall", [_f32(2)],
       lambda x: outs(_raw("XlaCustomCall", args=[x], target_name="probe_target", backend_config="",
                           dtype=f32, shape=[2])))
    op("XlaCustomCallV2", [_f32(2)],
       lambda x: outs(_raw("XlaCustomCallV2", operands=[x], call_target_name="probe_target",
                           backend_config="", has_side_effect=False, result_dtypes=[f32],
                           result_shapes=[[2]])))
    op("XlaSend", [_f32(2)], lambda x: [_send_then(x)])
    op("XlaRecv", [], lambda: outs(_raw("XlaRecv", dtype=f32, tensor_name="probe", shape=[2])))
    op("XlaAllReduce", [_f32(2)],
       lambda x: outs(_raw("XlaAllReduce", input=x, group_assignment=c([[0]]), reduce_op="Add",
                           mode="CrossReplica")))
    op("XlaReduceScatter", [_f32(2)],
       lambda x: outs(_raw("XlaReduceScatter", input=x, group_assignment=c([[0]]),
                           scatter_dimension=c(0), reduce_op="Add")))
    op("XlaDynamicSlice", [_f32(4)],
       lambda x: outs(_raw("XlaDynamicSlice", input=x, start_indices=c([1]), size_indices=c([2]))))
    op("XlaDynamicUpdateSlice", [_f32(4), _f32(2)],
       lambda x, u: outs(_raw("XlaDynamicUpdateSlice", input=x, update=u, indices=c([1]))))
    op("XlaPad", [_f32(2)],
       lambda x: outs(_raw("XlaPad", input=x, padding_value=c(0.0), padding_low=c([1]),
                           padding_high=c([1]), padding_interior=c([0]))))
    op("XlaBroadcastHelper", [_f32(2, 3), _f32(3)],
       lambda a, b: outs(_raw("XlaBroadcastHelper", lhs=a, rhs=b, broadcast_dims=c([1]))))
    op("XlaDequantize", [_spec(tf.uint32, 2)],
       lambda x: outs(_raw("XlaDequantize", input=x, min_range=0.0, max_range=1.0, mode="MIN_COMBINED",
                           transpose_output=False)))
    op("XlaRngBitGenerator", [_spec(tf.uint64, 2)],
       lambda s: outs(_raw("XlaRngBitGenerator", algorithm=c(1), initial_state=s, shape=c([2]),
                           dtype=tf.uint64)))
    op("XlaKeyValueSort", [_f32(4), _spec(i32, 4)],
       lambda k, v: outs(_raw("XlaKeyValueSort", keys=k, values=v)))
    op("XlaOptimizationBarrier", [_f32(2)], lambda x: outs(_raw("XlaOptimizationBarrier", input=[x])))
    op("XlaSetBound", [_spec(i32)], lambda x: outs(_raw("XlaSetBound", input=x, bound=c(4))))
    op("XlaSetDynamicDimensionSize", [_f32(4)],
       lambda x: outs(_raw("XlaSetDynamicDimensionSize", input=x, dim_index=c(0), size=c(2))))
    op("XlaRemoveDynamicDimensionSize", [_f32(4)],
       lambda x: outs(_raw("XlaRemoveDynamicDimensionSize", input=x, dim_index=c(0))))
    op("XlaConcatND", [_f32(2, 2), _f32(2, 2)],
       lambda a, b: outs(_raw("XlaConcatND", inputs=[a, b], num_concats=[2, 1])))
    op("XlaSplitND", [_f32(4, 2)],
       lambda x: outs(_raw("XlaSplitND", input=x, N=2, num_splits=[2, 1])))

    # Resources: variables, stacks, tensor arrays.
    def var(shape=(2, 2), dtype=np.float32):
        return tf.Variable(np.ones(shape, dtype))

    def with_var(name, specs, body, shape=(2, 2), dtype=np.float32):
        def make():
            variable = var(shape, dtype)
            return Sample(specs, lambda *a: body(variable.handle, *a), [variable])
        O[name] = make

    with_var("AssignVariableXlaConcatND", [_f32(1, 2), _f32(1, 2)],
             lambda h, a, b: [_effect_then(_raw("AssignVariableXlaConcatND", resource=h, inputs=[a, b],
                                                num_concats=[2, 1]), a)])
    with_var("ReadVariableXlaSplitND", [],
             lambda h: outs(_raw("ReadVariableXlaSplitND", resource=h, T=f32, N=2, num_splits=[2, 1])))
    with_var("ResourceStridedSliceAssign", [_f32(1, 2)],
             lambda h, x: [_effect_then(_raw("ResourceStridedSliceAssign", ref=h, begin=c([0, 0]),
                                             end=c([1, 2]), strides=c([1, 1]), value=x), x)])
    with_var("ResourceGather", [],
             lambda h: outs(_raw("ResourceGather", resource=h, indices=c([1, 0]), dtype=f32)))
    for name in ("ResourceScatterAdd", "ResourceScatterDiv", "ResourceScatterMax", "ResourceScatterMin",
                 "ResourceScatterMul", "ResourceScatterSub", "ResourceScatterUpdate"):
        with_var(name, [_f32(1, 2)], (lambda n: lambda h, u: [_effect_then(
            _raw(n, resource=h, indices=c([1]), updates=u), u)])(name))
    for name in ("ResourceScatterNdAdd", "ResourceScatterNdSub", "ResourceScatterNdUpdate"):
        with_var(name, [_f32(1, 2)], (lambda n: lambda h, u: [_effect_then(
            _raw(n, ref=h, indices=c([[1]]), updates=u), u)])(name))
    for name in ("StatefulStandardNormalV2", "StatefulTruncatedNormal", "StatefulUniform",
                 "StatefulUniformFullInt"):
        with_var(name, [], (lambda n: lambda h: outs(_raw(
            n, resource=h, algorithm=c(1, tf.int64), shape=c([2]),
            **({"dtype": tf.uint32} if n.endswith("FullInt") else {}))))(name), shape=(3,), dtype=np.int64)
    with_var("StatefulUniformInt", [], lambda h: outs(_raw(
        "StatefulUniformInt", resource=h, algorithm=c(1, tf.int64), shape=c([2]), minval=c(0), maxval=c(9))),
        shape=(3,), dtype=np.int64)
    with_var("RngReadAndSkip", [], lambda h: outs(_raw("RngReadAndSkip", resource=h, alg=c(1),
                                                       delta=c(2, tf.uint64))), shape=(3,), dtype=np.int64)
    with_var("RngSkip", [_f32(2)], lambda h, x: [_effect_then(_raw(
        "RngSkip", resource=h, algorithm=c(1, tf.int64), delta=c(2, tf.int64)), x)],
        shape=(3,), dtype=np.int64)
    op("_XlaAotOnlyVarHandleOp", [], lambda: [tf.raw_ops.ReadVariableOp(
        resource=_raw("_XlaAotOnlyVarHandleOp", dtype=f32, shape=[2]).outputs[0], dtype=f32)])
    op("StackV2", [_f32(2)], lambda x: [_stack(x, "StackV2")])
    op("StackPushV2", [_f32(2)], lambda x: [_stack(x, "StackPushV2")])
    op("StackPopV2", [_f32(2)], lambda x: [_stack(x, "StackPopV2")])
    op("StackCloseV2", [_f32(2)], lambda x: [_stack(x, "StackCloseV2")])
    for name in ("TensorArrayV3", "TensorArrayWriteV3", "TensorArrayReadV3", "TensorArrayGatherV3",
                 "TensorArrayScatterV3", "TensorArrayConcatV3", "TensorArraySplitV3", "TensorArraySizeV3",
                 "TensorArrayCloseV3", "TensorArrayGradV3"):
        op(name, [_f32(2)], (lambda n: lambda x: _tensor_array(x, n))(name))
    for name in ("EmptyTensorList", "TensorListReserve", "TensorListFromTensor", "TensorListSplit",
                 "TensorListPushBack", "TensorListPopBack", "TensorListGetItem", "TensorListSetItem",
                 "TensorListStack", "TensorListGather", "TensorListConcatV2", "TensorListLength",
                 "TensorListElementShape"):
        op(name, [_f32(2, 3)], (lambda n: lambda x: _tensor_list(x, n))(name))

    # Images with three channels.
    op("HSVToRGB", [_f32(2, 3)], lambda x: outs(_raw("HSVToRGB", images=x)))
    op("RGBToHSV", [_f32(2, 3)], lambda x: outs(_raw("RGBToHSV", images=x)))
    op("AdjustHue", [_f32(2, 2, 3), _f32()], lambda x, d: outs(_raw("AdjustHue", images=x, delta=d)))
    op("AdjustSaturation", [_f32(2, 2, 3), _f32()],
       lambda x, d: outs(_raw("AdjustSaturation", images=x, scale=d)))

    op("FakeQuantWithMinMaxVarsPerChannel", [_f32(2, 3), _f32(3), _f32(3)],
       lambda x, lo, hi: outs(_raw("FakeQuantWithMinMaxVarsPerChannel", inputs=x, min=lo, max=hi)))
    op("FakeQuantWithMinMaxVarsPerChannelGradient", [_f32(2, 3), _f32(2, 3), _f32(3), _f32(3)],
       lambda g, x, lo, hi: outs(_raw("FakeQuantWithMinMaxVarsPerChannelGradient", gradients=g, inputs=x,
                                      min=lo, max=hi)))

    # Shapes and sizes that must agree.
    op("MatMul", [_f32(2, 3), _f32(3, 4)], lambda a, b: outs(_raw("MatMul", a=a, b=b)))
    op("SparseMatMul", [_f32(2, 3), _f32(3, 4)], lambda a, b: outs(_raw("SparseMatMul", a=a, b=b)))
    op("BatchMatMulV3", [_f32(2, 2, 3), _f32(2, 3, 4)],
       lambda a, b: outs(_raw("BatchMatMulV3", x=a, y=b, Tout=f32)))
    op("ConjugateTranspose", [_spec(tf.complex64, 2, 3)],
       lambda x: outs(_raw("ConjugateTranspose", x=x, perm=c([1, 0]))))
    op("Cast", [_f32(2, 2)], lambda x: outs(_raw("Cast", x=x, DstT=i32)))
    op("Bitcast", [_f32(2, 2)], lambda x: outs(_raw("Bitcast", input=x, type=i32)))
    op("Complex", [_f32(2), _f32(2)], lambda a, b: outs(_raw("Complex", real=a, imag=b)))
    op("Cross", [_f32(2, 3), _f32(2, 3)], lambda a, b: outs(_raw("Cross", a=a, b=b)))
    op("Conv2DBackpropFilter", [_f32(1, 3, 3, 2), _f32(1, 2, 2, 2)],
       lambda x, g: outs(_raw("Conv2DBackpropFilter", input=x, filter_sizes=c([2, 2, 2, 2]),
                              out_backprop=g, strides=[1, 1, 1, 1], padding="VALID")))
    op("Conv2DBackpropInput", [_f32(2, 2, 2, 2), _f32(1, 2, 2, 2)],
       lambda f, g: outs(_raw("Conv2DBackpropInput", input_sizes=c([1, 3, 3, 2]), filter=f,
                              out_backprop=g, strides=[1, 1, 1, 1], padding="VALID")))
    op("Conv3DBackpropFilterV2", [_f32(1, 3, 3, 3, 2), _f32(1, 2, 2, 2, 2)],
       lambda x, g: outs(_raw("Conv3DBackpropFilterV2", input=x, filter_sizes=c([2, 2, 2, 2, 2]),
                              out_backprop=g, strides=[1] * 5, padding="VALID")))
    op("Conv3DBackpropInputV2", [_f32(2, 2, 2, 2, 2), _f32(1, 2, 2, 2, 2)],
       lambda f, g: outs(_raw("Conv3DBackpropInputV2", input_sizes=c([1, 3, 3, 3, 2]), filter=f,
                              out_backprop=g, strides=[1] * 5, padding="VALID")))
    op("DepthwiseConv2dNativeBackpropFilter", [_f32(1, 3, 3, 2), _f32(1, 2, 2, 2)],
       lambda x, g: outs(_raw("DepthwiseConv2dNativeBackpropFilter", input=x, filter_sizes=c([2, 2, 2, 1]),
                              out_backprop=g, strides=[1, 1, 1, 1], padding="VALID")))
    op("DepthwiseConv2dNativeBackpropInput", [_f32(2, 2, 2, 1), _f32(1, 2, 2, 2)],
       lambda f, g: outs(_raw("DepthwiseConv2dNativeBackpropInput", input_sizes=c([1, 3, 3, 2]), filter=f,
                              out_backprop=g, strides=[1, 1, 1, 1], padding="VALID")))
    op("AvgPoolGrad", [_f32(1, 1, 1, 2)],
       lambda g: outs(_raw("AvgPoolGrad", orig_input_shape=c([1, 2, 2, 2]), grad=g, ksize=[1, 2, 2, 1],
                           strides=[1, 1, 1, 1], padding="VALID")))
    op("AvgPool3DGrad", [_f32(1, 1, 1, 1, 2)],
       lambda g: outs(_raw("AvgPool3DGrad", orig_input_shape=c([1, 2, 2, 2, 2]), grad=g,
                           ksize=[1, 2, 2, 2, 1], strides=[1] * 5, padding="VALID")))
    for name in ("MaxPoolGrad", "MaxPoolGradGrad", "MaxPool3DGrad", "MaxPool3DGradGrad"):
        rank = 5 if "3D" in name else 4
        op(name, [_f32(*[2] * rank)] * 3, (lambda n, r: lambda a, b, g: outs(_raw(
            n, orig_input=a, orig_output=b, grad=g, ksize=[1] * r, strides=[1] * r, padding="VALID")))(name, rank))
    for name in ("MaxPoolGradV2", "MaxPoolGradGradV2"):
        op(name, [_f32(2, 2, 2, 2)] * 3, (lambda n: lambda a, b, g: outs(_raw(
            n, orig_input=a, orig_output=b, grad=g, ksize=c([1, 1, 1, 1]), strides=c([1, 1, 1, 1]),
            padding="VALID")))(name))
    op("BiasAdd", [_f32(2, 3), _f32(3)], lambda x, b: outs(_raw("BiasAdd", value=x, bias=b)))
    op("BiasAddV1", [_f32(2, 3), _f32(3)], lambda x, b: outs(_raw("BiasAddV1", value=x, bias=b)))
    op("BatchToSpace", [_f32(4, 1, 1, 1)],
       lambda x: outs(_raw("BatchToSpace", input=x, crops=c([[0, 0], [0, 0]]), block_size=2)))
    op("BatchToSpaceND", [_f32(4, 1, 1, 1)],
       lambda x: outs(_raw("BatchToSpaceND", input=x, block_shape=c([2, 2]), crops=c([[0, 0], [0, 0]]))))
    op("SpaceToBatch", [_f32(1, 2, 2, 1)],
       lambda x: outs(_raw("SpaceToBatch", input=x, paddings=c([[0, 0], [0, 0]]), block_size=2)))
    op("SpaceToBatchND", [_f32(1, 2, 2, 1)],
       lambda x: outs(_raw("SpaceToBatchND", input=x, block_shape=c([2, 2]), paddings=c([[0, 0], [0, 0]]))))
    op("DepthToSpace", [_f32(1, 1, 1, 4)], lambda x: outs(_raw("DepthToSpace", input=x, block_size=2)))
    op("SpaceToDepth", [_f32(1, 2, 2, 1)], lambda x: outs(_raw("SpaceToDepth", input=x, block_size=2)))
    op("Bincount", [_spec(i32, 4), _f32(4)],
       lambda a, w: outs(_raw("Bincount", arr=a, size=c(3), weights=w)))
    op("DenseBincount", [_spec(i32, 4), _f32(4)],
       lambda a, w: outs(_raw("DenseBincount", input=a, size=c(3), weights=w)))
    op("BroadcastArgs", [], lambda: outs(_raw("BroadcastArgs", s0=c([2, 1]), s1=c([1, 3]))))
    op("BroadcastGradientArgs", [], lambda: outs(_raw("BroadcastGradientArgs", s0=c([2, 1]), s1=c([1, 3]))))
    op("ConcatOffset", [], lambda: outs(_raw("ConcatOffset", concat_dim=c(0), shape=[c([2, 3]), c([4, 3])])))
    op("Concat", [_f32(2, 3), _f32(1, 3)], lambda a, b: outs(_raw("Concat", concat_dim=c(0), values=[a, b])))
    op("DynamicPartition", [_f32(4)],
       lambda x: outs(_raw("DynamicPartition", data=x, partitions=c([0, 1, 0, 1]), num_partitions=2)))
    for name in ("DynamicStitch", "ParallelDynamicStitch"):
        op(name, [_f32(2), _f32(2)], (lambda n: lambda a, b: outs(_raw(
            n, indices=[c([0, 2]), c([1, 3])], data=[a, b])))(name))
    op("Empty", [], lambda: outs(_raw("Empty", shape=c([2, 2]), dtype=f32)))
    op("Fill", [_f32()], lambda v: outs(_raw("Fill", dims=c([2, 2]), value=v)))
    op("FFT", [_spec(tf.complex64, 4)], lambda x: outs(_raw("FFT", input=x)))
    for name, rank in (("RFFT", 1), ("RFFT2D", 2), ("RFFT3D", 3)):
        op(name, [_f32(*[4] * rank)], (lambda n, r: lambda x: outs(_raw(n, input=x, fft_length=c([4] * r))))(
            name, rank))
    for name, rank in (("IRFFT", 1), ("IRFFT2D", 2), ("IRFFT3D", 3)):
        op(name, [_spec(tf.complex64, *([4] * (rank - 1) + [3]))],
           (lambda n, r: lambda x: outs(_raw(n, input=x, fft_length=c([4] * r))))(name, rank))
    for name in ("FusedBatchNorm", "FusedBatchNormV2", "FusedBatchNormV3", "_FusedBatchNormEx"):
        op(name, [_f32(1, 2, 2, 4), _f32(4), _f32(4), _f32(4), _f32(4)],
           (lambda n: lambda x, s, o, m, v: outs(_raw(n, x=x, scale=s, offset=o, mean=m, variance=v,
                                                      **({"side_input": []} if n.startswith("_") else {})))
            )(name))
    for name in ("FusedBatchNormGrad", "FusedBatchNormGradV2", "FusedBatchNormGradV3"):
        extra = {"reserve_space_3": None} if name.endswith("V3") else {}
        op(name, [_f32(1, 2, 2, 3), _f32(1, 2, 2, 3), _f32(3), _f32(3), _f32(3)],
           (lambda n, e: lambda g, x, s, r1, r2: outs(_raw(
               n, y_backprop=g, x=x, scale=s, reserve_space_1=r1, reserve_space_2=r2,
               **({"reserve_space_3": r2} if e else {}))))(name, extra))
    op("_FusedConv2D", [_f32(1, 3, 3, 2), _f32(2, 2, 2, 2), _f32(2)],
       lambda x, f, b: outs(_raw("_FusedConv2D", input=x, filter=f, args=[b], host_args=[],
                                 strides=[1, 1, 1, 1], padding="VALID", fused_ops=["BiasAdd"], num_args=1)))
    op("_UnaryOpsComposition", [_f32(2)],
       lambda x: outs(_raw("_UnaryOpsComposition", x=x, op_names=["Neg", "Exp"])))
    op("Gather", [_f32(3, 2), _spec(i32, 2)], lambda p, i: outs(_raw("Gather", params=p, indices=i)))
    op("GatherNd", [_f32(3, 2), _spec(i32, 2, 1)], lambda p, i: outs(_raw("GatherNd", params=p, indices=i)))
    op("GatherV2", [_f32(3, 2), _spec(i32, 2)],
       lambda p, i: outs(_raw("GatherV2", params=p, indices=i, axis=c(0))))
    op("InTopKV2", [_f32(2, 3), _spec(i32, 2)],
       lambda p, t: outs(_raw("InTopKV2", predictions=p, targets=t, k=c(1))))
    op("InvertPermutation", [], lambda: outs(_raw("InvertPermutation", x=c([2, 0, 1]))))
    op("LinSpace", [], lambda: outs(_raw("LinSpace", start=c(0.0), stop=c(1.0), num=c(5))))
    op("Range", [], lambda: outs(_raw("Range", start=c(0), limit=c(5), delta=c(1))))
    op("ListDiff", [], lambda: outs(_raw("ListDiff", x=c([1, 2, 3, 4]), y=c([2, 4]))))
    for name in ("LowerBound", "UpperBound"):
        op(name, [_f32(2, 4), _f32(2, 3)], (lambda n: lambda s, v: outs(_raw(n, sorted_inputs=s, values=v)))(name))
    op("MatrixDiagV2", [_f32(3)], lambda d: outs(_raw("MatrixDiagV2", diagonal=d, k=c(0), num_rows=c(-1),
                                                        num_cols=c(-1), padding_value=c(0.0))))
    op("MatrixDiagV3", [_f32(3)], lambda d: outs(_raw("MatrixDiagV3", diagonal=d, k=c(0), num_rows=c(-1),
                                                        num_cols=c(-1), padding_value=c(0.0))))
    for name in ("MatrixDiagPartV2", "MatrixDiagPartV3"):
        op(name, [_f32(3, 3)], (lambda n: lambda x: outs(_raw(n, input=x, k=c(0), padding_value=c(0.0))))(name))
    op("MatrixSetDiag", [_f32(3, 3), _f32(3)], lambda x, d: outs(_raw("MatrixSetDiag", input=x, diagonal=d)))
    for name in ("MatrixSetDiagV2", "MatrixSetDiagV3"):
        op(name, [_f32(3, 3), _f32(3)], (lambda n: lambda x, d: outs(_raw(n, input=x, diagonal=d, k=c(0))))(name))
    op("MatrixBandPart", [_f32(3, 3)],
       lambda x: outs(_raw("MatrixBandPart", input=x, num_lower=c(1), num_upper=c(0))))
    op("MirrorPadGrad", [_f32(4, 4)],
       lambda x: outs(_raw("MirrorPadGrad", input=x, paddings=c([[1, 1], [1, 1]]), mode="REFLECT")))
    op("Multinomial", [_f32(2, 3)], lambda x: outs(_raw("Multinomial", logits=x, num_samples=c(2))))
    op("StatelessMultinomial", [_f32(2, 3)],
       lambda x: outs(_raw("StatelessMultinomial", logits=x, num_samples=c(2), seed=c([1, 2]))))
    for name in ("NonMaxSuppressionV3", "NonMaxSuppressionV4"):
        op(name, [_f32(3, 4), _f32(3)], (lambda n: lambda b, s: outs(_raw(
            n, boxes=b, scores=s, max_output_size=c(2), iou_threshold=c(0.5), score_threshold=c(0.0),
            **({"pad_to_max_output_size": True} if n.endswith("V4") else {}))))(name))
    op("OneHot", [_spec(i32, 3)],
       lambda i: outs(_raw("OneHot", indices=i, depth=c(4), on_value=c(1.0), off_value=c(0.0))))
    op("ParameterizedTruncatedNormal", [_f32(2), _f32(2), _f32(2), _f32(2)],
       lambda m, s, lo, hi: outs(_raw("ParameterizedTruncatedNormal", shape=c([2]), means=m, stdevs=s,
                                      minvals=lo, maxvals=hi)))
    op("StatelessParameterizedTruncatedNormal", [_f32(2), _f32(2), _f32(2), _f32(2)],
       lambda m, s, lo, hi: outs(_raw("StatelessParameterizedTruncatedNormal", shape=c([2]), seed=c([1, 2]),
                                      means=m, stddevs=s, minvals=lo, maxvals=hi)))
    for name in ("RandomStandardNormal", "RandomUniform", "TruncatedNormal"):
        op(name, [], (lambda n: lambda: outs(_raw(n, shape=c([2, 2]), dtype=f32)))(name))
    op("RandomUniformInt", [], lambda: outs(_raw("RandomUniformInt", shape=c([2, 2]), minval=c(0), maxval=c(9))))
    for name in ("StatelessRandomNormal", "StatelessRandomUniform", "StatelessTruncatedNormal",
                 "StatelessRandomUniformFullInt"):
        op(name, [], (lambda n: lambda: outs(_raw(
            n, shape=c([2, 2]), seed=c([1, 2]), **({"dtype": tf.int32} if n.endswith("FullInt") else {}))))(name))
    op("StatelessRandomUniformInt", [], lambda: outs(_raw(
        "StatelessRandomUniformInt", shape=c([2, 2]), seed=c([1, 2]), minval=c(0), maxval=c(9))))
    key_counter = lambda: tf.raw_ops.StatelessRandomGetKeyCounter(seed=c([1, 2]))
    for name in ("StatelessRandomNormalV2", "StatelessRandomUniformV2", "StatelessTruncatedNormalV2",
                 "StatelessRandomUniformFullIntV2"):
        op(name, [], (lambda n: lambda: outs(_raw(
            n, shape=c([2, 2]), key=key_counter()[0], counter=key_counter()[1], alg=c(1),
            **({"dtype": tf.int32} if n.endswith("FullIntV2") else {}))))(name))
    op("StatelessRandomUniformIntV2", [], lambda: outs(_raw(
        "StatelessRandomUniformIntV2", shape=c([2, 2]), key=key_counter()[0], counter=key_counter()[1],
        alg=c(1), minval=c(0), maxval=c(9))))
    op("StochasticCastToInt", [_f32(2, 2)], lambda x: outs(_raw(
        "StochasticCastToInt", input=x, key=key_counter()[0], counter=key_counter()[1], alg=c(1),
        Tout=tf.int32)))
    op("StatelessRandomGetKeyCounter", [], lambda: outs(_raw("StatelessRandomGetKeyCounter", seed=c([1, 2]))))
    op("StatelessRandomGetKeyCounterAlg", [],
       lambda: outs(_raw("StatelessRandomGetKeyCounterAlg", seed=c([1, 2]))))
    op("RandomShuffle", [_f32(4)], lambda x: outs(_raw("RandomShuffle", value=x)))
    op("RandomGammaGrad", [_f32(2), _f32(2)], lambda a, s: outs(_raw("RandomGammaGrad", alpha=a, sample=s)))
    op("ResizeBilinear", [_f32(1, 2, 2, 1)], lambda x: outs(_raw("ResizeBilinear", images=x, size=c([4, 4]))))
    op("ResizeNearestNeighbor", [_f32(1, 2, 2, 1)],
       lambda x: outs(_raw("ResizeNearestNeighbor", images=x, size=c([4, 4]))))
    op("ResizeBilinearGrad", [_f32(1, 4, 4, 1), _f32(1, 2, 2, 1)],
       lambda g, x: outs(_raw("ResizeBilinearGrad", grads=g, original_image=x)))
    op("Reverse", [_f32(2, 3)], lambda x: outs(_raw("Reverse", tensor=x, dims=c([True, False]))))
    op("ReverseV2", [_f32(2, 3)], lambda x: outs(_raw("ReverseV2", tensor=x, axis=c([0]))))
    op("ReverseSequence", [_f32(2, 3)],
       lambda x: outs(_raw("ReverseSequence", input=x, seq_lengths=c([1, 2], tf.int64), seq_dim=1)))
    op("Roll", [_f32(2, 3)], lambda x: outs(_raw("Roll", input=x, shift=c(1), axis=c(1))))
    op("ScatterNd", [_f32(2)], lambda u: outs(_raw("ScatterNd", indices=c([[0], [2]]), updates=u, shape=c([4]))))
    for name in ("SegmentMaxV2", "SegmentMinV2", "SegmentProdV2", "SegmentSumV2", "UnsortedSegmentMax",
                 "UnsortedSegmentMin", "UnsortedSegmentProd", "UnsortedSegmentSum"):
        op(name, [_f32(4, 2)], (lambda n: lambda d: outs(_raw(
            n, data=d, segment_ids=c([0, 0, 1, 1]), num_segments=c(2))))(name))
    op("Select", [_spec(tf.bool, 2, 2), _f32(2, 2), _f32(2, 2)],
       lambda p, a, b: outs(_raw("Select", condition=p, t=a, e=b)))
    op("SelectV2", [_spec(tf.bool, 2, 2), _f32(2, 2), _f32(2, 2)],
       lambda p, a, b: outs(_raw("SelectV2", condition=p, t=a, e=b)))
    op("Slice", [_f32(3, 3)], lambda x: outs(_raw("Slice", input=x, begin=c([1, 0]), size=c([2, 2]))))
    op("SoftmaxCrossEntropyWithLogits", [_f32(2, 3), _f32(2, 3)],
       lambda a, b: outs(_raw("SoftmaxCrossEntropyWithLogits", features=a, labels=b)))
    op("SparseSoftmaxCrossEntropyWithLogits", [_f32(2, 3), _spec(i32, 2)],
       lambda a, b: outs(_raw("SparseSoftmaxCrossEntropyWithLogits", features=a, labels=b)))
    op("SparseToDense", [_f32(2)], lambda v: outs(_raw(
        "SparseToDense", sparse_indices=c([[0], [2]]), output_shape=c([4]), sparse_values=v,
        default_value=c(0.0))))
    op("Split", [_f32(4, 2)], lambda x: outs(_raw("Split", split_dim=c(0), value=x, num_split=2)))
    op("SplitV", [_f32(4, 2)],
       lambda x: outs(_raw("SplitV", value=x, size_splits=c([1, 3]), split_dim=c(0), num_split=2)))
    op("Squeeze", [_f32(2, 1)], lambda x: outs(_raw("Squeeze", input=x)))
    op("StridedSlice", [_f32(4, 3)], lambda x: outs(_raw(
        "StridedSlice", input=x, begin=c([0, 1]), end=c([4, 3]), strides=c([2, 1]))))
    op("StridedSliceGrad", [_f32(2, 2)], lambda g: outs(_raw(
        "StridedSliceGrad", shape=c([4, 3]), begin=c([0, 1]), end=c([4, 3]), strides=c([2, 1]), dy=g)))
    op("TensorStridedSliceUpdate", [_f32(4, 3), _f32(2, 2)], lambda x, v: outs(_raw(
        "TensorStridedSliceUpdate", input=x, begin=c([0, 1]), end=c([2, 3]), strides=c([1, 1]), value=v)))
    for name in ("TensorScatterAdd", "TensorScatterMax", "TensorScatterMin", "TensorScatterSub",
                 "TensorScatterUpdate"):
        op(name, [_f32(4), _f32(2)], (lambda n: lambda t, u: outs(_raw(
            n, tensor=t, indices=c([[0], [2]]), updates=u)))(name))
    op("TopKV2", [_f32(2, 4)], lambda x: outs(_raw("TopKV2", input=x, k=c(2))))
    op("ApproxTopK", [_f32(2, 8)], lambda x: outs(_raw("ApproxTopK", input=x, k=2)))
    op("TridiagonalMatMul", [_f32(1, 3)] * 3 + [_f32(3, 2)], lambda a, b, d, r: outs(_raw(
        "TridiagonalMatMul", superdiag=a, maindiag=b, subdiag=d, rhs=r)))
    op("TridiagonalSolve", [_f32(3, 3), _f32(3, 2)],
       lambda d, r: outs(_raw("TridiagonalSolve", diagonals=d, rhs=r, partial_pivoting=False)))
    op("MatrixSolve", [_f32(3, 3), _f32(3, 2)], lambda m, r: outs(_raw("MatrixSolve", matrix=m, rhs=r)))
    op("MatrixTriangularSolve", [_f32(3, 3), _f32(3, 2)],
       lambda m, r: outs(_raw("MatrixTriangularSolve", matrix=m, rhs=r)))
    op("Unpack", [_f32(2, 3)], lambda x: outs(_raw("Unpack", value=x, num=2)))
    op("UniqueV2", [_spec(i32, 4)], lambda x: outs(_raw("UniqueV2", x=x, axis=c([0]))))
    op("Where", [_spec(tf.bool, 4)], lambda x: outs(_raw("Where", input=x)))
    op("ExtractImagePatches", [_f32(1, 3, 3, 1)], lambda x: outs(_raw(
        "ExtractImagePatches", images=x, ksizes=[1, 2, 2, 1], strides=[1, 1, 1, 1], rates=[1, 1, 1, 1],
        padding="VALID")))
    op("CollectiveReduceV2", [_f32(2)], lambda x: outs(_raw(
        "CollectiveReduceV2", input=x, group_size=c(1), group_key=c(1), instance_key=c(1), ordering_token=[],
        merge_op="Add", final_op="Id")))
    op("CollectiveAssignGroupV2", [], lambda: outs(_raw(
        "CollectiveAssignGroupV2", group_assignment=c([[0]]), device_index=c(0), base_key=c(1))))
    op("Dequantize", [_spec(tf.qint8, 2)], lambda x: outs(_raw(
        "Dequantize", input=x, min_range=c(0.0), max_range=c(1.0))))
    op("UniformQuantize", [_f32(2)], lambda x: outs(_raw(
        "UniformQuantize", input=x, scales=c(0.5), zero_points=c(0), Tout=tf.qint8,
        quantization_min_val=-128, quantization_max_val=127)))
    op("UniformDequantize", [_spec(tf.qint8, 2)], lambda x: outs(_raw(
        "UniformDequantize", input=x, scales=c(0.5), zero_points=c(0), Tout=f32,
        quantization_min_val=-128, quantization_max_val=127)))
    op("UniformRequantize", [_spec(tf.qint32, 2)], lambda x: outs(_raw(
        "UniformRequantize", input=x, input_scales=c(0.5), input_zero_points=c(0), output_scales=c(0.25),
        output_zero_points=c(0), Tout=tf.qint8, input_quantization_min_val=-2 ** 31,
        input_quantization_max_val=2 ** 31 - 1, output_quantization_min_val=-128,
        output_quantization_max_val=127)))
    op("UniformQuantizedClipByValue", [_spec(tf.qint32, 2), _spec(tf.qint32), _spec(tf.qint32)],
       lambda x, lo, hi: outs(_raw(
        "UniformQuantizedClipByValue", operand=x, min=lo, max=hi, scales=c(0.5),
        zero_points=c(0), quantization_min_val=-2 ** 31, quantization_max_val=2 ** 31 - 1)))
    q8 = dict(lhs_quantization_min_val=-128, lhs_quantization_max_val=127, rhs_quantization_min_val=-128,
              rhs_quantization_max_val=127)
    q32 = dict(output_quantization_min_val=-2 ** 31, output_quantization_max_val=2 ** 31 - 1)
    scales = lambda: dict(lhs_scales=c(0.5), lhs_zero_points=c(0), rhs_scales=c(0.5), rhs_zero_points=c(0),
                          output_scales=c(0.25), output_zero_points=c(0))
    op("UniformQuantizedAdd", [_spec(tf.qint32, 2), _spec(tf.qint32, 2)], lambda a, b: outs(_raw(
        "UniformQuantizedAdd", lhs=a, rhs=b, lhs_quantization_min_val=-2 ** 31,
        lhs_quantization_max_val=2 ** 31 - 1, rhs_quantization_min_val=-2 ** 31,
        rhs_quantization_max_val=2 ** 31 - 1, **q32, **scales())))
    op("UniformQuantizedDot", [_spec(tf.qint8, 2, 3), _spec(tf.qint8, 3, 2)], lambda a, b: outs(_raw(
        "UniformQuantizedDot", lhs=a, rhs=b, Tout=tf.qint32, **q8, **q32, **scales())))
    op("UniformQuantizedConvolution", [_spec(tf.qint8, 1, 2, 3, 3), _spec(tf.qint8, 2, 2, 2, 2)],
       lambda a, b: outs(_raw("UniformQuantizedConvolution", lhs=a, rhs=b, Tout=tf.qint32, padding="VALID",
                              window_strides=[1, 1], lhs_dilation=[1, 1], rhs_dilation=[1, 1],
                              dimension_numbers=_quant_conv_dims(input_batch_dimension=0,
                                  input_feature_dimension=1, input_spatial_dimensions=[2, 3],
                                  kernel_output_feature_dimension=0, kernel_input_feature_dimension=1,
                                  kernel_spatial_dimensions=[2, 3], output_batch_dimension=0,
                                  output_feature_dimension=1, output_spatial_dimensions=[2, 3]),
                              **q8, **q32, **scales())))
    return O


def _noop_then(x):
    tf = _tf()
    with tf.control_dependencies([tf.raw_ops.NoOp()]):
        return tf.identity(x)


def _assert_then(x):
    tf = _tf()
    with tf.control_dependencies([tf.raw_ops.Assert(condition=tf.reduce_all(x > -1.0), data=[x])]):
        return tf.identity(x)


def _send_then(x):
    tf = _tf()
    with tf.control_dependencies([_raw("XlaSend", tensor=x, tensor_name="probe")]):
        return tf.identity(x)


def _effect_then(op, x):
    tf = _tf()
    with tf.control_dependencies([op]):
        return tf.identity(x)


def _xla_proto(name, **fields):
    from tensorflow.compiler.xla import xla_data_pb2
    return getattr(xla_data_pb2, name)(**fields).SerializeToString()


def _quant_conv_dims(**fields):
    from tensorflow.core.util.quantization import uniform_quant_ops_attr_pb2
    return uniform_quant_ops_attr_pb2.UniformQuantizedConvolutionDimensionNumbersAttr(
        **fields).SerializeToString()


def _replicated():
    from tensorflow.compiler.xla import xla_data_pb2
    return xla_data_pb2.OpSharding(type=xla_data_pb2.OpSharding.REPLICATED).SerializeToString()


def _xla_call_module(x):
    """tf.XlaCallModule of a one-op StableHLO module (serialized as TF expects)."""
    tf = _tf()
    from tensorflow.compiler.mlir.stablehlo import stablehlo
    module = ("module @probe { func.func public @main(%arg0: tensor<2xf32>) -> tensor<2xf32> {\n"
              "  %0 = stablehlo.negate %arg0 : tensor<2xf32>\n  return %0 : tensor<2xf32>\n} }")
    target = stablehlo.get_current_version() if hasattr(stablehlo, "get_current_version") else "1.0.0"
    serialized = stablehlo.serialize_portable_artifact_str(module, target)
    return _results(_raw("XlaCallModule", args=[x], version=9, module=serialized, Sout=[[2]], Tout=[tf.float32],
                         platforms=["CPU"], dim_args_spec=[]))


def _stack(x, name):
    tf = _tf()
    handle = tf.raw_ops.StackV2(max_size=tf.constant(4), elem_type=tf.float32)
    pushed = tf.raw_ops.StackPushV2(handle=handle, elem=x)
    with tf.control_dependencies([pushed]):
        popped = tf.raw_ops.StackPopV2(handle=handle, elem_type=tf.float32)
    with tf.control_dependencies([popped]):
        closed = tf.raw_ops.StackCloseV2(handle=handle)
    with tf.control_dependencies([closed]):
        return tf.identity(popped)


def _tensor_array(x, name):
    tf = _tf()
    c = tf.constant
    handle, flow = tf.raw_ops.TensorArrayV3(size=c(2), dtype=tf.float32, element_shape=[2])
    flow = tf.raw_ops.TensorArrayWriteV3(handle=handle, index=c(0), value=x, flow_in=flow)
    flow = tf.raw_ops.TensorArrayScatterV3(handle=handle, indices=c([1]), value=tf.expand_dims(x, 0),
                                           flow_in=flow)
    read = tf.raw_ops.TensorArrayReadV3(handle=handle, index=c(0), flow_in=flow, dtype=tf.float32)
    results = [read]
    if name == "TensorArrayGatherV3":
        results.append(tf.raw_ops.TensorArrayGatherV3(handle=handle, indices=c([0, 1]), flow_in=flow,
                                                      dtype=tf.float32, element_shape=[2]))
    elif name == "TensorArrayConcatV3":
        results.append(tf.raw_ops.TensorArrayConcatV3(handle=handle, flow_in=flow, dtype=tf.float32,
                                                      element_shape_except0=[])[0])
    elif name == "TensorArraySplitV3":
        flow2 = tf.raw_ops.TensorArraySplitV3(handle=handle, value=tf.concat([x, x], 0),
                                              lengths=c([2, 2], tf.int64), flow_in=flow)
        results.append(tf.raw_ops.TensorArrayReadV3(handle=handle, index=c(1), flow_in=flow2, dtype=tf.float32))
    elif name == "TensorArraySizeV3":
        results.append(tf.raw_ops.TensorArraySizeV3(handle=handle, flow_in=flow))
    elif name == "TensorArrayGradV3":
        grad, gflow = tf.raw_ops.TensorArrayGradV3(handle=handle, flow_in=flow, source="probe")
        gflow = tf.raw_ops.TensorArrayWriteV3(handle=grad, index=c(0), value=x, flow_in=gflow)
        results.append(tf.raw_ops.TensorArrayReadV3(handle=grad, index=c(0), flow_in=gflow, dtype=tf.float32))
    elif name == "TensorArrayCloseV3":
        with tf.control_dependencies([read]):
            close = tf.raw_ops.TensorArrayCloseV3(handle=handle)
        with tf.control_dependencies([close]):
            results = [tf.identity(read)]
    return results


def _tensor_list(x, name):
    tf = _tf()
    c = tf.constant
    f32 = tf.float32
    shape = c([3])
    if name in ("EmptyTensorList", "TensorListPushBack", "TensorListPopBack", "TensorListLength"):
        handle = tf.raw_ops.EmptyTensorList(element_shape=shape, max_num_elements=c(2), element_dtype=f32)
        handle = tf.raw_ops.TensorListPushBack(input_handle=handle, tensor=x[0])
        handle = tf.raw_ops.TensorListPushBack(input_handle=handle, tensor=x[1])
        if name == "TensorListLength":
            return [tf.raw_ops.TensorListLength(input_handle=handle)]
        _, item = tf.raw_ops.TensorListPopBack(input_handle=handle, element_shape=shape, element_dtype=f32)
        return [item]
    if name in ("TensorListReserve", "TensorListSetItem", "TensorListGetItem"):
        handle = tf.raw_ops.TensorListReserve(element_shape=shape, num_elements=c(2), element_dtype=f32)
        handle = tf.raw_ops.TensorListSetItem(input_handle=handle, index=c(1), item=x[0])
        return [tf.raw_ops.TensorListGetItem(input_handle=handle, index=c(1), element_shape=shape,
                                             element_dtype=f32)]
    if name == "TensorListSplit":
        handle = tf.raw_ops.TensorListSplit(tensor=tf.reshape(x, [6]), element_shape=c([-1]),
                                            lengths=c([3, 3], tf.int64))
        return [tf.raw_ops.TensorListGetItem(input_handle=handle, index=c(1), element_shape=shape,
                                             element_dtype=f32)]
    handle = tf.raw_ops.TensorListFromTensor(tensor=x, element_shape=shape)
    if name == "TensorListGather":
        return [tf.raw_ops.TensorListGather(input_handle=handle, indices=c([1, 0]), element_shape=shape,
                                            element_dtype=f32)]
    if name == "TensorListConcatV2":
        return [tf.raw_ops.TensorListConcatV2(input_handle=handle, element_shape=shape, element_dtype=f32,
                                              leading_dims=c([], tf.int64))[0]]
    if name == "TensorListElementShape":
        return [tf.raw_ops.TensorListElementShape(input_handle=handle, shape_type=tf.int32)]
    return [tf.raw_ops.TensorListStack(input_handle=handle, element_shape=shape, element_dtype=f32,
                                       num_elements=2)]


# -- Conversion ------------------------------------------------------------

def _resource_type(variable):
    dtype = variable.dtype
    element = {"float32": "f32", "int64": "i64", "int32": "i32", "float64": "f64"}[dtype.name]
    dims = "".join(f"{d}x" for d in variable.shape)
    return f"tensor<!tf_type.resource<tensor<{dims}{element}>>>"


def convert(sample, op_name):
    """The sample as a device program: tf-dialect text, entry @main, shapes refined."""
    tf = _tf()

    def sample_fn(*args):
        return sample.body(*args)

    fn = tf.function(sample_fn, input_signature=sample.specs, autograph=False)
    concrete = fn.get_concrete_function()
    text = tf.mlir.experimental.convert_function(concrete, pass_pipeline=CONVERT_PIPELINE)
    entry = re.search(r"func\.func @([\w.$-]+)\(", text).group(1)
    text = re.sub(r"@%s(?![\w.$-])" % re.escape(entry), "@main", text)
    # TF imports captured variables as untyped resources; give them the
    # variable's type (as the bridge's device programs have them).
    types = {_resource_type(v) for v in sample.variables}
    if len(types) > 1:
        raise Unbuildable("variables of different types in one sample")
    if types:
        text = text.replace("tensor<*x!tf_type.resource>", types.pop())
    text = tf.mlir.experimental.run_pass_pipeline(text, "tf-shape-inference")
    mlir_name = "tf." + MLIR_NAMES.get(op_name, op_name)
    if f'"{mlir_name}"' not in text and f"{mlir_name}(" not in text and f" {mlir_name} " not in text:
        raise Unbuildable(f"the sample holds no {mlir_name} after TensorFlow's import")
    return text


def build(op_name, opdef, overrides):
    """(program text, None) or (None, reason)."""
    if op_name in NOT_PROBED:
        return None, NOT_PROBED[op_name]
    errors = []
    if op_name in overrides:
        candidates = [overrides[op_name]]
    else:
        candidates = [(lambda r: lambda: heuristic(opdef, r))(r) for r in RANKS]
    for make in candidates:
        try:
            sample = make()
            return convert(sample, op_name), None
        except Unbuildable as err:
            errors.append(str(err))
        except Exception as err:  # TF refused the sample: try the next
            errors.append(f"{type(err).__name__}: {str(err).strip().splitlines()[0] if str(err).strip() else ''}")
    return None, "no sample TensorFlow accepts: " + _scrub(errors[0] if errors else "no candidate")


def _scrub(text):
    """Error text without what varies from run to run (counters, addresses, paths)."""
    text = re.sub(r"0x[0-9a-f]+", "0x?", text)
    text = re.sub(r"(_inference_[\w<>]+?)_\d+(__\.\d+|_\d+)*\b", r"\1_N", text)
    text = re.sub(r"(/[\w.\-]+)+\.py", "<file>.py", text)
    return text[:300]


def main():
    from tensorflow.core.config import flags
    # The fast path of TF's op construction wants every attribute given; the
    # general one fills in defaults.
    flags.config().graph_building_optimization.reset(False)
    out = sys.stdout
    sys.stdout = sys.stderr
    with open(REGISTRY) as f:
        opdefs = {o["name"]: o for o in json.load(f)["ops"]}
    overrides = _overrides()
    for line in sys.stdin:
        op_name = line.strip()
        if not op_name:
            continue
        program, reason = build(op_name, opdefs.get(op_name), overrides)
        record = {"op": op_name, "program": program} if program else {"op": op_name, "not_probed": reason}
        out.write(json.dumps(record) + "\n")
        out.flush()


if __name__ == "__main__":
    main()
