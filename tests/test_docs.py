"""The examples of docs/api.md run as written (doctest), and so do examples/*.py: the Python API
documentation cannot drift from the code."""

import doctest
import runpy
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_api_examples_run_as_written():
    result = doctest.testfile(str(ROOT / "docs" / "api.md"), module_relative=False,
                              optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted >= 25  # the page's examples all ran
    assert result.failed == 0


@pytest.mark.parametrize("script", sorted((ROOT / "examples").glob("*.py")), ids=lambda p: p.name)
def test_example_scripts_run(script, capsys):
    runpy.run_path(str(script), run_name="__main__")
    assert capsys.readouterr().out.strip()  # each example prints what it found
