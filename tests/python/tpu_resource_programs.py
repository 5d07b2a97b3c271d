"""TPU programs at the stage where TF's clustering bridge runs its resource passes.

The inputs of ``-tf-resource-op-lifting`` and ``-tf-resource-device-inference``
as ``tf-replicated-clustering-bridge-v2`` (:data:`tfmlir.passes.bridge_pipelines.BRIDGE_V2`)
hands them over, for the programs of :mod:`tpu_bridge_programs` (TPU programs
as users write them: variables, replicas, outside compilation, control flow,
Keras) and of :mod:`tpu_cluster_programs`:

* ``<program>.lifting``: the bridge up to, not including, -tf-resource-op-lifting;
* ``<program>.device-inference``: the bridge up to, not including,
  -tf-resource-device-inference.

Every pass TF registers runs in TensorFlow (a child process,
:mod:`tfmlir.testing.tf_oracle`). The passes it does not register
(:data:`bridge_diff.TF_UNREGISTERED`) are left out, except cluster
formation, done by :func:`tpu_cluster_programs.form_clusters` (tfmlir; no
``tf_device.replicate`` is formed: replicated inputs stay ``tf.TPUReplicatedInput``
ops before the cluster). Left out: input validation and embedding pipelining
/ sequencing (no changes on these programs), and the outside compilation
passes between lifting and device inference (marking, head/tail and
outside-compilation extraction, the marker check): in the
``.device-inference`` inputs, outside-compiled ops are still in their
clusters, marked with ``_xla_outside_compilation``. A program TF cannot take
to a stage has no input there (:data:`SKIPPED` says why).

``python tpu_resource_programs.py OUTDIR`` writes the inputs (no TensorFlow in
that process); cached by :mod:`generated_inputs`.
"""
import os
import sys

STAGES = {"lifting": "tf-resource-op-lifting", "device-inference": "tf-resource-device-inference"}

BRIDGE_PROGRAMS = ("rewrite_variables", "replicate_1", "replicate_2", "replicate_4", "outside_head",
                   "outside_tail", "outside_middle", "outside_in_cond", "outside_in_while",
                   "outside_several", "outside_replicated", "automatic_strings", "keras_small")
CLUSTER_PROGRAMS = ("rewrite_head_casts", "replicate_head_casts", "rewrite_cond_calls",
                    "rewrite_devices", "two_computations")

# (program, stage) -> why there is no input: TF fails on the way.
SKIPPED = {}


def input_names():
    names = []
    for program in BRIDGE_PROGRAMS + tuple("c." + p for p in CLUSTER_PROGRAMS):
        for stage in STAGES:
            if (program, stage) not in SKIPPED:
                names.append(f"{program}.{stage}")
    return names


def get(name):
    """The text of input `name` (one of :func:`input_names`)."""
    import generated_inputs
    return generated_inputs.read(__file__, name)


# -- generation (no TensorFlow in this process) -------------------------------------------

def _pipelines():
    """(front before cluster formation, after it up to lifting, lifting up to device inference):
    TF's registered passes of the v2 composition."""
    import bridge_diff
    from tfmlir.passes.bridge_pipelines import BRIDGE_V2

    parts = [[], [], []]
    part = 0
    for name, text in bridge_diff.elements(BRIDGE_V2):
        if name == "tf-tpu-cluster-formation":
            part = 1
            continue
        if name == STAGES["lifting"] and part == 1:
            part = 2
        if name == STAGES["device-inference"]:
            break
        if name not in bridge_diff.TF_UNREGISTERED:
            parts[part].append(text)
    return [",".join(p) for p in parts]


def _run_tf(texts, pipeline):
    from tfmlir.testing.tf_oracle import run_tf_pipelines

    names = list(texts)
    results = run_tf_pipelines([(texts[n], pipeline) for n in names], timeout=1800)
    return dict(zip(names, results))


def _generate(out_dir):
    import generated_inputs
    import tpu_bridge_programs
    import tpu_cluster_programs

    front, to_lifting, to_inference = _pipelines()
    imported = {p: tpu_bridge_programs.get(p) for p in BRIDGE_PROGRAMS}
    formed = {}
    for name, result in _run_tf(imported, front).items():
        if not result["ok"]:
            raise RuntimeError(f"{name}: TF's bridge front failed: {result['error'][-2000:]}")
        formed[name] = tpu_cluster_programs.form_clusters(result["text"])
    for program in CLUSTER_PROGRAMS:
        formed["c." + program] = tpu_cluster_programs.get(program)
    outputs = {}
    stage_inputs = formed
    for stage, pipeline in (("lifting", to_lifting), ("device-inference", to_inference)):
        reached = {}
        for name, result in _run_tf(stage_inputs, pipeline).items():
            if result["ok"]:
                reached[name] = result["text"]
                outputs[f"{name}.{stage}"] = result["text"]
            elif (name, stage) not in SKIPPED:
                raise RuntimeError(f"{name}: TF fails before {stage}: {result['error'][-2000:]}")
        stage_inputs = reached
    generated_inputs.write(out_dir, outputs)


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    _generate(sys.argv[1])
