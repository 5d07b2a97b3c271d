"""Deeply nested executor IR: the Python passes stay linear in the nesting depth.

Graphs nested in islands (island -> tf_device.launch -> graph -> island ...)
used to be rescanned once per enclosing graph (coarsening and pruning even
revisited every graph once per path to it: exponential). The timings run in
a child process (a regression then times out instead of hanging the run) and
are compared as ratios, with a generous bound, not as absolute times.
"""
import json
import textwrap

import pytest

from conftest import REPO_ROOT, describe_failure, run_python


def deep_islands(depth):
    """func -> graph -> island -> launch -> graph -> island ... `depth` levels.

    Each graph holds a producer island (reading a value of the enclosing
    graph: a use across graphs), the island with the nest and a consumer.
    """
    head, tail = [], []
    for d in range(depth + 1):
        source = f"%p{d - 1}#0" if d else "%arg0"
        head += [f"%g{d} = tf_executor.graph {{",
                 f'%p{d}:2 = tf_executor.island wraps "tf.Abs"({source}) : '
                 f"(tensor<f32>) -> tensor<f32>",
                 f"%i{d}:2 = tf_executor.island {{"]
        inner = []
        if d < depth:
            head.append(f'%l{d} = "tf_device.launch"() ({{')
            inner += [f"tf_device.return %g{d + 1} : tensor<f32>",
                      '}) {device = ""} : () -> tensor<f32>',
                      f'%a{d} = "tf.Identity"(%l{d}) : (tensor<f32>) -> tensor<f32>']
        else:
            inner.append(f'%a{d} = "tf.Identity"(%p{d}#0) : (tensor<f32>) -> tensor<f32>')
        inner += [f"tf_executor.yield %a{d} : tensor<f32>", "}",
                  f"%j{d}:2 = tf_executor.island {{",
                  f'%b{d} = "tf.Neg"(%i{d}#0) : (tensor<f32>) -> tensor<f32>',
                  f"tf_executor.yield %b{d} : tensor<f32>", "}",
                  f"tf_executor.fetch %j{d}#0 : tensor<f32>", "}"]
        tail = inner + tail
    return ("func.func @f(%arg0: tensor<f32>) -> tensor<f32> {\n" + "\n".join(head + tail) +
            "\nfunc.return %g0 : tensor<f32>\n}\n")


def deep_if_regions(depth):
    """A graph whose island holds `depth` nested tf.IfRegion ops, the
    innermost holding another graph."""
    head, tail = [], []
    for d in range(depth):
        head.append(f'%r{d} = "tf.IfRegion"(%arg1) ({{')
        tail.insert(0, f'"tf.Yield"(%r{d + 1}) : (tensor<f32>) -> () }}, {{ '
                       f'"tf.Yield"(%arg0) : (tensor<f32>) -> () }}) {{is_stateless = true}} : '
                       f"(tensor<i1>) -> tensor<f32>")
    inner = ["%r{} = tf_executor.graph {{".format(depth),
             '%x:2 = tf_executor.island wraps "tf.Neg"(%arg0) : (tensor<f32>) -> tensor<f32>',
             "tf_executor.fetch %x#0 : tensor<f32>", "}"]
    return ("func.func @f(%arg0: tensor<f32>, %arg1: tensor<i1>) -> tensor<f32> {\n"
            "%g = tf_executor.graph {\n%i:2 = tf_executor.island {\n" +
            "\n".join(head + inner + tail) +
            "\ntf_executor.yield %r0 : tensor<f32>\n}\ntf_executor.fetch %i#0 : tensor<f32>\n}\n"
            "func.return %g : tensor<f32>\n}\n")


_RESOURCE = "tensor<!tf_type.resource<tensor<f32>>>"


def resource_identity_chain(length):
    """One island: `length` tf.Identity ops forwarding a resource, then a
    read and a write through the last one (the resource alias analysis
    follows the whole chain)."""
    r = _RESOURCE
    body = [f'%r{k + 1} = "tf.Identity"(%r{k}) : ({r}) -> {r}' for k in range(length)]
    return (f"func.func @main(%r0: {r}, %v: tensor<f32>) -> tensor<f32> {{\n"
            "%g = tf_executor.graph {\n%i:2 = tf_executor.island {\n" + "\n".join(body) +
            f'\n"tf.AssignVariableOp"(%r{length}, %v) : ({r}, tensor<f32>) -> ()'
            f'\n%x = "tf.ReadVariableOp"(%r0) : ({r}) -> tensor<f32>'
            "\ntf_executor.yield %x : tensor<f32>\n}\ntf_executor.fetch %i#0 : tensor<f32>\n}\n"
            "func.return %g : tensor<f32>\n}\n")


