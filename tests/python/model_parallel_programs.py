"""Model-parallel TPU programs (several cores per replica) and plain TensorFlow's numbers.

Every program is a TF1 graph built twice by the same code: once with
TensorFlow's TPU wrappers -- ``tf.compat.v1.tpu.rewrite`` / ``replicate`` with
a ``DeviceAssignment`` of ``cores`` cores per replica over a topology of
``replicas * cores`` TPU cores, and ``xla_sharding`` annotations
(``use_sharding_op=True``): values assigned to one core (MAXIMAL),
replicated on every core, split into tiles (one dimension, two dimensions,
partially replicated, an uneven split the host pads), a cross-replica sum
of split values, a variable updated by every step, host computations
(outside compilation, with replicated and split values), an input assembled
by ``TPUPartitionedInputV2`` and a result cut by ``TPUPartitionedOutputV2``
outside the computation -- the GraphDef tfmlir
imports, bridges and runs; and once without them (the computation called
directly per replica, the annotations left out) in a ``tf.compat.v1.Session``:
the expected numbers.

Each replica's results are fetched on their own (``out_<r>``, ``y_<r>`` ...).
Programs of ``BAD_PROGRAMS`` are only built with the TPU wrappers: tfmlir
must refuse them before anything runs.

For every program ``<name>`` the generator writes ``<name>.pb`` and
``<name>.json``: ``{"feeds": {tensor: value}, "targets": [initializer], "fetches":
[tensor], "expected": [[value per fetch] per step]}`` (values as ``{"dtype",
"shape", "value"}``). Run as ``python model_parallel_programs.py OUTDIR`` in a
TensorFlow child process; cached by :mod:`generated_inputs`.
"""
import json
import os
import sys

# name: (kind, replicas, cores per replica)
PROGRAMS = {
    "maximal_1x2": ("maximal", 1, 2),
    "maximal_2x2": ("maximal", 2, 2),
    "maximal_1x4": ("maximal", 1, 4),
    # Without SPMD (MPMD partitioning) TF's sharding identification keeps the cores the
    # computation assigns its arguments to (with SPMD a MAXIMAL sharding puts all on core 0).
    "maximal_mpmd_1x2": ("maximal_mpmd", 1, 2),
    "maximal_mpmd_2x2": ("maximal_mpmd", 2, 2),
    "maximal_mpmd_1x4": ("maximal_mpmd", 1, 4),
    "replicated_1x2": ("replicated", 1, 2),
    "replicated_2x2": ("replicated", 2, 2),
    "replicated_1x4": ("replicated", 1, 4),
    "split_1x2": ("split", 1, 2),
    "split_2x2": ("split", 2, 2),
    "split_1x4": ("split", 1, 4),
    "split_uneven_1x2": ("split_uneven", 1, 2),
    "tiled_2d_1x4": ("tiled_2d", 1, 4),
    "partial_tiled_2x4": ("partial_tiled", 2, 4),
    "cross_replica_sum_2x2": ("cross_replica_sum", 2, 2),
    "variables_1x2": ("variables", 1, 2),
    "variables_1x4": ("variables", 1, 4),
    # The input assembled from per-core parts by TPUPartitionedInputV2 and the result cut into
    # parts by TPUPartitionedOutputV2 outside the computation (the host does both).
    "partitioned_io_1x2": ("partitioned_io", 1, 2),
    "partitioned_io_2x2": ("partitioned_io", 2, 2),
    # Host computations (outside compilation): they talk to core 0.
    "outside_1x2": ("outside", 1, 2),
    "outside_2x2": ("outside", 2, 2),
    "outside_split_1x4": ("outside_split", 1, 4),
}
BAD_PROGRAMS = {
    # More cores than the runtime's XLA devices (8 unless TFMLIR_CPU_DEVICES says otherwise).
    "too_many_cores": ("replicated", 2, 8),
}
STEPS = {"variables_1x2": 3, "variables_1x4": 3}


