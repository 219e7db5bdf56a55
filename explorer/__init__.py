"""Intersection Explorer: the app. The scene model (:mod:`explorer.model.scene`,
:mod:`explorer.model.scenefile`) has no Qt; :mod:`explorer.render.view` draws with PyVista and has no Qt;
the Qt window lives in :mod:`explorer.qt.app` and the modules it imports."""

from pathlib import Path

from explorer.resources import scenes_dir

__version__ = "0.1.0"

#: the example scenes that ship with the project (``scenes/`` at the top of the checkout,
#: installed as package data: :mod:`explorer.resources`)
SCENES_DIR = scenes_dir()
DEFAULT_SCENE = "welcome.json"
#: the shipped lessons (scene files with a ``"lesson"`` key, docs/scene-v1.md)
LESSONS_DIR = SCENES_DIR / "lessons"


def default_scene_path() -> Path:
    """The scene the app opens when none is named."""
    return SCENES_DIR / DEFAULT_SCENE


def is_shipped(path) -> bool:
    """Whether ``path`` is one of the shipped scenes or lessons (under ``scenes/``): those open
    read-only, so Save asks for a new path instead of overwriting the example."""
    try:
        Path(path).resolve().relative_to(SCENES_DIR.resolve())
    except ValueError:
        return False
    return True


def show(*items, **options):
    """Open the explorer on primitives built in a script: ``show(a, b, ...)``; in a Jupyter
    notebook, an interactive view with the answers drawn and the results table.
    See :func:`explorer.scripting.show` (Qt is imported only when a window opens)."""
    from explorer.scripting import show as _show

    return _show(*items, **options)
