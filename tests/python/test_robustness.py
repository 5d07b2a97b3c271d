"""Bad input through the Python API: ValueError / our error classes, never an abort.

Anything that could kill the interpreter runs in a child process, so a
regression fails one test instead of the whole run.
"""
import subprocess
import sys
import textwrap

import pytest

import tfmlir
from mlir import ir
from tfmlir import irsafe
from tfmlir.dialects import tf_type
from tfmlir.exporters import TFExportError, export_graph_def

NON_UTF8_OP = b"""
func.func @main(%arg0: tensor<f32>) -> tensor<f32> {
  %0 = tf_executor.graph {
    %1:2 = tf_executor.island {
      %2 = "tf.\\FF\\FE"(%arg0) : (tensor<f32>) -> tensor<f32>
      tf_executor.yield %2 : tensor<f32>
    }
    tf_executor.fetch %1#0 : tensor<f32>
  }
  func.return %0 : tensor<f32>
}
"""


def _run_child(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, timeout=120)


@pytest.fixture
def ctx():
    with ir.Context() as context, ir.Location.unknown():
        yield context


@pytest.mark.parametrize("cls", [tf_type.ResourceType, tf_type.VariantType])
def test_subtypes_must_be_tensors(ctx, cls):
    with pytest.raises(ValueError, match="subtypes must be tensor types; subtype #1"):
        cls.get([ir.RankedTensorType.get([2], ir.F32Type.get()), ir.IntegerType.get_signless(32)])
    ok = cls.get([ir.UnrankedTensorType.get(ir.F32Type.get())])
    assert len(ok.subtypes) == 1


def test_subtypes_from_another_context(ctx):
    with ir.Context(), ir.Location.unknown():
        foreign = ir.RankedTensorType.get([2], ir.F32Type.get())
    with pytest.raises(ValueError, match="another Context"):
        tf_type.ResourceType.get([foreign])


def test_func_attr_needs_a_dictionary(ctx):
    with pytest.raises(ValueError, match="DictionaryAttr"):
        tf_type.FuncAttr.get("f", ir.IntegerAttr.get(ir.IntegerType.get_signless(32), 1))
    assert str(tf_type.FuncAttr.get("f", ir.Attribute.parse("{}"))) == "#tf_type.func<@f, {}>"


def test_safe_names_escape_what_is_not_utf8(ctx):
    ctx.allow_unregistered_dialects = True
    module = ir.Module.parse(NON_UTF8_OP)
    found = irsafe.find_non_utf8(module)
    assert found is not None
    op, what = found
    assert what == "the operation name"
    assert irsafe.op_name(op) == "tf.\\FF\\FE"
    with pytest.raises(irsafe.NonUtf8Error, match=r"the operation name of 'tf.\\FF\\FE'"):
        irsafe.check_utf8(module, "test")
    loc = ir.Location.file("\u00e9.py", 1, 2)
    assert irsafe.location_filename(loc) == "\u00e9.py"
    assert irsafe.location_name(ir.Location.name("n", loc)) == "n"
    assert irsafe.location_name(loc) is None


def test_valid_utf8_names_pass_the_check(ctx):
    module = ir.Module.parse('func.func @"\u00e9t\u00e9"() { func.return } loc("\u00fc.py":1:1)')
    assert irsafe.find_non_utf8(module) is None
    assert tfmlir.print_ir(module).startswith("module")


def test_exporter_refuses_non_utf8_names(ctx):
    module = ir.Module.parse(NON_UTF8_OP)
    with pytest.raises(TFExportError, match="the GraphDef exporter needs UTF-8 names"):
        export_graph_def(module)


def test_diagnostic_handler_reads_non_utf8_text(ctx):
    ctx.allow_unregistered_dialects = True
    module = ir.Module.parse(b'"foo.\\FF"() : () -> () loc("\\FE":3:4)')
    seen = []
    with irsafe.DiagnosticHandler(ctx, lambda d: seen.append(d) or True) as handler:
        module.body.operations[0].location.emit_error("bad \\FF")
        op = module.body.operations[0]
        ir.Location.name("x", op.location).emit_error("second")
    assert handler.error is None
    assert [d.message for d in seen] == ["bad \\FF", "second"]
    assert seen[0].severity == ir.DiagnosticSeverity.ERROR
    assert irsafe.location_filename(seen[0].location) == "\\FE"


