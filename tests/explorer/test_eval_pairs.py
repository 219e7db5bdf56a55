"""``explorer eval`` evaluates a pair asked in both orders in one analysis (issue 12, part 4):
``(a, b)`` and ``(b, a)`` share the calls of the library's query functions
(:func:`algorithms.core.once.carry`), and every text is the one each query gives alone."""

import itertools
import json

import pytest

from algorithms import generic, registry
from algorithms.core import once
from algorithms.report import result_text
from explorer import cli
from explorer.benchmarks import mixed_scene
from explorer.cli import partners
from explorer.model.scenefile import load
from tests.explorer.test_eval_parallel import run_eval, whole

registry.load_all()


def test_once_call_runs_once_per_argument_pair_in_a_scope_and_a_carry():
    calls = []

    def f(a, b):
        calls.append((a, b))
        return [a, b]

    x, y = object(), object()
    assert once.call(f, x, y) == [x, y] and once.call(f, x, y) == [x, y]
    assert len(calls) == 2  # outside every scope: each call computes
    token = once.begin()
    try:
        first = once.call(f, x, y)
        assert once.call(f, x, y) is first and len(calls) == 3
        once.call(f, y, x)  # the other order is another call
        assert len(calls) == 4
    finally:
        once.end(token)
    with once.carry():  # two scopes opened in one carry share their memo
        for _ in range(2):
            token = once.begin()
            try:
                once.call(f, x, y)
            finally:
                once.end(token)
    assert len(calls) == 5
    token = once.begin()  # the carry is closed: a fresh memo
    try:
        once.call(f, x, y)
    finally:
        once.end(token)
    assert len(calls) == 6


def _all_kinds():
    """One object of each of the eleven types, near each other, the sphere and the box
    moving: every ordered pair of kinds (121), 40 of them with a motion."""
    return {"format": "intersection-explorer-scene", "version": 1, "objects": [
        {"id": "P", "type": "point", "position": [0.3, -0.2, 0.1]},
        {"id": "G", "type": "segment", "p0": [-1, 0.5, 0], "p1": [1.2, 0.7, 0.4]},
        {"id": "R", "type": "ray", "origin": [-3, 0.1, 0.2], "direction": [1, 0.05, -0.02]},
        {"id": "L", "type": "line", "origin": [0, -2, 0.3], "direction": [0.2, 1, 0.1]},
        {"id": "N", "type": "plane", "normal": [0, 0.3, 1], "d": 0.4},
        {"id": "T", "type": "triangle", "vertices": [[1, 1, 1], [2, 1, 1.5], [1.5, 2, 0.5]]},
        {"id": "S", "type": "sphere", "center": [2.5, -1, 0], "radius": 0.6,
         "motion": [-2, 1, 0.5]},
        {"id": "B", "type": "aabb", "min": [-2, -2, -2], "max": [-1.2, -1.1, -0.9],
         "motion": [1.5, 1.2, 0.7]},
        {"id": "O", "type": "obb", "center": [0, 2, -1], "axes": [[0.6, 0.8, 0], [-0.8, 0.6, 0],
                                                                    [0, 0, 1]],
         "extents": [0.5, 0.3, 0.4]},
        {"id": "C", "type": "cylinder", "center": [-2, 1.5, 1], "axis": [0.3, 0.1, 1],
         "radius": 0.4, "height": 1.2},
        {"id": "K", "type": "capsule", "p0": [1, -2, 1], "p1": [2, -1.5, 2], "radius": 0.3}]}


def test_every_kind_pair_in_both_orders_in_one_analysis_is_as_computed_alone():
    # the 121 ordered pairs of the eleven types: (a, b) then (b, a) in one carry give the
    # texts each gives alone, byte for byte (the answers, traces and methods unchanged)
    from explorer.model.scenefile import from_document

    scene = from_document(_all_kinds())
    ids = scene.ids()
    assert len(ids) == 11
    for a, b in itertools.combinations(ids, 2):
        alone = (result_text(scene.answer(a, b)), result_text(scene.answer(b, a)))
        with once.carry():
            together = (result_text(scene.answer(a, b)), result_text(scene.answer(b, a)))
        assert together == alone, (a, b)
    for a in ids:  # and the same object twice is no pair: nothing to share, nothing broken
        assert scene[a].primitive is scene[a].primitive


def test_a_flipped_query_and_its_reverse_are_one_call(monkeypatch):
    # GJK is registered for (obb, cylinder) only: the query (cylinder, obb) is GJK on
    # (obb, cylinder) flipped; in one carry the pair asked both ways runs it once, alone twice
    from explorer.model.scenefile import from_document

    calls = []
    real = generic.gjk_distance.gjk_distance

    def counted(a, b, *args, **kwargs):
        calls.append((a.kind, b.kind))
        return real(a, b, *args, **kwargs)

    monkeypatch.setattr(generic.gjk_distance, "gjk_distance", counted)
    scene = from_document(_all_kinds())
    alone = (result_text(scene.answer("C", "O")), result_text(scene.answer("O", "C")))
    assert calls == [("obb", "cylinder")] * 2
    calls.clear()
    with once.carry():
        together = (result_text(scene.answer("C", "O")), result_text(scene.answer("O", "C")))
    assert calls == [("obb", "cylinder")]
    assert together == alone
    assert json.loads(alone[0])["method"].startswith("GJK distance")