class _Api:
    """The TPU wrappers (``tpu=True``) or their plain-TensorFlow meaning."""

    def __init__(self, tf, tpu, replicas, cores, spmd=True):
        self.tf, self.tpu, self.replicas, self.cores = tf, tpu, replicas, cores
        self.spmd = spmd
        if tpu:
            from tensorflow.python.compiler.xla.experimental import xla_sharding
            from tensorflow.python.tpu import device_assignment

            self.sharding = xla_sharding
            n = replicas * cores
            topology = tf.tpu.experimental.Topology(
                mesh_shape=[1, 1, 1, n], device_coordinates=[[[0, 0, 0, i] for i in range(n)]])
            self.assignment = device_assignment.DeviceAssignment.build(
                topology, computation_shape=[1, 1, 1, cores], num_replicas=replicas)

    def run(self, computation, per_replica_inputs):
        """[outputs of replica r]: the TPU computation (replicated when there are several
        replicas) or the computation called per replica."""
        tf1 = self.tf.compat.v1
        if not self.tpu:
            return [list(computation(*inputs)) for inputs in per_replica_inputs]
        options = tf1.tpu.XLAOptions(use_spmd_for_xla_partitioning=self.spmd)
        if self.replicas == 1:
            return [tf1.tpu.rewrite(computation, per_replica_inputs[0], device_assignment=self.assignment,
                                    xla_options=options)]
        return tf1.tpu.replicate(computation, per_replica_inputs, device_assignment=self.assignment,
                                 xla_options=options)

    def on_core(self, t, core):
        return self.sharding.assign_device(t, core, use_sharding_op=True) if self.tpu else t

    def replicate(self, t):
        return self.sharding.replicate(t, use_sharding_op=True) if self.tpu else t

    def split(self, t, dim):
        return self.sharding.split(t, dim, self.cores, use_sharding_op=True) if self.tpu else t

    def tile(self, t, assignment):
        return self.sharding.tile(t, assignment, use_sharding_op=True) if self.tpu else t

    def partial_tile(self, t, assignment):
        return self.sharding.partial_tile(t, assignment, use_sharding_op=True) if self.tpu else t


def _build(tf, np, kind, replicas, cores, tpu):
    tf1 = tf.compat.v1
    api = _Api(tf, tpu, replicas, cores, spmd=kind != "maximal_mpmd")
    rows = 5 if kind == "split_uneven" else 4
    x = tf1.placeholder(tf.float32, [replicas * rows, 8], name="x")
    w = tf1.get_variable("w", initializer=tf.constant(np.arange(64, dtype=np.float32).reshape(8, 8) / 64 - 0.3),
                         use_resource=True)
    b = tf1.get_variable("b", initializer=tf.constant(np.linspace(-0.5, 0.5, 8, dtype=np.float32)),
                         use_resource=True)
    fetches = []

    def hidden(xr):
        return tf.nn.relu(tf.matmul(xr, w.read_value()) + b)

    def computation(xr):
        if kind == "cross_replica_sum":
            # Each replica's rows split over its cores; the sum over the replicas of a split value
            # (plain TensorFlow sums every replica's value).
            h = hidden(api.split(xr, 0))
            if tpu:
                total = tf1.tpu.cross_replica_sum(api.split(h, 0))
            else:
                total = tf.add_n([hidden(x[r * rows:(r + 1) * rows]) for r in range(replicas)])
            return [tf.reduce_sum(total, axis=1), api.split(total * 0.5, 0)]
        if kind == "maximal":
            # The weights on the last core, the activation on core 0, a result on the last core.
            h = tf.nn.relu(tf.matmul(xr, api.on_core(w.read_value(), cores - 1)) + b)
            h = api.on_core(h, 0)
            return [tf.reduce_sum(h, axis=1), api.on_core(h * 2.0, cores - 1)]
        if kind == "maximal_mpmd":
            # The input on core 1, the weights on the last core, the bias on core 0.
            xs = api.on_core(xr, 1)
            ws = api.on_core(w.read_value(), cores - 1)
            h = tf.nn.relu(tf.matmul(xs, ws) + api.on_core(b.read_value(), 0))
            return [api.on_core(tf.reduce_sum(h, axis=1), cores - 1), api.on_core(h * 2.0, 1)]
        if kind == "replicated":
            h = tf.nn.relu(tf.matmul(xr, api.replicate(w.read_value())) + b)
            return [tf.reduce_sum(h, axis=1), api.replicate(h - 1.0)]
        if kind in ("split", "split_uneven", "partitioned_io"):
            ws = api.split(w.read_value(), 1)
            h = tf.nn.relu(tf.matmul(api.split(xr, 0), ws) + b)
            return [tf.reduce_sum(h, axis=1), api.split(h, 0)]
        if kind == "tiled_2d":
            grid = np.arange(4).reshape(2, 2)
            h = tf.nn.relu(tf.matmul(xr, api.tile(w.read_value(), grid)) + b)
            return [tf.reduce_sum(h, axis=1), api.tile(h * 3.0, grid)]
        if kind == "partial_tiled":
            # Rows in 2 tiles, each on 2 of the 4 cores.
            grid = np.array([[[0, 1]], [[2, 3]]])
            h = tf.nn.relu(tf.matmul(api.partial_tile(xr, grid), w.read_value()) + b)
            return [tf.reduce_sum(h, axis=1), api.partial_tile(h, grid)]
        if kind == "outside":
            h = api.replicate(xr * 2.0)
            z = tf1.tpu.outside_compilation(lambda v: tf.strings.to_number(tf.strings.as_string(v)), h)
            return [tf.reduce_sum(z, axis=1), z + 1.0]
        if kind == "outside_split":
            # Split rows and weights, a host round trip of the (gathered) activation, a split result.
            h = tf.nn.relu(tf.matmul(api.split(xr, 0), api.split(w.read_value(), 1)) + b)
            z = tf1.tpu.outside_compilation(lambda v: tf.strings.to_number(tf.strings.as_string(v)), h)
            return [tf.reduce_sum(z, axis=1), api.split(z * 2.0, 0)]
        if kind == "variables":
            # b is read and updated by every step; w lives on the last core.
            h = tf.nn.relu(tf.matmul(xr, api.on_core(w.read_value(), cores - 1)) + b)
            update = b.assign_add(0.1 * tf.reduce_sum(h, axis=0))
            with tf.control_dependencies([update]):
                return [tf.reduce_sum(h, axis=1), tf.identity(h)]
        raise ValueError(kind)

    inputs = [[x[r * rows:(r + 1) * rows]] for r in range(replicas)]
    partitioned = kind == "partitioned_io" and tpu
    if partitioned:
        # Each replica's rows in one part per core, put together by TPUPartitionedInputV2.
        part = rows // cores
        inputs = [[tf.raw_ops.TPUPartitionedInputV2(
            inputs=[x[r * rows + c * part:r * rows + (c + 1) * part] for c in range(cores)],
            partition_dims=[cores, 1])] for r in range(replicas)]
    outputs = api.run(computation, inputs)
    for r in range(replicas):
        tf.identity(outputs[r][0], name=f"out_{r}")
        y = outputs[r][1]
        if partitioned:
            y = tf.concat(tf.raw_ops.TPUPartitionedOutputV2(inputs=y, num_splits=cores,
                                                            partition_dims=[cores, 1]), axis=0)
        tf.identity(y, name=f"y_{r}")
        fetches += [f"out_{r}", f"y_{r}"]
    init = tf1.global_variables_initializer()
    value = (np.arange(replicas * rows * 8, dtype=np.float32).reshape(replicas * rows, 8) % 7) / 5.0 - 0.4
    return {x: value}, fetches, init


