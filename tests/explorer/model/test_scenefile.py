"""scene-v1 files: every refusal rule of the spec, the round trip, atomic saves, `explorer eval`.

The model and the file code have no Qt; these tests never start a window.
"""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from explorer.cli import main
from explorer.model import documents
from explorer.model.scene import Scene, SceneObject
from explorer.model.scenefile import SceneError, dumps, load, loads, save

ROOT = Path(__file__).resolve().parents[3]


def doc(*objects, **top):
    d = {"format": "intersection-explorer-scene", "version": 1, "name": "t",
         "objects": list(objects)}
    d.update(top)
    return d


SPHERE = {"id": "S", "type": "sphere", "center": [0, 0, 0], "radius": 1}
SEG = {"id": "G", "type": "segment", "p0": [0, 0, 0], "p1": [1, 0, 0]}


def refusal(text_or_doc) -> str:
    text = text_or_doc if isinstance(text_or_doc, str) else json.dumps(text_or_doc)
    with pytest.raises(SceneError) as info:
        loads(text)
    message = str(info.value)
    assert "\n" not in message and "Traceback" not in message
    return message


# Each row: (what the spec forbids, the file text, words the message must contain)
BAD = [
    ("bad JSON", '{"format": ', ["not valid JSON", "line 1"]),
    ("top level not an object", "[1, 2]", ["top level", "JSON object"]),
    ("wrong format", json.dumps(doc(format="other")), ["format", "other"]),
    ("version 2", json.dumps(doc(version=2)), ["version", "integer 1", "2"]),
    ("version 1.0 is not the integer 1", '{"format": "intersection-explorer-scene", '
     '"version": 1.0, "objects": []}', ["version", "1.0"]),
    ("version as string", json.dumps(doc(version="1")), ["version", '"1"']),
    ("objects not a list", json.dumps(doc() | {"objects": {"a": 1}}), ["objects", "list"]),
    ("unknown type", json.dumps(doc({"id": "X", "type": "torus"})), ["'X'", "type", "torus"]),
    ("missing field", json.dumps(doc({"id": "S", "type": "sphere", "center": [0, 0, 0]})),
     ["'S'", "radius", "missing"]),
    ("string for a number", json.dumps(doc(SPHERE | {"radius": "1"})),
     ["'S'", "radius", "number", '"1"']),
    ("true for a number", json.dumps(doc(SPHERE | {"radius": True})), ["'S'", "radius", "true"]),
    ("vector of the wrong length", json.dumps(doc(SPHERE | {"center": [0, 0]})),
     ["'S'", "center", "3 numbers"]),
    ("bool inside a vector", json.dumps(doc(SPHERE | {"center": [0, True, 0]})),
     ["'S'", "center"]),
    ("id not a string", json.dumps(doc(SPHERE | {"id": 7})), ["objects[0]", "id", "string"]),
    ("NaN", '{"format": "intersection-explorer-scene", "version": 1, "objects": '
     '[{"id": "S", "type": "sphere", "center": [0, NaN, 0], "radius": 1}]}',
     ["'S'", "center[1]", "finite", "NaN"]),
    ("Infinity", '{"format": "intersection-explorer-scene", "version": 1, "objects": '
     '[{"id": "S", "type": "sphere", "center": [0, 0, 0], "radius": Infinity}]}',
     ["'S'", "radius", "finite", "Infinity"]),
    ("overflowing literal", '{"format": "intersection-explorer-scene", "version": 1, '
     '"objects": [{"id": "S", "type": "sphere", "center": [0, 0, 0], "radius": 1e999}]}',
     ["'S'", "radius", "finite"]),
    ("negative radius", json.dumps(doc(SPHERE | {"radius": -0.5})),
     ["'S'", "radius", ">= 0", "-0.5"]),
    ("negative height", json.dumps(doc({"id": "C", "type": "cylinder", "center": [0, 0, 0],
                                         "axis": [0, 0, 1], "radius": 1, "height": -2})),
     ["'C'", "height", ">= 0"]),
    ("negative extent", json.dumps(doc({"id": "B", "type": "obb", "center": [0, 0, 0],
                                         "axes": [[1, 0, 0], [0, 1, 0], [0, 0, 1]],
                                         "extents": [1, -1, 1]})),
     ["'B'", "extents[1]", ">= 0"]),
    ("min > max", json.dumps(doc({"id": "A", "type": "aabb", "min": [0, 2, 0],
                                   "max": [1, 1, 1]})), ["'A'", "min[1]", "max[1]"]),
    ("zero direction", json.dumps(doc({"id": "R", "type": "ray", "origin": [0, 0, 0],
                                        "direction": [0, 0, 0]})),
     ["'R'", "direction", "nonzero"]),
    ("-0.0 normal is zero", '{"format": "intersection-explorer-scene", "version": 1, '
     '"objects": [{"id": "P", "type": "plane", "normal": [-0.0, 0, -0.0], "d": 1}]}',
     ["'P'", "normal", "nonzero"]),
    ("zero axis", json.dumps(doc({"id": "C", "type": "cylinder", "center": [0, 0, 0],
                                   "axis": [0, 0, 0], "radius": 1, "height": 1})),
     ["'C'", "axis", "nonzero"]),
    ("axes not orthonormal", json.dumps(doc({"id": "B", "type": "obb", "center": [0, 0, 0],
                                              "axes": [[1, 0, 0], [0, 1, 0], [0, 0.1, 1]],
                                              "extents": [1, 1, 1]})),
     ["'B'", "axes", "orthonormal"]),
    ("duplicate id", json.dumps(doc(SPHERE, SPHERE)), ["'S'", "duplicate"]),
    ("query names a missing id", json.dumps(doc(SPHERE, SEG, queries=[{"a": "S", "b": "Z"}])),
     ["queries[0]", "'Z'"]),
    ("query names the same object twice",
     json.dumps(doc(SPHERE, SEG, queries=[{"a": "S", "b": "S"}])), ["queries[0]", "'S'"]),
    ("object not a dict", json.dumps(doc(5)), ["objects[0]"]),
]


