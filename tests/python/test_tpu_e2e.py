"""The mission's loop: TF1 TPU programs in, imported and bridged by tfmlir, run on XLA, TF's numbers out.

Every program of :mod:`tpu_e2e_programs` (the clustering issue's list and a
ResNet50-sized Keras model under ``tpu.rewrite``) runs through
``tfmlir.runtime.Session(graph_def)``: import, functionalization, tfmlir's
``tf-tpu-bridge`` (v1-compat, as TF's session bridge; v2 as well for a subset),
the runtime. The initializer runs as a target first, then every step fetches
with the feeds; the values equal plain TensorFlow's (the same computation
without TPU wrappers in a ``tf.compat.v1.Session``) within 1e-6 relative.
"""
from pathlib import Path

import numpy as np
import pytest

import tpu_e2e_programs as programs

pytestmark = [pytest.mark.tf, pytest.mark.slow]

RTOL = 1e-6


def _close(got, expected, what):
    got = np.asarray(got)
    assert got.shape == expected.shape, (what, got.shape, expected.shape)
    if expected.dtype == object:
        assert got.tolist() == expected.tolist(), what
        return
    scale = float(np.max(np.abs(expected))) if expected.size else 0.0
    np.testing.assert_allclose(got.astype(np.float64), expected.astype(np.float64), rtol=RTOL,
                               atol=RTOL * scale, err_msg=what)


def _run(name, v1_compat=True):
    from tfmlir import runtime

    spec = programs.spec(name)
    with runtime.Session(programs.path(name), v1_compat=v1_compat) as session:
        session.run(targets=[t.split(":")[0] for t in spec["targets"]])
        if spec["weights"]:
            session.run(targets=["load_weights"], feeds=spec["weights"])
        for step, expected in enumerate(spec["expected"]):
            got = session.run(spec["fetches"], spec["feeds"])
            for value, want, fetch in zip(got, expected, spec["fetches"]):
                _close(value, want, f"{name} step {step} fetch {fetch}")
        return session.timings


@pytest.mark.parametrize("name", programs.PROGRAMS)
def test_program_runs_like_plain_tf(name):
    timings = _run(name)
    assert timings["bridges"] >= 2  # the initializer's signature and the step's
    assert timings["executions"] >= 1  # the device program ran on XLA


@pytest.mark.parametrize("name", ["variables_steps", "replicate_2", "outside_in_while",
                                  "outside_replicated", "control_flow_v1"])
def test_program_runs_like_plain_tf_with_the_v2_bridge(name):
    _run(name, v1_compat=False)


@pytest.mark.parametrize("name", programs.LARGE_PROGRAMS)
def test_large_model_runs_like_plain_tf(name):
    _run(name)


def test_the_bridged_program_holds_tpu_runtime_ops():
    """What the runtime ran: the bridge's output, with the compile, the assert and the executes."""
    from tfmlir import runtime

    texts = []
    with runtime.Session(programs.path("replicate_2"), print_ir_after_bridge=texts.append) as session:
        spec = programs.spec("replicate_2")
        session.run(targets=[t.split(":")[0] for t in spec["targets"]])
        session.run(spec["fetches"], spec["feeds"])
    step = texts[-1]
    for op in ("tf._TPUCompileMlir", "tf.TPUCompileSucceededAssert", "tf.TPUExecute",
               "tf_device.replicate"):
        assert op in step, op
    for op in ("tf_device.cluster", "tf.TPUReplicateMetadata", "tf.TPUReplicatedInput"):
        assert op + '"' not in step and op + " " not in step, op
    assert "TPU_REPLICATED_CORE_0" in step


def test_session_opens_the_kind_of_session_the_program_needs():
    """runtime.Session is a factory: a GraphDef (path, bytes or proto) opens a GraphSession, its
    bridged module a ProgramSession; both are Sessions, and open_session is the same factory."""
    from tfmlir import print_ir, runtime

    path = programs.path("outside_middle")
    with open(path, "rb") as f:
        data = f.read()
    texts = []
    for program in (path, data):
        with runtime.Session(program, print_ir_after_bridge=texts.append) as session:
            assert type(session) is runtime.GraphSession and isinstance(session, runtime.Session)
            spec = programs.spec("outside_middle")
            session.run(targets=[t.split(":")[0] for t in spec["targets"]])
            (value,) = session.run(spec["fetches"], spec["feeds"])
            _close(value, spec["expected"][0][0], "GraphSession")
    with runtime.open_session(texts[-1]) as bridged:
        assert type(bridged) is runtime.ProgramSession and isinstance(bridged, runtime.Session)
        assert not isinstance(print_ir, runtime.Session)
    assert issubclass(runtime.GraphSession, runtime.Session) and not issubclass(int, runtime.Session)
    with pytest.raises(TypeError, match="v1_compat"):
        runtime.Session(texts[-1], v1_compat=True)  # an option of GraphSessions only


def test_run_graph_def_is_the_one_shot_form():
    from tfmlir import runtime

    spec = programs.spec("outside_middle")
    (value,) = runtime.run_graph_def(programs.path("outside_middle"), spec["feeds"], spec["fetches"],
                                     targets=[t.split(":")[0] for t in spec["targets"]])
    _close(value, spec["expected"][0][0], "run_graph_def")


