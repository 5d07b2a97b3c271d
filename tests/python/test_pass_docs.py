"""The README's list of passes is the registry's (a pass cannot be added or dropped silently)."""
import re

from conftest import REPO_ROOT
from tfmlir.passes import registered_passes
from tfmlir.passes.framework import pass_modules


def _readme_passes():
    text = (REPO_ROOT / "README.md").read_text()
    match = re.search(r"^Available\b(.*?)\.\n", text, re.S | re.M)
    assert match, "README.md has no 'Available: ...' list of passes"
    return re.findall(r"`([a-z0-9-]+)`", match.group(1))


def test_readme_lists_every_registered_pass():
    listed = _readme_passes()
    assert len(listed) == len(set(listed)), "a pass is listed twice"
    builtin = set(pass_modules().values())
    assert set(listed) == builtin, (sorted(builtin - set(listed)), sorted(set(listed) - builtin))
    assert builtin <= set(registered_passes())


def test_every_pass_has_a_description():
    for argument, cls in registered_passes().items():
        if argument in pass_modules().values():
            assert cls.description().strip(), argument
