"""Generates per-op shape-function cases and TensorFlow's graph-construction shapes for them.

Run as a script in a subprocess (keeps TensorFlow out of the pytest process):

    python shape_function_cases.py OUTDIR

Writes ``OUTDIR/cases.json`` (read by ``test_shape_functions.py`` through
:mod:`generated_inputs`, which caches it by this file's hash).

Op instances are harvested from real programs: corpus models
(:mod:`tfmlir.testing.corpus`: ResNet50, MobileNetV2, a transformer encoder, an
LSTM, frozen and not), a TF2 program with ``tf.while_loop`` / ``tf.cond`` /
``TensorArray`` / variables, TPU programs built on CPU with
``tf.compat.v1.tpu.rewrite`` / ``replicate`` (never run), and hand-listed TPU,
XLA, collective, variable and TensorList ops built in a ``tf.Graph``. An
instance is deduplicated by (op type, input dtypes and shapes, the values of
inputs read as constants, attributes), at most :data:`MAX_CASES_PER_OP` per op
type (distinct attribute / constant patterns first).

Every case is one GraphDef holding one subgraph per shape variant (node names
``<variant>/...``): placeholders for the non-constant inputs, ``Const`` nodes
for small integer / bool / float inputs whose value TF knew statically (what
shape functions read: Reshape's shape, axes, StridedSlice's begin/end, ...),
``VarHandleOp`` / ``EmptyTensorList`` producers for resource / TensorList inputs
with handle data, and the op under test as ``<variant>/op`` carrying the
attribute ``_shape_case = "<variant>"`` (an extra attribute, ignored by shape
functions) so it can be found after import. The variants (identical ones are
dropped):

* ``known``: the shapes the op had in its program;
* ``batch``: the first dimension of every non-constant input unknown;
* ``dims``: every dimension unknown, ranks known;
* ``unranked``: every non-constant input of unknown rank (resources / lists
  without handle data);
* ``noconst``: the constant inputs as placeholders of the same shape.

Recorded for each variant (oracle 1): the shapes TF's C++ shape functions give
the op's outputs when the subgraph is imported into a ``tf.Graph``
(``op.outputs[i].shape``) with dtypes and handle data (resource / variant
subtypes). A variant TF rejects is recorded with TF's message and left out of
the case's GraphDef. For the whole case: TF's own MLIR import of the GraphDef
(``convert_graph_def(..., pass_pipeline="")``, shape inference on), to tell
where TF's importer itself differs from graph construction.
"""
import base64
import json
import os
import sys
import time

tf = None

MODELS = ("resnet50", "mobilenetv2", "transformer_encoder", "lstm")
MAX_CASES_PER_OP = 6
VARIANTS = ("known", "batch", "dims", "unranked", "noconst")
MARKER = "_shape_case"

# Not cases: they make the inputs (or nothing). v1 control flow becomes tf_executor ops,
# not tf ops, on import.
SKIP_OPS = {"Placeholder", "Const", "NoOp", "_Arg", "_Retval", "_DeviceArg", "_DeviceRetval",
            "Switch", "Merge", "Enter", "Exit", "NextIteration", "LoopCond", "RefSwitch", "RefMerge",
            "RefEnter", "RefExit", "RefNextIteration", "ControlTrigger"}
# Non-OpDef attributes a shape function may read.
EXTRA_ATTRS = {"_disable_call_shape_inference"}

_CONST_DTYPES = None          # filled in main(): dtypes whose small static values become Const
_INT_VALUE_LIMIT = 64         # elements of an integer / bool value kept as a constant
_FLOAT_VALUE_LIMIT = 4        # elements of a float value kept as a constant (Range, LinSpace)


# --------------------------------------------------------------------------- harvesting

def _shape(shape):
    """TensorShape -> None (unknown rank) or a list with -1 for unknown dimensions."""
    if shape.rank is None:
        return None
    return [-1 if d is None else int(d) for d in shape.as_list()]


def _shape_of_proto(proto):
    if proto.unknown_rank:
        return None
    return [int(d.size) for d in proto.dim]


def _handle(tensor):
    """Handle data of a resource / variant tensor: [{dtype, shape, type_id}], or None."""
    if tensor.dtype not in (tf.resource, tf.variant):
        return None
    from tensorflow.python.ops import handle_data_util
    try:
        data = handle_data_util.get_resource_handle_data(tensor)
    except Exception:  # noqa: BLE001  (no handle data recorded)
        return None
    if not data.is_set or not data.shape_and_type:
        return None
    return [{"dtype": int(st.dtype), "shape": _shape_of_proto(st.shape), "type_id": int(st.type.type_id)}
            for st in data.shape_and_type]


def _static_value(tensor):
    if tensor.dtype not in _CONST_DTYPES:
        return None
    n = tensor.shape.num_elements()
    limit = _FLOAT_VALUE_LIMIT if tensor.dtype.is_floating else _INT_VALUE_LIMIT
    if n is None or n > limit:
        return None
    try:
        value = tf.get_static_value(tensor)
    except Exception:  # noqa: BLE001
        return None
    if value is None:
        return None
    import numpy as np
    value = np.asarray(value)
    if list(value.shape) != _shape(tensor.shape):
        return None
    return value


def _function_names(attr_map):
    names = []
    for value in attr_map.values():
        kind = value.WhichOneof("value")
        if kind == "func":
            names.append(value.func.name)
        elif kind == "list":
            names.extend(f.name for f in value.list.func)
    return names


def _closure(names, library):
    """The FunctionDefs of `library` that `names` need, transitively (name order kept)."""
    if library is None:
        return []
    by_name = {f.signature.name: f for f in library.function}
    out, seen, todo = [], set(), list(names)
    while todo:
        name = todo.pop(0)
        if not name or name in seen or name not in by_name:
            continue
        seen.add(name)
        fdef = by_name[name]
        out.append(fdef)
        for node in fdef.node_def:
            todo.extend(_function_names(node.attr))
            if node.op in by_name:   # a direct call of a library function
                todo.append(node.op)
    return out


