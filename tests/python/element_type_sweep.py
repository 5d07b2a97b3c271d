"""Every TensorFlow element type through every folding op (and shape inference).

Builds one ``-split-input-file`` chunk per (DataType, op): the op applied to
constants of that element type where its OpDef takes the type attribute (and
to small constants of their own type where the OpDef fixes one), plus the
same op on function arguments. The types are TensorFlow's DataType table
(``tfmlir.tfcore.tf_types``: every float, int, unsigned, complex, bool,
string, quantized, resource, variant, bf16/f8/f4/i4/i2 type, and the
reference types); the ops are every op tfmlir folds: the C++ folders and
canonicalization patterns (``tfmlir._tfmlir.hand_written_semantics()``) and the ops the
constant-folding hook evaluates (``tfmlir.constant_folding.FOLDABLE_OPS``).

``python tests/python/element_type_sweep.py cli|python OUT_DIR`` runs the
chunks through ``tfmlir-opt`` (canonicalize, then tf-shape-inference) or
through ``tfmlir.passes.run`` in this process, writing a JSON report; the
test (``test_element_type_sweep.py``) runs it in a child process so that a
crash is counted, not suffered.
"""
import json
import os
import subprocess
import sys

import numpy as np

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PIPELINES = ("builtin.module(func.func(canonicalize))", "builtin.module(tf-shape-inference)")


def folding_ops():
    """Every op with a C++ folder or canonicalization patterns, or evaluated by the hook."""
    from tfmlir import _tfmlir, constant_folding
    semantics = _tfmlir.hand_written_semantics()
    return sorted({n[3:] for n in semantics["folders"] + semantics["patterns"]}
                  | set(constant_folding.FOLDABLE_OPS))


def element_types():
    """[(DataType name, MLIR element type text, dtype)] of TF's DataType table."""
    from tfmlir.tfcore import tf_types
    out = []
    for dtype in sorted(tf_types.DTYPE_NAMES):
        if dtype == 0:
            continue
        name = tf_types.DTYPE_NAMES[dtype]
        try:
            text = tf_types.element_type(dtype)
        except Exception:  # noqa: BLE001 - a DataType without an MLIR element type
            continue
        out.append((name, text, dtype))
    return out


def _constant(text, dtype, shape=(2,)):
    """MLIR attribute text of a small constant of element type `text`, or None."""
    from tfmlir.tfcore import tf_types, tensor_proto
    dims = "x".join(map(str, shape))
    ttype = f"tensor<{dims}x{text}>" if shape else f"tensor<{text}>"
    n = int(np.prod(shape)) if shape else 1
    base = tf_types.base_dtype(dtype)
    if text == "i1":
        return f"dense<{'true' if n == 1 and not shape else '[' + ', '.join(['true', 'false'][i % 2] for i in range(n)) + ']'}> : {ttype}", ttype
    if text.startswith("complex"):
        return f"dense<(1.5, -2.0)> : {ttype}", ttype
    if text == "!tf_type.string":
        return f'dense<"ab"> : {ttype}', ttype
    if text.startswith(("f", "bf")) and "ref" not in text:
        return f"dense<1.5> : {ttype}", ttype
    if text.startswith(("i", "ui")) and "ref" not in text:
        return f"dense<1> : {ttype}", ttype
    if text.startswith("!tf_type.q"):
        proto = tf_types.encode_tensor(base, list(shape), np.ones(n))
        return f'#tf_type<tensor_proto : "0x{tensor_proto.mangle(proto).hex().upper()}"> : {ttype}', ttype
    return None, ttype


def _fixed_constant(arg_dtype):
    """A small constant for an OpDef input of a fixed DataType (axis-like 0)."""
    from tfmlir.tfcore import tf_types
    text = tf_types.element_type(arg_dtype)
    return _constant(text, arg_dtype, shape=())


