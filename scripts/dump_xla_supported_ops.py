"""Observes which TF ops TensorFlow 2.21's -tf-mark-ops-for-outside-compilation supports (needs TensorFlow).

Regeneration command (TensorFlow 2.21 installed; tfmlir need not be built):

    python scripts/dump_xla_supported_ops.py   # writes python/tfmlir/passes/generated/xla_supported_ops.py

What TF's pass consults (``mark_ops_for_outside_compilation.cc``) is compiled
code: the root op of every pattern of the TF-to-MHLO legalization
(``PopulateLegalizeTfPatterns``), of ``PopulateTFLoweringBeforeHLOPatterns``
and ``PopulateLoweringQuantizedPatterns``, of every canonicalization pattern
of the registered ops; a few lists written into the pass (control flow,
folding, old-bridge-only, embedding, stack / TensorArray / TensorList ops);
and, for ODS ops, the tf2xla fallback allowlist (``HasTf2XlaFallback``). None
of it is reachable from Python, and the XLA kernel registry is *not* what the
pass asks. So the answer is observed: TF's pass runs inside the registered
``tf-replicated-clustering-bridge-v2`` pipeline (through
``tf.mlir.experimental.run_pass_pipeline``) on probe modules whose
``tf_device.cluster`` holds instances of TF's ODS ops (the instances
``scripts/dump_tf_effects.py`` had TF verify, in
``third_party/tensorflow/tf_op_effects.json``, plus instances of the region
ops written here), each op's operands taken from function arguments and its
results returned, so that nothing before the pass folds or deletes it:

* with ``allow_soft_placement = false`` the pass reports "isn't compilable
  for TPU device" for every op it does not support (then the pipeline
  stops): those ops are *unsupported*;
* with ``allow_soft_placement = true`` the ops it supports stay in the
  device function the pipeline outlines: *supported*.

Each op is probed alone, in a TensorFlow child process (TF crashes on a
few probes). An op neither reported nor found in the device function
did not reach the pass unchanged (an earlier pass of the pipeline removed,
lifted or rewrote it) and is listed as *unobserved*, with why. Only the op
names matter here: TF's rules on types (string operands and results) and the
exemption of ``tf.Assert`` are the pass's own (in the Python pass); the ops
whose instances need string values (TF rejects them otherwise) are probed
with string types, so the pass's answer for them is "unsupported" whatever
their names: they are listed apart (*string-typed*).
"""
import argparse
import importlib
import json
import os
import re
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from dump_tf_effects import _pure_python_modules  # noqa: E402

EFFECTS = os.path.join(ROOT, "third_party", "tensorflow", "tf_op_effects.json")
OUT = os.path.join(ROOT, "python", "tfmlir", "passes", "generated", "xla_supported_ops.py")
PIPELINE = "tf-replicated-clustering-bridge-v2"
DEVICES = ('["/job:localhost/replica:0/task:0/device:CPU:0", '
           '"/job:localhost/replica:0/task:0/device:TPU_SYSTEM:0", '
           '"/job:localhost/replica:0/task:0/device:TPU:0"]')
CLUSTER_ATTRS = ('num_cores_per_replica = 1 : i64, topology = "", device_assignment = [], '
                 'step_marker_location = "", padding_map = [], use_spmd_for_xla_partitioning = false')
_NOT_COMPILABLE = re.compile(r"'(tf\.[A-Za-z0-9_.]+)' op isn't compilable for TPU device")
_OP_NAME = re.compile(r'"(tf\.[A-Za-z0-9_.]+)"|\b(tf\.[A-Za-z0-9_]+)\b')

