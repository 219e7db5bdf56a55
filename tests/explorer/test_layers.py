"""The direction of imports (napari style): algorithms <- scene model <- rendering <- Qt.

Each check imports modules in a fresh interpreter and inspects ``sys.modules``, so what the
test process itself imported cannot hide a violation.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

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
    mods = loaded_after("explorer.scene", "explorer.scenefile", "explorer.render",
                        "explorer.overlays", "explorer.drag", "explorer.undo", "explorer.bench")
    assert "explorer.render" in mods and "explorer.overlays" in mods  # the test really ran
    assert not {"PyQt6", "PyQt5", "PySide6", "pyvistaqt", "qtpy"} & top(mods)
    assert not {"explorer.window", "explorer.viewport", "explorer.app",
                "explorer.widgets", "explorer.panels"} & mods


def test_scene_model_imports_no_rendering():
    mods = loaded_after("explorer.scene", "explorer.scenefile", "explorer.undo", "explorer.drag")
    assert not {"PyQt6", "pyvista", "pyvistaqt", "vtkmodules", "vtk"} & top(mods)


def test_algorithms_import_no_explorer():
    mods = loaded_after("algorithms")
    assert not {"explorer", "PyQt6", "pyvista", "vtkmodules"} & top(mods)


# The same rule read from the source: which explorer modules each layer may import.
LAYERS = {
    "scene": set(), "scenefile": {"scene"}, "undo": {"scene"}, "drag": set(),
    "render": {"scene"}, "overlays": {"scene", "render"},
}


@pytest.mark.parametrize("module", sorted(LAYERS))
def test_qt_free_modules_import_only_lower_layers(module):
    tree = ast.parse((ROOT / "explorer" / f"{module}.py").read_text(encoding="utf-8"))
    used = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module:
            used.add(node.module.split(".")[0])
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("explorer."):
            used.add(node.module.split(".")[1])
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            names = [a.name for a in node.names] + ([node.module] if getattr(node, "module", None)
                                                    else [])
            assert not any(n and n.split(".")[0] in ("PyQt6", "pyvistaqt") for n in names), module
    assert used <= LAYERS[module], (module, used - LAYERS[module])
