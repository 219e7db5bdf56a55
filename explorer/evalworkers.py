"""Forked worker processes for ``explorer eval --jobs N`` (issue 12, part 4).

:func:`run_in_order` hands chunks of work to ``jobs`` processes forked from this one (they
share everything loaded so far: the scene, the imported query modules) and yields their results
in the order of the chunks, whichever worker finishes first.

Each worker has its own socket pair to the parent and nothing else in common with it: no
shared lock, no queue, no helper thread. That is why this is not :class:`multiprocessing.Pool`:
``Pool.terminate()`` (Ctrl+C, or a reader that went away) can hang for ever when it kills a
worker that holds the lock of the shared result queue (seen here in about one of five
interrupted runs on a busy machine: the pool's task thread then waits on that lock). Here
stopping is ``SIGKILL`` and ``waitpid``, and nothing can be left held. A worker never returns
into the parent's code (it ends with :func:`os._exit`, so it neither runs the parent's
``finally`` blocks nor flushes a copy of the parent's unwritten standard output).

At most two chunks wait per worker: one it works on, one ready for when it finishes.
"""

from __future__ import annotations

import os
import signal
import sys
from multiprocessing.connection import Pipe, wait
from typing import Callable, Iterable, Iterator

#: chunks handed to a worker ahead of its results (one to work on, one queued)
AHEAD = 2


class WorkerFailed(RuntimeError):
    """A worker process ended without answering (killed, out of memory)."""


_DIED = "an explorer eval worker process ended unexpectedly"


def _serve(conn, work: Callable) -> None:
    """A worker's loop: a chunk in, ``(True, work(chunk))`` or ``(False, exception)`` out,
    until the parent closes the connection or sends ``None``."""
    while True:
        try:
            chunk = conn.recv()
        except (EOFError, OSError):
            return
        if chunk is None:
            return
        try:
            reply = (True, work(chunk))
        except Exception as exc:  # noqa: BLE001 - raised again in the parent
            reply = (False, exc)
        try:
            conn.send(reply)
        except (OSError, ValueError):
            return
        except Exception as exc:  # noqa: BLE001 - an exception that does not pickle
            conn.send((False, RuntimeError(f"{type(exc).__name__}: {exc}")))


def _fork(work: Callable, others: list):
    """One worker: ``(pid, connection)``; ``others`` are the connections of the workers
    forked before (closed in the new one)."""
    parent, child = Pipe(duplex=True)
    for stream in (sys.stdout, sys.stderr):  # (else a worker holds a copy of what is unwritten)
        if stream is not None:
            stream.flush()
    pid = os.fork()
    if pid == 0:  # the worker: it never returns from here
        status = 0
        try:
            signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C is the parent's to handle
            parent.close()
            for c in others:
                c.close()
            _serve(child, work)
        except BaseException:  # noqa: BLE001 - a worker ends quietly; the parent reports
            status = 1
        finally:
            os._exit(status)
    child.close()
    return pid, parent


def run_in_order(work: Callable[[list], list], chunks: Iterable[list], jobs: int) -> Iterator:
    """``work(chunk)`` for each of ``chunks`` in ``jobs`` forked processes, yielded in the
    order of ``chunks``. An exception ``work`` raised in a worker is raised here; closing the
    generator (or an exception here, such as ``KeyboardInterrupt``) kills the workers at once.
    """
    chunks = iter(chunks)
    workers: list = []  # (pid, connection)
    try:
        for _ in range(max(1, jobs)):
            workers.append(_fork(work, [c for _, c in workers]))
        sent = 0  # chunks handed out
        done: dict = {}  # chunk number -> result, until its turn
        waiting = {conn: [] for _, conn in workers}  # the chunk numbers a worker holds
        exhausted = False

        def hand(conn) -> None:
            nonlocal sent, exhausted
            while not exhausted and len(waiting[conn]) < AHEAD:
                chunk = next(chunks, None)
                if chunk is None:
                    exhausted = True
                    return
                try:
                    conn.send(chunk)
                except OSError:  # (a BrokenPipeError would pass for a reader that left)
                    raise WorkerFailed(_DIED) from None
                waiting[conn].append(sent)
                sent += 1

        for conn in waiting:
            hand(conn)
        turn = 0  # the next chunk to yield
        while True:
            while turn in done:
                yield done.pop(turn)
                turn += 1
            busy = [c for c, held in waiting.items() if held]
            if not busy:  # every chunk handed out came back (and was yielded above)
                return
            for conn in wait(busy):
                try:
                    ok, value = conn.recv()
                except (EOFError, OSError):
                    raise WorkerFailed(_DIED) from None
                if not ok:
                    raise value
                done[waiting[conn].pop(0)] = value
                hand(conn)
    finally:
        for pid, conn in workers:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
            conn.close()
        for pid, _conn in workers:
            try:
                os.waitpid(pid, 0)
            except OSError:
                pass
