"""TF's tf2xla_defs.h constant lists in tfmlir (kValidDeviceTypes, kAttrsToPropagate): the
generated module against the header of the installed TensorFlow (regenerate and diff)."""
import subprocess
import sys

import pytest

from conftest import REPO_ROOT, have_tensorflow

MODULE = REPO_ROOT / "python" / "tfmlir" / "passes" / "generated" / "tf2xla_defs.py"


@pytest.mark.tf
@pytest.mark.skipif(not have_tensorflow(), reason="tensorflow is not installed")
def test_generated_defs_match_installed_tensorflow(tmp_path):
    out = tmp_path / "_tf2xla_defs.py"
    proc = subprocess.run([sys.executable, str(REPO_ROOT / "scripts" / "gen_tf2xla_defs.py"),
                           "-o", str(out)], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-4000:]
    assert out.read_text() == MODULE.read_text(), (
        "python/tfmlir/passes/generated/tf2xla_defs.py is stale: run scripts/gen_tf2xla_defs.py")


def test_parser_resolves_named_constants():
    sys.path.insert(0, str(REPO_ROOT / "scripts"))
    try:
        import gen_tf2xla_defs as gen
    finally:
        sys.path.pop(0)
    text = ('inline constexpr absl::string_view kA = "a";\n'
            'inline constexpr absl::string_view kB =\n    "";\n'
            'inline constexpr std::array<absl::string_view, 2> kList = {\n    kB, kA,\n};\n')
    assert gen.parse(text) == {"kList": ["", "a"]}
    with pytest.raises(SystemExit):
        gen.parse('inline constexpr std::array<absl::string_view, 1> kList = {kMissing};')