# Region ops have no instance in the effects snapshot: probes written here (operands from
# function arguments: %c is a tensor<i1>, %i a tensor<i32>, %f a tensor<f32>).
REGION_PROBES = {
    "tf.IfRegion": ('%{r} = "tf.IfRegion"(%c) <{{is_stateless = true}}> ({{\n'
                    '  "tf.Yield"(%f) : (tensor<f32>) -> ()\n}}, {{\n'
                    '  "tf.Yield"(%f) : (tensor<f32>) -> ()\n}}) : (tensor<i1>) -> tensor<f32>',
                    "tensor<f32>"),
    "tf.CaseRegion": ('%{r} = "tf.CaseRegion"(%i) <{{is_stateless = true}}> ({{\n'
                      '  "tf.Yield"(%f) : (tensor<f32>) -> ()\n}}, {{\n'
                      '  "tf.Yield"(%f) : (tensor<f32>) -> ()\n}}) : (tensor<i32>) -> tensor<f32>',
                      "tensor<f32>"),
    "tf.WhileRegion": ('%{r} = "tf.WhileRegion"(%f) <{{is_stateless = true, parallel_iterations = 10 : i64}}> ({{\n'
                       '^bb0(%x: tensor<f32>):\n  "tf.Yield"(%c) : (tensor<i1>) -> ()\n}}, {{\n'
                       '^bb0(%x: tensor<f32>):\n  "tf.Yield"(%x) : (tensor<f32>) -> ()\n}}) '
                       ': (tensor<f32>) -> tensor<f32>', "tensor<f32>"),
}
# tf.Yield is probed by the region ops it ends.
REGION_PROBES["tf.Yield"] = REGION_PROBES["tf.IfRegion"]
_REGION_ARGS = "%c: tensor<i1>, %i: tensor<i32>, %f: tensor<f32>"

# Instances that canonicalization leaves alone, for ops whose snapshot instance it folds away
# (an identity on one type): (operand types, result types).
RETYPED = {
    "tf.Identity": (["tensor<2xf32>"], ["tensor<*xf32>"]),
    "tf.IdentityN": (["tensor<2xf32>"], ["tensor<*xf32>"]),
    "tf.Cast": (["tensor<*xf32>"], ["tensor<*xi32>"]),
}


def probe_module(ops, soft):
    """A module whose cluster holds `ops`: [(name, text builder)]. Each builder takes the prefix
    of its SSA names and gives (function arguments, op text lines, [(result, type)])."""
    args, lines, results = [_REGION_ARGS], [], []
    for index, (_name, build) in enumerate(ops):
        op_args, op_lines, op_results = build(f"o{index}_")
        if op_args:
            args.append(op_args)
        lines.extend(op_lines)
        results.extend(op_results)
    types = ", ".join(t for _, t in results)
    names = ", ".join(r for r, _ in results)
    ret = f"tf_device.return {names} : {types}" if results else "tf_device.return"
    lhs = f"%r:{len(results)} = " if results else ""
    returned = ", ".join(f"%r#{i}" for i in range(len(results)))
    body = "\n      ".join(lines)
    return (f"module attributes {{tf.devices = {DEVICES}, tf.versions = {{producer = 1987 : i32}}}} {{\n"
            f"  func.func private @probe_fn() -> () {{\n    func.return\n  }}\n"
            f"  func.func @main({', '.join(args)}) -> ({types}) {{\n"
            f"    {lhs}\"tf_device.cluster\"() ({{\n      {body}\n      {ret}\n"
            f"    }}) {{allow_soft_placement = {soft}, {CLUSTER_ATTRS}}} : () -> ({types})\n"
            f"    func.return {returned}{' : ' + types if results else ''}\n  }}\n}}\n")


SENTINEL = "tf.TfmlirProbeUnsupported"
REWRITTEN = "an earlier pass of the pipeline removes or rewrites it"


