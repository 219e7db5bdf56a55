"""The examples of docs/api.md run as written (doctest), and so do the example scripts of
examples/: the Python API documentation cannot drift from the code."""

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


#: the example programs (examples/ also holds data for other features, such as methods files)
SCRIPTS = ["script_api.py"]


@pytest.mark.parametrize("name", SCRIPTS)
def test_example_scripts_run(name, capsys):
    runpy.run_path(str(ROOT / "examples" / name), run_name="__main__")
    assert capsys.readouterr().out.strip()  # each example prints what it found