class Harvest:
    """Op instances, deduplicated; ``per_op`` keeps them per op type in discovery order."""

    def __init__(self):
        from tensorflow.python.framework import op_def_registry
        self.op_defs = op_def_registry
        self.by_key = {}
        self.per_op = {}
        self.seen = {}    # source -> op instances looked at

    def graph(self, graph, library, source, *, no_outputs_too=False):
        for op in graph.get_operations():
            self.seen[source] = self.seen.get(source, 0) + 1
            try:
                self.op(op, library, source, no_outputs_too=no_outputs_too)
            except Exception as exc:  # noqa: BLE001  (one odd op must not stop the harvest)
                print(f"harvest {source}: {op.type} {op.name}: {exc}", file=sys.stderr)

    def op(self, op, library, source, *, no_outputs_too=False):
        if op.type in SKIP_OPS or (not op.outputs and not no_outputs_too):
            return
        op_def = self.op_defs.get(op.type)
        if op_def is None:
            return
        inputs = []
        for t in op.inputs:
            if t.dtype._is_ref_dtype:
                return
            entry = {"dtype": int(t.dtype.as_datatype_enum), "shape": _shape(t.shape)}
            value = _static_value(t)
            if value is not None:
                entry["value"] = value.tolist()
                entry["value_dtype"] = str(value.dtype)
            handle = _handle(t)
            if handle:
                entry["handle"] = handle
            inputs.append(entry)
        names = {a.name for a in op_def.attr} | EXTRA_ATTRS
        attrs = {k: v for k, v in op.node_def.attr.items() if k in names}
        attr_key = tuple(sorted((k, v.SerializeToString(deterministic=True)) for k, v in attrs.items()))
        key = (op.type, json.dumps(inputs, sort_keys=True), attr_key)
        found = self.by_key.get(key)
        if found is not None:
            if source not in found["sources"]:
                found["sources"].append(source)
            return
        case = {"op": op.type, "inputs": inputs, "attrs": attrs, "sources": [source],
                "functions": _closure(_function_names(attrs), library),
                "pattern": (attr_key, tuple("value" in i for i in inputs))}
        self.by_key[key] = case
        self.per_op.setdefault(op.type, []).append(case)

    def selected(self):
        """At most MAX_CASES_PER_OP cases per op type: one per distinct attribute / constant
        pattern first, then the rest in discovery order."""
        out = {}
        for op_type, cases in sorted(self.per_op.items()):
            first, rest, patterns = [], [], set()
            for case in cases:
                if case["pattern"] in patterns:
                    rest.append(case)
                else:
                    patterns.add(case["pattern"])
                    first.append(case)
            out[op_type] = (first + rest)[:MAX_CASES_PER_OP]
        return out


def _graph_of(graph_def):
    g = tf.Graph()
    with g.as_default():
        tf.graph_util.import_graph_def(graph_def, name="")
    return g


def _library_graphs(library, source, harvest):
    from tensorflow.core.framework import graph_pb2
    from tensorflow.python.framework.function_def_to_graph import function_def_to_graph
    outer = _graph_of(graph_pb2.GraphDef(library=library))  # where nested calls are looked up
    for fdef in library.function:
        try:
            with outer.as_default():
                fg = function_def_to_graph(fdef, include_library_functions=True)
        except Exception as exc:  # noqa: BLE001
            print(f"harvest {source}: function {fdef.signature.name}: {exc}", file=sys.stderr)
            continue
        harvest.graph(fg, library, source)


def _harvest_graph_def(graph_def, source, harvest):
    harvest.graph(_graph_of(graph_def), graph_def.library, source)
    _library_graphs(graph_def.library, source, harvest)


def _harvest_models(protos, harvest):
    from tensorflow.core.framework import graph_pb2
    for name, p in protos.items():
        with open(p["frozen"]["path"], "rb") as f:
            frozen = graph_pb2.GraphDef.FromString(f.read())
        _harvest_graph_def(frozen, name, harvest)
        # The traced (unfrozen) graph: variable reads, calls.
        traced = graph_pb2.GraphDef.FromString(p["graph_def"])
        if p["library"] is not None:
            from tensorflow.core.framework import function_pb2
            lib = function_pb2.FunctionDefLibrary.FromString(p["library"])
            have = {f.signature.name for f in traced.library.function}
            for fdef in lib.function:
                if fdef.signature.name not in have:
                    traced.library.function.add().CopyFrom(fdef)
        _harvest_graph_def(traced, name + ":traced", harvest)


def _tf2_program(harvest):
    """A TF2 function with while_loop, cond, TensorArrays and variables."""
    v = tf.Variable(tf.ones([3, 4]), name="v")
    counter = tf.Variable(0, name="counter")
    table = tf.Variable(tf.zeros([10, 4]), name="table")

    @tf.function(input_signature=[tf.TensorSpec([None, 4], tf.float32), tf.TensorSpec([], tf.int32),
                                  tf.TensorSpec([5], tf.int32)])
    def program(x, n, ids):
        ta = tf.TensorArray(tf.float32, size=n, element_shape=[4])
        grow = tf.TensorArray(tf.float32, size=0, dynamic_size=True)

        def body(i, ta, grow, acc):
            row = tf.gather(x, tf.minimum(i, tf.shape(x)[0] - 1))
            acc = tf.cond(i % 2 == 0, lambda: acc + row, lambda: acc * 0.5)
            grow = grow.write(i, tf.expand_dims(acc, 0))
            return i + 1, ta.write(i, acc), grow, acc

        _, ta, grow, acc = tf.while_loop(lambda i, *_: i < n, body, [0, ta, grow, tf.zeros([4])])
        stacked = ta.stack()
        grown = grow.concat()
        y = tf.matmul(stacked, tf.transpose(v))
        emb = tf.nn.embedding_lookup(table, ids)
        v.assign_add(tf.ones_like(v) * tf.reduce_mean(acc))
        counter.assign_add(1)
        z = tf.cond(counter > 3, lambda: tf.reduce_sum(y, axis=1), lambda: tf.reduce_max(y, axis=1))
        first = ta.read(0)
        sizes = tf.stack([ta.size(), grow.size()])
        return y, z, emb, grown, first, sizes, v.read_value(), tf.shape(stacked)

    concrete = program.get_concrete_function()
    harvest.graph(concrete.graph, concrete.graph.as_graph_def().library, "tf2_program")
    _library_graphs(concrete.graph.as_graph_def().library, "tf2_program", harvest)
    return (v, counter, table)


