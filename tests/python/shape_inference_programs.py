"""Real programs for the differential test of ``tf-shape-inference``, imported by tfmlir.

Run as a script (by :mod:`generated_inputs`, cached in ``build/``)::

    python shape_inference_programs.py OUTDIR

Three stages, TensorFlow only in a child process:

1. The corpus models' GraphDefs with their function libraries
   (:func:`tfmlir.testing.corpus.get_protos`: ResNet50 at 64x64, MobileNetV2
   at 96x96, a two-layer Transformer encoder, an LSTM, a TF1 graph with v1
   control flow).
2. In one TensorFlow child (``--tf``), our own programs: a TF2
   ``tf.function`` with ``tf.while_loop`` / ``tf.cond`` / ``tf.switch_case`` /
   ``tf.TensorArray`` / resource variables and a call of another
   ``tf.function``, a ``tf.compat.v1.tpu.rewrite`` graph and a two-replica
   ``tpu.replicate`` graph (built on CPU, never run), and ``args_small``: a
   small function whose main takes two feeds of unknown shape (for
   ``input-arg-shapes``). A traced function's graph holds its variables as
   ``Placeholder``s of type resource, whose variable shapes nothing can know;
   the child also writes each such graph with those placeholders replaced by
   ``VarHandleOp``s of the variables' shapes (for the corpus models taken from
   their frozen graphs: ``convert_variables_to_constants_v2`` keeps the node
   names; for ours from the function's captures), so shapes
   flow through ``ReadVariableOp`` into the whole model. Programs named
   ``*_captured`` keep the placeholders as traced.
3. Each GraphDef imported by tfmlir's importer twice -- shape inference on
   import disabled (``noshape``: most result types unranked, so the pass has
   real work) and enabled (``shape``) -- each kept in ``tf_executor`` form
   (``executor``) and after tfmlir's ``tf-executor-to-functional-conversion``
   (``functional``): ``OUTDIR/<program>.<noshape|shape>.<executor|functional>.mlir``.
   Every module carries the GraphDef's ``tf.versions`` (TF's pass does nothing
   without a producer version).

``OUTDIR/programs.json`` records the inputs made (with their import options)
and what did not convert, with the reason.
"""
import json
import os
import subprocess
import sys

CORPUS = ("resnet50", "mobilenetv2", "transformer_encoder", "lstm", "tf1_v1_control_flow")
OWN = ("tf2_control_flow", "tpu_rewrite", "tpu_replicate", "args_small")
# Traced functions also kept with their variables as resource placeholders (see stage 2).
CAPTURED = ("transformer_encoder", "lstm", "tf2_control_flow")
PROGRAMS = CORPUS + OWN + tuple(name + "_captured" for name in CAPTURED)
# Programs without a functional form: tf-executor-to-functional-conversion cannot lift v1 control
# flow (Switch/Merge/NextIteration ops are not islands) out of the tf_executor graph.
NO_FUNCTIONAL = ("tf1_v1_control_flow",)
IMPORTS = ("noshape", "shape")
FORMS = ("executor", "functional")

# The program the option tests (input-arg-shapes, max-iterations) run on: its main function
# takes two unranked f32 arguments (x, y) and returns one value.
ARGS_PROGRAM = "args_small"

_HERE = os.path.dirname(os.path.abspath(__file__))


def directory():
    import generated_inputs
    return generated_inputs.directory(os.path.join(_HERE, "shape_inference_programs.py"))


def manifest():
    """``{"inputs": {name: {...}}, "failed": {name: reason}}`` of the generated inputs."""
    with open(os.path.join(directory(), "programs.json")) as f:
        return json.load(f)


def input_names():
    """The inputs the generator makes (known without generating them)."""
    return [f"{program}.{imp}.{form}" for program in PROGRAMS for imp in IMPORTS for form in FORMS
            if not (form == "functional" and program in NO_FUNCTIONAL)]


def get(name):
    import generated_inputs
    return generated_inputs.read(os.path.join(_HERE, "shape_inference_programs.py"), name)


# -- stage 2: our programs, in the TensorFlow child ------------------------------------------