def test_partners_are_the_reverses_asked_later_within_the_window(monkeypatch):
    asked = [("A", "B"), ("C", "D"), ("B", "A"), ("A", "B"), ("D", "E"), ("E", "D"),
             ("P", "Q", "R"), ("Q", "P"), ("F", "G")]
    # (A, B) first at 0, (B, A) at 2; (D, E) at 4, (E, D) at 5; (C, D) has no reverse;
    # (Q, P) is no reverse of a three-planes query
    assert partners(asked, (False, False, False)) == {("A", "B"): ("B", "A"),
                                                       ("D", "E"): ("E", "D")}
    assert partners(asked, (False, False, True)) == {}  # --exact: each alone
    assert partners(asked, (True, False, False)) == {}  # --cross-check
    monkeypatch.setattr(cli, "PAIR_WINDOW", 1)  # (B, A) is 2 after (A, B): too far now
    assert partners(asked, (False, False, False)) == {("D", "E"): ("E", "D")}


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_mixed_scene_with_reverses_is_byte_identical_to_each_query_alone(
        tmp_path, capsys, monkeypatch, jobs):
    # the bench's generator: 40 objects of every type (some moving), 600 random queries:
    # many asked in both orders; in one process and in chunks of 9 over 2 workers (a pair
    # may be cut by a chunk's end: then each half is alone) the bytes are eval_document's
    doc = mixed_scene(600, objects=40, seed=21)
    f = tmp_path / "mixed.json"
    f.write_text(json.dumps(doc))
    asked = [(q["a"], q["b"]) for q in doc["queries"]]
    assert len(partners(asked, (False, False, False))) > 80
    monkeypatch.setattr(cli, "CHUNK", 9)
    assert run_eval(capsys, f, "--jobs", jobs) == whole(f)


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_the_pairs_save_calls(tmp_path, capsys, monkeypatch, jobs):
    # the GJK distance calls of the mixed scene (forked workers too: each writes a line to a
    # log): fewer with the pairs than with PAIR_WINDOW = 0 (every query alone), same bytes
    doc = mixed_scene(300, objects=24, seed=8)
    f = tmp_path / "mixed.json"
    f.write_text(json.dumps(doc))
    log = tmp_path / "calls.log"
    real = generic.gjk_distance.gjk_distance

    def logged(a, b, *args, **kwargs):
        with open(log, "a") as out:
            out.write("call\n")
        return real(a, b, *args, **kwargs)

    monkeypatch.setattr(generic.gjk_distance, "gjk_distance", logged)
    monkeypatch.setattr(cli, "CHUNK", 11)
    paired = run_eval(capsys, f, "--jobs", jobs)
    with_pairs = len(log.read_text().split())
    log.write_text("")
    monkeypatch.setattr(cli, "PAIR_WINDOW", 0)
    alone = run_eval(capsys, f, "--jobs", jobs)
    without = len(log.read_text().split())
    assert paired == alone
    assert 0 < with_pairs < without


def test_the_reused_c_encoder_writes_what_json_encoder_encode_writes(tmp_path):
    # every result of a mixed scene (traces with numpy arrays and records for the default
    # hook, hollow errors) and a few edge values: report.encode (the C encoder made once)
    # against report.encode_careful (JSONEncoder.encode, making it per call) and json.dumps
    import math

    import numpy as np

    from algorithms import report
    from algorithms.results import to_jsonable

    doc = mixed_scene(300, objects=30, seed=4)
    doc["objects"][6]["hollow"] = True
    f = tmp_path / "mixed.json"
    f.write_text(json.dumps(doc))
    scene = load(f)
    seen = 0
    for a, b in dict.fromkeys(scene.query_list()):
        ans = scene.answer(a, b)
        out = report.result_fields(ans)
        out["trace"] = report.trace_of(ans)
        try:
            careful = report.encode_careful(out)
        except ValueError:  # a non-finite float: both refuse it
            with pytest.raises(ValueError):
                report.encode(out)
            continue
        assert report.encode(out) == careful == json.dumps(to_jsonable(out), allow_nan=False)
        seen += 1
    assert seen > 200
    odd = {"x": [0.1, -0.0, 1e300, 5e-324, 1 / 3], "s": "é\n\"", "n": None, "t": True,
           "i": 2 ** 70, "a": np.array([1.5, 2.0]), "f": np.float64(0.25), "tu": (1, 2.5)}
    assert report.encode(odd) == report.encode_careful(odd)
    assert report.encode(odd) == ('{"x": [0.1, -0.0, 1e+300, 5e-324, 0.3333333333333333], '
                                  '"s": "\\u00e9\\n\\"", "n": null, "t": true, '
                                  '"i": 1180591620717411303424, "a": [1.5, 2.0], "f": 0.25, '
                                  '"tu": [1, 2.5]}')
    for bad in (math.nan, math.inf, -math.inf):
        with pytest.raises(ValueError):
            report.encode({"v": [bad]})


def test_a_chunk_does_not_cut_a_pair_from_its_reverse(monkeypatch):
    # sizes 2, 2, 2 ... (CHUNK 2): (A, B) is the 2nd query, its reverse pulled right after it
    # by _partners_after, so the first chunk takes 3 and the pair stays together
    asked = [("X", "Y"), ("A", "B"), ("C", "D"), ("B", "A"), ("E", "F")]
    pairs = partners(asked, (False, False, False))
    assert pairs == {("A", "B"): ("B", "A")}
    order = list(cli._partners_after(iter(dict.fromkeys(asked)), pairs))
    assert order == [("X", "Y"), ("A", "B"), ("B", "A"), ("C", "D"), ("E", "F")]
    kept: list = []
    monkeypatch.setattr(cli, "_chunk_sizes", lambda total, jobs: itertools.repeat(2))
    chunks = list(cli._chunks(iter(order), 5, 2, kept, pairs))
    assert chunks == [[("X", "Y"), ("A", "B"), ("B", "A")], [("C", "D"), ("E", "F")]]
    assert kept == chunks
