"""The import direction: ``algorithms`` <- scene model <- rendering <- Qt.

Each check imports a package in a fresh interpreter and inspects ``sys.modules``, so nothing
imported by another test can hide a stray import.
"""

import json
import subprocess
import sys

FORBIDDEN_FOR_ALGORITHMS = ("PyQt6", "PySide6", "pyvista", "pyvistaqt", "vtk", "vtkmodules",
                            "explorer", "matplotlib")


def _modules_after_import(statement: str) -> set[str]:
    code = f"import sys, json; {statement}; print(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    return set(json.loads(out.stdout.strip().splitlines()[-1]))


def _top_levels(modules: set[str]) -> set[str]:
    return {m.split(".")[0] for m in modules}


def test_algorithms_imports_only_numpy_and_stdlib():
    # load_all() imports every pair module, so a stray import anywhere in algorithms shows up
    mods = _top_levels(_modules_after_import(
        "import algorithms; from algorithms import registry; registry.load_all()"))
    bad = sorted(m for m in mods if m in FORBIDDEN_FOR_ALGORITHMS)
    assert bad == []


def test_every_pair_module_loads():
    from algorithms import registry

    registry.load_all()
    assert registry.LOAD_ERRORS == {}