def _tf2_layers_program(harvest):
    """A TF2 function over many common array / math / nn ops (the models above use few)."""
    f32 = tf.float32

    @tf.function(input_signature=[tf.TensorSpec([2, 8, 8, 3], f32), tf.TensorSpec([None, 6], f32),
                                  tf.TensorSpec([4], tf.int32), tf.TensorSpec([None], tf.int64),
                                  tf.TensorSpec([5, 3], f32)])
    def program(img, x, idx, ids, logits):
        out = []
        conv = tf.nn.conv2d(img, tf.ones([3, 3, 3, 4]), strides=2, padding="SAME")
        out.append(tf.nn.avg_pool2d(conv, 2, 2, "VALID"))
        out.append(tf.nn.max_pool2d(img, 3, 1, "SAME"))
        out.extend(tf.compat.v1.nn.fused_batch_norm(conv, tf.ones([4]), tf.zeros([4]), is_training=True))
        out.append(tf.image.resize(img, [4, 4]))
        out.append(tf.image.resize(img, [16, 16], method="nearest"))
        out.append(tf.nn.depth_to_space(conv, 2))
        out.append(tf.nn.space_to_depth(img, 2))
        out.append(tf.nn.conv2d_transpose(conv, tf.ones([3, 3, 3, 4]), [2, 8, 8, 3], 2))
        out.append(tf.nn.conv3d(tf.reshape(img, [2, 4, 2, 8, 3]), tf.ones([2, 2, 2, 3, 5]),
                                [1, 1, 1, 1, 1], "VALID"))
        out.append(tf.nn.depthwise_conv2d(img, tf.ones([3, 3, 3, 2]), [1, 1, 1, 1], "SAME"))
        out.append(tf.nn.l2_normalize(x, axis=1))
        out.append(tf.nn.log_softmax(logits))
        out.append(tf.nn.leaky_relu(x))
        out.append(tf.nn.elu(x) + tf.nn.selu(x) + tf.nn.softplus(x))
        out.append(tf.cast(x, tf.int32))
        out.append(tf.concat([x, x * 2.0], axis=1))
        out.append(tf.concat([x, x], axis=0))
        out.append(tf.fill([3, 2], 1.0))
        out.append(tf.zeros_like(x) + tf.ones_like(x))
        out.append(tf.tile(x, [2, 1]))
        out.append(tf.slice(x, [0, 1], [-1, 3]))
        out.append(x[1:, ::2])
        out.append(x[:, 3])
        out.append(tf.sqrt(tf.abs(x)) + tf.exp(x) + tf.math.log1p(tf.square(x)) + tf.floor(x))
        out.append(tf.where(x > 0, x, -x))
        out.append(tf.where(x > 0))
        out.append(tf.one_hot(idx, 5))
        out.append(tf.argmax(x, axis=1))
        out.append(tf.argmin(logits, axis=0))
        out.extend(tf.math.top_k(x, 2))
        out.append(tf.cumsum(x, axis=1))
        out.append(tf.math.cumprod(logits, axis=0, exclusive=True))
        out.append(tf.gather_nd(x, [[0, 1], [1, 2]]))
        out.append(tf.gather(logits, idx, axis=0))
        out.append(tf.gather(logits, [[0, 1], [2, 0]], axis=1))
        out.append(tf.scatter_nd(tf.reshape(idx, [4, 1]), tf.ones([4, 3]), [8, 3]))
        out.append(tf.tensor_scatter_nd_update(logits, [[0], [2]], tf.ones([2, 3])))
        out.extend(tf.unstack(logits))
        out.extend(tf.split(x, [2, 4], axis=1))
        out.extend(tf.split(logits, 3, axis=1))
        out.append(tf.broadcast_to(tf.ones([1, 6]), [5, 6]))
        out.append(tf.broadcast_dynamic_shape(tf.shape(x), [1, 6]))
        out.extend(tf.unique(ids))
        out.append(tf.math.unsorted_segment_sum(logits, [0, 1, 0, 2, 1], 3))
        out.append(tf.math.segment_sum(logits, [0, 0, 1, 1, 2]))
        out.append(tf.add_n([x, x, x]))
        out.append(tf.nn.softmax_cross_entropy_with_logits(tf.ones([5, 3]), logits))
        out.append(tf.nn.sparse_softmax_cross_entropy_with_logits(tf.constant([0, 1, 2, 0, 1]), logits))
        out.append(tf.random.uniform([3, 4]))
        out.append(tf.random.normal(tf.shape(x)))
        out.append(tf.random.stateless_uniform([2, 3], seed=[1, 2]))
        out.append(tf.random.categorical(logits, 4))
        out.append(tf.linspace(0.0, 1.0, 5))
        out.append(tf.range(2, 11, 3))
        out.append(tf.pad(logits, [[1, 0], [0, 2]], mode="REFLECT"))
        out.append(tf.pad(x, [[1, 1], [2, 0]], constant_values=1.0))
        out.append(tf.reverse(logits, [1]))
        out.append(tf.rank(x) + tf.size(x))
        out.append(tf.shape_n([x, logits])[1])
        out.append(tf.einsum("ij,jk->ik", logits, tf.ones([3, 2])))
        out.append(tf.linalg.diag_part(tf.ones([3, 4])))
        out.append(tf.linalg.diag(logits))
        out.append(tf.linalg.band_part(logits, 1, 0))
        out.append(tf.math.bincount(tf.cast(ids, tf.int32), minlength=4))
        out.append(tf.reduce_prod(x, axis=[0, 1], keepdims=True))
        out.append(tf.reduce_all(x > 0, axis=0) | tf.reduce_any(x < 0, axis=0))
        out.append(tf.reduce_min(logits, axis=-1))
        out.append(tf.expand_dims(logits, -1))
        out.append(tf.squeeze(tf.ones([1, 3, 1]), axis=[0]))
        out.append(tf.transpose(img, [0, 3, 1, 2]))
        out.append(tf.reshape(x, [-1, 2, 3]))
        out.append(tf.reshape(logits, tf.shape(x)[:1]))
        out.append(tf.clip_by_value(x, -1.0, 1.0))
        out.append(tf.math.maximum(x, 0.5) - tf.math.floordiv(x, 2.0) + tf.math.pow(x, 2.0))
        out.append(tf.math.is_nan(x))
        out.append(tf.math.logical_not(x > 0))
        out.append(tf.stack([logits, logits], axis=1))
        out.append(tf.matmul(logits, logits, transpose_a=True))
        out.append(tf.linalg.matmul(tf.ones([2, 5, 3]), tf.ones([3, 4])))
        out.append(tf.bitwise.left_shift(idx, 1))
        out.append(tf.strings.length(tf.strings.as_string(x)))
        out.append(tf.strings.join([tf.strings.as_string(logits), "a"]))
        out.append(tf.identity_n([x, logits])[0])
        out.append(tf.ensure_shape(x, [None, 6]))
        out.append(tf.compat.v1.placeholder_with_default(logits, [None, 3]))
        out.append(tf.math.invert_permutation(idx))
        out.append(tf.image.rgb_to_grayscale(img))
        out.append(tf.nn.bias_add(conv, tf.ones([4])))
        out.append(tf.math.reciprocal(x) * tf.math.sign(x) * tf.math.rsqrt(x) * tf.math.tanh(x))
        out.append(tf.math.mod(idx, 3))
        out.append(tf.math.equal(idx, 2))
        out.append(tf.math.top_k(logits, 1).indices)
        return [tf.reduce_sum(tf.cast(t, f32)) for t in out]

    concrete = program.get_concrete_function()
    harvest.graph(concrete.graph, concrete.graph.as_graph_def().library, "tf2_layers")
    _library_graphs(concrete.graph.as_graph_def().library, "tf2_layers", harvest)


