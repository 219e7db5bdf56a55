"""Three-planes queries in scene files and `explorer eval` (issue 13, part 1; docs/scene-v1.md,
project extensions). The answers themselves: tests/algorithms/extras/test_three_planes_query.py."""

from __future__ import annotations

import json

import pytest

from explorer.cli import main
from explorer.model.scenefile import SceneError, dumps, loads

DOC = {"format": "intersection-explorer-scene", "version": 1, "objects": [
    {"id": "P", "type": "plane", "normal": [1, 0, 0], "d": 1},
    {"id": "Q", "type": "plane", "normal": [0, 1, 0], "d": 2},
    {"id": "R", "type": "plane", "normal": [0, 0, 1], "d": 3},
    {"id": "S", "type": "sphere", "center": [0, 0, 0], "radius": 1}]}


def test_explorer_eval_answers_a_three_planes_query_in_query_order(tmp_path, capsys):
    doc = dict(DOC, queries=[{"a": "P", "b": "S"}, {"a": "P", "b": "Q", "c": "R"},
                             {"a": "Q", "b": "S"}])
    path = tmp_path / "planes.json"
    path.write_text(json.dumps(doc))
    assert main(["eval", str(path)]) == 0
    out = json.loads(capsys.readouterr().out)["results"]
    assert [r["pair"] for r in out] == ["plane-sphere", "plane-plane-plane", "plane-sphere"]
    assert out[1]["point"] == [1, 2, 3] and out[1]["determinant"] == 1
    # the file's query order survives a save
    again = json.loads(dumps(loads(path.read_text())))
    assert again["queries"] == doc["queries"]


@pytest.mark.parametrize("query,message", [
    ({"a": "P", "b": "Q", "c": "S"}, "field 'c': a three-object query is three planes; "
                                     "'S' is a sphere"),
    ({"a": "P", "b": "Q", "c": "P"}, "must name three different planes"),
    ({"a": "P", "b": "Q", "c": "Z"}, "field 'c': no object with id 'Z'"),
    ({"a": "P", "b": "Q", "c": 3}, "field 'c': must be an object id"),
])
def test_bad_three_planes_queries_are_refused(query, message):
    with pytest.raises(SceneError, match=message.replace("(", r"\(")):
        loads(json.dumps(dict(DOC, queries=[query])))
