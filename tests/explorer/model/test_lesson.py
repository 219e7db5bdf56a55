"""Lessons (issue 13, part 5): the file format, the shipped lessons and their checked answers.

Every shipped question's stored answer is compared twice: with a value derived by hand here
(the comment says how) and with what the library answers for the lesson's scene.
"""

from __future__ import annotations

import json
import math

import pytest

from explorer import LESSONS_DIR, SCENES_DIR, is_shipped
from explorer.model import lesson as lm
from explorer.model.scenefile import SceneError, dumps, load, loads

LESSONS = sorted(LESSONS_DIR.glob("*.json"))

#: (lesson file stem, step number) -> the answer derived by hand
HAND = {
    # A (-1,0,0)-(1,0,0) and B (0,-1,1)-(0,1,1) cross one above the other: midpoints 1 apart
    ("01_segment_distance", 1): 1.0,
    # s_bar = t_bar = 1/2 lies inside the unit square
    ("01_segment_distance", 2): 0,
    # s clamps to 1: (1,0,0) vs (2,0,1): sqrt(1 + 1)
    ("01_segment_distance", 3): math.sqrt(2),
    # s_bar = 1.5 > 1, t_bar = -1 < 0: region 8 (Eberly Fig. 10.35)
    ("01_segment_distance", 4): 8,
    # E starts at (-0.5, 1, 0); its foot on A is x = -0.5: s = (-0.5 + 1) / 2
    ("01_segment_distance", 5): 0.25,
    # (-0.8 - (-3)) / 1
    ("02_ray_box_woo", 1): 2.2,
    # candidates min x 2.2, min y (-0.8 + 1.2) / 0.45 = 0.889, max z (1.2 - 1.4) / -0.3 = 0.667
    ("02_ray_box_woo", 2): "min x",
    ("02_ray_box_woo", 3): 2.2,
    # y = 2 + 0.2 t > 0.8 for every t >= 0
    ("02_ray_box_woo", 4): False,
    # e = c - p0 = (3, -0.5, 0), d = (1, 0, 0): a = e . d = 3
    ("03_ray_sphere_triangle", 1): 3.0,
    # b^2 = e^2 - a^2 = 9.25 - 9, f = sqrt(1 - 0.25): t = 3 - sqrt(0.75)
    ("03_ray_sphere_triangle", 2): 3 - math.sqrt(0.75),
    # the triangle lies in x = 0; the ray starts at x = -3 with d_x = 1
    ("03_ray_sphere_triangle", 3): 3.0,
    # the hit (0, 0.2, 3.2): z = 2 + 2 beta
    ("03_ray_sphere_triangle", 4): 0.6,
    # x intervals [0, 1] and [1.5, 2.5]
    ("04_sat_boxes", 1): False,
    ("04_sat_boxes", 2): 0.5,
    # P's x extent 1 cos 45 + 0.5 sin 45 = 1.061 < 1.4 (Q's min x)
    ("04_sat_boxes", 3): False,
    # c = (2, 2, 0) against [-1, 1]^3: 1^2 + 1^2 + 0
    ("05_sphere_box_arvo", 1): 2.0,
    ("05_sphere_box_arvo", 2): math.sqrt(2) - 1,
    # d^2 = (2 - 1)^2 = 1 = r^2: touching
    ("05_sphere_box_arvo", 3): True,
    # centre 1.5 from the axis, minus 0.5 + 0.5
    ("06_cylinders_capsules", 1): 0.5,
    # axes 2 apart, radii 0.5 each
    ("06_cylinders_capsules", 2): 1.0,
    # the top disk at z = 1, the lid's bottom at 2 - 0.5
    ("06_cylinders_capsules", 3): 0.5,
    # centres 5 apart close to 2 at speed 4: (5 - 2) / 4
    ("07_moving_objects", 1): 0.75,
    # the centre's height 3 - 4 t reaches r = 1
    ("07_moving_objects", 2): 0.5,
    # the x gap 3 - 1 = 2 closes at speed 3
    ("07_moving_objects", 3): 2 / 3,
    # the max corner (1, 1, 1): 1 + 1 + 1
    ("08_planes_bounding_volumes", 1): 3.0,
    # maxD = 3 < d = 4: behind
    ("08_planes_bounding_volumes", 2): -1,
    # |v| = 0.5 <= r = 1: IN_BOTH
    ("08_planes_bounding_volumes", 3): 0,
    # n1 x n2 = (1,1,1) x (0,0,1) = (1,-1,0); . (1,-1,0) = 2
    ("08_planes_bounding_volumes", 4): 2.0,
    # z = 0, x = y, x + y + z = 4: (2, 2, 0)
    ("08_planes_bounding_volumes", 5): 2.0,
}


