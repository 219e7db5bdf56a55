"""The shipped scenes are package data (issue 14): found through importlib.resources, and every
file of scenes/ is matched by the package-data globs that put it in the wheel (CI's
.ci/wheel-check then runs the installed wheel from another folder)."""

import fnmatch
import tomllib
from pathlib import Path

from explorer import SCENES_DIR, default_scene_path
from explorer.resources import scene_path, scenes_dir, shipped_scene_files

ROOT = Path(__file__).resolve().parents[2]


def test_scenes_are_found_as_a_package_and_are_the_checkouts_folder_here():
    assert scenes_dir() == SCENES_DIR
    assert scenes_dir().resolve() == (ROOT / "scenes").resolve()
    assert default_scene_path() == scene_path("welcome") and default_scene_path().is_file()
    assert [p.name for p in shipped_scene_files()] == sorted(
        p.name for p in (ROOT / "scenes").glob("*.json"))


def test_every_file_of_scenes_is_in_the_package_data():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    globs = config["tool"]["setuptools"]["package-data"]["explorer_scenes"]
    setup = (ROOT / "setup.py").read_text()
    assert '"explorer_scenes": "scenes"' in setup and '["explorer_scenes"]' in setup
    files = [p.relative_to(ROOT / "scenes").as_posix() for p in (ROOT / "scenes").rglob("*")
             if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".py"]
    assert files  # the test looked at something
    missing = [f for f in files if not any(fnmatch.fnmatch(f, g) for g in globs)]
    assert missing == [], f"not shipped in the wheel: {missing} (add to package-data)"
