"""TPU embedding and tf.data reduce programs as TF's Python builds them.

Two families, imported with ``convert_graph_def`` / ``convert_function``,
each in two forms: as imported (``tf_executor`` islands of one op) and after
TF's standard import pipeline (coarsened islands for graphs, functional form
for functions):

* TPU embedding ops (``tf.raw_ops.EnqueueTPUEmbedding{Sparse,Ragged,
  Arbitrary}TensorBatch``, ``RecvTPUEmbeddingActivations``,
  ``SendTPUEmbeddingGradients`` with a real ``TPUEmbeddingConfiguration``)
  tagged with ``_tpu_embedding_layer`` the way the TPU embedding API tags
  them: training (a send op) and inference layers, several layers, enqueue
  ops marked for outside compilation, ops inside a ``tf.function``, and the
  inconsistent taggings TF rejects (duplicate layers, enqueue layers without
  a receive op, more enqueue than receive layers);
* ``tf.data`` ``reduce`` inside ``tf.function(jit_compile=True)``: the
  ``tf.ReduceDataset`` gets ``_xla_compile_device_type`` (and a TPU device)
  as TF's TPU function compilation puts it; several state values, captured
  variables (``Targuments``), batched elements of unknown size, and an
  unmarked reduce.

Generated in one TensorFlow child process (``python embedding_programs.py
OUTDIR``) and cached (:mod:`generated_inputs`).
"""
import os
import sys

_TPU = "/job:localhost/replica:0/task:0/device:TPU:0"


def _config():
    from tensorflow.core.protobuf.tpu import tpu_embedding_configuration_pb2 as pb

    config = pb.TPUEmbeddingConfiguration()
    for name, vocabulary, dimension in (("users", 100, 4), ("items", 50, 8)):
        table = config.table_descriptor.add()
        table.name = name
        table.vocabulary_size = vocabulary
        table.dimension = dimension
        table.num_features = 8
        table.optimization_parameters.stochastic_gradient_descent.SetInParent()
        table.optimization_parameters.learning_rate.constant = 0.1
    config.mode = pb.TPUEmbeddingConfiguration.TRAINING
    config.batch_size_per_tensor_core = 8
    config.num_hosts = 1
    config.num_tensor_cores = 1
    return config.SerializeToString()