def call_chain(length):
    """@main calls @f0, which calls @f1 ... @f<length>: each passes its
    resource argument through (the side-effect analysis follows the calls
    for purity, op-based effects and resource aliasing)."""
    r = _RESOURCE
    call = '"tf.PartitionedCall"(%a) <{{config = "", config_proto = "", executor_type = "", f = @f{}}}>'
    funcs = [f"func.func @main(%a: {r}, %v: tensor<f32>) -> tensor<f32> {{",
             "%g = tf_executor.graph {", "%i:2 = tf_executor.island {",
             f"%r = {call.format(0)} : ({r}) -> {r}",
             f'"tf.AssignVariableOp"(%r, %v) : ({r}, tensor<f32>) -> ()',
             f'%x = "tf.ReadVariableOp"(%a) : ({r}) -> tensor<f32>',
             "tf_executor.yield %x : tensor<f32>", "}", "tf_executor.fetch %i#0 : tensor<f32>", "}",
             "func.return %g : tensor<f32>", "}"]
    for k in range(length + 1):
        inner = call.format(k + 1) if k < length else '"tf.Identity"(%a)'
        funcs += [f"func.func private @f{k}(%a: {r}) -> {r} {{", "%g = tf_executor.graph {",
                  f"%o:2 = tf_executor.island wraps {inner} : ({r}) -> {r}",
                  f"tf_executor.fetch %o#0 : {r}", "}", f"func.return %g : {r}", "}"]
    return "\n".join(funcs) + "\n"


_TIMER = textwrap.dedent("""
    import gc, json, sys, time
    sys.path.insert(0, {tests!r})
    import tfmlir
    from mlir import ir
    from tfmlir import passes
    from test_deep_nesting import {generator}
    results = {{}}
    for pipeline in {pipelines!r}:
        times = []
        for depth in {depths!r}:
            best = None
            for _ in range(2):
                with ir.Context():
                    module = ir.Module.parse({generator}(depth))
                    # Process CPU time (other processes do not count), GC paused.
                    gc.collect()
                    gc.disable()
                    start = time.process_time()
                    passes.run(module, pipeline)
                    took = time.process_time() - start
                    gc.enable()
                best = took if best is None else min(best, took)
            times.append(best)
        results[pipeline] = times
    print(json.dumps(results))
""")


def _timings(generator, pipelines, depths, timeout=240):
    from conftest import TESTS_DIR

    code = _TIMER.format(tests=str(TESTS_DIR), generator=generator, pipelines=list(pipelines),
                         depths=list(depths))
    proc = run_python([], code=code, timeout=timeout)
    assert proc.returncode == 0, describe_failure(proc)
    return json.loads(proc.stdout.strip().splitlines()[-1])


FUNC_PASSES = ("tf-executor-island-coarsening", "tf-executor-graph-pruning",
               "tf-executor-to-functional-conversion")
MODULE_PASSES = ("tf-executor-tpu-v1-island-outlining", "tf-executor-break-up-islands")


def _pipelines():
    return ([f"builtin.module(func.func({p}))" for p in FUNC_PASSES] +
            [f"builtin.module({p})" for p in MODULE_PASSES])


def test_deep_islands_parse_and_verify():
    import tfmlir  # noqa: F401
    from mlir import ir

    with ir.Context():
        module = ir.Module.parse(deep_islands(3))
        module.operation.verify()


@pytest.mark.parametrize("pipeline", _pipelines())
@pytest.mark.parametrize("generator,depth", [(deep_islands, 600), (deep_if_regions, 1500)])
def test_nests_deeper_than_the_recursion_limit(pipeline, generator, depth):
    # Beyond Python's default recursion limit if a pass recursed once per
    # level (graph_skeletons did, once per op with regions).
    import tfmlir  # noqa: F401
    from mlir import ir
    from tfmlir import passes

    with ir.Context():
        module = ir.Module.parse(generator(depth))
        passes.run(module, pipeline)


@pytest.mark.parametrize("generator,length", [(resource_identity_chain, 3000), (call_chain, 1500)])
def test_side_effect_analysis_follows_long_chains(generator, length):
    # The alias analysis, op-based effects and purity of calls used to
    # recurse once per link: RecursionError ("internal error") at ~1000.
    import tfmlir
    from mlir import ir
    from tfmlir import passes

    with ir.Context():
        module = ir.Module.parse(generator(length))
        passes.run(module, "builtin.module(tf-executor-break-up-islands)")
        text = tfmlir.print_ir(module)
    # The write through the chain (or the call) and the read of the same
    # resource are ordered: the read's island waits on a control token.
    read = [line for line in text.splitlines() if '"tf.ReadVariableOp"' in line]
    assert len(read) == 1 and "tf_executor.island(%" in read[0], read


@pytest.mark.slow
def test_executor_passes_are_linear_in_nesting_depth():
    results = _timings("deep_islands", _pipelines(), (50, 200))
    for pipeline, (small, large) in results.items():
        # Linear: about 4x for 4x the depth (quadratic would be 16x).
        assert large < 10 * max(small, 0.01), f"{pipeline}: {small:.3f}s at 50, {large:.3f}s at 200"
        assert large < 30, f"{pipeline}: {large:.1f}s at depth 200"


# --- the parser's limit ----------------------------------------------------------