@pytest.mark.parametrize("what,text,words", BAD, ids=[b[0] for b in BAD])
def test_each_rule_refuses_with_a_message_naming_object_and_field(what, text, words):
    message = refusal(text)
    for w in words:
        assert w in message, f"{what}: {w!r} not in {message!r}"


@pytest.mark.parametrize("what,text,words", BAD[::4], ids=[b[0] for b in BAD[::4]])
def test_eval_exits_2_with_one_line_and_no_traceback(tmp_path, capsys, what, text, words):
    f = tmp_path / "bad.json"
    f.write_text(text)
    assert main(["eval", str(f)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert str(f) in err


def test_eval_on_a_missing_file_exits_2(tmp_path, capsys):
    assert main(["eval", str(tmp_path / "nope.json")]) == 2
    assert "no such file" in capsys.readouterr().err


def test_near_orthonormal_axes_within_1e6_are_accepted():
    s = 1e-7  # each row perturbed by 1e-7: dot products off by about 1e-7 < 1e-6
    scene = loads(json.dumps(doc({"id": "B", "type": "obb", "center": [0, 0, 0],
                                  "axes": [[1, s, 0], [0, 1, 0], [0, 0, 1]],
                                  "extents": [1, 0, 1]})))
    assert scene["B"].primitive.extents == (1.0, 0.0, 1.0)


def test_degenerate_valid_shapes_are_accepted():
    scene = loads(json.dumps(doc(
        {"id": "Z", "type": "segment", "p0": [1, 1, 1], "p1": [1, 1, 1]},
        {"id": "R0", "type": "sphere", "center": [0, 0, 0], "radius": 0},
        {"id": "F", "type": "aabb", "min": [0, 0, 0], "max": [1, 0, 1]},
        {"id": "T", "type": "triangle", "vertices": [[0, 0, 0], [1, 1, 1], [2, 2, 2]]},
        {"id": "C", "type": "cylinder", "center": [0, 0, 0], "axis": [0, 0, 2], "radius": 0,
         "height": 0},
    )))
    assert len(scene) == 5


def test_round_trip_keeps_everything_including_unknown_keys(tmp_path):
    original = doc(
        SPHERE | {"label": "ball", "color": "#ff0000", "motion": [0, -3, 0], "mass": 2.5,
                  "tags": ["a", {"b": 1}]},
        SEG | {"color": [10, 20, 30]},
        queries=[{"a": "G", "b": "S"}], view={"camera": [1, 2, 3]}, author="me",
        extra_section={"nested": [1, 2]},
    )
    first = loads(json.dumps(original))
    path = tmp_path / "s.json"
    save(first, path)
    second = load(path)
    assert dumps(first) == dumps(second)
    written = json.loads(path.read_text())
    assert written["author"] == "me" and written["extra_section"] == {"nested": [1, 2]}
    s = next(o for o in written["objects"] if o["id"] == "S")
    assert s["mass"] == 2.5 and s["tags"] == ["a", {"b": 1}] and s["motion"] == [0, -3, 0]
    assert written["queries"] == [{"a": "G", "b": "S"}]
    assert written["view"] == {"camera": [1, 2, 3]}


def test_missing_queries_means_every_pair_in_file_order_and_empty_means_none():
    c = SPHERE | {"id": "C"}
    scene = loads(json.dumps(doc(SPHERE, SEG, c)))
    assert scene.pairs() == [("S", "G"), ("S", "C"), ("G", "C")]
    assert loads(json.dumps(doc(SPHERE, SEG, queries=[]))).pairs() == []


def test_a_crash_during_save_leaves_the_old_file_intact(tmp_path, monkeypatch):
    path = tmp_path / "scene.json"
    scene = loads(json.dumps(doc(SPHERE)))
    save(scene, path)
    before = path.read_bytes()
    scene.add(SceneObject("G", loads(json.dumps(doc(SEG)))["G"].primitive))

    def crash(fd):  # simulate the machine dying between writing and renaming
        raise OSError("disk on fire")

    monkeypatch.setattr(documents, "_fsync", crash)
    with pytest.raises(OSError):
        save(scene, path)
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["scene.json"]  # no temp file left


def test_save_of_an_unserialisable_scene_never_touches_the_disk(tmp_path):
    path = tmp_path / "scene.json"
    scene = loads(json.dumps(doc(SPHERE)))
    save(scene, path)
    before = path.read_bytes()
    scene.extra["bad"] = float("nan")  # allow_nan=False refuses it before any write
    with pytest.raises(ValueError):
        save(scene, path)
    assert path.read_bytes() == before


def test_eval_prints_the_spec_shape(tmp_path):
    f = tmp_path / "s.json"
    f.write_text(json.dumps(doc(SEG, SPHERE | {"center": [0.5, 2, 0], "radius": 0.5,
                                               "motion": [0, -3, 0]})))
    out = subprocess.run([sys.executable, "-m", "explorer", "eval", str(f)], cwd=ROOT,
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    results = json.loads(out.stdout)["results"]
    assert len(results) == 1
    r = results[0]
    assert (r["a"], r["b"], r["pair"]) == ("G", "S", "segment-sphere")
    for key in ("intersects", "distance", "closest", "first_t", "separating_axis", "side",
                "toi", "method", "trace"):
        assert key in r


def test_scene_signals_report_changes():
    from algorithms import Point, Sphere

    scene = Scene()
    log = []
    scene.object_added.connect(lambda o: log.append(("add", o.id)))
    scene.object_changed.connect(lambda o, f: log.append(("change", o.id, sorted(f))))
    scene.object_removed.connect(lambda o: log.append(("remove", o.id)))
    scene.add(Sphere((0, 0, 0), 1))
    scene.add(Point((1, 2, 3)))
    scene.update("sphere1", primitive=Sphere((0, 0, 1), 1), label="ball")
    scene.update("sphere1", label="ball")  # no real change: no event
    scene.remove("point1")
    assert log == [("add", "sphere1"), ("add", "point1"),
                   ("change", "sphere1", ["label", "primitive"]), ("remove", "point1")]


def test_the_specs_own_example_gives_the_specs_numbers(tmp_path, capsys):
    # scene-v1.md's example: segment (0,0,0)-(1,0,0) and a sphere of radius 0.5 at (0.5, 2, 0)
    # moving by (0, -3, 0). The nearest segment point is (0.5, 0, 0), 2 from the centre, so
    # distance = 2 - 0.5 = 1.5 with closest points (0.5,0,0) and (0.5,1.5,0); the axis is +y.
    # Moving, the gap 1.5 closes at speed 3: toi = 0.5. The segment never touches the
    # still sphere: first_t is null; no plane: side is null.
    f = tmp_path / "spec.json"
    f.write_text(json.dumps(doc(
        {"id": "A", "type": "segment", "p0": [0, 0, 0], "p1": [1, 0, 0]},
        {"id": "B", "type": "sphere", "center": [0.5, 2, 0], "radius": 0.5,
         "motion": [0, -3, 0]}, queries=[{"a": "A", "b": "B"}], view={})))
    assert main(["eval", str(f)]) == 0
    r = json.loads(capsys.readouterr().out)["results"][0]
    assert r["pair"] == "segment-sphere" and r["intersects"] is False
    assert r["distance"] == pytest.approx(1.5, abs=1e-12)
    assert r["closest"] == [pytest.approx([0.5, 0, 0], abs=1e-12),
                            pytest.approx([0.5, 1.5, 0], abs=1e-12)]
    assert r["first_t"] is None and r["side"] is None
    assert [abs(c) for c in r["separating_axis"]] == pytest.approx([0, 1, 0], abs=1e-12)
    assert r["toi"] == pytest.approx(0.5, abs=1e-9)


def test_eval_cross_check_reports_every_method_and_agreement(capsys):
    # scenes/moving.json: S1 (r 0.5 at x=-3, moving +6 in x) against S2 (r 0.7 at (2, 0.3)):
    # the Primer's A.13 answer and the generic methods must give the same time of impact.
    from explorer import SCENES_DIR

    assert main(["eval", str(SCENES_DIR / "moving.json"), "--cross-check"]) == 0
    results = json.loads(capsys.readouterr().out)["results"]
    first = results[0]
    names = [m["name"] for m in first["cross_check"]["toi"]["methods"]]
    assert names[0] == "primer_a13_moving_spheres" and "conservative_advancement" in names
    assert all(r["cross_check"][q]["agree"] for r in results for q in r["cross_check"])


@pytest.mark.parametrize("query,message", [
    # two-key queries skip the general checks only when nothing can be wrong with them
    ({"a": "S", "b": "S"}, "queries[1]: 'a' and 'b' both name 'S'"),
    ({"a": "S", "b": "Z"}, "queries[1]: field 'b': no object with id 'Z'"),
    ({"a": "S", "c": "G"}, "queries[1]: must be an object with 'a' and 'b'"),
    ({"a": 1, "b": "G"}, "queries[1]: field 'a': must be an object id (a string), got 1"),
    ({"a": "S", "b": ["G"]}, "queries[1]: field 'b': must be an object id (a string)"),
])
def test_a_bad_two_key_query_gets_its_message(query, message):
    text = json.dumps(doc(SPHERE, SEG, queries=[{"a": "G", "b": "S"}, query]))
    with pytest.raises(SceneError) as err:
        loads(text)
    assert str(err.value).startswith(message)


def test_good_queries_load_in_order_with_repeats_and_extra_keys():
    # the common two-key form, a repeat, the other order, and one with an extra key (kept
    # out of the pair, checked for NaN as before)
    qs = [{"a": "S", "b": "G"}, {"a": "G", "b": "S"}, {"a": "S", "b": "G"},
          {"a": "G", "b": "S", "note": "x"}]
    scene = loads(json.dumps(doc(SPHERE, SEG, queries=qs)))
    assert scene.queries == [("S", "G"), ("G", "S"), ("S", "G"), ("G", "S")]
    with pytest.raises(SceneError, match=r"queries\[0\]: field 'note': number must be finite"):
        loads(json.dumps(doc(SPHERE, SEG, queries=[{"a": "S", "b": "G", "note": 1e999}]))
              .replace("Infinity", "NaN"))