def nested_probe_module(name, build, soft):
    """A module whose cluster holds the op in a function of a module nested in the cluster (the
    pass walks it; passes that only look at the outer functions, results returned from the
    cluster and the cluster's own rewrites do not reach it), beside, when strict, an op TF does
    not know (its report proves that the pass ran)."""
    args, lines, results = build("")
    types = ", ".join(t for _, t in results)
    ret = f"func.return {', '.join(r for r, _ in results)} : {types}" if results else "func.return"
    sentinel = "" if soft == "true" else f'"{SENTINEL}"() : () -> ()\n      '
    body = "\n          ".join(lines)
    return (f"module attributes {{tf.devices = {DEVICES}, tf.versions = {{producer = 1987 : i32}}}} {{\n"
            f"  func.func @main() {{\n"
            f"    \"tf_device.cluster\"() ({{\n      {sentinel}\"builtin.module\"() ({{\n"
            f"        func.func private @probe_fn() -> () {{\n          func.return\n        }}\n"
            f"        func.func @inner({_REGION_ARGS}{', ' + args if args else ''}) -> ({types}) {{\n"
            f"          {body}\n          {ret}\n        }}\n      }}) : () -> ()\n"
            f"      tf_device.return\n"
            f"    }}) {{allow_soft_placement = {soft}, {CLUSTER_ATTRS}}} : () -> ()\n"
            f"    func.return\n  }}\n}}\n")


def nested_verdict(name, strict, soft):
    """(verdict, why) from the nested probes, or None when they tell nothing."""
    if strict["ok"] or strict.get("crashed"):
        return None
    reported = set(_NOT_COMPILABLE.findall(strict["error"]))
    if SENTINEL not in reported:
        return None
    if name in reported:
        return "unsupported", None
    if soft["ok"] and name in {a or b for a, b in _OP_NAME.findall(soft["text"])}:
        return "supported", None
    return None


def instance_builder(inst):
    def build(prefix):
        operands = [f"%{prefix}a{i}" for i in range(len(inst.operands))]
        results = [f"%{prefix}x{i}" for i in range(len(inst.results))]
        text = inst.text(operands, results or None)
        args = ", ".join(f"{n}: {t}" for n, t in zip(operands, inst.operands))
        return args, [text], list(zip(results, inst.results))
    return build


def region_builder(name):
    template, result_type = REGION_PROBES[name]

    def build(prefix):
        result = f"{prefix}x0"
        return "", template.format(r=result).splitlines(), [("%" + result, result_type)]
    return build


def device_function_ops(text):
    """The tf op names in the functions the pipeline outlined for the device (the callee of
    tf_device.cluster_func), and those elsewhere."""
    callees = set(re.findall(r'"tf_device\.cluster_func"\([^)]*\) <\{func = @([\w.]+)\}>', text))
    device, host = set(), set()
    for chunk in re.split(r"\n  func\.func ", text)[1:]:
        head = chunk.split("(", 1)[0].split()[-1].lstrip("@")
        names = {a or b for a, b in _OP_NAME.findall(chunk)}
        (device if head in callees else host).update(names)
    return device, host


def verdict(name, strict, soft):
    """(verdict, why) of one op from its strict and soft probe results."""
    if not strict["ok"] and name in _NOT_COMPILABLE.findall(strict["error"]):
        return "unsupported", None
    if soft.get("crashed") or strict.get("crashed"):
        return "unobserved", "TensorFlow crashes on its probe"
    if not soft["ok"]:
        return "unobserved", "the pipeline fails on it: " + soft["error"].strip().splitlines()[0][:160]
    device, host = device_function_ops(soft["text"])
    if name in device:
        return "supported", None
    if name in host:
        return "unobserved", "outside the device function without being reported"
    return "unobserved", REWRITTEN


