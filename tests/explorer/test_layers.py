"""The direction of imports (napari style): algorithms <- scene model <- rendering <- Qt.

Each check imports modules in a fresh interpreter and inspects ``sys.modules``, so what the
test process itself imported cannot hide a violation.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def loaded_after(*modules: str) -> set[str]:
    code = ("import json, sys\n"
            + "".join(f"import {m}\n" for m in modules)
            + "print(json.dumps(sorted(sys.modules)))\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         check=True, env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT),
                                          "VTK_DEFAULT_OPENGL_WINDOW": "vtkEGLRenderWindow"})
    return set(json.loads(out.stdout.strip().splitlines()[-1]))


def top(mods: set[str]) -> set[str]:
    return {m.split(".")[0] for m in mods}


def test_rendering_and_overlays_import_no_qt():
    mods = loaded_after("explorer.model.scene", "explorer.model.scenefile", "explorer.render.view",
                        "explorer.render.overlays", "explorer.model.drag", "explorer.model.undo", "explorer.bench")
    assert "explorer.render.view" in mods and "explorer.render.overlays" in mods  # the test really ran
    assert not {"PyQt6", "PyQt5", "PySide6", "pyvistaqt", "qtpy"} & top(mods)
    assert not {"explorer.qt.window", "explorer.qt.viewport", "explorer.qt.app",
                "explorer.qt.widgets", "explorer.qt.panels"} & mods


def test_scene_model_imports_no_rendering():
    mods = loaded_after("explorer.model.scene", "explorer.model.scenefile", "explorer.model.undo", "explorer.model.drag")
    assert not {"PyQt6", "pyvista", "pyvistaqt", "vtkmodules", "vtk"} & top(mods)


def test_algorithms_import_no_explorer():
    mods = loaded_after("algorithms")
    assert not {"explorer", "PyQt6", "pyvista", "vtkmodules"} & top(mods)


def test_import_linter_contracts_hold():
    """The layer contracts of ``pyproject.toml`` ([tool.importlinter]), as ``lint-imports``."""
    exe = Path(sys.executable).with_name("lint-imports")
    out = subprocess.run([str(exe)], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
    assert " kept, 0 broken" in out.stdout, out.stdout