def _embedding_programs(tf):
    from tensorflow.core.framework import attr_value_pb2

    tf1 = tf.compat.v1
    config = _config()

    def tag(op, layer, outside=None):
        op._set_attr("_tpu_embedding_layer", attr_value_pb2.AttrValue(s=layer.encode()))
        if outside is not None:
            op._set_attr("_xla_outside_compilation", attr_value_pb2.AttrValue(s=outside.encode()))

    def mode():
        return tf1.placeholder(tf.string, [], name="mode")

    def sparse(layer, outside=None, ordinal=0):
        ids = [tf1.placeholder(tf.int32, [None], name=f"{layer}_ids{i}") for i in range(2)]
        weights = [tf1.placeholder(tf.float32, [None], name=f"{layer}_w{i}") for i in range(2)]
        op = tf.raw_ops.EnqueueTPUEmbeddingSparseTensorBatch(
            sample_indices=ids, embedding_indices=ids, aggregation_weights=weights,
            mode_override=mode(), table_ids=[0, 1], device_ordinal=ordinal)
        tag(op, layer, outside)

    def ragged(layer, outside=None):
        splits = tf1.placeholder(tf.int32, [None], name=f"{layer}_splits")
        values = tf1.placeholder(tf.int32, [None], name=f"{layer}_values")
        weights = tf1.placeholder(tf.float32, [None], name=f"{layer}_weights")
        op = tf.raw_ops.EnqueueTPUEmbeddingRaggedTensorBatch(
            sample_splits=[splits], embedding_indices=[values], aggregation_weights=[weights],
            mode_override=mode(), table_ids=[0], device_ordinal=0)
        tag(op, layer, outside)

    def arbitrary(layer, outside=None):
        splits = tf1.placeholder(tf.int64, [None], name=f"{layer}_splits")
        values = tf1.placeholder(tf.int64, [None], name=f"{layer}_values")
        weights = tf1.placeholder(tf.float32, [None], name=f"{layer}_weights")
        op = tf.raw_ops.EnqueueTPUEmbeddingArbitraryTensorBatch(
            sample_indices_or_row_splits=[splits], embedding_indices=[values],
            aggregation_weights=[weights], mode_override=mode(), device_ordinal=0)
        tag(op, layer, outside)

    def recv(layer):
        activations = tf.raw_ops.RecvTPUEmbeddingActivations(num_outputs=2, config=config)
        tag(activations[0].op, layer)
        return activations

    def send(layer, activations, learning_rates=()):
        op = tf.raw_ops.SendTPUEmbeddingGradients(
            inputs=[a * 0.5 for a in activations], learning_rates=list(learning_rates),
            config=config)
        tag(op, layer)

    def training():
        sparse("layer0", outside="0")
        send("layer0", recv("layer0"))

    def inference():
        ragged("layer0")
        activations = recv("layer0")
        tf.identity(activations[0] + 1.0, name="out")

    def two_layers():
        sparse("dense_features")
        send("dense_features", recv("dense_features"),
             [tf1.placeholder(tf.float32, [], name="lr")])
        arbitrary("sequence_features", outside="1")
        recv("sequence_features")

    def untagged():
        ids = tf1.placeholder(tf.int32, [None], name="ids")
        tf.raw_ops.EnqueueTPUEmbeddingSparseTensorBatch(
            sample_indices=[ids], embedding_indices=[ids],
            aggregation_weights=[tf.cast(ids, tf.float32)], mode_override=mode(), table_ids=[0])
        activations = tf.raw_ops.RecvTPUEmbeddingActivations(num_outputs=2, config=config)
        tf.raw_ops.SendTPUEmbeddingGradients(inputs=list(activations), learning_rates=[],
                                             config=config)

    def duplicate_enqueue():
        sparse("layer0")
        sparse("layer0", ordinal=1)
        recv("layer0")

    def missing_recv():
        for layer in ("alpha", "beta", "gamma", "delta", "epsilon"):
            ragged(layer)
        for layer in ("a", "b", "c", "d", "e"):
            recv(layer)

    def more_enqueues():
        sparse("layer0")
        ragged("layer1")
        recv("layer0")

    def duplicate_recv():
        sparse("layer0")
        recv("layer0")
        recv("layer0")

    return {"emb_training": training, "emb_inference": inference, "emb_two_layers": two_layers,
            "emb_untagged": untagged, "emb_duplicate_enqueue": duplicate_enqueue,
            "emb_missing_recv": missing_recv, "emb_more_enqueues": more_enqueues,
            "emb_duplicate_recv": duplicate_recv}


def _embedding_function(tf):
    """The training layer inside a tf.function (a function body rather than a graph)."""
    from tensorflow.core.framework import attr_value_pb2

    config = _config()

    def tag(op, layer):
        op._set_attr("_tpu_embedding_layer", attr_value_pb2.AttrValue(s=layer.encode()))

    @tf.function
    def step(ids, weights, mode):
        enqueue = tf.raw_ops.EnqueueTPUEmbeddingSparseTensorBatch(
            sample_indices=[ids], embedding_indices=[ids], aggregation_weights=[weights],
            mode_override=mode, table_ids=[0])
        tag(enqueue, "layer")
        activations = tf.raw_ops.RecvTPUEmbeddingActivations(num_outputs=2, config=config)
        tag(activations[0].op, "layer")
        send = tf.raw_ops.SendTPUEmbeddingGradients(inputs=[a * 2.0 for a in activations],
                                                    learning_rates=[], config=config)
        tag(send, "layer")
        return activations[0]

    return step.get_concrete_function(tf.TensorSpec([None], tf.int32),
                                      tf.TensorSpec([None], tf.float32),
                                      tf.TensorSpec([], tf.string))