def _tpu_programs(harvest):
    """tpu.rewrite / tpu.replicate graphs (built on CPU, never run)."""
    from tensorflow.python.tpu import tpu

    g = tf.Graph()
    with g.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [4, 8], name="x")
        ids = tf.compat.v1.placeholder(tf.int32, [6], name="ids")
        w = tf.compat.v1.get_variable("w", initializer=tf.ones([8, 8]), use_resource=True)
        emb = tf.compat.v1.get_variable("emb", initializer=tf.zeros([16, 8]), use_resource=True)

        def step(a, i):
            h = tf.nn.relu(tf.matmul(a, w))
            e = tf.gather(emb, i)
            s = tf.compat.v1.tpu.outside_compilation(
                lambda t: tf.strings.to_number(tf.strings.as_string(t)) * 2.0, h)
            w.assign_sub(tf.matmul(tf.transpose(a), s) * 0.01)
            return tf.reduce_sum(h + s, axis=1), tf.reduce_mean(e, axis=0)

        tpu.rewrite(step, [x, ids])

        def replica_step(a):
            h = tf.matmul(a, w)
            total = tf.compat.v1.tpu.cross_replica_sum(h)
            return tf.reduce_sum(total, axis=0), tf.shape(h)

        tpu.replicate(replica_step, inputs=[[x], [x * 2.0]])
    harvest.graph(g, g.as_graph_def().library, "tpu_programs")


class Func:
    def __init__(self, name):
        self.name = name


def _attr_value(value):
    from tensorflow.core.framework import attr_value_pb2
    a = attr_value_pb2.AttrValue()
    if isinstance(value, bool):
        a.b = value
    elif isinstance(value, int):
        a.i = value
    elif isinstance(value, float):
        a.f = value
    elif isinstance(value, bytes):
        a.s = value
    elif isinstance(value, str):
        a.s = value.encode()
    elif isinstance(value, tf.DType):
        a.type = value.as_datatype_enum
    elif isinstance(value, tf.TensorShape):
        a.shape.CopyFrom(value.as_proto())
    elif isinstance(value, Func):
        a.func.name = value.name
    elif isinstance(value, (list, tuple)):
        a.list.SetInParent()
        for item in value:
            if isinstance(item, tf.DType):
                a.list.type.append(item.as_datatype_enum)
            elif isinstance(item, bool):
                a.list.b.append(item)
            elif isinstance(item, int):
                a.list.i.append(item)
            elif isinstance(item, (str, bytes)):
                a.list.s.append(item.encode() if isinstance(item, str) else item)
            elif isinstance(item, tf.TensorShape):
                a.list.shape.add().CopyFrom(item.as_proto())
            elif isinstance(item, Func):
                a.list.func.add().name = item.name
            else:
                raise TypeError(item)
    else:
        raise TypeError(value)
    return a


