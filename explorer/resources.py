"""The data files that ship with the explorer, found through :mod:`importlib.resources`.

The example scenes live in the checkout's top-level ``scenes/`` folder and install as the
package ``explorer_scenes`` (``setup.py`` maps it; lessons go in ``scenes/lessons/``). An
installed explorer finds them through :mod:`importlib.resources`, from any folder. Code run from
a source checkout (``PYTHONPATH=.``, or an editable install of it) uses the ``scenes/`` folder
beside it, so a checkout never reads another checkout's scenes through an editable install
made elsewhere.
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
    if (_CHECKOUT_SCENES / "__init__.py").is_file():  # a source checkout: its own scenes
        return _CHECKOUT_SCENES
    try:
        root = importlib.resources.files(SCENES_PACKAGE)
    except ModuleNotFoundError:  # pragma: no cover - a broken install
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
