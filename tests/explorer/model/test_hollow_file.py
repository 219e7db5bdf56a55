"""``"hollow": true`` on spheres and aabbs (docs/scene-v1.md, project extensions; GTCG
§11.12.8) and the ``contains`` key in `explorer eval`."""

from __future__ import annotations

import json
import math

import pytest

from explorer.cli import main
from explorer.model.scenefile import SceneError, dumps, loads

DOC = {"format": "intersection-explorer-scene", "version": 1, "objects": [
    {"id": "H", "type": "sphere", "center": [0, 0, 0], "radius": 3, "hollow": True},
    {"id": "B", "type": "aabb", "min": [-1, -1, -1], "max": [1, 1, 1]}]}


def test_a_box_strictly_inside_a_hollow_sphere_does_not_intersect_it(tmp_path, capsys):
    path = tmp_path / "hollow.json"
    path.write_text(json.dumps(DOC))
    assert main(["eval", str(path)]) == 0
    (r,) = json.loads(capsys.readouterr().out)["results"]
    assert r["intersects"] is False
    assert r["distance"] == pytest.approx(3 - math.sqrt(3))  # the farthest corner at sqrt(3)
    assert r["contains"] == "none"  # a surface holds no solid
    solid = dict(DOC, objects=[dict(DOC["objects"][0], hollow=False), DOC["objects"][1]])
    path.write_text(json.dumps(solid))
    assert main(["eval", str(path)]) == 0
    (r,) = json.loads(capsys.readouterr().out)["results"]
    assert r["intersects"] is True and r["contains"] == "a"


def test_hollow_round_trip_and_refusals():
    scene = loads(json.dumps(DOC))
    assert scene["H"].hollow and not scene["B"].hollow
    again = json.loads(dumps(scene))
    assert again["objects"][0]["hollow"] is True and "hollow" not in again["objects"][1]
    bad = dict(DOC, objects=[{"id": "P", "type": "point", "position": [0, 0, 0], "hollow": True}])
    with pytest.raises(SceneError, match="object 'P' \\(point\\): field 'hollow': only a sphere"):
        loads(json.dumps(bad))
    bad = dict(DOC, objects=[dict(DOC["objects"][0], hollow="yes")])
    with pytest.raises(SceneError, match="field 'hollow': must be true or false"):
        loads(json.dumps(bad))
