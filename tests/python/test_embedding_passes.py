"""-tf-embedding-pipelining and -tf-embedding-sequencing against TensorFlow 2.21.

TF registers neither for Python; both run, one after the other, inside TF's
``tf-replicated-clustering-bridge-v2``. On the lit tests' cases the two
passes in a row must end as TF's pipeline does: the same embedding error
(message and line:column), success where TF gets past them, and tfmlir's
"not supported yet" (or a diagnostic) where TF goes on to its rewrite, which
crashes on these small inputs.
"""
import pytest
from mlir import ir

import tfmlir  # noqa: F401  (registers the dialects)
from conftest import REPO_ROOT, require_tensorflow
from test_tpu_validate_inputs import _tf_errors
from tfmlir.passes import framework

PASSES = ("tf-embedding-pipelining", "tf-embedding-sequencing")
BRIDGE = "tf-replicated-clustering-bridge-v2"


def _chunks():
    chunks = {}
    for name in PASSES:
        for suffix in ("", "-invalid"):
            path = REPO_ROOT / "tests" / "lit" / "passes" / f"{name}{suffix}.mlir"
            for k, chunk in enumerate(path.read_text().split("// -----")):
                chunks[f"{path.stem}#{k}"] = chunk
    return chunks


def _ours(text):
    module = ir.Module.parse(text, ir.Context())
    try:
        framework.run(module, f"builtin.module({','.join(PASSES)})")
    except ir.MLIRError as err:
        errors = []
        for diagnostic in err.error_diagnostics:
            line, column = str(diagnostic.location).rsplit(":", 2)[-2:]
            message = diagnostic.message
            for name in PASSES:
                message = message.removeprefix(name + ": ")
            errors.append((int(line), int(column.rstrip(")")), message))
        return errors
    return []


@pytest.fixture(scope="module")
def tf_results():
    require_tensorflow()
    from tfmlir.testing.tf_oracle import run_tf_pipelines

    chunks = _chunks()
    names = sorted(chunks)
    results = run_tf_pipelines([(chunks[n], BRIDGE) for n in names], crashes="record")
    return chunks, dict(zip(names, results))


@pytest.mark.parametrize("name", sorted(_chunks()))
def test_matches_tf(tf_results, name):
    chunks, results = tf_results
    ours = _ours(chunks[name])
    result = results[name]
    if result["ok"]:
        assert ours == []
    elif result.get("crashed"):
        # TF's rewrite (or its reading of a non-string tag) crashes; tfmlir refuses.
        assert len(ours) == 1
        assert ("not supported yet" in ours[0][2]) or ("is not a string" in ours[0][2])
    else:
        theirs = _tf_errors(result["error"])
        assert theirs and "embedding" in theirs[0][2], result["error"]
        assert ours == theirs
