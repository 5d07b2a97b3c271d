"""The pass framework never lets an upstream footgun kill the process.

* Python passes cannot run inside an upstream pass's option pipeline (the
  inliner's ``default-pipeline``...): the pipeline is refused up front, and
  so are option pipelines naming unknown passes, which the inliner would
  only report (on stderr) when it runs, then go on without them.
* Upstream passes never see invalid IR: the module is verified before the
  pipeline, and after each Python pass that an upstream pass follows, even
  with ``verify_each=False``.
* Erasing an op whose results are still used aborts the process in MLIR:
  the framework's rollback swaps whole blocks, and ``erase_op`` checks.
* Exceptions never unwind into the C++ pass manager; an exception raised in
  an ``Operation.walk`` callback becomes a one-line diagnostic; recursion
  through walk callbacks stops at a RecursionError before the C stack ends.

Whatever could abort runs in a child process, so a regression fails one test.
"""
import subprocess
import sys
import textwrap

import pytest

import tfmlir
from mlir import ir
from tfmlir import passes
from tfmlir.passes import framework
from tfmlir.passes.framework import PassFailure, PipelineError

from conftest import REPO_ROOT

MODULE = """
func.func @f(%arg0: tensor<f32>) -> tensor<f32> {
  %0 = "tf.Neg"(%arg0) : (tensor<f32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}
"""


def _child(code, timeout=120):
    """Runs `code` in a fresh interpreter; returns the CompletedProcess."""
    prelude = textwrap.dedent("""
        import sys
        import tfmlir
        from mlir import ir
        from tfmlir import passes
        from tfmlir.passes import framework
    """)
    return subprocess.run([sys.executable, "-c", prelude + textwrap.dedent(code)],
                          capture_output=True, text=True, timeout=timeout)


def _snapshot(module):
    return module.operation.get_asm(print_generic_op_form=True, assume_verified=True)


# --- Python passes in upstream option pipelines --------------------------------

@pytest.mark.parametrize("pipeline", [
    "builtin.module(inline{default-pipeline=func.func(tf-executor-island-coarsening)})",
    "builtin.module(inline{default-pipeline=tf-executor-graph-pruning})",
    "builtin.module(inline{op-pipelines=func.func(tf-executor-island-coarsening)})",
    "builtin.module(func.func(canonicalize),inline{default-pipeline={canonicalize,tf-verify-for-export}})",
])
def test_python_pass_in_upstream_options_is_refused(pipeline):
    with ir.Context() as ctx:
        module = ir.Module.parse(MODULE)
        with pytest.raises(PipelineError, match="cannot be nested in the options of upstream pass"):
            passes.run(module, pipeline)
        with pytest.raises(PipelineError, match="cannot be nested"):
            passes.PassPipeline(pipeline, ctx)


@pytest.mark.parametrize("pipeline,printed", [
    # Parsed only when the inliner runs, which then goes on without it.
    ("builtin.module(inline{default-pipeline=no-such-pass})", "'no-such-pass' does not refer"),
    ("builtin.module(inline{default-pipeline=func.func(no-such-pass)})", "does not refer"),
    # Parsed when added: the reason was printed on stderr, not raised.
    ("builtin.module(inline{op-pipelines=func.func(no-such-pass)})", "does not refer"),
    ("builtin.module(inline{max-iterations=abc})", "'abc' value invalid for uint argument"),
])
def test_upstream_option_errors_are_raised_with_their_reason(pipeline, printed, capfd):
    with ir.Context():
        module = ir.Module.parse(MODULE)
        with pytest.raises(PipelineError, match=printed):
            passes.run(module, pipeline)
    # In the exception, not (only) on stderr.
    assert printed not in capfd.readouterr().err


def test_valid_option_pipelines_still_run():
    with ir.Context():
        module = ir.Module.parse(MODULE)
        passes.run(module, "builtin.module(inline{default-pipeline={canonicalize,cse}})")
        passes.run(module, "builtin.module(inline{default-pipeline=canonicalize})")


def test_opt_refuses_python_pass_in_upstream_options(tmp_path):
    src = tmp_path / "in.mlir"
    src.write_text(MODULE)
    pipeline = "builtin.module(inline{default-pipeline=func.func(tf-executor-island-coarsening)})"
    proc = subprocess.run([sys.executable, "-m", "tfmlir.tools.opt", str(src),
                           f"--pass-pipeline={pipeline}"], capture_output=True, text=True,
                          timeout=120, cwd=REPO_ROOT)
    assert proc.returncode == 1, proc
    assert "cannot be nested in the options of upstream pass 'inline'" in proc.stderr
    assert proc.stdout == ""


# --- invalid IR never reaches an upstream pass ---------------------------------

