"""``report.result_text``: the JSON text ``explorer eval`` writes per result, the same bytes as
``json.dumps(result_json(answer))`` (issue 12, part 4)."""

import dataclasses
import json
import math
from pathlib import Path

import pytest

from algorithms import Point, Segment
from algorithms.evaluate import evaluate_pair
from algorithms.report import result_json, result_text
from explorer.model.scenefile import load

ROOT = Path(__file__).resolve().parents[2]
SCENES = sorted((ROOT / "scenes").glob("*.json"))


@pytest.mark.parametrize("path", SCENES, ids=lambda p: p.stem)
def test_result_text_is_json_dumps_of_result_json_on_every_shipped_scene(path):
    scene = load(path)
    pairs = [q for q in scene.query_list() if len(q) == 2]
    for a, b in pairs:
        answer = scene.answer(a, b)
        assert result_text(answer) == json.dumps(result_json(answer), allow_nan=False), (a, b)


def test_a_non_finite_value_is_written_null_as_result_json_has_it():
    # point (0,0,0) to segment (3,4,0)-(3,4,1): 5 (3-4-5 triangle); a NaN distance and an
    # infinite first_t put in by hand take the slow path and become null, as in result_json
    answer = evaluate_pair(Point((0, 0, 0)), Segment((3, 4, 0), (3, 4, 1)))
    assert json.loads(result_text(answer))["distance"] == 5.0
    odd = dataclasses.replace(answer, distance=math.nan, first_t=math.inf)
    text = result_text(odd)
    assert text == json.dumps(result_json(odd), allow_nan=False)
    assert json.loads(text)["distance"] is None and json.loads(text)["first_t"] is None