def _tf_programs(tf):
    """{name: (GraphDef, its variables (see _variables_as_handles) or None, import options)} of our
    own programs."""
    tf1 = tf.compat.v1
    programs = {}

    # A TF2 program: while_loop with a TensorArray and a cond, switch_case, a loop whose shape
    # changes (shape invariant), a call of another tf.function, resource variables.
    w = tf.Variable(tf.ones([3, 4]), name="w")
    steps = tf.Variable(0, name="steps")

    @tf.function
    def project(a, b):
        return tf.matmul(a, b) + tf.reduce_mean(b, axis=0)

    @tf.function(input_signature=[tf.TensorSpec([2, 3], tf.float32), tf.TensorSpec([], tf.int32)])
    def control_flow(x, n):
        ta = tf.TensorArray(tf.float32, size=n, element_shape=[2, 4])
        loose = tf.TensorArray(tf.float32, size=0, dynamic_size=True)

        def body(i, acc, ta, loose):
            y = project(acc, w)
            y = tf.cond(tf.reduce_sum(y) > 0.0, lambda: tf.nn.relu(y), lambda: y * 0.5)
            ta = ta.write(i, y)
            loose = loose.write(i, tf.reshape(y, [-1]))
            return i + 1, acc + tf.reduce_mean(y), ta, loose

        _, acc, ta, loose = tf.while_loop(lambda i, *_: i < n, body, [tf.constant(0), x, ta, loose])
        stacked = ta.stack()
        index = tf.math.floormod(n, 3)
        picked = tf.switch_case(index, [lambda: acc + 1.0, lambda: acc * 2.0, lambda: tf.tanh(acc)])
        _, grown = tf.while_loop(lambda i, t: i < 3, lambda i, t: (i + 1, tf.concat([t, t[:1]], 0)),
                                 [tf.constant(0), x],
                                 shape_invariants=[tf.TensorShape([]), tf.TensorShape([None, 3])])
        steps.assign_add(1)
        w.assign(w * 0.99)
        return stacked, picked, tf.reduce_sum(grown), loose.concat()

    concrete = control_flow.get_concrete_function()
    programs["tf2_control_flow"] = (concrete.graph.as_graph_def(), _captured_variables(concrete, [w, steps]),
                                    {})

    @tf.function(input_signature=[tf.TensorSpec(None, tf.float32), tf.TensorSpec(None, tf.float32)])
    def args_small(x, y):
        h = tf.matmul(x, tf.ones([3, 4])) + y
        _, h = tf.while_loop(lambda i, t: i < 2, lambda i, t: (i + 1, tf.nn.relu(t) * 0.5), [0, h])
        return tf.reduce_sum(h, axis=1, keepdims=True) * tf.cast(tf.shape(h)[0], tf.float32)

    concrete = args_small.get_concrete_function()
    graph = concrete.graph
    programs["args_small"] = (graph.as_graph_def(), None, {
        "input_names": [t.op.name for t in graph.inputs],
        "output_names": [t.name for t in graph.outputs]})

    from tensorflow.python.tpu import tpu

    g = tf.Graph()
    with g.as_default():
        x = tf1.placeholder(tf.float32, [8, 16], name="x")
        w1 = tf1.get_variable("w1", [16, 32], initializer=tf1.ones_initializer(), use_resource=True)
        b1 = tf1.get_variable("b1", [32], initializer=tf1.zeros_initializer(), use_resource=True)
        w2 = tf1.get_variable("w2", [32, 4], initializer=tf1.ones_initializer(), use_resource=True)

        def computation(a):
            h = tf.nn.relu(tf.matmul(a, w1) + b1)
            h = tf.cond(tf.reduce_sum(h) > 0.0, lambda: h * 2.0, lambda: -h)
            _, h = tf.while_loop(lambda i, t: i < 3, lambda i, t: (i + 1, t * 0.5), [0, h])
            logits = tf.matmul(h, w2)
            loss = tf.reduce_mean(tf.nn.softmax(logits) * tf.cast(tf.shape(logits)[0], tf.float32))
            b1.assign_sub(tf.reduce_mean(h, axis=0) * 0.1)
            return [loss, tf.reshape(logits, [-1])]

        out = tpu.rewrite(computation, [x])
        tf.identity(out[0], name="loss")
        tf.identity(out[1], name="logits")
    programs["tpu_rewrite"] = (g.as_graph_def(), None, {})

    g = tf.Graph()
    with g.as_default():
        xs = [tf1.placeholder(tf.float32, [4, 6], name=f"x{k}") for k in range(2)]
        scale = tf1.placeholder(tf.float32, [6], name="scale")
        w = tf1.get_variable("w", [6, 6], initializer=tf1.ones_initializer(), use_resource=True)
        count = tf1.get_variable("count", [], tf.int32, initializer=tf1.zeros_initializer(),
                                 use_resource=True)

        def step(a, s):
            h = tf.matmul(a * s, w)
            h = tf.concat([h, tf.expand_dims(tf.reduce_max(h, axis=1), 1)], axis=1)
            w.assign_add(tf.ones([6, 6]) * 0.01)
            count.assign_add(1)
            return tf.nn.relu(h), tf.shape(h)

        out = tpu.replicate(step, inputs=[[x, scale] for x in xs])
        for k, (h, shape) in enumerate(out):
            tf.identity(h, name=f"h{k}")
            tf.identity(shape, name=f"shape{k}")
    programs["tpu_replicate"] = (g.as_graph_def(), None, {})
    return programs


def _frozen_variables(frozen):
    """{resource placeholder name: (dtype enum, TensorShapeProto)} from a frozen graph, where
    ``convert_variables_to_constants_v2`` made each such placeholder a constant of its name."""
    return {n.name: (n.attr["dtype"].type, n.attr["value"].tensor.tensor_shape)
            for n in frozen.node if n.op == "Const"}


def _captured_variables(concrete, variables):
    """{resource placeholder name: (dtype enum, TensorShapeProto)} of a traced function's captured
    `variables`."""
    by_handle = {id(v.handle): v for v in variables}
    found = {}
    for external, internal in concrete.graph.captures:
        v = by_handle.get(id(external))
        if v is not None:
            found[internal.op.name] = (v.dtype.as_datatype_enum, v.shape.as_proto())
    return found