def _const_without_value(module):
    """Appends a tf.Const without its `value` (invalid) to @f, unverified."""
    func = module.body.operations[0]
    block = func.regions[0].blocks[0]
    with ir.Location.unknown():
        tensor = ir.RankedTensorType.get([], ir.F32Type.get())
        ir.Operation.create("tf.Const", results=[tensor],
                            ip=ir.InsertionPoint.at_block_begin(block))


def test_invalid_module_is_refused_before_any_pass_and_left_unchanged():
    # Upstream, canonicalize would abort folding it ("expected ConstantLike op
    # to be foldable").
    with ir.Context():
        module = ir.Module.parse(MODULE)
        _const_without_value(module)
        before = _snapshot(module)
        with pytest.raises(ir.MLIRError, match="requires attribute 'value'"):
            passes.run(module, "builtin.module(canonicalize)")
        with pytest.raises(ir.MLIRError):
            passes.run(module, "builtin.module(canonicalize)", verify_each=False)
        assert _snapshot(module) == before


_INVALID_PASS = """
    name = "tf-test-makes-invalid-ir"

    @passes.function_pass(name)
    def _make_invalid(op):
        '''Test-only: adds a tf.Const without its value.'''
        block = op.regions[0].blocks[0]
        tensor = ir.RankedTensorType.get([], ir.F32Type.get())
        ir.Operation.create("tf.Const", results=[tensor], ip=ir.InsertionPoint.at_block_begin(block),
                            loc=op.location)

    text = {module!r}
"""


@pytest.mark.parametrize("verify_each", [True, False])
def test_invalid_output_of_a_python_pass_stops_before_upstream_passes(verify_each):
    proc = _child(_INVALID_PASS.format(module=MODULE) + f"""
    with ir.Context():
        module = ir.Module.parse(text)
        try:
            passes.run(module, f"builtin.module(func.func({{name}}),canonicalize)",
                       verify_each={verify_each})
        except ir.MLIRError as err:
            print("MLIRError:", err)
        else:
            print("no error")
    """)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "MLIRError:" in proc.stdout and "requires attribute 'value'" in proc.stdout
    if not verify_each:
        assert "the pass produced invalid IR" in proc.stdout


def test_without_verify_each_a_last_python_pass_is_verified_at_the_end():
    # The pipeline's output is verified once at the end: invalid IR is a failure and the
    # module is put back as it was before the run.
    proc = _child(_INVALID_PASS.format(module=MODULE) + """
    with ir.Context():
        module = ir.Module.parse(text)
        before = str(module)
        try:
            passes.run(module, f"builtin.module(func.func({name}))", verify_each=False)
        except ir.MLIRError as err:
            print("MLIRError:", err)
        module.operation.verify()
        print("restored" if str(module) == before else "changed")
    """)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "the pass produced invalid IR" in proc.stdout and "requires attribute 'value'" in proc.stdout
    assert proc.stdout.strip().endswith("restored")


def test_a_pass_that_marks_all_analyses_preserved_is_not_verified():
    # MLIR's rule: a pass that changed nothing is not verified after. A pass that lies about
    # it (here, breaking the IR) is caught by the next check that runs: the end of a pipeline
    # whose last Python pass changed the IR is verified; this one's is not.
    proc = _child(_INVALID_PASS.format(module=MODULE) + """
    from tfmlir.passes import framework

    @framework.register_pass
    class Liar(framework.Pass):
        argument = "tf-test-lying-preserved"
        def run_on_operation(self, op):
            _make_invalid(op)
            self.mark_all_analyses_preserved()

    with ir.Context():
        module = ir.Module.parse(text)
        passes.run(module, "builtin.module(func.func(tf-test-lying-preserved))")
        try:
            module.operation.verify()
            print("valid")
        except ir.MLIRError:
            print("not verified after a pass that marked everything preserved")
    """)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.strip() == "not verified after a pass that marked everything preserved"


# --- erasing ops with uses -------------------------------------------------------

def test_erase_op_refuses_an_op_whose_results_are_used():
    with ir.Context():
        module = ir.Module.parse(MODULE)
        block = module.body.operations[0].regions[0].blocks[0]
        neg = block.operations[0]
        with pytest.raises(PassFailure, match=r"erasing 'tf.Neg' whose result #0 is still used "
                                              r"by 'func.return'"):
            framework.erase_op(neg)
        assert framework.outside_use(neg) is not None
        neg.result.replace_all_uses_with(block.arguments[0])
        assert framework.outside_use(neg) is None
        framework.erase_op(neg)
        module.operation.verify()