def _hand_ops(harvest):
    """TPU / XLA / collective / variable / TensorList ops built one by one."""
    from tensorflow.compiler.xla import xla_data_pb2 as xd

    g = tf.Graph()
    failures = []

    def ph(dtype, shape, name=None):
        return tf.compat.v1.placeholder(dtype, shape, name=name)

    def const(value, dtype=tf.int32):
        return tf.constant(value, dtype)

    def op(op_type, inputs, **attrs):
        try:
            return g._create_op_internal(op_type, list(inputs), name=op_type.lstrip("_"),
                                         attrs={k: _attr_value(v) for k, v in attrs.items()})
        except Exception as exc:  # noqa: BLE001
            failures.append({"op": op_type, "error": str(exc).splitlines()[0][:300]})
            return None

    def func(fn, *specs):
        concrete = tf.function(fn, autograph=False).get_concrete_function(*specs)
        concrete.add_to_graph(g)
        return Func(concrete.function_def.signature.name)

    f32, i32 = tf.float32, tf.int32
    scalar = tf.TensorSpec([], f32)
    with g.as_default():
        # ---- XLA ops (tf2xla), serialized xla protos as attributes
        dot = xd.DotDimensionNumbers(lhs_contracting_dimensions=[1], rhs_contracting_dimensions=[0])
        bdot = xd.DotDimensionNumbers(lhs_batch_dimensions=[0], rhs_batch_dimensions=[0],
                                      lhs_contracting_dimensions=[2], rhs_contracting_dimensions=[1])
        op("XlaDot", [ph(f32, [2, 3]), ph(f32, [3, 4])], T=f32,
           dimension_numbers=dot.SerializeToString(), precision_config=b"")
        op("XlaDot", [ph(f32, [5, 2, 3]), ph(f32, [5, 3, 4])], T=f32,
           dimension_numbers=bdot.SerializeToString(), precision_config=b"")
        op("XlaDotV2", [ph(tf.int8, [2, 3]), ph(tf.int8, [3, 4])], LhsT=tf.int8, RhsT=tf.int8,
           dimension_numbers=dot.SerializeToString(), precision_config=b"", preferred_element_type=i32)
        conv = xd.ConvolutionDimensionNumbers(
            input_batch_dimension=0, input_feature_dimension=3, input_spatial_dimensions=[1, 2],
            kernel_input_feature_dimension=2, kernel_output_feature_dimension=3,
            kernel_spatial_dimensions=[0, 1], output_batch_dimension=0, output_feature_dimension=3,
            output_spatial_dimensions=[1, 2]).SerializeToString()
        conv_inputs = [ph(f32, [1, 8, 8, 3]), ph(f32, [3, 3, 3, 4]), const([2, 2]), const([[1, 1], [0, 1]]),
                       const([1, 1]), const([1, 1]), const(1)]
        op("XlaConvV2", conv_inputs, LhsT=f32, RhsT=f32, Tindices=i32, dimension_numbers=conv,
           precision_config=b"", preferred_element_type=f32, batch_group_count=1)
        op("XlaConv", conv_inputs, T=f32, Tindices=i32, dimension_numbers=conv, precision_config=b"")
        gather = xd.GatherDimensionNumbers(offset_dims=[1], collapsed_slice_dims=[0], start_index_map=[0],
                                           index_vector_dim=1).SerializeToString()
        op("XlaGather", [ph(f32, [5, 3]), ph(i32, [4, 1]), const([1, 3])], T=f32, Tindices=i32,
           dimension_numbers=gather, indices_are_sorted=False)
        maximal = xd.OpSharding(type=xd.OpSharding.MAXIMAL, tile_assignment_devices=[0]).SerializeToString()
        tiled = xd.OpSharding(type=xd.OpSharding.OTHER, tile_assignment_dimensions=[2, 1],
                              tile_assignment_devices=[0, 1]).SerializeToString()
        manual = xd.OpSharding(type=xd.OpSharding.MANUAL).SerializeToString()
        op("XlaSharding", [ph(f32, [4, 4])], T=f32, sharding=maximal, unspecified_dims=[])
        op("XlaSharding", [ph(f32, [8, 4])], T=f32, sharding=tiled, unspecified_dims=[])
        op("XlaSpmdFullToShardShape", [ph(f32, [8, 4])], T=f32, manual_sharding=tiled, dim=-1,
           unspecified_dims=[])
        op("XlaSpmdShardToFullShape", [ph(f32, [4, 4])], T=f32, manual_sharding=tiled,
           full_shape=tf.TensorShape([8, 4]), dim=-1, unspecified_dims=[])
        op("XlaPad", [ph(f32, [3, 4]), ph(f32, []), const([1, 0]), const([0, 2]), const([0, 1])], T=f32,
           Tindices=i32)
        op("XlaDynamicSlice", [ph(f32, [5, 6]), ph(i32, [2]), const([2, 3])], T=f32, Tindices=i32)
        op("XlaDynamicUpdateSlice", [ph(f32, [5, 6]), ph(f32, [2, 3]), ph(i32, [2])], T=f32, Tindices=i32)
        op("XlaKeyValueSort", [ph(f32, [5]), ph(i32, [5])], K=f32, V=i32)
        op("XlaSort", [ph(f32, [5, 2])], T=f32)
        op("XlaBroadcastHelper", [ph(f32, [2, 3]), ph(f32, [3]), const([1])], T=f32, Tindices=i32)
        op("XlaEinsum", [ph(f32, [2, 3]), ph(f32, [3, 4])], T=f32, equation="ab,bc->ac")
        op("XlaSelfAdjointEig", [ph(f32, [3, 3])], T=f32, lower=True, max_iter=10, epsilon=1e-5)
        op("XlaSvd", [ph(f32, [4, 3])], T=f32, max_iter=10, epsilon=1e-5, precision_config=b"")
        op("XlaReplicaId", [])
        op("XlaSetDynamicDimensionSize", [ph(f32, [4, 5]), const(0), const(3)], T=f32)
        op("XlaRemoveDynamicDimensionSize", [ph(f32, [4, 5]), const(0)], T=f32)
        op("XlaOptimizationBarrier", [ph(f32, [2]), ph(i32, [3, 1])], T=[f32, i32])
        op("XlaRngBitGenerator", [const(0), ph(tf.uint64, [2]), const([3, 4])], dtype=tf.uint32,
           Tshape=i32)
        op("XlaAllReduce", [ph(f32, [4, 2]), const([[0, 1]])], T=f32, reduce_op="Add", mode="CrossReplica")
        op("XlaReduceScatter", [ph(f32, [4, 6]), const([[0, 1]]), const(0)], T=f32, reduce_op="Add")
        op("XlaConcatND", [ph(f32, [2, 3])] * 4, T=f32, N=4, num_concats=[2, 2], paddings=[0, 0])
        op("XlaSplitND", [ph(f32, [4, 6])], T=f32, N=4, num_splits=[2, 2], paddings=[0, 0])
        op("XlaRecvFromHost", [], Toutput=f32, shape=tf.TensorShape([2, 3]), key="recv")
        op("XlaSendToHost", [ph(f32, [2])], Tinput=f32, key="send")
        op("XlaCustomCallV2", [ph(f32, [2])], operand_dtypes=[f32], result_dtypes=[f32, i32],
           result_shapes=[tf.TensorShape([3]), tf.TensorShape([2, 2])], call_target_name="target",
           backend_config="", has_side_effect=False)
        op("XlaDequantize", [ph(tf.uint32, [2, 2])], min_range=0.0, max_range=1.0, mode="MIN_COMBINED",
           transpose_output=False)
        op("XlaClusterOutput", [ph(f32, [2, 3])], T=f32)
        op("XlaHostCompute", [ph(f32, [2])], Tinputs=[f32], Toutputs=[f32], ancestors=[],
           shapes=[tf.TensorShape([2, 3])], shape_inference_graph=Func(""), key="hc", send_key="s",
           recv_key="r", cost_estimate_ns=1000, tpu_core=0)
        op("_XlaHostComputeMlir", [ph(f32, [2])], Tinputs=[f32], Toutputs=[f32], send_key="s",
           recv_key="r", host_mlir_module="", manual_sharding=False)
        host_module = ("module {\n  func.func @host_func(%arg0: tensor<2xf32>) -> tensor<2x2xf32> {\n"
                       "    %0 = \"tf.Const\"() {value = dense<1.0> : tensor<2x2xf32>} : () -> tensor<2x2xf32>\n"
                       "    return %0 : tensor<2x2xf32>\n  }\n}\n")
        op("_XlaHostComputeMlir", [ph(f32, [2])], Tinputs=[f32], Toutputs=[f32], send_key="s2",
           recv_key="r2", host_mlir_module=host_module, manual_sharding=False)
        key = ph(tf.string, [3])
        op("_XlaRecvAtHost", [key], Toutputs=[f32, i32], key="host", device_ordinal=0, device_type="TPU")
        op("_XlaSendFromHost", [ph(f32, [2]), key], Tinputs=[f32], key="host", device_ordinal=0,
           device_type="TPU")
        op("_XlaRecvAtHostV2", [key, ph(tf.int64, [])], Toutputs=[f32], key="host2", device_type="TPU")
        op("_XlaSendFromHostV2", [ph(f32, [2]), key, ph(tf.int64, [])], Tinputs=[f32], key="host2",
           device_type="TPU")
        add = func(lambda a, b: a + b, scalar, scalar)
        op("XlaReduce", [ph(f32, [3, 4]), ph(f32, [])], T=f32, dimensions_to_reduce=[1], reducer=add)
        add2 = func(lambda a, b, c, d: (a + c, b + d), scalar, tf.TensorSpec([], i32), scalar,
                    tf.TensorSpec([], i32))
        op("XlaVariadicReduceV2", [ph(f32, [3, 4]), ph(i32, [3, 4]), ph(f32, []), ph(i32, [])], T=[f32, i32],
           dimensions_to_reduce=[0], reducer=add2)
        less = func(lambda a, b, c, d: a < b, scalar, scalar, tf.TensorSpec([], i32), tf.TensorSpec([], i32))
        op("XlaVariadicSort", [ph(f32, [5]), ph(i32, [5]), const(0)], T=[f32, i32], comparator=less,
           is_stable=True)
        op("XlaReduceWindow", [ph(f32, [4, 6]), ph(f32, []), const([2, 2]), const([1, 2]), const([1, 1]),
                               const([1, 1]), const([[0, 0], [1, 0]])], T=f32, Tindices=i32, computation=add)
        greater = func(lambda a, b: a > b, scalar, scalar)
        op("XlaSelectAndScatter", [ph(f32, [4, 6]), const([2, 2]), const([2, 2]), const([[0, 0], [0, 0]]),
                                   ph(f32, [2, 3]), ph(f32, [])], T=f32, Tindices=i32, select=greater,
           scatter=add)
        scatter = xd.ScatterDimensionNumbers(update_window_dims=[1], inserted_window_dims=[0],
                                             scatter_dims_to_operand_dims=[0],
                                             index_vector_dim=1).SerializeToString()
        op("XlaScatter", [ph(f32, [5, 3]), ph(i32, [2, 1]), ph(f32, [2, 3])], T=f32, Tindices=i32,
           update_computation=add, dimension_numbers=scatter, indices_are_sorted=False)
        vec = tf.TensorSpec([2], f32)
        double = func(lambda a: a * 2.0, vec)
        op("XlaIf", [ph(tf.bool, []), ph(f32, [2])], Tcond=tf.bool, then_branch=double, else_branch=double,
           Tin=[f32], Tout=[f32])
        cond = func(lambda i, a: i < 3, tf.TensorSpec([], i32), vec)
        body = func(lambda i, a: (i + 1, a * 2.0), tf.TensorSpec([], i32), vec)
        op("XlaWhile", [ph(i32, []), ph(f32, [2])], T=[i32, f32], cond=cond, body=body)
        op("XlaLaunch", [ph(f32, [2])], Tconstants=[], Targs=[f32], Nresources=0, Tresults=[f32],
           function=double)
        # A StableHLO module as text (TF's shape inference crashes on an empty one).
        call_module = ("module @jit_f attributes {jax.uses_shape_polymorphism = false, "
                       "mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {\n"
                       "  func.func public @main(%arg0: tensor<2xf32>) -> tensor<2x2xf32> {\n"
                       "    %0 = stablehlo.broadcast_in_dim %arg0, dims = [1] : (tensor<2xf32>) -> "
                       "tensor<2x2xf32>\n    return %0 : tensor<2x2xf32>\n  }\n}\n")
        op("XlaCallModule", [ph(f32, [2])], version=9, module=call_module, Sout=[tf.TensorShape([2, 2])],
           Tout=[f32], Tin=[f32], dim_args_spec=[], platforms=["CPU"], function_list=[],
           has_token_input_output=False, disabled_checks=[], use_shardy_partitioner=False)

        # ---- TPU ops
        op("TPUReplicatedInput", [ph(f32, [2, 3]), ph(f32, [2, 3])], N=2, T=f32, is_mirrored_variable=False,
           index=-1, is_packed=False)
        op("TPUReplicatedInput", [ph(f32, [2, None]), ph(f32, [None, 3])], N=2, T=f32,
           is_mirrored_variable=False, index=0, is_packed=False)
        op("TPUReplicatedInput", [ph(f32, [4])], N=1, T=f32, is_mirrored_variable=False, index=-1,
           is_packed=True)
        var_a = tf.raw_ops.VarHandleOp(dtype=f32, shape=[2, 3], shared_name="a")
        var_b = tf.raw_ops.VarHandleOp(dtype=f32, shape=[2, 3], shared_name="b")
        op("TPUReplicatedInput", [var_a, var_b], N=2, T=tf.resource, is_mirrored_variable=True,
           index=0, is_packed=False)
        op("TPUReplicatedOutput", [ph(f32, [2, 3])], num_replicas=2, T=f32)
        op("TPUPartitionedInput", [ph(f32, [2, 3])] * 2, N=2, T=f32, partition_dim=0)
        op("TPUPartitionedInputV2", [ph(f32, [2, 3])] * 2, N=2, T=f32, partition_dims=[1, 2],
           is_packed=False)
        op("TPUPartitionedOutput", [ph(f32, [4, 3])], T=f32, num_splits=2, partition_dim=0)
        op("TPUPartitionedOutputV2", [ph(f32, [4, 6])], T=f32, num_splits=2, partition_dims=[2, 1])
        op("TPUCompilationResult", [])
        op("TPUReplicateMetadata", [], num_replicas=2)
        op("TPUCompile", [], num_computations=1, function=double, metadata=b"", NumDynamicShapes=0,
           Tguaranteed_constants=[])
        op("_TPUCompileMlir", [], num_computations=2, mlir_module="", metadata=b"", NumDynamicShapes=0)
        op("TPUCompileSucceededAssert", [ph(tf.string, [])])
        op("TPUExecute", [ph(f32, [2]), key], Targs=[f32], Tresults=[f32, i32])
        op("TPUExecuteAndUpdateVariables", [var_a, ph(f32, [2]), key], Targs=[tf.resource, f32],
           Tresults=[f32], device_var_reads_indices=[0], device_var_updates_indices=[-1])
        op("TPUOrdinalSelector", [])
        op("TPURoundRobin", [])
        op("GlobalIterId", [])
        op("TPUCopyWithDynamicShape", [ph(f32, [4, 3]), ph(i32, [2])], N=1, T=[f32])
        op("TPUAnnotateTensorsWithDynamicShape", [ph(f32, [4, 3])], T=[f32])
        op("TPUPartitionedCall", [ph(f32, [2]), ph(i32, [])], Tin=[f32], Tout=[f32], f=double,
           autotuner_thresh=0)
        op("ConfigureDistributedTPU", [])
        op("TPUDummyInput", [], dtype=f32, shape=tf.TensorShape([2, 3]))
        op("TPUEmbeddingActivations", [ph(f32, [4, 8]), ph(f32, [4, 8])], table_id=0, lookup_id=0)

        # ---- collectives
        op("CrossReplicaSum", [ph(f32, [4, 3]), const([[0, 1]])], T=f32)
        coll = [const(2), const(1), const(1)]
        op("CollectiveReduceV2", [ph(f32, [4])] + coll, T=f32, merge_op="Add", final_op="Id",
           Nordering_token=0)
        op("CollectiveReduceScatterV2", [ph(f32, [4, 3])] + coll, T=f32, merge_op="Add", final_op="Id",
           Nordering_token=0)
        op("CollectiveGatherV2", [ph(f32, [4, 3])] + coll, T=f32, Nordering_token=0)
        op("CollectiveAllToAllV2", [ph(f32, [4, 3])] + coll, T=f32, Nordering_token=0)
        op("CollectiveBcastRecvV2", coll + [const([2, 3])], T=f32, Tshape=i32)
        op("CollectivePermute", [ph(f32, [4]), const([[0, 1], [1, 0]])], T=f32)
        op("AllToAll", [ph(f32, [4, 6]), const([[0, 1]])], T=f32, concat_dimension=0, split_dimension=1,
           split_count=2)

        # ---- variables and TensorLists (handle data)
        var = tf.raw_ops.VarHandleOp(dtype=f32, shape=[4, 6], shared_name="v")
        op("ReadVariableOp", [var], dtype=f32)
        op("VariableShape", [var], out_type=i32)
        op("ResourceGather", [var, ph(i32, [5])], dtype=f32, Tindices=i32, batch_dims=0, validate_indices=True)
        op("VarIsInitializedOp", [var])
        op("ReadVariableXlaSplitND", [var], T=f32, N=4, num_splits=[2, 2], paddings=[0, 0])
        lst = tf.raw_ops.TensorListReserve(element_shape=const([2, -1]), num_elements=const(3),
                                           element_dtype=f32)
        op("TensorListGetItem", [lst, ph(i32, []), const([-1, 3])], element_dtype=f32)
        op("TensorListSetItem", [lst, ph(i32, []), ph(f32, [2, 3])], element_dtype=f32, resize_if_index_out_of_bounds=False)
        op("TensorListStack", [lst, const([2, 3])], element_dtype=f32, num_elements=3)
        op("TensorListLength", [lst])
        op("TensorListElementShape", [lst], shape_type=i32)
        op("TensorListPushBack", [lst, ph(f32, [2, 3])], element_dtype=f32)
        op("TensorListPopBack", [lst, const([2, 3])], element_dtype=f32)
        op("TensorListFromTensor", [ph(f32, [5, 2, 3]), const([2, 3])], element_dtype=f32, shape_type=i32)
        op("TensorListConcatV2", [lst, const([-1, 3]), const([], tf.int64)], element_dtype=f32,
           shape_type=i32)
    harvest.graph(g, g.as_graph_def().library, "hand", no_outputs_too=True)
    return failures


