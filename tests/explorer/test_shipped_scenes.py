"""Every scene in scenes/ loads, evaluates to the spec's shape with no error, and renders.

Rendering is offscreen PyVista (no Qt, no display needed); a render counts as not blank when
its pixels are far from one flat colour.
"""

import json
import math

import numpy as np
import pytest

from explorer import SCENES_DIR, default_scene_path
from explorer.cli import main
from explorer.model.scenefile import load

SCENES = sorted(SCENES_DIR.glob("*.json"))
KEYS = ("a", "b", "pair", "intersects", "distance", "closest", "first_t", "separating_axis",
        "side", "toi", "method", "trace")


def test_there_is_a_scene_for_every_primitive_type_and_the_default_exists():
    kinds = {o.kind for path in SCENES for o in load(path).objects}
    assert kinds == {"point", "segment", "ray", "line", "plane", "triangle", "sphere", "aabb",
                     "obb", "cylinder", "capsule"}
    assert default_scene_path().exists()


@pytest.mark.parametrize("path", SCENES, ids=[p.stem for p in SCENES])
def test_scene_evaluates_to_the_spec_shape(path, capsys):
    assert main(["eval", str(path)]) == 0
    out = json.loads(capsys.readouterr().out)
    scene = load(path)
    results = out["results"]
    assert [tuple(r[k] for k in "abc" if k in r) for r in results] == scene.query_list()
    for r in results:
        if "c" in r:  # a three-planes query (docs/scene-v1.md, project extensions)
            assert r["pair"] == "plane-plane-plane" and "error" not in r
            assert isinstance(r["determinant"], float) and "point" in r
            assert all(scene[r[k]].kind == "plane" for k in "abc")
            continue
        assert all(k in r for k in KEYS), r
        assert "error" not in r, f"{path.name} {r['a']}-{r['b']}: {r['error']}"
        assert r["pair"] == f"{scene[r['a']].kind}-{scene[r['b']].kind}"
        assert isinstance(r["intersects"], bool)
        assert r["distance"] >= 0
        if r["intersects"]:
            assert r["distance"] == 0
        pa, pb = (np.asarray(c) for c in r["closest"])
        assert math.isclose(float(np.linalg.norm(pa - pb)), r["distance"], rel_tol=1e-9,
                            abs_tol=1e-9)
        if r["separating_axis"] is not None:
            assert not r["intersects"]
            assert math.isclose(float(np.linalg.norm(r["separating_axis"])), 1.0, rel_tol=1e-9)
        moving = scene[r["a"]].motion is not None or scene[r["b"]].motion is not None
        if not moving:
            assert r["toi"] is None
        if "plane" not in r["pair"].split("-"):
            assert r["side"] is None


@pytest.mark.parametrize("path", SCENES, ids=[p.stem for p in SCENES])
def test_scene_renders_offscreen_to_a_picture_that_is_not_blank(path, tmp_path):
    out = tmp_path / f"{path.stem}.png"
    assert main(["render", str(path), "-o", str(out), "--size", "320", "240"]) == 0
    import pyvista as pv

    image = pv.read(str(out))
    pixels = np.asarray(image.point_data.active_scalars, dtype=float)
    assert pixels.shape[0] == 320 * 240
    assert pixels.std() > 5  # a blank image has std 0; a drawn scene has well over 5