CHAIN = r"""
func.func @f(%arg0: tensor<f32>, %arg1: tensor<i1>) -> tensor<f32> {
  %0 = "tf.Neg"(%arg0) : (tensor<f32>) -> tensor<f32>
  %1 = "tf.Abs"(%0) : (tensor<f32>) -> tensor<f32>
  %2 = "tf.IfRegion"(%arg1) ({
    %3 = "tf.Sqrt"(%1) : (tensor<f32>) -> tensor<f32>
    "tf.Yield"(%3) : (tensor<f32>) -> ()
  }, {
    "tf.Yield"(%1) : (tensor<f32>) -> ()
  }) {is_stateless = true} : (tensor<i1>) -> tensor<f32>
  %4 = "tf.Exp"(%0) : (tensor<f32>) -> tensor<f32>
  func.return %arg0 : tensor<f32>
}
"""


def test_erase_ops_erases_users_first_and_refuses_a_use_that_would_stay():
    with ir.Context():
        module = ir.Module.parse(CHAIN)
        ops = [op.operation for op in module.body.operations[0].regions[0].blocks[0].operations]
        neg, abs_, if_, exp = ops[:4]
        # Neg is still used by Exp, which is not erased: nothing is erased.
        with pytest.raises(PassFailure, match=r"erasing 'tf.Neg' whose result #0 is still used "
                                              r"by 'tf.Exp'"):
            framework.erase_ops([if_, abs_, neg])
        assert len(module.body.operations[0].regions[0].blocks[0].operations) == 5
        # The If (using Abs inside its regions), then Abs, then Exp and Neg: all go.
        framework.erase_ops([if_, abs_, exp, neg])
        assert [op.name for op in module.body.operations[0].regions[0].blocks[0].operations] == [
            "func.return"]
        module.operation.verify()


def test_move_block_ops_moves_every_op_in_order():
    from tfmlir import _tfmlir

    with ir.Context():
        module = ir.Module.parse(CHAIN)
        func = module.body.operations[0]
        block = func.regions[0].blocks[0]
        names = [op.name for op in block.operations]
        scratch = ir.Operation.create("tf_device.cluster", regions=1, loc=ir.Location.unknown())
        other = scratch.regions[0].blocks.append()
        _tfmlir.move_block_ops(block, other)
        assert len(block.operations) == 0 and [op.name for op in other.operations] == names
        _tfmlir.move_block_ops(other, block)
        assert len(other.operations) == 0 and [op.name for op in block.operations] == names
        scratch.erase()
        module.operation.verify()
        with pytest.raises(ValueError):
            _tfmlir.move_block_ops(block, block)
        with pytest.raises(TypeError):
            _tfmlir.move_block_ops(func, block)


def test_rollback_of_a_module_pass_with_used_values_at_module_level():
    # The module body holds ops whose results other module-level ops use;
    # rollback used to erase them one by one, first to last (abort).
    proc = _child("""
    name = "tf-test-fails-after-changes"

    @passes.function_pass(name, anchor=passes.MODULE)
    def _fail_after_changes(op):
        '''Test-only: changes the module, then fails.'''
        op.attributes["test.changed"] = ir.UnitAttr.get()
        for child in list(op.regions[0].blocks[0].operations):
            if child.operation.name == "func.func":
                child.operation.erase()
        raise framework.PassFailure("changed my mind")

    text = '''
    %0 = "test.def"() : () -> i32
    "test.use"(%0) : (i32) -> ()
    func.func @f() {
      func.return
    }
    '''
    with ir.Context() as ctx:
        ctx.allow_unregistered_dialects = True
        module = ir.Module.parse(text)
        before = str(module)
        try:
            passes.run(module, f"builtin.module({name})")
        except ir.MLIRError as err:
            print("MLIRError:", err)
        module.operation.verify()
        print("restored:", str(module) == before)
    """)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "changed my mind" in proc.stdout and "restored: True" in proc.stdout


# --- exceptions and recursion ------------------------------------------------------

_WALK_RECURSION = """
    name = "tf-test-walk-recursion"

    @passes.function_pass(name, anchor=passes.MODULE)
    def _recurse(op):
        '''Test-only: recurses through Operation.walk callbacks without end.'''
        def dive(depth):
            op.walk(lambda inner: dive(depth + 1) or ir.WalkResult.INTERRUPT)
        dive(0)
"""


def test_recursion_through_walk_callbacks_is_a_short_diagnostic():
    proc = _child(_WALK_RECURSION + """
    with ir.Context():
        module = ir.Module.parse("func.func @f() {\\n  func.return\\n}")
        try:
            passes.run(module, f"builtin.module({name})")
        except ir.MLIRError as err:
            message = str(err)
            print("MLIRError:", len(message), message.splitlines()[-1][:300])
    """)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "internal error: RecursionError" in proc.stdout
    length = int(proc.stdout.split("MLIRError:")[1].split()[0])
    assert length < 3000


