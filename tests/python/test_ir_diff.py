"""ir_diff.first_difference: the report a differential test shows on a mismatch."""
from ir_diff import differing_lines, first_difference

MODULE = '''"builtin.module"() ({
  "func.func"() <{function_type = (tensor<2xf32>) -> tensor<2xf32>, sym_name = "main"}> ({
  ^bb0(%arg0: tensor<2xf32>):
    %0 = "tf_executor.graph"() ({
      %1:2 = "tf_executor.island"() ({
        %3 = "tf.Neg"(%arg0) : (tensor<2xf32>) -> tensor<2xf32>
        "tf_executor.yield"(%3) : (tensor<2xf32>) -> ()
      }) : () -> (tensor<2xf32>, !tf_executor.control)
      %2:2 = "tf_executor.island"() ({
        %4 = "tf.Abs"(%1#0) : (tensor<2xf32>) -> tensor<2xf32>
        "tf_executor.yield"(%4) : (tensor<2xf32>) -> ()
      }) : () -> (tensor<2xf32>, !tf_executor.control)
      "tf_executor.fetch"(%2#0) : (tensor<2xf32>) -> ()
    }) : () -> tensor<2xf32>
    "func.return"(%0) : (tensor<2xf32>) -> ()
  }) : () -> ()
}) : () -> ()
'''


def _change(text, line, old, new):
    lines = text.splitlines()
    assert old in lines[line - 1]
    lines[line - 1] = lines[line - 1].replace(old, new)
    return "\n".join(lines) + "\n"


def test_equal_texts_have_no_difference():
    assert first_difference(MODULE, MODULE) is None


def test_an_op_line():
    ours = _change(MODULE, 10, "-> tensor<2xf32>", "-> tensor<*xf32>")
    ours = _change(ours, 11, "(tensor<2xf32>)", "(tensor<*xf32>)")
    report = first_difference(MODULE, ours)
    assert report.startswith("first difference at line 10, column 57: op tf.Abs in @main\n"), report
    assert "differing lines: 2 of 17 (tensorflow), 2 of 17 (tfmlir)\n" in report
    assert ">    10|         %4 = \"tf.Abs\"(%1#0) : (tensor<2xf32>) -> tensor<*xf32>" in report
    lines = report.splitlines()
    marked = [k for k, line in enumerate(lines) if line.startswith(">    10|")]
    assert len(marked) == 2 and all(lines[k + 1] == " " * (9 + 56) + "^" for k in marked), report
    assert "      7|         \"tf_executor.yield\"(%3)" in report  # context before
    assert "     12|       })" in report  # and after


def test_a_closing_line_belongs_to_the_op_it_closes():
    ours = _change(MODULE, 8, "(tensor<2xf32>, !tf", "(tensor<?xf32>, !tf")
    report = first_difference(MODULE, ours)
    assert "line 8, column 26: op tf_executor.island in @main" in report, report
    ours = _change(MODULE, 14, "-> tensor<2xf32>", "-> tensor<*xf32>")
    assert "op tf_executor.graph in @main" in first_difference(MODULE, ours)


def test_an_extra_op_counts_as_one_line():
    lines = MODULE.splitlines()
    ours = "\n".join(lines[:9] + ['        %9 = "tf.Cast"(%1#0) : (tensor<2xf32>) -> tensor<2xf32>'] + lines[9:]) + "\n"
    report = first_difference(MODULE, ours)
    assert "op tf.Abs (tensorflow) / tf.Cast (tfmlir) in @main" in report, report
    assert "differing lines: 0 of 17 (tensorflow), 1 of 18 (tfmlir) (about" in report, report
    assert differing_lines(MODULE.splitlines(), ours.splitlines()) == (0, 1, False)


def test_one_text_ends_early_and_long_lines_are_clipped():
    report = first_difference(MODULE, "\n".join(MODULE.splitlines()[:5]) + "\n")
    assert "only tensorflow goes on" in report and "<end of text>" in report, report
    long = MODULE.replace("tf.Neg\"(%arg0)", "tf.Neg\"(%arg0) {big = \"" + "x" * 1000 + "\"}")
    report = first_difference(long, long.replace("x\"}", "y\"}"))
    assert max(len(line) for line in report.splitlines()) < 300, report
    assert "...xxx" in report and "y\"}" in report