def test_diagnostic_handler_keeps_callback_errors(ctx):
    def boom(diag):
        raise KeyError("in callback")

    with irsafe.DiagnosticHandler(ctx, boom) as handler:
        try:
            ir.Location.unknown().emit_error("x")
        except ir.MLIRError:
            pass
    assert isinstance(handler.error, KeyError)


def test_upstream_getters_still_abort_so_we_never_use_them():
    """Documents why irsafe exists: upstream's Operation.name aborts on these names."""
    child = _run_child("""
        import tfmlir
        from mlir import ir
        with ir.Context() as c:
            c.allow_unregistered_dialects = True
            m = ir.Module.parse(b'"tf.\\\\FF"() : () -> ()')
            m.body.operations[0].name
    """)
    assert child.returncode != 0 and "conversion error" in child.stderr


def test_passes_run_refuses_non_utf8_without_dying():
    child = _run_child(f"""
        import tfmlir
        from mlir import ir
        from tfmlir import passes
        with ir.Context() as c:
            c.allow_unregistered_dialects = True
            m = ir.Module.parse({NON_UTF8_OP!r})
            before = str(m)
            try:
                passes.run(m, "builtin.module(func.func(tf-executor-island-coarsening))")
            except ir.MLIRError as err:
                assert "needs UTF-8 names" in str(err), str(err)
                assert str(m) == before
                print("refused")
    """)
    assert child.returncode == 0, child.stderr
    assert child.stdout.strip() == "refused"


# --- guards in front of MLIR's parsers ---------------------------------------------------------

SMALL_GRAPH = """
func.func @main(%arg0: tensor<2xf32>) -> tensor<2xf32> {
  %0 = tf_executor.graph {
    %outputs, %control = tf_executor.island wraps "tf.Neg"(%arg0) : (tensor<2xf32>) -> tensor<2xf32>
    tf_executor.fetch %outputs : tensor<2xf32>
  }
  func.return %0 : tensor<2xf32>
}
"""


def _small_bytecode():
    import io

    with ir.Context():
        out = io.BytesIO()
        ir.Module.parse(SMALL_GRAPH).operation.write_bytecode(out)
        return out.getvalue()


def _corrupted_bytecode():
    """SMALL_GRAPH's bytecode with the first byte of its IR section set to 0xFE:
    the reader then takes a huge count and resizes a vector to it."""
    from tfmlir import parsing

    data = bytearray(_small_bytecode())
    parsing.check_structure(data)
    offset = _ir_section_offset(bytes(data))
    data[offset] = 0xFE
    return bytes(data)


def _ir_section_offset(data):
    from tfmlir import parsing

    pos = data.index(b"\0", 5) + 1
    while pos < len(data):
        section = data[pos] & 0x7F
        length, pos = parsing._varint(data, pos + 1)
        if section == 4:
            return pos
        pos += length
    raise AssertionError("no IR section")


def test_text_guard_refuses_huge_result_numbers(ctx):
    from tfmlir import parsing

    text = SMALL_GRAPH.replace('"tf.Neg"(%arg0)', '"tf.Neg"(%outputs#1000000000)')
    with pytest.raises(parsing.ParseGuardError, match=r"line 4, column \d+: result number 1000000000 of "
                                                      r"'%outputs' is not below 1048576"):
        parsing.parse_module(text)
    parsing.check_text(SMALL_GRAPH.replace("%arg0)", "%outputs#3)"))  # small numbers are the parser's job


def test_parse_errors_with_non_utf8_text_are_mlir_errors(ctx):
    from tfmlir import parsing

    ctx.allow_unregistered_dialects = True
    bad = ('func.func @main() {\n  tf_executor.graph {\n    "\\C3(tf_executor.island"() : () -> ()\n'
           '    tf_executor.fetch\n  }\n  func.return\n}\n')
    with pytest.raises(ir.MLIRError, match=r"'\\C3\(tf_executor.island' op unallowed inside"):
        parsing.parse_module(bad)
    assert parsing.parse_module(SMALL_GRAPH).operation.verify()


