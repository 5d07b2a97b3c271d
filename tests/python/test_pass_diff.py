"""Differential tests of tfmlir's Python passes against TensorFlow's C++ passes, driven by a table.

Each row is one pipeline; the rows live in ``pass_diff_rows_<family>.py``
modules beside this file (``ROWS`` lists in each, collected here), and
:mod:`pass_diff` supplies the inputs (lit chunks of the row's passes, TF's
reference samples, TF's own output for tf_cases.py, the corpus models) and the
comparison rules. Adding a pass to the differential tests means adding a row.
"""
import pytest

from conftest import have_tensorflow, require_tensorflow
from pass_diff import (UPSTREAM_LIT, Row, compare, input_ids, input_text, lit_inputs, mark_single_core_tpu,
                       run_tf_table)


def _rows():
    """The rows of every ``pass_diff_rows_*.py`` module beside this file (one per pass family)."""
    import importlib
    import pathlib

    rows = []
    for path in sorted(pathlib.Path(__file__).parent.glob("pass_diff_rows_*.py")):
        rows.extend(importlib.import_module(path.stem).ROWS)
    return rows


ROWS = _rows()


CASES = [(row, input_id) for row in ROWS for input_id in input_ids(row)]


@pytest.fixture(scope="session")
def tf_table(request, tf_outputs):
    """TF's results for the rows of the selected cases (all of them, in one child process)."""
    require_tensorflow()
    selected = set()
    for item in request.session.items:
        params = getattr(getattr(item, "callspec", None), "params", {})
        if isinstance(params.get("row"), Row):
            selected.add(params["row"].name)
    return run_tf_table([row for row in ROWS if row.name in selected], tf_outputs)


@pytest.mark.skipif(not have_tensorflow(), reason="tensorflow is not installed")
@pytest.mark.parametrize("row,input_id", CASES, ids=[f"{r.name}-{i}" for r, i in CASES])
def test_matches_tensorflow(row, input_id, tf_table, tf_outputs):
    text = input_text(input_id, tf_outputs)
    known = row.known_differences.get(input_id)

    def fail(message):
        if known:
            pytest.xfail(f"known difference: {known}")
        pytest.fail(message, pytrace=False)

    compare(row, input_id, text, tf_table.get((row.name, input_id)), fail, pytest.skip)


def test_table_is_well_formed():
    import tf_cases

    names = [row.name for row in ROWS]
    assert len(names) == len(set(names))
    from tfmlir.passes import registered_passes
    for row in ROWS:
        for flag in row.lit_flags():
            assert flag in registered_passes() or flag in UPSTREAM_LIT, (row.name, flag)
    # Guards against the parametrization silently shrinking.
    from pass_diff_rows_executor import _CONVERSION_FLAGS, _EXECUTOR_FLAGS
    assert len(lit_inputs(_EXECUTOR_FLAGS)) >= 25
    assert len(lit_inputs(_CONVERSION_FLAGS)) >= 30
    assert len(tf_cases.CASES) >= 10


def test_tpu_marking_marks_islands():
    text = ('%o, %c = tf_executor.island wraps "tf.A"(%x) {device = ""} : (t) -> t\n' * 5)
    assert mark_single_core_tpu(text, every=5).count('_xla_compile_device_type = "TPU"') == 1
