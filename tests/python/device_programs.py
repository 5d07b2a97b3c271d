"""Device programs from TensorFlow's clustering bridge: inputs for the tf_device passes.

Small TF1 graphs built with ``tf.compat.v1.tpu.rewrite`` / ``tpu.replicate``
(variables, outside compilation, ``tf.cond``, a v2 ``while_loop``) are
imported with ``convert_graph_def`` and run through TF's own
``tf-replicated-clustering-bridge-v2`` (the module gets a ``tf.devices``
list): functional IR with a ``tf_device.cluster_func`` of the device
computation, host ``tf_device.launch`` ops in a ``tf_device.parallel_execute``
and, for replicate, a ``tf_device.replicate``. All are generated in one
TensorFlow child process (``python device_programs.py OUTDIR``) and cached
(:mod:`generated_inputs`).

Each program gives three inputs (:data:`VARIANTS`):

* ``<program>``: TF's bridged output (launches to outline);
* ``<program>.launch_funcs``: that output after TF's own
  -tf-device-launch-outlining (launch_funcs to convert);
* ``<program>.clusters``: the bridged output with every cluster_func put back
  into a ``tf_device.cluster`` holding its function's body, and the
  function's ``tf.Const`` ops hoisted in front of the cluster (made here with
  tfmlir, :func:`clusters_form`): the input of cluster outlining and constant
  sinking, with the attributes the bridge puts on a cluster.
"""
import sys

PROGRAMS = ("rewrite_outside_compilation", "replicate_outside_compilation", "rewrite_while",
            "two_computations")
VARIANTS = ("", ".launch_funcs", ".clusters")

_DEVICES = (["/job:localhost/replica:0/task:0/device:CPU:0",
             "/job:localhost/replica:0/task:0/device:TPU_SYSTEM:0"]
            + [f"/job:localhost/replica:0/task:0/device:TPU:{i}" for i in range(2)])


def input_names():
    return [program + variant for program in PROGRAMS for variant in VARIANTS]


# -- generation (in the TensorFlow child) ----------------------------------------

def _graphs(tf):
    tf1 = tf.compat.v1

    def variable(name, shape):
        return tf1.get_variable(name, shape, initializer=tf1.ones_initializer(), use_resource=True)

    def host(v):
        return tf.strings.to_number(tf.strings.as_string(v))

    def rewrite_outside_compilation():
        x = tf1.placeholder(tf.float32, [4, 3], name="x")
        w = variable("w", [3, 2])

        def computation(x):
            y = tf.matmul(x, w) + tf.constant(1.0)
            z = tf1.tpu.outside_compilation(host, y)
            y = y * 2.0 + z + tf.constant(1.0)
            c = tf.cond(tf.reduce_sum(y) > 0, lambda: y * 3.0, lambda: y - 1.0)
            return [c + tf.constant(1.0)]

        tf1.tpu.rewrite(computation, [x])

    def replicate_outside_compilation():
        x = tf1.placeholder(tf.float32, [4, 3], name="x")
        w = variable("w", [3, 2])

        def computation(x):
            y = tf.matmul(x, w)
            z = tf1.tpu.outside_compilation(host, y)
            u = tf1.tpu.outside_compilation(lambda a, b: tf.math.floormod(a, 3.0) + b, y, z)
            w.assign_add(tf.ones([3, 2]))
            return [y + z * u]

        tf1.tpu.replicate(computation, [[x], [x * 2.0]])

    def rewrite_while():
        x = tf1.placeholder(tf.float32, [8], name="x")

        def computation(x):
            def body(i, acc):
                return i + 1, acc * 0.5 + tf.cast(i, tf.float32)

            _, acc = tf.while_loop(lambda i, acc: i < 5, body, [tf.constant(0), x])
            return [acc + tf1.tpu.outside_compilation(host, acc)]

        tf1.tpu.rewrite(computation, [x])

    def two_computations():
        x = tf1.placeholder(tf.float32, [2], name="x")
        a = tf1.tpu.rewrite(lambda x: [x * 2.0 + tf.constant(1.0)], [x])
        tf1.tpu.rewrite(lambda x: [tf.nn.relu(x) - tf.constant(1.0) + tf.constant(1.0)], [a[0]])

    return {"rewrite_outside_compilation": rewrite_outside_compilation,
            "replicate_outside_compilation": replicate_outside_compilation,
            "rewrite_while": rewrite_while, "two_computations": two_computations}