# --------------------------------------------------------------------------- cases

def _variant_shape(shape, variant):
    if shape is None or variant in ("known", "noconst"):
        return shape
    if variant == "unranked":
        return None
    if variant == "batch":
        return [-1] + shape[1:] if shape else shape
    if variant == "dims":
        return [-1] * len(shape)
    raise KeyError(variant)


def _shape_proto(shape):
    from tensorflow.core.framework import tensor_shape_pb2
    p = tensor_shape_pb2.TensorShapeProto()
    if shape is None:
        p.unknown_rank = True
    else:
        for d in shape:
            p.dim.add().size = d
    return p


def _node(name, op, inputs=(), **attrs):
    from tensorflow.core.framework import node_def_pb2
    n = node_def_pb2.NodeDef(name=name, op=op)
    n.input.extend(inputs)
    for k, v in attrs.items():
        n.attr[k].CopyFrom(v)
    return n


def _type_attr(dtype):
    from tensorflow.core.framework import attr_value_pb2
    return attr_value_pb2.AttrValue(type=dtype)


def _const_node(name, value, dtype):
    import numpy as np
    from tensorflow.core.framework import attr_value_pb2
    array = np.asarray(value, dtype=np.dtype(dtype))
    tensor = tf.make_tensor_proto(array, dtype=tf.as_dtype(array.dtype))
    return _node(name, "Const", value=attr_value_pb2.AttrValue(tensor=tensor),
                 dtype=_type_attr(tensor.dtype))