def test_variables_stay_on_the_device_and_the_host_sees_every_write():
    """Between executions a variable lives on the device (read and updated there); a host
    read gets its newest value and a host write (the initializer run again) replaces it."""
    from tfmlir import runtime
    from tfmlir.runtime import host

    spec = programs.spec("variables_steps")
    targets = [t.split(":")[0] for t in spec["targets"]]
    with runtime.Session(programs.path("variables_steps")) as session:
        for _ in range(2):  # the whole sequence twice: the initializer resets what the device holds
            session.run(targets=targets)
            for step, expected in enumerate(spec["expected"]):
                got = session.run(spec["fetches"], spec["feeds"])
                for value, want, fetch in zip(got, expected, spec["fetches"]):
                    _close(value, want, f"step {step} fetch {fetch}")
                # After a step the variables have device copies; `b` (updated) is newer there.
                assert host.RESIDENT._values, "no variable kept on the device"
        session.sync_variables()
        assert not any(entry[4] for entry in host.RESIDENT._values.values())


@pytest.mark.parametrize("name", ["variables_steps", "outside_middle"])
def test_a_second_session_takes_everything_from_the_on_disk_cache(runtime_cache, name):
    """Bridged modules, legalized programs and (without host callbacks) executables come back
    from the cache in a later session, with the same numbers; a damaged entry is rebuilt."""
    cache = runtime_cache
    folder = cache.default().directory
    first = cache.stats()
    cold = _run(name)
    filled = cache.stats()
    assert filled["writes"] - first["writes"] >= 3  # 2 signatures bridged, 1 program legalized
    assert cold["bridge"] > 0.0
    entries = sorted(p for p in Path(folder).rglob("*") if p.is_file())
    kinds = {p.parent.parent.name for p in entries}
    assert {"bridged", "stablehlo"} <= kinds
    assert ("executable" in kinds) == (name == "variables_steps")  # host callbacks: not cached
    from tfmlir import tf_child

    tf_child.shutdown()
    warm = _run(name)
    again = cache.stats()
    # Everything came from the cache: TensorFlow's legalization child was not even started.
    assert tf_child.CHILD._proc is None
    assert again["hits"] - filled["hits"] == len(entries)
    assert again["writes"] == filled["writes"]
    assert warm["bridge"] < cold["bridge"]
    # A torn entry (a process killed mid-write cannot leave one; a bad disk can) is a miss,
    # removed and rebuilt.
    torn = next(p for p in entries if p.parent.parent.name == "stablehlo")
    torn.write_bytes(torn.read_bytes()[:-10])
    _run(name)
    assert cache.stats()["corrupt"] == again["corrupt"] + 1
    assert torn.exists() and cache.DiskCache(folder).get("stablehlo", torn.name) is not None


# --- bad input: clear errors naming the op / feed, before anything runs --------------------------

def _session(name):
    from tfmlir import runtime
    return runtime.Session(programs.path(name))


def test_op_neither_xla_nor_the_host_may_run_is_named():
    from tfmlir.runtime import ProgramError

    with _session("bad_string_op_on_tpu") as session:
        with pytest.raises(ProgramError) as info:
            session.run(["out"], {"x": np.ones(4, np.float32)})
    message = str(info.value)
    assert "'tf.AsString' op isn't compilable for TPU device" in message
    assert "as_string_on_tpu" in message  # the TF node name (location)
    assert "soft_device_placement" in message


def test_replica_counts_that_no_device_assignment_serves():
    from tfmlir.runtime import ProgramError

    with pytest.raises(ProgramError, match=r"different replica counts \('TPUReplicateMetadata': 2, "
                                           r"'TPUReplicateMetadata_1': 4\)"):
        _session("bad_replica_counts")


@pytest.mark.parametrize("feeds, message", [
    ({"x:0": np.zeros((5, 3), np.float32)},
     r"feed 'x:0' \(node 'x', op Placeholder\): cannot feed a value of shape \(5, 3\); the "
     r"placeholder has shape \(4, 3\)"),
    ({"x": np.array([["a", "b", "c"]] * 4)},
     r"feed 'x' \(node 'x', op Placeholder\): cannot be made a DT_FLOAT tensor"),
    ({"x:1": np.zeros((4, 3), np.float32)}, r"a placeholder has one output"),
    ({"nothing": 1.0}, r"feed 'nothing': the graph has no node 'nothing'"),
])
def test_bad_feeds_are_named_before_anything_runs(feeds, message):
    from tfmlir.runtime import RunError

    with _session("variables_steps") as session:
        with pytest.raises(RunError, match=message):
            session.run(["out"], feeds)
        assert session.timings["bridges"] == 0  # refused before import and bridge


def test_unknown_fetches_and_targets_are_named():
    from tfmlir.runtime import RunError

    with _session("variables_steps") as session:
        with pytest.raises(RunError, match="fetch 'nope:0': the graph has no node 'nope'"):
            session.run(["nope:0"], {"x": np.zeros((4, 3), np.float32)})
        with pytest.raises(RunError, match="target 'init_nope': the graph has no node 'init_nope'"):
            session.run(targets=["init_nope"])


def test_a_feed_of_another_dtype_converts_as_tf_sessions_do():
    spec = programs.spec("outside_head")
    from tfmlir import runtime
    with runtime.Session(programs.path("outside_head")) as session:
        (value,) = session.run(["out"], {"x:0": spec["feeds"]["x:0"].astype(np.float64)})
    _close(value, spec["expected"][0][0], "float64 feed")


def test_bytes_that_are_not_a_graph_def_are_refused():
    from tfmlir import runtime
    from tfmlir.runtime import ProgramError

    with pytest.raises(ProgramError, match="not a serialized GraphDef"):
        runtime.Session(b"\xff\xff\xff\xff not a proto")
