"""Generates TensorFlow's MLIR for programs whose functions are used several times (differential inputs).

Run as a script in a subprocess (keeps TensorFlow out of the pytest process):

    python call_graph_programs.py OUTDIR

Writes ``OUTDIR/<name>.mlir`` for every name of :func:`input_names`
(:func:`generated_inputs.write`). The programs (our own, deliberately small):
``tf.function`` programs where nested ``tf.function`` helpers are called from
several places -- directly, from both branches of a ``tf.cond``, from a
``tf.while_loop`` body, through levels of helpers (copies multiply), with and
without variables -- a TF1 graph calling a ``Defun`` several times, and a saved
model whose exported functions share helpers. Each is converted by TF
(``convert_function`` / ``convert_graph_def`` / ``convert_saved_model``) and
given in TF's three forms: ``executor`` (as converted: calls inside islands),
``functional`` (``tf-executor-to-functional-conversion``: ``tf.If`` /
``tf.While``) and ``regions`` (``tf-functional-control-flow-to-regions``).

Besides, ``random_<n>`` / ``recursive_<n>``: modules written here from a fixed
seed (:func:`random_program`): functions using later ones through every kind
of use (calls of each kind, branches, ``func.constant``, references in
attributes and argument attributes) at several depths (islands, region
control flow), named so that copies collide with existing names; the
recursive ones use functions by calls only and add calls back to earlier
functions (TF's recursion error).
"""
import os
import random
import sys
import tempfile

tf = None

_MODELS = {}
FORMS = ("executor", "functional", "regions")


def model(name):
    def register(fn):
        _MODELS[name] = fn
        return fn

    return register


@model("helpers_in_cond")
def _helpers_in_cond():
    @tf.function
    def leaf(x):
        return tf.nn.relu(x) * 2.0

    @tf.function
    def mid(x):
        return leaf(x) + leaf(x * 3.0)

    @tf.function(input_signature=[tf.TensorSpec([4], tf.float32)])
    def top(x):
        y = mid(x) - mid(x + 1.0)
        return tf.cond(tf.reduce_sum(y) > 0, lambda: leaf(y), lambda: mid(y) + leaf(y))

    return top


@model("helper_in_loop")
def _helper_in_loop():
    @tf.function
    def step(x):
        return tf.tanh(x) + 0.5

    @tf.function(input_signature=[tf.TensorSpec([3], tf.float32), tf.TensorSpec([], tf.int32)])
    def loop(x, n):
        def body(i, acc):
            return i + 1, step(acc) * step(acc + 1.0)

        _, y = tf.while_loop(lambda i, acc: i < n, body, [tf.constant(0), x])
        _, z = tf.while_loop(lambda i, acc: i < 2, lambda i, acc: (i + 1, step(acc)), [tf.constant(0), y])
        return step(z)

    return loop


@model("doubling_chain")
def _doubling_chain():
    # Four levels, each calling the next twice: 1 + 2 + 4 + 8 + 16 functions after the pass.
    @tf.function
    def level4(x):
        return x * 2.0

    @tf.function
    def level3(x):
        return level4(x) + level4(-x)

    @tf.function
    def level2(x):
        return level3(x) - level3(x + 1.0)

    @tf.function
    def level1(x):
        return level2(x) * level2(x * 0.5)

    @tf.function(input_signature=[tf.TensorSpec([2], tf.float32)])
    def root(x):
        return level1(x) + level1(x - 1.0)

    return root


@model("stateful_helpers")
def _stateful_helpers():
    v = tf.Variable(tf.ones([4]), name="v")

    @tf.function
    def read_scaled(s):
        return v * s

    @tf.function
    def bump(x):
        v.assign_add(x)
        return read_scaled(2.0)

    @tf.function(input_signature=[tf.TensorSpec([4], tf.float32)])
    def run(x):
        a = bump(x)
        b = bump(a)
        c = tf.cond(tf.reduce_sum(b) > 0, lambda: read_scaled(3.0), lambda: bump(b))
        return a + b + c + read_scaled(1.0)

    run._keep = v
    return run


