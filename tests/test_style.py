"""The house rules a linter can see: ``ruff check .`` with the configuration in pyproject.toml
(the rules the code's ``noqa`` comments refer to)."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_ruff_passes():
    exe = Path(sys.executable).with_name("ruff")
    out = subprocess.run([str(exe), "check", "."], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