def test_bytecode_structure_check():
    from tfmlir import parsing

    good = _small_bytecode()
    parsing.check_structure(good)
    with pytest.raises(parsing.BytecodeError, match="bad magic"):
        parsing.check_structure(b"MLxx" + good[4:])
    with pytest.raises(parsing.BytecodeError, match="claims .* bytes, only"):
        parsing.check_structure(good[:-3])
    with pytest.raises(parsing.BytecodeError, match="truncated"):
        parsing.check_structure(good[:9])


def test_corrupted_bytecode_kills_upstream_reader_but_not_us(ctx):
    """The cause is upstream: MLIR's reader dies on this input (shown in a child),
    tfmlir's guarded entry point refuses it with BytecodeError."""
    from tfmlir import parsing

    data = _corrupted_bytecode()
    child = subprocess.run([sys.executable, "-c", textwrap.dedent("""
        import resource, sys
        resource.setrlimit(resource.RLIMIT_AS, (1500 << 20, 1500 << 20))
        import tfmlir
        from mlir import ir
        with ir.Context():
            try:
                ir.Module.parse(sys.stdin.buffer.read())
            except Exception:
                pass
        print("survived")
    """)], input=data, capture_output=True, timeout=120)
    assert child.returncode != 0 and b"out of memory" in child.stderr
    parsing.check_structure(data)  # the section table is intact: only the probe catches it
    with pytest.raises(parsing.BytecodeError, match="out of memory"):
        parsing.parse_module(data)
    assert parsing.parse_module(_small_bytecode()).operation.verify()


def test_cli_refuses_corrupted_bytecode(tmp_path):
    path = tmp_path / "bad.mlirbc"
    path.write_bytes(_corrupted_bytecode())
    opt = subprocess.run([sys.executable, "-m", "tfmlir.tools.opt", str(path)], capture_output=True,
                         text=True, timeout=120)
    assert opt.returncode == 1 and "bytecode reader cannot read this input safely" in opt.stderr
    export = subprocess.run([sys.executable, "-m", "tfmlir.tools.main", "export", str(path)],
                            capture_output=True, text=True, timeout=120)
    assert export.returncode == 1 and "bytecode reader cannot read" in export.stderr


def test_exporter_string_fields_must_be_utf8_but_string_attrs_may_be_bytes(ctx):
    from tfmlir import importers

    text = SMALL_GRAPH.replace('"tf.Neg"(%arg0)', '"tf.Neg"(%arg0) {device = "\\FF", _note = "\\FF\\00"}')
    with pytest.raises(TFExportError, match=r"attribute 'device' is not valid UTF-8: \"\\FF\""):
        export_graph_def(ir.Module.parse(text))
    module = ir.Module.parse(text.replace('device = "\\FF", ', ""))
    again = importers.import_graph_def(export_graph_def(module))
    assert '_note = "\\FF\\00"' in str(again)


def test_a_failing_function_pass_restores_the_functions_it_already_changed(ctx):
    """The first function coarsens fine, the second fails: the module is as before."""
    from tfmlir import passes

    text = """
func.func @a(%arg0: tensor<f32>) -> tensor<f32> {
  %0 = tf_executor.graph {
    %o1, %c1 = tf_executor.island wraps "tf.Neg"(%arg0) : (tensor<f32>) -> tensor<f32>
    %o2, %c2 = tf_executor.island wraps "tf.Neg"(%o1) : (tensor<f32>) -> tensor<f32>
    tf_executor.fetch %o2 : tensor<f32>
  }
  func.return %0 : tensor<f32>
}
func.func @b(%arg0: tensor<*xf32>, %arg1: tensor<i1>) -> tensor<*xf32> {
  %0 = tf_executor.graph {
    %f, %t, %c = tf_executor.Switch %arg0, %arg1 : tensor<*xf32>
    tf_executor.fetch %f : tensor<*xf32>
  }
  func.return %0 : tensor<*xf32>
}
"""
    module = ir.Module.parse(text)
    before = str(module)
    with pytest.raises(ir.MLIRError, match="tf_executor.Switch"):
        passes.run(module, "builtin.module(func.func(tf-executor-to-functional-conversion))")
    assert str(module) == before
    module.operation.verify()