def test_recursion_through_walk_callbacks_with_a_raised_limit_does_not_crash():
    # 100000 frames through walk callbacks would need ~75 MB of C stack: the
    # framework lowers the limit while the pass runs.
    proc = _child(_WALK_RECURSION + """
    sys.setrecursionlimit(100000)
    with ir.Context():
        module = ir.Module.parse("func.func @f() {\\n  func.return\\n}")
        try:
            passes.run(module, f"builtin.module({name})")
        except ir.MLIRError as err:
            print("MLIRError:", str(err).splitlines()[-1][:300])
    print("limit after:", sys.getrecursionlimit())
    """)
    assert proc.returncode == 0, (proc.returncode, proc.stderr[-3000:])
    assert "RecursionError" in proc.stdout
    assert "limit after: 100000" in proc.stdout


def test_keyboard_interrupt_in_a_pass_is_re_raised_after_the_pass_manager():
    proc = _child("""
    name = "tf-test-interrupts"

    @passes.function_pass(name)
    def _interrupt(op):
        '''Test-only: interrupted.'''
        raise KeyboardInterrupt

    with ir.Context():
        module = ir.Module.parse("func.func @f() {\\n  func.return\\n}")
        try:
            passes.run(module, f"builtin.module(func.func({name}))")
        except KeyboardInterrupt:
            print("KeyboardInterrupt")
    """)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.strip() == "KeyboardInterrupt"


def test_python_pass_nested_where_it_cannot_run_is_refused_up_front():
    with ir.Context() as ctx:
        for pipeline in ("builtin.module(any(tf-executor-island-coarsening))",
                         "builtin.module(func.func(tf-executor-break-up-islands))"):
            with pytest.raises(PipelineError, match="cannot be nested under"):
                passes.PassPipeline(pipeline, ctx)


def test_emit_diagnostic_reaches_the_handlers_with_its_severity():
    from tfmlir import _tfmlir, irsafe

    context = ir.Context()
    seen = []
    severities = [ir.DiagnosticSeverity.WARNING, "remark", int(ir.DiagnosticSeverity.ERROR.value)]
    with irsafe.DiagnosticHandler(context, lambda d: seen.append(d) or True):
        location = ir.Location.file("w.mlir", 3, 7, context)
        for k, severity in enumerate(severities):
            _tfmlir.emit_diagnostic(location, severity, f"careful {k} \u00e9")
        for bad in (ir.DiagnosticSeverity.NOTE, "loud", 7):
            with pytest.raises(ValueError):
                _tfmlir.emit_diagnostic(location, bad, "no")
    assert [(d.severity, str(d.location), d.message) for d in seen] == [
        (severity, 'loc("w.mlir":3:7)', f"careful {k} \u00e9") for k, severity in enumerate(
            [ir.DiagnosticSeverity.WARNING, ir.DiagnosticSeverity.REMARK, ir.DiagnosticSeverity.ERROR])]


# --- names checked for UTF-8 once per run, again after passes that are not tfmlir's -------------

def test_names_a_user_pass_makes_non_utf8_are_refused_before_the_next_python_pass():
    proc = _child("""
    from tfmlir.passes import framework

    @framework.register_pass
    class Renamer(framework.Pass):
        argument = "tf-test-non-utf8-renamer"
        anchor = "builtin.module"
        def run_on_operation(self, op):
            func = next(iter(op.regions[0].blocks[0].operations))
            func.attributes["sym_name"] = ir.StringAttr.get(b"f\\xff")

    with ir.Context():
        module = ir.Module.parse('func.func @f() {\\n  func.return\\n}')
        before = str(module)
        try:
            passes.run(module, "tf-test-non-utf8-renamer,tf-executor-graph-pruning")
            print("ran")
        except ir.MLIRError as err:
            print("MLIRError:", err)
        print("restored" if str(module) == before else "changed")
    """)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "tf-executor-graph-pruning (a Python pass) needs UTF-8 names" in proc.stdout, proc.stdout
    assert proc.stdout.strip().endswith("restored")


def test_a_pass_parsing_non_utf8_names_gets_a_value_error():
    proc = _child('''
    from tfmlir.passes import framework

    @framework.register_pass
    class Parser(framework.Pass):
        argument = "tf-test-parses-non-utf8"
        anchor = "builtin.module"
        def run_on_operation(self, op):
            try:
                ir.Module.parse(b'func.func @"\\\\FF"() {\\n  func.return\\n}')
            except ValueError as err:
                print("refused:", type(err).__name__)

    with ir.Context():
        module = ir.Module.parse("module {}")
        passes.run(module, "tf-test-parses-non-utf8")
    ''')
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.strip() == "refused: NonUtf8Error", proc.stdout