def questions():
    for path in LESSONS:
        scene = load(path)
        for i, step in enumerate(lm.lesson_of(scene).steps, start=1):
            if step.question is not None:
                yield path, scene, i, step.question


QUESTIONS = list(questions())


def test_at_least_eight_lessons_one_per_group_of_the_texts():
    assert len(LESSONS) >= 8
    pairs = set()
    for path in LESSONS:
        scene = load(path)
        lesson = lm.lesson_of(scene)
        assert lesson is not None and len(lesson.steps) >= 3, path.name
        for a, b in scene.pairs():
            pairs.add(frozenset((scene[a].kind, scene[b].kind)))
            moving = scene[a].motion is not None or scene[b].motion is not None
            if moving:
                pairs.add("moving")
    groups = {  # the groups and a pair each needs
        "segment distance": frozenset({"segment"}),
        "ray-box (Woo)": frozenset({"ray", "aabb"}),
        "ray-sphere": frozenset({"ray", "sphere"}),
        "ray-triangle": frozenset({"ray", "triangle"}),
        "separating axes for boxes": frozenset({"obb"}),
        "sphere-box (Arvo)": frozenset({"sphere", "aabb"}),
        "cylinders": frozenset({"cylinder"}),
        "capsules": frozenset({"capsule", "sphere"}),
        "moving objects": "moving",
        "planes and bounding volumes": frozenset({"plane", "aabb"}),
    }
    missing = [g for g, p in groups.items() if p not in pairs]
    assert not missing


def test_every_question_has_a_hand_derived_answer():
    assert {(p.stem, i) for p, _s, i, _q in QUESTIONS} == set(HAND)


@pytest.mark.parametrize("path,scene,i,q", QUESTIONS,
                         ids=[f"{p.stem}-{i}" for p, _s, i, _q in QUESTIONS])
def test_stored_answer_is_the_hand_value_and_the_librarys(path, scene, i, q):
    hand = HAND[(path.stem, i)]
    library = lm.library_answer(scene, q.check)
    if q.kind == "number":
        assert q.answer == pytest.approx(hand, abs=1e-12)
        assert library == pytest.approx(hand, abs=1e-9)
        assert lm.grade(q, q.answer, library).correct
        # a student off by more than the tolerance is told so
        assert not lm.grade(q, q.answer + 2 * q.tolerance + 1e-9, library).correct
    else:
        assert lm._same(q.answer, hand) and lm._same(library, hand), (q.answer, library)
        assert lm.grade(q, q.answer, library).correct
        wrong = next(c.value for c in q.choices if not lm._same(c.value, hand))
        assert not lm.grade(q, wrong, library).correct


def test_every_look_names_real_objects_and_a_known_camera():
    for path in LESSONS:
        scene = load(path)
        for step in lm.lesson_of(scene).steps:
            if step.look.pair:
                assert tuple(step.look.pair) in scene.pairs() or \
                    tuple(step.look.pair[::-1]) in scene.pairs(), (path.name, step.title)
            assert step.look.camera in (None, *lm.CAMERAS)


def test_a_lesson_is_a_version_1_scene_and_keeps_its_lesson_through_a_save():
    path = LESSONS[0]
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert doc["format"] == "intersection-explorer-scene" and doc["version"] == 1
    scene = load(path)
    again = loads(dumps(scene))
    assert again.extra["lesson"] == doc["lesson"]
    assert lm.lesson_of(again) == lm.lesson_of(scene)