def _reduce_functions(tf):
    from tensorflow.core.framework import attr_value_pb2

    def mark(device=_TPU):
        graph = tf.compat.v1.get_default_graph()
        for op in graph.get_operations():
            if op.type == "ReduceDataset":
                op._set_attr("_xla_compile_device_type", attr_value_pb2.AttrValue(s=b"TPU"))
                if device is not None:
                    op._set_device(device)

    pairs = tf.data.Dataset.range(10).map(lambda x: (tf.cast(x, tf.float32), x * 2))
    batches = tf.data.Dataset.range(10).map(lambda x: tf.fill([3], x)).batch(4)
    scale = tf.Variable(3.0)
    offset = tf.Variable(1, dtype=tf.int64)

    @tf.function(jit_compile=True)
    def two_states(d, s):
        result = d.reduce((s, tf.constant(0, tf.int64)),
                          lambda st, el: (st[0] + el[0], st[1] + el[1]))
        mark()
        return result

    @tf.function(jit_compile=True)
    def captured(d, s):
        result = d.reduce((s, tf.constant(0, tf.int64)),
                          lambda st, el: (st[0] + el[0] * scale, st[1] + el[1] + offset))
        mark(device=None)
        return result

    @tf.function(jit_compile=True)
    def batched(d):
        result = d.reduce(tf.zeros([3], tf.int64), lambda st, el: st + tf.reduce_sum(el, 0))
        mark()
        return result

    @tf.function(jit_compile=True)
    def unmarked(d):
        return d.reduce(tf.constant(0, tf.int64), lambda st, el: st + el)

    @tf.function(jit_compile=True)
    def twice(d, s):
        first = d.reduce(s, lambda st, el: st + el[0])
        second = d.reduce(first, lambda st, el: st * el[0])
        mark()
        return second

    return {
        "reduce_two_states": two_states.get_concrete_function(pairs, tf.TensorSpec([], tf.float32)),
        "reduce_captured": captured.get_concrete_function(pairs, tf.TensorSpec([], tf.float32)),
        "reduce_batched": batched.get_concrete_function(batches),
        "reduce_unmarked": unmarked.get_concrete_function(tf.data.Dataset.range(5)),
        "reduce_twice": twice.get_concrete_function(pairs, tf.TensorSpec([], tf.float32)),
    }


PROGRAMS = ("emb_training", "emb_inference", "emb_two_layers", "emb_untagged",
            "emb_duplicate_enqueue", "emb_missing_recv", "emb_more_enqueues", "emb_duplicate_recv",
            "emb_function", "reduce_two_states", "reduce_captured", "reduce_batched",
            "reduce_unmarked", "reduce_twice")


def input_names():
    """Every program in two forms: ``<name>.raw`` (as imported) and ``<name>.standard`` (after
    TF's standard import pipeline)."""
    return [f"{name}.{form}" for name in PROGRAMS for form in ("raw", "standard")]


def get(name):
    import generated_inputs
    return generated_inputs.read(__file__, name)


def _generate(out_dir):
    import generated_inputs
    import tensorflow as tf

    tf.compat.v1.enable_control_flow_v2()
    convert = tf.mlir.experimental
    outputs = {}
    for name, build in _embedding_programs(tf).items():
        graph = tf.Graph()
        with graph.as_default():
            build()
        graph_def = graph.as_graph_def()
        outputs[f"{name}.raw"] = convert.convert_graph_def(graph_def, pass_pipeline="")
        outputs[f"{name}.standard"] = convert.convert_graph_def(graph_def)
    functions = {"emb_function": _embedding_function(tf)}
    functions.update(_reduce_functions(tf))
    for name, function in functions.items():
        outputs[f"{name}.raw"] = convert.convert_function(function, pass_pipeline="")
        outputs[f"{name}.standard"] = convert.convert_function(function)
    generated_inputs.write(out_dir, outputs)


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    _generate(sys.argv[1])
