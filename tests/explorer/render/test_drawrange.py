"""The drawing range (issue 15 part 2): the render geometry of extreme-but-valid scenes
(coordinates 1e-300 .. 1e300) never warns; objects beyond the range are hidden and named.

Every check runs with ``warnings.simplefilter("error")``: a numpy RuntimeWarning (overflow,
invalid value) while drawing the objects, the floor, the camera frame, the grips or the overlay
frame is an exception here. Before, the GUI file tests printed ~70 such warnings
(explorer/render/view.py, overlays.py, explorer/model/drag.py).
"""

from __future__ import annotations

import json
import warnings

import numpy as np
import pytest
import pyvista as pv
from hypothesis import HealthCheck, given, settings
from tests.fuzz import examples

from algorithms.report import evaluate_json  # noqa: F401  (the answers are computed as usual)
from explorer.model import drag
from explorer.model.drawrange import DRAW_LIMIT, beyond_note, drawable
from explorer.model.scenefile import loads
from explorer.render import overlays
from explorer.render.view import SceneView, frame_bounds, primitive_geom, scene_extent
from tests.explorer.model.fuzz_scenefile import valid_document

HEAD = {"format": "intersection-explorer-scene", "version": 1}

#: hand-picked extremes, each of which warned (or drew nonsense) before
EXTREMES = {
    "sphere 1e300": [{"id": "S", "type": "sphere", "center": [1e300, 0, 0], "radius": 1},
                     {"id": "P", "type": "point", "position": [0, 0, 0]}],
    "huge sphere": [{"id": "S", "type": "sphere", "center": [0, 0, 0], "radius": 1e300},
                    {"id": "P", "type": "point", "position": [3, 0, 0]}],
    "tiny normal": [{"id": "N", "type": "plane", "normal": [0, 0, 1e-300], "d": 0},
                    {"id": "S", "type": "sphere", "center": [0, 0, 2], "radius": 1}],
    "huge normal": [{"id": "N", "type": "plane", "normal": [1e200, 1e200, 0], "d": 1e200},
                    {"id": "R", "type": "ray", "origin": [0, 0, 0], "direction": [1, 0, 0]}],
    "tiny direction": [{"id": "R", "type": "ray", "origin": [1, 0, 0],
                        "direction": [1e-300, 1e-300, 0]},
                       {"id": "L", "type": "line", "origin": [0, 0, 0],
                        "direction": [0, 1e300, 0]}],
    "cylinders 1e200": [{"id": "C", "type": "cylinder", "center": [1e200, 0, 0],
                         "axis": [0, 0, 1e200], "radius": 1e200, "height": 1e200},
                        {"id": "D", "type": "cylinder", "center": [0, 0, 0],
                         "axis": [0, 1, 0], "radius": 1, "height": 2}],
    "capsules 1e-300": [{"id": "K", "type": "capsule", "p0": [0, 0, 0], "p1": [1e-300, 0, 0],
                         "radius": 1e-300},
                        {"id": "T", "type": "triangle",
                         "vertices": [[0, 0, 0], [1e-300, 0, 0], [0, 1e-300, 0]]}],
    "segment 1e200 away": [{"id": "G", "type": "segment", "p0": [1e200, 0, 0],
                            "p1": [-1e200, 1e200, 0]},
                           {"id": "B", "type": "aabb", "min": [-1e308, -1, -1],
                            "max": [1e308, 1, 1]}],
    "obb 1e300": [{"id": "O", "type": "obb", "center": [0, -1e300, 0],
                   "extents": [1e300, 1, 1], "axes": [[1, 0, 0], [0, 1, 0], [0, 0, 1]]},
                  {"id": "S", "type": "sphere", "center": [0, 0, 0], "radius": 1}],
    "motion 1e300": [{"id": "S", "type": "sphere", "center": [0, 0, 0], "radius": 1,
                      "motion": [1e300, -1e300, 0]},
                     {"id": "P", "type": "point", "position": [3, 0, 0],
                      "motion": [4.9e-324, 0, 0]}],
}