def _variables_as_handles(tf, graph_def, variables):
    """`graph_def` with the resource ``Placeholder``s of `variables` ({name: (dtype enum,
    TensorShapeProto)}) replaced by ``VarHandleOp``s of that type and shape."""
    out = tf.compat.v1.GraphDef()
    out.CopyFrom(graph_def)
    for node in out.node:
        if node.op != "Placeholder" or node.attr["dtype"].type != tf.resource.as_datatype_enum:
            continue
        if node.name not in variables:
            continue
        dtype, shape = variables[node.name]
        node.op = "VarHandleOp"
        node.ClearField("attr")
        node.attr["dtype"].type = dtype
        node.attr["shape"].shape.CopyFrom(shape)
        node.attr["container"].s = b""
        node.attr["shared_name"].s = node.name.encode()
        node.attr["allowed_devices"].list.SetInParent()
    return out


def _tf_stage(out, corpus_protos):
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import tensorflow as tf

    graphs = {}
    for name, paths in corpus_protos.items():
        graph_def, frozen = tf.compat.v1.GraphDef(), tf.compat.v1.GraphDef()
        with open(paths["graph_def"], "rb") as f:
            graph_def.ParseFromString(f.read())
        with open(paths["frozen"], "rb") as f:
            frozen.ParseFromString(f.read())
        graphs[name] = (graph_def, _frozen_variables(frozen), {})
    graphs.update(_tf_programs(tf))
    for name, (graph_def, variables, options) in graphs.items():
        written = {name: _variables_as_handles(tf, graph_def, variables) if variables else graph_def}
        if name in CAPTURED:
            written[name + "_captured"] = graph_def
        for program, graph in written.items():
            with open(os.path.join(out, program + ".pb"), "wb") as f:
                f.write(graph.SerializeToString())
            with open(os.path.join(out, program + ".json"), "w") as f:
                json.dump(options, f)


# -- stage 3: tfmlir's importer ------------------------------------------------------------

def _import_all(protos, out):
    import tfmlir
    from mlir import ir
    from tfmlir import importers
    from tfmlir.passes import framework

    import generated_inputs

    inputs, failed, texts = {}, {}, {}
    for program in PROGRAMS:
        with open(os.path.join(protos, program + ".pb"), "rb") as f:
            graph_def = f.read()
        options = {}
        if os.path.exists(os.path.join(protos, program + ".json")):
            with open(os.path.join(protos, program + ".json")) as f:
                options = json.load(f)
        for imp in IMPORTS:
            context = ir.Context()
            try:
                module = importers.import_graph_def(graph_def, enable_shape_inference=imp == "shape",
                                                    context=context, **options)
            except Exception as exc:  # recorded: the importer's problem, not the pass's
                failed[f"{program}.{imp}"] = f"import: {type(exc).__name__}: {exc}"[:2000]
                continue
            name = f"{program}.{imp}.executor"
            texts[name] = tfmlir.print_ir(module)
            inputs[name] = {"program": program, "import": imp, "form": "executor", "options": options}
            try:
                framework.run(module, "builtin.module(func.func(tf-executor-to-functional-conversion))")
            except Exception as exc:
                failed[f"{program}.{imp}.functional"] = f"{type(exc).__name__}: {exc}"[:2000]
                continue
            name = f"{program}.{imp}.functional"
            texts[name] = tfmlir.print_ir(module)
            inputs[name] = {"program": program, "import": imp, "form": "functional", "options": options}
    for name, text in texts.items():
        if "tf.versions" not in text.split("\n", 1)[0]:
            raise RuntimeError(f"{name}: the module has no tf.versions")
    generated_inputs.write(out, texts)
    with open(os.path.join(out, "programs.json"), "w") as f:
        json.dump({"inputs": inputs, "failed": failed}, f, indent=1, sort_keys=True)


def main(argv):
    out = argv[1]
    protos = os.path.join(out, "protos")
    os.makedirs(protos, exist_ok=True)
    if len(argv) > 2 and argv[2] == "--tf":
        with open(argv[3]) as f:
            _tf_stage(protos, json.load(f))
        return 0
    from tfmlir.testing import corpus

    corpus_protos = {}
    for name in CORPUS:
        found = corpus.get_protos(name)
        graph_def = os.path.join(protos, name + ".original.pb")
        with open(graph_def, "wb") as f:
            f.write(found["graph_def"])
        corpus_protos[name] = {"graph_def": graph_def, "frozen": found["frozen"]["path"]}
    with open(os.path.join(protos, "corpus.json"), "w") as f:
        json.dump(corpus_protos, f)
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", CUDA_VISIBLE_DEVICES="")
    proc = subprocess.run([sys.executable, os.path.abspath(__file__), out, "--tf",
                           os.path.join(protos, "corpus.json")], capture_output=True, text=True, env=env,
                          timeout=900)
    if proc.returncode != 0:
        sys.stderr.write(proc.stderr[-6000:])
        return 1
    sys.path.insert(0, _HERE)
    _import_all(protos, out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
