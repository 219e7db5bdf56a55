"""``explorer.evalworkers.run_in_order``: chunks of work in forked processes, the results in
the order of the chunks, stopped at once (issue 12, part 4)."""

import os
import time

import pytest

from explorer.evalworkers import WorkerFailed, run_in_order


def _squares_slow_first(chunk):
    # the first chunk takes longest, so later chunks come back before it from other workers
    if chunk[0] == 0:
        time.sleep(0.3)
    return [(x * x, os.getpid()) for x in chunk]


def test_results_come_in_chunk_order_from_several_processes():
    chunks = [list(range(i, i + 3)) for i in range(0, 30, 3)]  # 10 chunks of 3
    out = list(run_in_order(_squares_slow_first, chunks, 3))
    assert [[sq for sq, _ in r] for r in out] == [[x * x for x in c] for c in chunks]
    pids = {pid for r in out for _, pid in r}
    assert os.getpid() not in pids and len(pids) >= 2  # done in the workers, by more than one


def _boom(chunk):
    if 7 in chunk:
        raise ValueError(f"no seven: {chunk}")
    return chunk


def test_an_exception_in_a_worker_is_raised_here():
    with pytest.raises(ValueError, match=r"no seven: \[6, 7\]"):
        list(run_in_order(_boom, [[0, 1], [2, 3], [4, 5], [6, 7], [8, 9]], 2))


def _die(chunk):
    os._exit(3)  # a worker killed under its work (out of memory, kill -9)


@pytest.mark.parametrize("chunks", [2, 40])
def test_a_worker_that_dies_is_reported(chunks):
    # whether the parent notices on reading a result or on sending the next chunk: never a
    # BrokenPipeError, which `explorer eval` would take for a reader that went away (exit 0)
    with pytest.raises(WorkerFailed, match="ended unexpectedly"):
        list(run_in_order(_die, [[i] for i in range(chunks)], 2))


def test_a_dying_worker_makes_explorer_eval_fail_with_one_line(tmp_path, capsys, monkeypatch):
    # 1225 pairs of 50 spheres in 2 workers: a worker that dies makes one "internal error"
    # line and exit status 2, never a silently cut output with status 0
    import json

    from explorer import cli

    objs = [{"id": f"S{i}", "type": "sphere", "center": [i, 0, 0], "radius": 0.4}
            for i in range(50)]
    f = tmp_path / "fifty.json"
    f.write_text(json.dumps({"format": "intersection-explorer-scene", "version": 1,
                             "objects": objs}))
    monkeypatch.setattr(cli, "result_text", lambda scene, q, options=None: os._exit(9))
    assert cli.main(["eval", str(f), "--jobs", "2"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and "internal error (WorkerFailed" in err[0]


def _pid(chunk):
    return [os.getpid()]


def _alive(pid) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_closing_the_generator_ends_the_workers():
    texts = run_in_order(_pid, ([i] for i in range(10**6)), 2)
    first = next(texts)[0]
    assert _alive(first)
    texts.close()  # killed and reaped: the pid no longer exists
    assert not _alive(first)


def test_no_chunks_no_results():
    assert list(run_in_order(_pid, [], 2)) == []