def draw_everything(scene) -> SceneView:
    """Everything the window draws for a scene: the objects and floor (SceneView), the camera
    frame, every object's grips, the overlay frame of every pair with every overlay kind on,
    at t = 0 and t = 0.5."""
    plotter = pv.Plotter(off_screen=True)
    try:
        view = SceneView(plotter)
        view.set_scene(scene)
        frame_bounds(view)
        for o in scene.objects:
            frame_bounds(view, o.id)
            drag.handles(view.prim_of(o), view.ext.size, view.ext.center)
        ids = scene.ids()
        pairs = [(a, b) for i, a in enumerate(ids) for b in ids[i + 1:]]
        results = overlays.Evaluator().results(scene, pairs)
        ctx = overlays.Context(scene, view.ext, view.meshes, view.colors)
        frame = overlays.build(scene, results, ctx)
        view.apply_frame(frame)
        view.set_time(0.5)
        view.set_time(0.0)
        return view
    finally:
        plotter.close()


@pytest.mark.parametrize("name", sorted(EXTREMES))
def test_extreme_scenes_draw_without_a_warning(name):
    scene = loads(json.dumps({**HEAD, "objects": EXTREMES[name]}))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        view = draw_everything(scene)
    # whatever is drawn is within the drawing range, and the extent is finite
    assert np.all(np.isfinite(view.ext.center)) and np.isfinite(view.ext.size)
    for obj_id, mesh in view.meshes.items():
        assert drawable(mesh.points), obj_id
    # the objects beyond the range are the ones hidden, and the note names them
    for obj_id in view.beyond:
        assert not view.actors[obj_id].GetVisibility()
        assert repr(obj_id) in view.range_note()


def test_an_object_at_1e300_is_hidden_and_named_the_rest_drawn():
    scene = loads(json.dumps({**HEAD, "objects": EXTREMES["sphere 1e300"]}))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        view = draw_everything(scene)
    assert view.beyond == {"S"}
    assert view.actors["P"].GetVisibility() and not view.actors["S"].GetVisibility()
    assert view.range_note() == beyond_note(["S"])
    assert "1 object beyond drawing range" in view.range_note() and "'S'" in view.range_note()
    # the extent is the point's (the minimum size 4 around the origin), not 1e300
    assert view.ext.size == 4.0 and np.array_equal(view.ext.center, [0, 0, 0])


def test_an_object_moved_back_into_range_is_drawn_again():
    scene = loads(json.dumps({**HEAD, "objects": EXTREMES["sphere 1e300"]}))
    plotter = pv.Plotter(off_screen=True)
    try:
        view = SceneView(plotter)
        view.set_scene(scene)
        assert view.beyond == {"S"}
        scene.update("S", primitive=scene["S"].primitive._replace(center=(2.0, 0.0, 0.0)))
        assert view.beyond == set() and view.actors["S"].GetVisibility()
        assert view.range_note() == ""
    finally:
        plotter.close()


def test_geometry_within_the_range_is_unchanged():
    # a unit sphere at 1e14 (inside DRAW_LIMIT = 1e15) is drawn as it is
    from algorithms import Sphere

    ext = scene_extent([Sphere((1e14, 0, 0), 1.0)])
    g = primitive_geom(Sphere((1e14, 0, 0), 1.0), ext)
    assert not g.beyond and np.max(g.points[:, 0]) == pytest.approx(1e14 + 1, abs=0.1)
    g = primitive_geom(Sphere((2 * DRAW_LIMIT, 0, 0), 1.0), ext)
    assert g.beyond and np.max(np.abs(g.points)) <= DRAW_LIMIT


def test_fuzzed_valid_files_draw_without_a_warning():
    """The scene-file fuzzer's valid documents (coordinates 5e-324 .. 1.8e308, motions)."""
    tried = []

    @settings(max_examples=examples(40), derandomize=True, database=None, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(valid_document(max_objects=4))
    def one(doc):
        scene = loads(json.dumps(doc))
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            draw_everything(scene)
        tried.append(1)

    one()
    assert len(tried) >= 40


def test_the_suite_runs_the_drawing_code_with_runtime_warnings_as_errors():
    # pyproject.toml: filterwarnings "error::RuntimeWarning:explorer.render" (and .model): a
    # numpy overflow in a module of the drawing code fails the test that caused it
    code = compile("import numpy as np\nnp.float64(1e300) * 1e300", "drawing", "exec")
    for module in ("explorer.render.view", "explorer.model.drag"):
        with pytest.raises(RuntimeWarning, match="overflow"):
            exec(code, {"__name__": module})