def _input_nodes(name, inp, variant):
    """NodeDefs producing input `inp` in `variant` (the last one is the input)."""
    from tensorflow.core.framework import attr_value_pb2, full_type_pb2
    if "value" in inp and variant != "noconst":
        return [_const_node(name, inp["value"], inp["value_dtype"])]
    handle = inp.get("handle")
    if handle and len(handle) == 1 and variant != "unranked":
        h = handle[0]
        shape = _variant_shape(h["shape"], variant)
        if inp["dtype"] == tf.resource.as_datatype_enum:
            return [_node(name, "VarHandleOp", dtype=_type_attr(h["dtype"]),
                          shape=attr_value_pb2.AttrValue(shape=_shape_proto(shape)),
                          container=attr_value_pb2.AttrValue(s=b""),
                          shared_name=attr_value_pb2.AttrValue(s=name.encode()))]
        if h["type_id"] in (0, full_type_pb2.TFT_ARRAY):
            element_shape = [-1] if shape is None else shape
            return [_const_node(name + "_shape", -1 if shape is None else element_shape, "int32"),
                    _const_node(name + "_max", -1, "int32"),
                    _node(name, "EmptyTensorList", [name + "_shape", name + "_max"],
                          element_dtype=_type_attr(h["dtype"]), shape_type=_type_attr(3))]
    shape = _variant_shape(inp["shape"], variant)
    return [_node(name, "Placeholder", dtype=_type_attr(inp["dtype"]),
                  shape=attr_value_pb2.AttrValue(shape=_shape_proto(shape)))]