def render(tf_version, verdicts, string_typed):
    def names(kind):
        return sorted(n for n, (v, _) in verdicts.items() if v == kind and n not in string_typed)

    def block(title, items):
        body = "".join(f'    "{n}",\n' for n in items)
        return f"{title} = frozenset({{\n{body}}})\n"

    unobserved = {n: why for n, (v, why) in verdicts.items()
                  if v == "unobserved" and why != REWRITTEN and n not in string_typed}
    rewritten = sorted(n for n, (v, why) in verdicts.items()
                       if v == "unobserved" and why == REWRITTEN and n not in string_typed)
    lines = ['"""Generated by scripts/dump_xla_supported_ops.py with TensorFlow; do not edit.',
             "",
             "Which of TF's ODS ops TensorFlow 2.21's -tf-mark-ops-for-outside-compilation",
             "supports in a device cluster, as observed by running TF's pass (inside the",
             "tf-replicated-clustering-bridge-v2 pipeline) on instances of every op; see",
             "the script for how. SUPPORTED: kept on the device; UNSUPPORTED: reported /",
             "outside compiled; STRING_TYPED: only probed with string operands or results",
             "(unsupported by TF's type rule whatever the name); REWRITTEN_BEFORE: an earlier",
             "pass of the pipeline always removed or rewrote them before TF's pass could",
             "judge them; UNOBSERVED: otherwise never judged (op name -> why). Ops outside",
             "TF's ODS are unsupported (TF's pass needs a registered op).",
             '"""',
             f'TF_VERSION = "{tf_version}"',
             "",
             block("SUPPORTED", names("supported")),
             block("UNSUPPORTED", names("unsupported")),
             block("STRING_TYPED", sorted(string_typed)),
             block("REWRITTEN_BEFORE", rewritten),
             "UNOBSERVED = {\n" + "".join(f'    "{n}": {json.dumps(unobserved[n])},\n'
                                          for n in sorted(unobserved)) + "}\n"]
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-o", "--output", default=OUT)
    args = parser.parse_args()
    import tensorflow as tf  # noqa: F401  (the version; the probes run in children)

    oi = _pure_python_modules()
    run_tf_pipelines = importlib.import_module("tfmlir.testing.tf_oracle").run_tf_pipelines
    effects = json.load(open(EFFECTS))["ops"]
    ops, string_typed = [], set()
    verdicts = {}
    for name in sorted(effects):
        data = effects[name].get("instance")
        if name in REGION_PROBES:
            ops.append((name, region_builder(name)))
        elif data is None:
            verdicts[name] = ("unobserved", "no instance: " + effects[name].get("unprobed", "?"))
        else:
            inst = oi.OpInstance.from_json(name, data)
            if name in RETYPED:
                inst.operands, inst.results = (list(t) for t in RETYPED[name])
            if any("!tf_type.string" in t for t in inst.operands + inst.results):
                string_typed.add(name)
            ops.append((name, instance_builder(inst)))
    # One op per probe, each in a strict and a soft cluster; TF crashes on a few probes: the
    # oracle records those and goes on in a new child.
    jobs = [(probe_module([op], soft), PIPELINE) for op in ops for soft in ("false", "true")]
    results = run_tf_pipelines(jobs, timeout=3600, crashes="record")
    for index, (name, _) in enumerate(ops):
        verdicts[name] = verdict(name, results[2 * index], results[2 * index + 1])
    # The ops the direct probes did not settle, again inside a nested module.
    retry = [(name, build) for name, build in ops if verdicts[name][0] == "unobserved"]
    jobs = [(nested_probe_module(name, build, soft), PIPELINE) for name, build in retry
            for soft in ("false", "true")]
    results = run_tf_pipelines(jobs, timeout=3600, crashes="record")
    for index, (name, _) in enumerate(retry):
        found = nested_verdict(name, results[2 * index], results[2 * index + 1])
        if found is not None:
            verdicts[name] = found
    # A string-typed op is reported whatever its name; it tells nothing more.
    for name in string_typed:
        if verdicts.get(name, ("",))[0] == "unsupported":
            verdicts.pop(name)
    with open(args.output, "w") as f:
        f.write(render(tf.__version__, verdicts, string_typed))
    counts = {}
    for v, _ in verdicts.values():
        counts[v] = counts.get(v, 0) + 1
    print(f"{counts}, string-typed {len(string_typed)}", file=sys.stderr)


if __name__ == "__main__":
    main()