def _tf1_defun():
    """A TF1 graph calling one Defun three times and another from inside it."""
    from tensorflow.python.framework import function

    g = tf.Graph()
    with g.as_default():
        @function.Defun(tf.float32)
        def inner(x):
            return x * 3.0

        @function.Defun(tf.float32)
        def outer(x):
            return inner(x) + inner(x + 1.0)

        x = tf.compat.v1.placeholder(tf.float32, [2], name="x")
        y = outer(x) + outer(x * 2.0) + inner(x)
        tf.identity(y, name="y")
    return tf.mlir.experimental.convert_graph_def(
        g.as_graph_def(), pass_pipeline="", show_debug_info=False)


def _saved_model(call_exported):
    """A saved model: two exported functions sharing helpers (tf_saved_model dialect); with
    `call_exported`, the first also calls the second (an exported function) twice."""

    class Model(tf.Module):
        def __init__(self):
            super().__init__()
            self.w = tf.Variable(tf.ones([3]), name="w")

        @tf.function
        def scale(self, x):
            return x * self.w

        @tf.function(input_signature=[tf.TensorSpec([3], tf.float32)])
        def forward(self, x):
            y = self.scale(x) + self.scale(x + 1.0)
            if call_exported:
                y = y + self.backward(x) * self.backward(y)
            return y

        @tf.function(input_signature=[tf.TensorSpec([3], tf.float32)])
        def backward(self, x):
            return self.scale(-x)

    module = Model()
    with tempfile.TemporaryDirectory() as path:
        tf.saved_model.save(module, path, signatures={"forward": module.forward,
                                                      "backward": module.backward})
        return tf.mlir.experimental.convert_saved_model(path, "forward,backward",
                                                        show_debug_info=False)


_RANDOM_COUNT = 30
_RECURSIVE_COUNT = 6
_NAMES = ("f", "g", "h", "f_0", "f_1", "g_2", "h_0", "k", "f_0_3", "g_0")
_T = "tensor<f32>"


def random_program(seed, recursive=False):
    """A module of functions ``(tensor<f32>) -> tensor<f32>`` using later functions (when
    `recursive`, by calls only, and earlier ones too): the same text for the same seed."""
    rng = random.Random(seed)
    count = rng.randint(3, 7)
    names = rng.sample(_NAMES, count)
    lines = []
    for index, name in enumerate(names):
        later = names[index + 1:]
        earlier = names[:index + 1]

        def pick():
            return rng.choice(later)

        def use(value, depth):
            """Text of one op using a later function on `value`; returns (lines, result)."""
            result = f"%v{rng.randrange(10 ** 6)}"
            kinds = ["call", "pcall", "spcall", "legacy"]
            if not recursive:
                # Recursive modules use functions by calls only: every cycle is one TF's
                # recursion check sees (with other uses in a cycle, TF's pass never returns).
                kinds += ["if", "case", "const", "attr"]
            if depth < 2:
                kinds += ["ifregion", "ifregion"]
            kind = rng.choice(kinds)
            if kind == "call":
                return [f"{result} = func.call @{pick()}({value}) : ({_T}) -> {_T}"], result
            if kind in ("pcall", "spcall"):
                op = "tf.PartitionedCall" if kind == "pcall" else "tf.StatefulPartitionedCall"
                return [f'{result} = "{op}"({value}) {{config = "", config_proto = "", '
                        f'executor_type = "", f = @{pick()}}} : ({_T}) -> {_T}'], result
            if kind == "legacy":
                return [f'{result} = "tf.LegacyCall"({value}) {{f = @{pick()}}} : ({_T}) -> {_T}'], result
            if kind == "if":
                pred = f"%p{rng.randrange(10 ** 6)}"
                return [f'{pred} = "tf.Const"() {{value = dense<true> : tensor<i1>}} : () -> tensor<i1>',
                        f'{result} = "tf.If"({pred}, {value}) {{then_branch = @{pick()}, '
                        f'else_branch = @{pick()}, is_stateless = true}} : (tensor<i1>, {_T}) -> {_T}'], result
            if kind == "case":
                index_value = f"%i{rng.randrange(10 ** 6)}"
                branches = ", ".join(f"@{pick()}" for _ in range(rng.randint(1, 3)))
                return [f'{index_value} = "tf.Const"() {{value = dense<0> : tensor<i32>}} : () -> tensor<i32>',
                        f'{result} = "tf.Case"({index_value}, {value}) {{branches = [{branches}], '
                        f'is_stateless = true}} : (tensor<i32>, {_T}) -> {_T}'], result
            if kind == "const":
                return [f"{result} = func.constant @{pick()} : ({_T}) -> {_T}"], value
            if kind == "attr":
                return [f'"tf.NoOp"() {{_refs = [@{pick()}, {{key = @{pick()}}}]}} : () -> ()'], value
            pred = f"%p{rng.randrange(10 ** 6)}"
            text = [f'{pred} = "tf.Const"() {{value = dense<false> : tensor<i1>}} : () -> tensor<i1>',
                    f'{result} = "tf.IfRegion"({pred}) ({{']
            for branch in range(2):
                if branch:
                    text.append("}, {")
                inner = value
                for _ in range(rng.randint(0, 2)):
                    more, inner = use(inner, depth + 1)
                    text += ["  " + line for line in more]
                text.append(f'  "tf.Yield"({inner}) : ({_T}) -> ()')
            text.append(f"}}) {{is_stateless = true}} : (tensor<i1>) -> {_T}")
            return text, result

        body = []
        value = "%arg0"
        if later:
            if rng.random() < 0.3:
                # The uses inside islands of a graph.
                body.append(f"%g = tf_executor.graph {{")
                for _ in range(rng.randint(1, 4)):
                    more, result = use(value, 1)
                    island = f"%o{rng.randrange(10 ** 6)}"
                    body.append(f"  {island}, %c{rng.randrange(10 ** 6)} = tf_executor.island {{")
                    body += ["    " + line for line in more]
                    body.append(f"    tf_executor.yield {result} : {_T}")
                    body.append("  }")
                    value = island
                body.append(f"  tf_executor.fetch {value} : {_T}")
                body.append("}")
                value = "%g"
            for _ in range(rng.randint(1, 5)):
                more, value = use(value, 0)
                body += more
        if recursive and index > 0 and rng.random() < 0.5:
            result = f"%r{rng.randrange(10 ** 6)}"
            body.append(f"{result} = func.call @{rng.choice(earlier)}({value}) : ({_T}) -> {_T}")
            value = result
        argument_attr = (f" {{tf._ref = @{pick()}}}" if later and not recursive and rng.random() < 0.2
                         else "")
        visibility = "" if index == 0 or rng.random() < 0.3 else "private "
        lines.append(f"func.func {visibility}@{name}(%arg0: {_T}{argument_attr}) -> {_T} {{")
        lines += ["  " + line for line in body]
        lines.append(f"  func.return {value} : {_T}")
        lines.append("}")
    return "module {\n" + "\n".join("  " + line for line in lines) + "\n}\n"