_INPUTS = REPO_ROOT / "tests" / "lit" / "robustness" / "Inputs" / "deep_nesting.py"


def _deep_text(kind, count):
    import importlib.util

    spec = importlib.util.spec_from_file_location("deep_nesting_inputs", _INPUTS)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return {"arrays": module.arrays, "if-regions": module.if_regions,
            "islands": module.islands}[kind](count)


def test_nesting_depth_counts_brackets_outside_strings_and_comments():
    from tfmlir.parsing import nesting_depth

    assert nesting_depth('"((((((((" {a}') == 1
    assert nesting_depth("// ((((((\n{a}") == 1
    assert nesting_depth('"a\\"((" {[<x>]}') == 3
    assert nesting_depth("(%a) -> tensor<f32>") == 1
    assert nesting_depth("affine_set<(d0) : (d0 >= 0)>") == 2
    assert nesting_depth(b"ML\xefR" + b"(" * 5000) == 0  # bytecode is not text
    assert nesting_depth(_deep_text("arrays", 10)) == 11


@pytest.mark.parametrize("kind,count,depth", [("arrays", 10000, 10001),
                                              ("if-regions", 3000, 6003),
                                              ("islands", 2000, 4003)])
def test_parse_module_refuses_text_nested_beyond_the_limit(kind, count, depth):
    import tfmlir
    from mlir import ir
    from tfmlir.parsing import NestingError

    text = _deep_text(kind, count)
    with ir.Context():
        with pytest.raises(NestingError, match=f"nests {depth} levels deep") as caught:
            tfmlir.parse_module(text)
        assert caught.value.line >= 1 and caught.value.column >= 1
        with pytest.raises(NestingError, match="limit of 50"):
            tfmlir.parse_module(_deep_text(kind, 60), max_depth=50)


@pytest.mark.parametrize("kind,count", [("arrays", 10000), ("if-regions", 3000),
                                        ("islands", 2000)])
def test_opt_refuses_text_nested_beyond_the_limit(tmp_path, kind, count):
    # These used to overflow the parser's stack (exit by SIGSEGV).
    src = tmp_path / "deep.mlir"
    src.write_text(_deep_text(kind, count))
    proc = run_python(["-m", "tfmlir.tools.opt", src, "-tf-executor-island-coarsening"],
                      cwd=REPO_ROOT)
    assert proc.returncode == 1, describe_failure(proc)
    assert "more than the limit of 1000" in proc.stderr


_AT_THE_LIMIT = textwrap.dedent("""
    import sys
    sys.path.insert(0, {tests!r})
    import tfmlir
    from mlir import ir
    from tfmlir import passes
    from tfmlir.passes.framework import FUNC, get_pass, registered_passes
    from test_deep_nesting import _deep_text, deep_islands
    texts = {{"islands": _deep_text("islands", 498), "if-regions": _deep_text("if-regions", 498),
              "arrays": _deep_text("arrays", 998), "launch": deep_islands(248)}}
    for name, text in texts.items():
        assert tfmlir.parsing.nesting_depth(text) <= 1000, name
        for argument, cls in sorted(registered_passes().items()):
            if not argument.startswith("tf-"):
                continue
            pipeline = (f"builtin.module(func.func({{argument}}))" if cls.anchor == FUNC
                        else f"builtin.module({{argument}})")
            with ir.Context():
                module = tfmlir.parse_module(text)
                try:
                    passes.run(module, pipeline)
                except ir.MLIRError as err:
                    assert "internal error" not in str(err), (name, argument, str(err)[:500])
                tfmlir.print_ir(module)
                tfmlir.print_ir(module, generic=True)
                str(module)
        print("ok", name, flush=True)
""")


def test_text_at_the_limit_goes_through_every_pass_and_printer():
    from conftest import TESTS_DIR

    proc = run_python([], code=_AT_THE_LIMIT.format(tests=str(TESTS_DIR)))
    assert proc.returncode == 0, describe_failure(proc)
    assert proc.stdout.split() == ["ok", "islands", "ok", "if-regions", "ok", "arrays",
                                   "ok", "launch"]


def test_nesting_depth_of_a_huge_escaped_string_attribute_is_cheap():
    """A 60 MB string attribute full of escapes (a device program embedded in _TPUCompileMlir):
    the depth scan stays linear and small (an alternation per character in the string pattern
    made Python's re hold gigabytes of backtracking state)."""
    import resource
    import subprocess
    import sys

    code = (
        "import resource\n"
        "from tfmlir import parsing\n"
        "s = b'module {\\n  func.func @f() attributes {x = \"' + b'a\\\\22(\\\\\\\\\\\\0A' * 6_000_000 + b'\"} {\\n"
        "    return\\n  }\\n}\\n'\n"
        "assert parsing.nesting_depth(s) == 2, parsing.nesting_depth(s)\n"
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024)\n")
    limit = 1 << 30  # 1 GiB of address space beyond what Python needs is plenty
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                          preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_AS, (3 * limit, 3 * limit)))
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert int(proc.stdout.strip()) < 1024, proc.stdout