def _value(np, a):
    a = np.asarray(a)
    return {"dtype": str(a.dtype), "shape": list(a.shape), "value": a.tolist()}


def _generate(out_dir):
    import numpy as np
    import tensorflow as tf

    tf.compat.v1.disable_eager_execution()
    os.makedirs(out_dir, exist_ok=True)
    for name, (kind, replicas, cores) in {**PROGRAMS, **BAD_PROGRAMS}.items():
        graph = tf.Graph()
        with graph.as_default():
            feeds, fetches, init = _build(tf, np, kind, replicas, cores, tpu=True)
        with open(os.path.join(out_dir, name + ".pb"), "wb") as f:
            f.write(graph.as_graph_def().SerializeToString())
        spec = {"feeds": {t.name: _value(np, v) for t, v in feeds.items()}, "targets": [init.name],
                "fetches": fetches, "expected": []}
        if name in PROGRAMS:
            plain = tf.Graph()
            with plain.as_default():
                plain_feeds, _, plain_init = _build(tf, np, kind, replicas, cores, tpu=False)
            with tf.compat.v1.Session(graph=plain) as sess:
                sess.run(plain_init)
                feed_values = {plain.get_tensor_by_name(t.name): v for t, v in plain_feeds.items()}
                spec["expected"] = [[_value(np, v) for v in sess.run([f + ":0" for f in fetches], feed_values)]
                                    for _ in range(STEPS.get(name, 1))]
        with open(os.path.join(out_dir, name + ".json"), "w") as f:
            json.dump(spec, f)


# -- use (in the test process) ---------------------------------------------------------

def directory():
    import generated_inputs
    return generated_inputs.directory(__file__)


def path(name, suffix=".pb"):
    return os.path.join(directory(), name + suffix)


def spec(name):
    """The program's feeds, targets, fetches and expected values (numpy arrays)."""
    import numpy as np
    with open(path(name, ".json")) as f:
        data = json.load(f)

    def array(v):
        return np.array(v["value"], dtype=v["dtype"]).reshape(v["shape"])

    data["feeds"] = {k: array(v) for k, v in data["feeds"].items()}
    data["expected"] = [[array(v) for v in step] for step in data["expected"]]
    return data


if __name__ == "__main__":
    _generate(sys.argv[1])