def _generate(out_dir):
    import generated_inputs
    import tensorflow as tf

    tf.compat.v1.enable_control_flow_v2()
    devices = "[" + ", ".join(f'"{d}"' for d in _DEVICES) + "]"
    for name, build in _graphs(tf).items():
        graph = tf.Graph()
        with graph.as_default():
            build()
        text = tf.mlir.experimental.convert_graph_def(graph.as_graph_def(), pass_pipeline="")
        text = text.replace("module attributes {", f"module attributes {{tf.devices = {devices}, ", 1)
        bridged = tf.mlir.experimental.run_pass_pipeline(text, "tf-replicated-clustering-bridge-v2",
                                                         show_debug_info=False)
        outlined = tf.mlir.experimental.run_pass_pipeline(bridged, "tf-device-launch-outlining",
                                                          show_debug_info=False)
        generated_inputs.write(out_dir, {name: bridged, name + ".launch_funcs": outlined})


# -- use (in the test process) ---------------------------------------------------------

_CACHE = {}


def get(name):
    """The text of input `name` (one of :func:`input_names`)."""
    if name not in _CACHE:
        import generated_inputs
        if name.endswith(".clusters"):
            _CACHE[name] = clusters_form(generated_inputs.read(__file__, name[:-len(".clusters")]))
        else:
            _CACHE[name] = generated_inputs.read(__file__, name)
    return _CACHE[name]


def clusters_form(text):
    """`text` with every ``tf_device.cluster_func`` replaced by a ``tf_device.cluster`` holding a
    copy of its function's body (the function's constants in front of the cluster), and the
    functions it called removed."""
    import tfmlir  # noqa: F401
    from mlir import ir

    with ir.Context() as context, ir.Location.unknown(context):
        module = ir.Module.parse(text)
        calls = []

        def visit(op):
            if op.name == "tf_device.cluster_func":
                calls.append(op)
            return ir.WalkResult.ADVANCE

        module.operation.walk(visit)
        functions = {ir.StringAttr(op.attributes["sym_name"]).value: op.operation
                     for op in module.body.operations if "sym_name" in op.attributes}
        used = set()
        for call in calls:
            name = ir.FlatSymbolRefAttr(call.attributes["func"]).value
            used.add(name)
            callee = functions[name]
            attributes = {call.attributes[i].name: call.attributes[i].attr
                          for i in range(len(call.attributes)) if call.attributes[i].name != "func"}
            cluster = ir.Operation.create("tf_device.cluster", results=[r.type for r in call.results],
                                          attributes=attributes, regions=1, loc=call.location,
                                          ip=ir.InsertionPoint(call))
            body = cluster.regions[0].blocks.append()
            mapping = dict(zip(callee.regions[0].blocks[0].arguments, call.operands))
            for op in callee.regions[0].blocks[0].operations:
                op = op.operation
                if op.name == "func.return":
                    ir.Operation.create("tf_device.return", operands=[mapping.get(v, v) for v in op.operands],
                                        ip=ir.InsertionPoint(body))
                    continue
                ip = ir.InsertionPoint(cluster) if op.name == "tf.Const" else ir.InsertionPoint(body)
                clone = op.clone(ip=ip)
                for index in range(len(clone.operands)):
                    clone.operands[index] = mapping.get(clone.operands[index], clone.operands[index])
                _remap_nested(clone, mapping)
                for old, new in zip(op.results, clone.results):
                    mapping[old] = new
            for old, new in zip(call.results, cluster.results):
                old.replace_all_uses_with(new)
            call.erase()
        for name in used:
            functions[name].erase()
        module.operation.verify()
        return str(module)


def _remap_nested(op, mapping):
    from mlir import ir

    def visit(nested):
        for index in range(len(nested.operands)):
            value = nested.operands[index]
            if value in mapping:
                nested.operands[index] = mapping[value]
        return ir.WalkResult.ADVANCE

    for region in op.regions:
        for block in region.blocks:
            for nested in block.operations:
                nested.operation.walk(visit)


if __name__ == "__main__":
    _generate(sys.argv[1])