def chunks():
    """[(label, MLIR text)] of every (element type, op) case."""
    from tfmlir.tfcore import opdb, tf_types
    out = []
    ops = folding_ops()
    for type_name, text, dtype in element_types():
        for op_name in ops:
            opdef = opdb.get(op_name)
            if opdef is None:
                continue
            lines, args, arg_types, operands, operand_types = [], [], [], [], []
            k = 0

            def value(attr_text, ttype, prefix):
                nonlocal k
                if attr_text is None:
                    args.append(f"%arg{len(args)}: {ttype}")
                    return f"%arg{len(args) - 1}"
                name = f"%{prefix}{k}"
                k += 1
                lines.append(f'  {name} = "tf.Const"() <{{value = {attr_text}}}> : () -> {ttype}')
                return name

            main_attr = (opdef.outputs[0].type_attr if opdef.outputs and opdef.outputs[0].type_attr
                         else next((a.type_attr for a in opdef.inputs if a.type_attr), None))
            for arg in opdef.inputs:
                count = 2 if (arg.number_attr or arg.type_list_attr) else 1
                for _ in range(count):
                    if arg.type:
                        attr_text, ttype = _fixed_constant(tf_types.base_dtype(arg.type))
                    elif arg.type_attr and arg.type_attr != main_attr:
                        attr_text, ttype = _fixed_constant(tf_types.DT_INT32)  # Tidx, Tperm, ...
                    else:
                        attr_text, ttype = _constant(text, dtype)
                    operands.append(value(attr_text, ttype, "c"))
                    operand_types.append(ttype)
            if len(opdef.outputs) != 1:
                continue
            out_arg = opdef.outputs[0]
            if out_arg.number_attr or out_arg.type_list_attr:
                continue
            elementwise = all(not a.type and a.type_attr == main_attr and not a.number_attr
                              and not a.type_list_attr for a in opdef.inputs) and len(opdef.inputs) in (1, 2)
            dims = "2x" if elementwise else "*x"
            result = (f"tensor<{dims}{tf_types.element_type(tf_types.base_dtype(out_arg.type))}>"
                      if out_arg.type else f"tensor<{dims}{text}>")
            attrs = ""
            if op_name == "Cast":
                attrs = " {Truncate = false}"
            body = "\n".join(lines)
            call = (f'  %r = "tf.{op_name}"({", ".join(operands)}){attrs} : '
                    f'({", ".join(operand_types)}) -> {result}')
            func = (f"func.func @{op_name}_{type_name}({', '.join(args)}) -> {result} {{\n"
                    f"{body}\n{call}\n  return %r : {result}\n}}")
            out.append((f"{type_name}/{op_name}", func))
    return out


def run_cli(cases, out_dir):
    """Each pipeline over all cases with `tfmlir-opt -split-input-file`."""
    text = "\n// -----\n".join(t for _, t in cases)
    path = os.path.join(out_dir, "sweep.mlir")
    with open(path, "w") as f:
        f.write(text)
    report = []
    for pipeline in PIPELINES:
        proc = subprocess.run([os.path.join(os.path.dirname(sys.executable), "tfmlir-opt"), path,
                               "-split-input-file", f"--pass-pipeline={pipeline}"],
                              capture_output=True, text=True, errors="replace", timeout=1200)
        report.append({"pipeline": pipeline, "returncode": proc.returncode,
                       "stdout": proc.stdout, "stderr": proc.stderr})
    return report


def run_python(cases, out_dir):
    """Each case through tfmlir.passes.run in this process; progress in a file."""
    import tfmlir  # noqa: F401
    from mlir import ir
    from tfmlir import passes
    progress = open(os.path.join(out_dir, "progress.txt"), "w")
    results = []
    for label, text in cases:
        progress.write(label + "\n")
        progress.flush()
        entry = {"label": label, "accepted": False, "errors": [], "unexpected": None}
        with ir.Context(), ir.Location.unknown():
            try:
                module = ir.Module.parse(text)
            except ir.MLIRError as exc:
                entry["errors"].append(str(exc)[:300])
                results.append(entry)
                continue
            for pipeline in PIPELINES:
                try:
                    passes.run(module, pipeline)
                except ir.MLIRError as exc:
                    entry["errors"].append(str(exc)[:300])
                except Exception as exc:  # noqa: BLE001 - an error class that is not tfmlir's
                    entry["unexpected"] = f"{type(exc).__name__}: {exc}"[:500]
            try:
                module.operation.verify()
                printed = str(module)
                ir.Module.parse(printed)
                entry["accepted"] = True
                entry["folded"] = f'"tf.{label.split("/")[1]}"' not in printed
            except Exception as exc:  # noqa: BLE001
                entry["unexpected"] = f"after the passes: {type(exc).__name__}: {exc}"[:500]
        results.append(entry)
    return results


def main():
    mode, out_dir = sys.argv[1], sys.argv[2]
    os.makedirs(out_dir, exist_ok=True)
    cases = chunks()
    report = {"cases": [label for label, _ in cases]}
    if mode == "cli":
        report["cli"] = run_cli(cases, out_dir)
    else:
        report["python"] = run_python(cases, out_dir)
    with open(os.path.join(out_dir, f"report-{mode}.json"), "w") as f:
        json.dump(report, f)


if __name__ == "__main__":
    main()