def _describe_input(nodes):
    """A short text of an input: dtype[shape], a constant's value, a handle's subtype."""
    last = nodes[-1]
    if last.op == "Const":
        value = tf.make_ndarray(last.attr["value"].tensor)
        return f"{tf.as_dtype(last.attr['dtype'].type).name}{_dims_of(value.shape)}={value.tolist()}"
    if last.op == "VarHandleOp":
        return f"resource<{tf.as_dtype(last.attr['dtype'].type).name}{_dims(last.attr['shape'].shape)}>"
    if last.op == "EmptyTensorList":
        shape = tf.make_ndarray(nodes[0].attr["value"].tensor).tolist()
        shape = "[*]" if shape == -1 else _dims_of(shape)
        return f"list<{tf.as_dtype(last.attr['element_dtype'].type).name}{shape}>"
    return f"{tf.as_dtype(last.attr['dtype'].type).name}{_dims(last.attr['shape'].shape)}"


def _dims(proto):
    return "[*]" if proto.unknown_rank else _dims_of([d.size for d in proto.dim])


def _dims_of(sizes):
    return "[" + ",".join("?" if d < 0 else str(d) for d in sizes) + "]"


def _fragment(case, variant):
    """The NodeDefs of one variant, or None when the variant adds nothing new."""
    nodes, names, descr = [], [], []
    for i, inp in enumerate(case["inputs"]):
        made = _input_nodes(f"{variant}/in{i}", inp, variant)
        nodes.extend(made)
        names.append(made[-1].name)
        descr.append(_describe_input(made))
    from tensorflow.core.framework import attr_value_pb2
    the_op = _node(f"{variant}/op", case["op"], names, **case["attrs"])
    the_op.attr[MARKER].CopyFrom(attr_value_pb2.AttrValue(s=variant.encode()))
    return nodes + [the_op], descr


def _graph_def(nodes, functions):
    from tensorflow.core.framework import graph_pb2
    gd = graph_pb2.GraphDef()
    gd.versions.producer = tf.version.GRAPH_DEF_VERSION
    gd.versions.min_consumer = tf.version.GRAPH_DEF_VERSION_MIN_CONSUMER
    gd.node.extend(nodes)
    for fdef in functions:
        gd.library.function.add().CopyFrom(fdef)
    return gd


def _oracle1(gd, node_name):
    """TF's graph-construction shapes of `node_name`'s outputs in GraphDef `gd`."""
    g = tf.Graph()
    with g.as_default():
        tf.graph_util.import_graph_def(gd, name="")
    op = g.get_operation_by_name(node_name)
    return [{"dtype": int(t.dtype.as_datatype_enum), "shape": _shape(t.shape), "handle": _handle(t)}
            for t in op.outputs]


def _build_case(case_id, case):
    variants, rejected, fragments, seen = [], [], [], set()
    for variant in VARIANTS:
        if variant == "noconst" and not any("value" in i for i in case["inputs"]):
            continue
        nodes, descr = _fragment(case, variant)
        signature = tuple(descr)
        if signature in seen:
            continue
        seen.add(signature)
        try:
            outputs = _oracle1(_graph_def(nodes, case["functions"]), f"{variant}/op")
        except Exception as exc:  # noqa: BLE001  (TF's shape function rejects the inputs)
            rejected.append({"variant": variant, "inputs": ", ".join(descr),
                             "error": str(exc).strip().splitlines()[-1][:400]})
            continue
        variants.append({"name": variant, "inputs": ", ".join(descr), "outputs": outputs})
        fragments.extend(nodes)
    out = {"id": case_id, "op": case["op"], "sources": case["sources"], "variants": variants,
           "rejected": rejected}
    if not variants:
        return out
    gd = _graph_def(fragments, case["functions"])
    out["graph_def"] = base64.b64encode(gd.SerializeToString()).decode()
    try:
        out["tf_import"] = tf.mlir.experimental.convert_graph_def(gd, pass_pipeline="")
    except Exception as exc:  # noqa: BLE001
        out["tf_import_error"] = str(exc)[-400:]
    return out


# --------------------------------------------------------------------------- main

def _corpus_module():
    """tfmlir.testing.corpus without running tfmlir's ``__init__`` (which loads its native
    libraries into this TensorFlow process): ``tfmlir`` and ``tfmlir.testing`` are entered as
    bare packages, so corpus's own relative imports (the TF child runner) resolve."""
    import importlib
    import importlib.util
    import types
    root = list(importlib.util.find_spec("tfmlir").submodule_search_locations)[0]
    for name, path in (("tfmlir", root), ("tfmlir.testing", os.path.join(root, "testing"))):
        if name not in sys.modules:
            package = types.ModuleType(name)
            package.__path__ = [path]
            sys.modules[name] = package
    return importlib.import_module("tfmlir.testing.corpus")


def main(argv):
    global tf, _CONST_DTYPES
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    timing = {}
    start = time.perf_counter()
    corpus = _corpus_module()
    protos = {name: corpus.get_protos(name) for name in MODELS}
    timing["corpus"] = time.perf_counter() - start

    import tensorflow
    tf = tensorflow
    _CONST_DTYPES = {tf.int32, tf.int64, tf.int16, tf.int8, tf.uint8, tf.bool, tf.float32, tf.float64}

    start = time.perf_counter()
    harvest = Harvest()
    _harvest_models(protos, harvest)
    keep = _tf2_program(harvest)
    _tf2_layers_program(harvest)
    _tpu_programs(harvest)
    hand_failures = _hand_ops(harvest)
    timing["harvest"] = time.perf_counter() - start

    start = time.perf_counter()
    cases = []
    for op_type, selected in harvest.selected().items():
        for k, case in enumerate(selected):
            cases.append(_build_case(f"{op_type}.{k}", case))
    timing["cases"] = time.perf_counter() - start
    del keep

    os.makedirs(argv[1], exist_ok=True)
    with open(os.path.join(argv[1], "cases.json"), "w") as f:
        json.dump({"cases": cases, "hand_failures": hand_failures, "seen": harvest.seen,
                   "candidates": {k: len(v) for k, v in harvest.per_op.items()},
                   "timing": timing, "tf_version": tf.__version__}, f)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
