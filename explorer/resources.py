"""The data files that ship with the explorer, found through :mod:`importlib.resources`.

The example scenes live in the checkout's top-level ``scenes/`` folder and install as the
package ``explorer_scenes`` (``setup.py`` maps it; lessons go in ``scenes/lessons/``). So they
are found the same way in a wheel installed anywhere, in an editable install and in a source
checkout run with ``PYTHONPATH=.`` (where ``scenes/`` beside the code is the fallback, used only
when no ``explorer_scenes`` package is importable).
"""

from __future__ import annotations

import atexit
import contextlib
import importlib.resources
from pathlib import Path

#: the package that holds the shipped scenes (the top-level ``scenes/`` folder)
SCENES_PACKAGE = "explorer_scenes"
_CHECKOUT_SCENES = Path(__file__).resolve().parent.parent / "scenes"
_KEEP = contextlib.ExitStack()
atexit.register(_KEEP.close)


def scenes_dir() -> Path:
    """The folder of the shipped scenes, as a real path (extracted if installed zipped)."""
    try:
        root = importlib.resources.files(SCENES_PACKAGE)
    except ModuleNotFoundError:
        return _CHECKOUT_SCENES
    if isinstance(root, Path):
        return root
    return _KEEP.enter_context(importlib.resources.as_file(root))  # pragma: no cover - zipped


def lessons_dir() -> Path:
    """The folder of the shipped lessons (``scenes/lessons/``; may not exist)."""
    return scenes_dir() / "lessons"


def shipped_scene_files() -> list[Path]:
    """Every shipped scene file, by name."""
    return sorted(scenes_dir().glob("*.json"))


def scene_path(name: str) -> Path:
    """The path of the shipped scene ``name`` (``"welcome.json"`` or ``"welcome"``)."""
    if not name.endswith(".json"):
        name += ".json"
    return scenes_dir() / name
