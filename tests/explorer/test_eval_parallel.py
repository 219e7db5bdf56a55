"""``explorer eval`` in more than one process and with repeated queries (issue 12, part 4):
the output is the same bytes as one process evaluating every query in turn."""

import json
from pathlib import Path

import pytest

from explorer import cli
from explorer.cli import eval_document, eval_jobs, main
from explorer.model.scenefile import load

ROOT = Path(__file__).resolve().parents[2]
HUNDRED = ROOT / "scenes" / "gui_hundred.json"


def whole(path) -> str:
    """What ``explorer eval`` must write: the document of every query evaluated in turn."""
    return json.dumps(eval_document(load(path)), allow_nan=False) + "\n"


def run_eval(capsys, *argv) -> str:
    assert main(["eval", *map(str, argv)]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    return out


def test_forced_parallel_output_is_byte_identical_to_one_process(capsys, monkeypatch):
    # 100 objects, 180 queries in chunks of 7: 26 tasks over 2 forked workers, results
    # arriving out of order between them; the written bytes are those of the serial run
    monkeypatch.setattr(cli, "CHUNK", 7)
    serial = run_eval(capsys, HUNDRED, "--jobs", "1")
    parallel = run_eval(capsys, HUNDRED, "--jobs", "2")
    assert parallel == serial == whole(HUNDRED)
    assert len(json.loads(parallel)["results"]) == len(load(HUNDRED).query_list())


def test_every_pair_of_a_scene_without_queries_in_parallel(tmp_path, capsys, monkeypatch):
    # 12 objects and no "queries": the 66 pairs of itertools.combinations, in 3 processes
    objs = [{"id": f"S{i}", "type": "sphere", "center": [1.5 * i, 0, 0], "radius": 1}
            for i in range(6)]
    objs += [{"id": f"G{i}", "type": "segment", "p0": [i, 1, -1], "p1": [i, -1, 1 + i]}
             for i in range(6)]
    f = tmp_path / "twelve.json"
    f.write_text(json.dumps({"format": "intersection-explorer-scene", "version": 1,
                             "objects": objs}))
    monkeypatch.setattr(cli, "CHUNK", 5)
    out = run_eval(capsys, f, "--jobs", "3")
    assert out == whole(f)
    assert len(json.loads(out)["results"]) == 66


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_repeated_query_is_written_each_time_it_is_asked(tmp_path, capsys, monkeypatch,
                                                           jobs):
    # (A, B) three times, (B, A) twice, (A, C) once, spread over chunks of 2: each result as
    # eval_document (which evaluates every query afresh) writes it, in the file's order
    doc = {"format": "intersection-explorer-scene", "version": 1, "objects": [
        {"id": "A", "type": "sphere", "center": [0, 0, 0], "radius": 1},
        {"id": "B", "type": "segment", "p0": [3, -1, 0], "p1": [3, 1, 0]},
        {"id": "C", "type": "aabb", "min": [-1, 2, -1], "max": [1, 3, 1]}],
        "queries": [{"a": a, "b": b} for a, b in
                    ["AB", "BA", "AB", "AC", "AB", "BA"]]}
    f = tmp_path / "again.json"
    f.write_text(json.dumps(doc))
    monkeypatch.setattr(cli, "CHUNK", 2)
    out = run_eval(capsys, f, "--jobs", jobs)
    assert out == whole(f)
    results = json.loads(out)["results"]
    assert [(r["a"], r["b"]) for r in results] == [tuple(p) for p in
                                                   ["AB", "BA", "AB", "AC", "AB", "BA"]]
    # sphere of radius 1 at the origin, segment on x = 3: 3 - 1 = 2 apart
    assert results[0]["distance"] == results[2]["distance"] == results[4]["distance"] == 2.0


def test_the_number_of_processes(monkeypatch):
    monkeypatch.setattr(cli, "_cores", lambda: 2)
    monkeypatch.setattr(cli, "_free_cores", lambda: 1.7)  # load average 0.3: a core free
    assert eval_jobs(cli.PARALLEL_MIN - 1) == 1  # a small scene: one process
    assert eval_jobs(cli.PARALLEL_MIN) == 2  # a large one: every core
    monkeypatch.setattr(cli, "_free_cores", lambda: 0.4)  # load average 1.6: busy already
    assert eval_jobs(cli.PARALLEL_MIN) == 1
    assert eval_jobs(10, jobs=3) == 3  # --jobs N forces N
    assert eval_jobs(10**5, jobs=1) == 1
    assert eval_jobs(10**5, user_methods=True) == 1  # user methods stay in this process


def test_a_free_core_is_the_lesser_of_the_load_average_and_the_processes_running_now(
        monkeypatch):
    monkeypatch.setattr(cli, "_cores", lambda: 2)
    # the load average still counts a run that just ended; one other process runs now: one
    # of the 2 cores is free, and a large scene gets both
    monkeypatch.setattr(cli.os, "getloadavg", lambda: (1.9, 1.2, 0.8))
    monkeypatch.setattr(cli, "_running_now", lambda: 1)
    assert cli._free_cores() == 1.0  # 2 - min(1.9, 1)
    assert eval_jobs(cli.PARALLEL_MIN) == 2
    # two others running now, a load average of 1.6 (busy for a minute): 2 - 1.6 < FREE_MIN
    monkeypatch.setattr(cli.os, "getloadavg", lambda: (1.6, 1.2, 0.8))
    monkeypatch.setattr(cli, "_running_now", lambda: 2)
    assert abs(cli._free_cores() - 0.4) < 1e-12
    assert eval_jobs(cli.PARALLEL_MIN) == 1
    # no running count (not Linux's /proc): the load average alone
    monkeypatch.setattr(cli, "_running_now", lambda: None)
    monkeypatch.setattr(cli.os, "getloadavg", lambda: (0.25, 0.5, 0.5))
    assert cli._free_cores() == 1.75


def test_running_now_reads_the_running_count_less_this_process(monkeypatch):
    import io

    readings = iter(["1.00 0.50 0.25 3/120 999\n", "1.00 0.50 0.25 1/120 999\n",
                     "1.00 0.50 0.25 2/120 999\n"])
    monkeypatch.setattr("builtins.open", lambda *a, **k: io.StringIO(next(readings)))
    assert cli._running_now(samples=3) == 1  # the median count 2, less this process


def test_ctrl_c_stops_a_parallel_eval_with_one_line(tmp_path):
    # 300 spheres without "queries": 44,850 pairs in 2 forked workers; SIGINT to the parent
    # after the first results: exit 130, one line, the workers ended with it
    import signal

    from tests.explorer.processes import start_explorer

    objs = [{"id": f"O{i}", "type": "sphere", "center": [i, 0, 0], "radius": 0.4}
            for i in range(300)]
    f = tmp_path / "300.json"
    f.write_text(json.dumps({"format": "intersection-explorer-scene", "version": 1,
                             "objects": objs}))
    p = start_explorer("eval", str(f), "--jobs", "2")
    first = p.stdout.read(20_000)
    assert first.startswith(b'{"results": [{"a": "O0", "b": "O1"')
    p.send_signal(signal.SIGINT)
    _out, err = p.communicate(timeout=60)
    assert p.returncode == 130
    lines = err.decode().splitlines()
    assert len(lines) == 1 and "interrupted after" in lines[0] and "of 44850 pairs" in lines[0]


def test_a_mixed_scene_with_repeats_errors_and_three_planes_in_two_processes(
        tmp_path, capsys, monkeypatch):
    # the bench's generator: 30 objects of every type (some moving), 400 random queries among
    # them (870 ordered pairs: about 320 distinct, (a, b) and (b, a) alike); o6 (a sphere)
    # made hollow, so its pairs other than sphere-aabb carry an "error"; two three-planes
    # queries (o4, o15, o26 are planes) put in between. In chunks of 7 over 2 workers the
    # bytes are those of one process and of eval_document, which evaluates every query afresh.
    from explorer.benchmarks import mixed_scene

    doc = mixed_scene(400, objects=30, seed=12)
    assert [doc["objects"][i]["type"] for i in (4, 6, 15, 26)] == ["plane", "sphere", "plane",
                                                                  "plane"]
    doc["objects"][6]["hollow"] = True
    doc["queries"][5:5] = [{"a": "o4", "b": "o15", "c": "o26"}]
    doc["queries"][200:200] = [{"a": "o26", "b": "o4", "c": "o15"}]
    f = tmp_path / "mixed.json"
    f.write_text(json.dumps(doc))
    monkeypatch.setattr(cli, "CHUNK", 7)
    serial = run_eval(capsys, f, "--jobs", "1")
    parallel = run_eval(capsys, f, "--jobs", "2")
    assert parallel == serial == whole(f)
    results = json.loads(serial)["results"]
    assert len(results) == 402
    pairs = [(q["a"], q["b"]) for q in doc["queries"] if "c" not in q]
    assert [(r["a"], r["b"]) for i, r in enumerate(results) if i not in (5, 200)] == pairs
    assert len(set(pairs)) < len(pairs) - 50  # repeats do occur (each written where asked)
    assert [(r["a"], r["b"], r["c"], r["pair"]) for r in (results[5], results[200])] == [
        ("o4", "o15", "o26", "plane-plane-plane"), ("o26", "o4", "o15", "plane-plane-plane")]
    errors = [r for r in results if "error" in r]
    assert len(errors) > 5 and all("o6" in (r["a"], r["b"]) for r in errors)
    assert all("hollow" in r["error"] for r in errors)


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_each_distinct_query_is_evaluated_once(tmp_path, capsys, monkeypatch, jobs):
    # AB, BA, AB, AC, AB, BA in chunks of 2: three distinct queries, so three evaluations,
    # whichever process makes them (each appends a line to a log file: forked workers too),
    # although every chunk of the list holds a repeat of an earlier one
    doc = {"format": "intersection-explorer-scene", "version": 1, "objects": [
        {"id": "A", "type": "sphere", "center": [0, 0, 0], "radius": 1},
        {"id": "B", "type": "segment", "p0": [3, -1, 0], "p1": [3, 1, 0]},
        {"id": "C", "type": "aabb", "min": [-1, 2, -1], "max": [1, 3, 1]}],
        "queries": [{"a": a, "b": b} for a, b in ["AB", "BA", "AB", "AC", "AB", "BA"]]}
    f = tmp_path / "again.json"
    f.write_text(json.dumps(doc))
    log = tmp_path / "calls.log"
    real = cli.result_text

    def logged(scene, query, options=(False, False, False)):
        with open(log, "a") as out:
            out.write("".join(query) + "\n")
        return real(scene, query, options)

    monkeypatch.setattr(cli, "CHUNK", 2)
    monkeypatch.setattr(cli, "result_text", logged)
    out = run_eval(capsys, f, "--jobs", jobs)
    assert out == whole(f)
    assert sorted(log.read_text().split()) == ["AB", "AC", "BA"]


def test_the_tasks_shrink_towards_the_end():
    # 4244 results (the bench's distinct queries) in 2 workers: tasks of CHUNK = 100 while
    # more than 800 are left (100 = 800 / (4 * 2)), then a quarter of what is left per worker
    # (left 700: ceil(700 / 8) = 88), down to MIN_CHUNK = 8; every result in exactly one task
    import itertools

    sizes = list(itertools.islice(cli._chunk_sizes(4244, 2), 61))
    assert sum(sizes) == 4244 and sizes[0] == cli.CHUNK == 100
    assert sizes == sorted(sizes, reverse=True) and sizes[-1] == cli.MIN_CHUNK == 8
    left = 4244 - sum(s for s in sizes if s == 100)
    assert 700 < left <= 800 and sizes[sizes.index(100) + sizes.count(100)] == -(-left // 8)
    # 5 results: one task of MIN_CHUNK takes them all (then CHUNK, should more come)
    assert list(itertools.islice(cli._chunk_sizes(5, 3), 3)) == [8, 100, 100]


def test_each_object_is_built_once_and_shared_by_its_queries(tmp_path, monkeypatch):
    # the scene file's objects become primitives once, at load; every query an object is
    # in gets that same primitive object (nothing is converted again per query)
    from explorer.benchmarks import mixed_scene
    from explorer.model import scene as scene_module

    f = tmp_path / "mixed.json"
    f.write_text(json.dumps(mixed_scene(200, objects=12, seed=3)))
    scene = load(f)
    seen: dict = {}
    real = scene_module.evaluate_pair

    def recorded(a, b, *args, id_a, id_b, **kwargs):
        seen.setdefault(id_a, set()).add(id(a))
        seen.setdefault(id_b, set()).add(id(b))
        return real(a, b, *args, id_a=id_a, id_b=id_b, **kwargs)

    monkeypatch.setattr(scene_module, "evaluate_pair", recorded)
    texts = list(cli.iter_result_texts(scene))
    assert len(texts) == 200 and len(seen) == 12  # 200 queries among 12 objects: all used
    assert all(ids == {id(scene[i].primitive)} for i, ids in seen.items())