def _doc(lesson, objects=None):
    return json.dumps({"format": "intersection-explorer-scene", "version": 1,
                       "objects": objects or [
                           {"id": "A", "type": "point", "position": [0, 0, 0]},
                           {"id": "B", "type": "sphere", "center": [2, 0, 0], "radius": 1}],
                       "lesson": lesson})


GOOD_STEP = {"title": "t", "text": "x"}


@pytest.mark.parametrize("lesson,message", [
    ([], "field 'lesson': must be an object"),
    ({"steps": [GOOD_STEP]}, "field 'lesson': field 'title': missing"),
    ({"title": "L", "steps": []}, "field 'steps': must be a non-empty list"),
    ({"title": "L", "steps": [{"text": "x"}]}, "lesson step 1: field 'title': missing"),
    ({"title": "L", "steps": [GOOD_STEP, {"title": "t", "text": 3}]},
     "lesson step 2: field 'text': must be a string, got 3"),
    ({"title": "L", "steps": [{**GOOD_STEP, "look": {"pair": ["A", "Z"]}}]},
     "lesson step 1: field 'look': field 'pair': no object with id 'Z'"),
    ({"title": "L", "steps": [{**GOOD_STEP, "look": {"camera": "below"}}]},
     "field 'camera': must be one of top, front, side, iso, got 'below'"),
    ({"title": "L", "steps": [{**GOOD_STEP, "look": {"time": 2}}]},
     "field 'time': must be a number in [0, 1], got 2"),
    ({"title": "L", "steps": [{**GOOD_STEP, "question": {"text": "q", "kind": "essay",
                                                          "answer": 1}}]},
     "field 'kind': must be \"number\" or \"choice\", got 'essay'"),
    ({"title": "L", "steps": [{**GOOD_STEP, "question": {"text": "q", "kind": "number",
                                                          "answer": "one"}}]},
     "field 'answer': must be a finite number for a number question, got \"one\""),
    ({"title": "L", "steps": [{**GOOD_STEP, "question": {
        "text": "q", "kind": "choice", "answer": 2,
        "choices": [{"label": "a", "value": 0}, {"label": "b", "value": 1}]}}]},
     "field 'answer': 2 is not one of the choices' values"),
    ({"title": "L", "steps": [{**GOOD_STEP, "question": {
        "text": "q", "kind": "number", "answer": 1, "check": {"a": "A", "key": "distance"}}}]},
     "field 'check': must name the query by 'a' and 'b'"),
])
def test_a_bad_lesson_is_refused_with_one_message_naming_step_and_field(lesson, message):
    with pytest.raises(SceneError) as info:
        loads(_doc(lesson))
    assert message in str(info.value)


def test_grading_numbers_and_choices():
    q = lm.Question("d?", "number", 1.0, tolerance=0.01)
    assert lm.grade(q, 1.005).correct          # within 0.01 of the stored 1.0
    assert not lm.grade(q, 1.02).correct
    assert lm.grade(q, 2.0, expected=2.0).correct  # graded against the live answer
    c = lm.Question("hit?", "choice", True,
                    choices=(lm.Choice("yes", True), lm.Choice("no", False)))
    assert lm.grade(c, True).correct
    assert not lm.grade(c, 1).correct          # 1 is not true: JSON types are kept apart
    assert lm.parse_given(" 0,25 ") == 0.25
    with pytest.raises(ValueError, match="not a number"):
        lm.parse_given("abc")


def test_read_key_names_what_is_missing():
    r = {"distance": 1.5, "trace": {"candidates": [{"t": 2.0}]}}
    assert lm.read_key(r, "trace.candidates.0.t") == 2.0
    with pytest.raises(KeyError, match="trace has no 'region'"):
        lm.read_key(r, "trace.region")


def test_shipped_scenes_and_lessons_are_read_only(tmp_path):
    assert is_shipped(SCENES_DIR / "welcome.json")
    assert is_shipped(LESSONS[0])
    assert not is_shipped(tmp_path / "mine.json")