def _forms(executor):
    functional = tf.mlir.experimental.run_pass_pipeline(
        executor, "func.func(tf-executor-to-functional-conversion)")
    regions = tf.mlir.experimental.run_pass_pipeline(functional, "tf-functional-control-flow-to-regions")
    return {"executor": executor, "functional": functional, "regions": regions}


def _programs():
    programs = {}
    for name, make in _MODELS.items():
        fn = make()
        raw = tf.mlir.experimental.convert_function(fn.get_concrete_function(), pass_pipeline="")
        for form, text in _forms(raw).items():
            programs[f"{name}_{form}"] = text
    for form, text in _forms(_tf1_defun()).items():
        programs[f"tf1_defun_{form}"] = text
    programs["saved_model"] = _saved_model(False)
    programs["saved_model_calls_exported"] = _saved_model(True)
    for seed in range(_RANDOM_COUNT):
        programs[f"random_{seed}"] = random_program(seed)
    for seed in range(_RECURSIVE_COUNT):
        programs[f"recursive_{seed}"] = random_program(1000 + seed, recursive=True)
    return programs


PROGRAMS = tuple(f"{name}_{form}" for name in ("helpers_in_cond", "helper_in_loop", "doubling_chain",
                                               "stateful_helpers", "tf1_defun")
                 for form in FORMS) + ("saved_model", "saved_model_calls_exported") + tuple(
    f"random_{seed}" for seed in range(_RANDOM_COUNT)) + tuple(
    f"recursive_{seed}" for seed in range(_RECURSIVE_COUNT))


def input_names():
    return list(PROGRAMS)


def get(name):
    """The text of generated input `name` (generated once, :mod:`generated_inputs`)."""
    import generated_inputs
    return generated_inputs.read(__file__, name)


def main(argv):
    global tf
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    import tensorflow

    tf = tensorflow
    programs = _programs()
    assert sorted(programs) == sorted(PROGRAMS), sorted(programs)
    import generated_inputs
    generated_inputs.write(argv[1], programs)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
