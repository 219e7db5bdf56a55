"""The ``explorer`` command line.

``explorer``                      open the window on the default scene
``explorer open FILE``            open the window on FILE
``explorer eval FILE``            print the answers as JSON (scene-v1.md)
``explorer render FILE -o PNG``   render FILE offscreen to a PNG (no display needed)
``explorer export FILE -o OUT``   FILE with its answers as PNG, glTF, OBJ, VTK, HTML, SVG, PDF,
                                  GIF, MP4 or Markdown (by OUT's extension)
``explorer smoke [FILE]``         open the window, check it drew and close it (CI's check of an
                                  installed wheel)
``explorer bench drag [SCENE]``   measure the drag update path and the render (see ``--help``)
``explorer bench kernels``        scalar queries against plain textbook functions (ratios)
``explorer bench batch``          ``algorithms.batch`` against a Python loop (ratios)
``explorer bench eval``           ``explorer eval`` queries per second on a generated scene
``explorer bench answers``        ``evaluate_pair`` against the single query it builds on
``explorer bench startup [SCENE]``  the window's first frame against the import floor
``explorer fuzz [--methods F.py]``  search for inputs where two methods disagree
``explorer export-test FILE --pair A B -o test_x.py``  a pytest file of a pair's answer

``open`` and ``eval`` take ``--methods FILE.py`` (repeatable): the user's own methods, run
beside the library's (``algorithms.usermethods``).

A bad scene file prints one line on standard error and exits with status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Optional

from explorer import __version__, default_scene_path

EXIT_BAD_INPUT = 2
EXIT_INTERRUPTED = 130
#: ``explorer eval`` refuses a scene asking for more pairs than this (``--max-pairs`` raises it):
#: 100,000 pairs take about 10 s; a scene of 1,000 objects without ``queries`` asks for 499,500
MAX_PAIRS = 100_000
#: the longest line ``explorer`` writes to standard error
MAX_LINE = 600


def _fail(message: str) -> int:
    print(f"explorer: {_line(message)}", file=sys.stderr)
    return EXIT_BAD_INPUT


def _line(message: str) -> str:
    """One line of bounded length (a path or a message with newlines stays on one line)."""
    text = "".join(c if c.isprintable() else repr(c)[1:-1] for c in str(message))
    return text if len(text) <= MAX_LINE else text[:MAX_LINE - 24] + f"... ({len(text)} chars)"


def _load(path):
    from explorer.model.scenefile import load

    return load(path)


def pair_count(scene) -> int:
    """How many results ``explorer eval`` writes for ``scene``, without listing the pairs."""
    if scene.queries is not None:
        return len(scene.queries) + len(scene.triples)
    n = len(scene)
    return n * (n - 1) // 2


def _load_methods(args) -> Optional[str]:
    """Load ``--methods`` files and the installed entry points; an error message or None."""
    from algorithms.usermethods import MethodsLoadError
    from explorer.model.methods import load_files, load_plugins

    for line in load_plugins():
        print(f"explorer: warning: {line}", file=sys.stderr)
    try:
        load_files(getattr(args, "methods", None) or ())
    except MethodsLoadError as exc:
        return f"--methods: {exc}"
    return None


def cmd_eval(args) -> int:
    from explorer.model.scenefile import SceneError

    try:
        scene = _load(args.file)
    except SceneError as exc:
        return _fail(f"{args.file}: {exc}")
    if args.methods or args.cross_check:
        error = _load_methods(args)
        if error:
            return _fail(error)
    extra = {"user_methods": bool(args.methods), "exact": args.exact}
    n = pair_count(scene)
    if n > args.max_pairs:
        how = (f"{len(scene)} objects and no 'queries' list make {n} pairs" if
               scene.queries is None else f"'queries' lists {n} pairs")
        return _fail(f"{args.file}: {how}, more than the limit of {args.max_pairs} (list the "
                     "pairs wanted in 'queries', or raise the limit with --max-pairs)")
    if args.pretty:
        doc = eval_document(scene, cross_check=args.cross_check, **extra)
        sys.stdout.write(json.dumps(doc, indent=2, allow_nan=False))
        sys.stdout.write("\n")
        return 0
    # streamed: one result is written as soon as it is known, so memory stays flat however
    # many pairs there are, and Ctrl+C stops at once (the same bytes as json.dumps(doc))
    options = (bool(args.cross_check), extra["user_methods"], extra["exact"])
    jobs = eval_jobs(n, args.jobs, user_methods=extra["user_methods"])
    done = 0
    texts = iter_result_texts(scene, options, jobs)
    try:
        sys.stdout.write('{"results": [')
        for text in texts:
            sys.stdout.write(", " + text if done else text)
            done += 1
        sys.stdout.write("]}\n")
    except KeyboardInterrupt:
        texts.close()  # the worker processes end here
        sys.stdout.write("\n")
        sys.stdout.flush()
        print(f"explorer: {_line(args.file)}: interrupted after {done} of {n} pairs (the output "
              "is incomplete)", file=sys.stderr)
        return EXIT_INTERRUPTED
    finally:
        texts.close()
    return 0


#: ``explorer eval`` evaluates in more than one process (``--jobs``, by default every core this
#: process may use) from this many results on: a pool of forked workers costs some 20-50 ms, a
#: query about 0.3 ms (the 5000-query mixed scene of ``explorer bench eval``)
PARALLEL_MIN = 1000
#: the most results per task sent to a worker process (at most ``2 * jobs`` tasks in flight);
#: the tasks shrink towards the end (a quarter of what is left per worker, at least
#: ``MIN_CHUNK``) so that the workers finish together
CHUNK = 100
MIN_CHUNK = 8


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def _running_now(samples: int = 5) -> Optional[float]:
    """The other processes runnable at this moment: the median of ``samples`` readings of
    ``/proc/loadavg``'s running count (Linux; one of them is this process), a millisecond
    apart; ``None`` where the system does not tell."""
    import time

    counts = []
    try:
        for i in range(samples):
            if i:
                time.sleep(0.001)
            with open("/proc/loadavg") as f:
                counts.append(int(f.read().split()[3].split("/")[0]))
    except (OSError, ValueError, IndexError):
        return None
    counts.sort()
    return max(0, counts[len(counts) // 2] - 1)


def _free_cores() -> float:
    """Cores no other process is using: this process's cores less what the others use, the
    lesser of the load average of the last minute and the processes runnable now
    (:func:`_running_now`; the load average alone lags: it still counts the run of
    ``explorer eval`` that ended a moment ago, and ``explorer bench eval`` runs it again and
    again); all of them when the system does not tell."""
    try:
        busy = os.getloadavg()[0]
    except (AttributeError, OSError):
        return float(_cores())
    now = _running_now()
    if now is not None:
        busy = min(busy, now)
    return _cores() - busy


#: a second worker process pays from this many free cores on (:func:`eval_jobs`)
FREE_MIN = 0.5


def eval_jobs(n: int, jobs: Optional[int] = None, user_methods: bool = False) -> int:
    """How many processes ``explorer eval`` uses for ``n`` results: ``jobs`` when given (``1``:
    this one), else every core when ``n >= PARALLEL_MIN`` and at least ``FREE_MIN`` of a core
    is free (:func:`_free_cores`). On a machine whose every core is busy already a worker
    process only competes for the same core (Linux's autogroup scheduling gives the
    processes of one session one share together: at a load average of 4, 5.4-7.1 s in 2
    processes against 5.9-6.2 s in one on the bench's scene); with one other busy process
    on 2 cores the second one gains (``explorer bench eval``'s plain loop: 1.7x at a load
    average of 1.2-1.9), and costs some 2% more CPU time.
    Always 1 with user methods (they run with a time limit in this process) and where
    processes cannot be forked."""
    import multiprocessing

    if user_methods or "fork" not in multiprocessing.get_all_start_methods() \
            or sys.platform != "linux":
        return 1
    if jobs is not None and jobs > 0:
        return jobs
    if n < PARALLEL_MIN or _cores() < 2 or _free_cores() < FREE_MIN:
        return 1
    return _cores()


def result_text(scene, query: tuple, options: tuple = (False, False, False)) -> str:
    """One result of ``explorer eval`` as its JSON text: ``json.dumps(eval_result(...))``;
    ``options`` are ``(cross_check, user_methods, exact)``."""
    if len(query) == 2 and not any(options):
        text = _PAIR_TEXT[0]
        if text is None:  # (imported on first use, kept: a import statement per result
            from algorithms.report import result_text as text  # costs 1.7 us)

            _PAIR_TEXT[0] = text
        return text(scene.answer(*query))
    return json.dumps(eval_result(scene, query, *options), allow_nan=False)


#: :func:`algorithms.report.result_text`, once :func:`result_text` has imported it
_PAIR_TEXT = [None]


def _pair_texts(scene, q: tuple, r: tuple, options: tuple) -> tuple:
    """The texts of the pair query ``q`` and of its reverse ``r`` (:func:`partners`), in one
    analysis (:func:`algorithms.core.once.carry`)."""
    from algorithms.core.once import carry

    with carry():
        return result_text(scene, q, options), result_text(scene, r, options)


#: a pair query whose reverse is first asked at most this many positions later is evaluated
#: together with it (:func:`partners`); the reverse's text then waits for its turn (at most
#: this many texts wait: a few MB)
PAIR_WINDOW = 4096


def partners(asked: list, options: tuple) -> dict:
    """``{(a, b): (b, a)}`` for the pair queries of ``asked`` whose reverse is first asked
    after them, within :data:`PAIR_WINDOW` positions: the two are evaluated in one analysis
    (:func:`algorithms.core.once.carry`: a query registered for the kinds the other
    way round is the other's function, flipped, and a pass both ask runs once), with the
    same answers, bit for bit, as each alone. Empty with any option (user methods, exact,
    cross-check: each result computes alone)."""
    if any(options):
        return {}
    first: dict = {}
    for i, q in enumerate(asked):
        if len(q) == 2 and q not in first:
            first[q] = i
    out = {}
    for q, i in first.items():
        r = (q[1], q[0])
        j = first.get(r)
        if j is not None and i < j <= i + PAIR_WINDOW:
            out[q] = r
    return out


def _texts_of(scene, chunk: list, options: tuple, pairs: dict) -> list:
    """The texts of ``chunk`` (a worker's task): a query followed by its reverse
    (:func:`partners`) shares one analysis with it."""
    out = []
    k = 0
    while k < len(chunk):
        q = chunk[k]
        if k + 1 < len(chunk) and pairs.get(q) == chunk[k + 1]:
            out.extend(_pair_texts(scene, q, chunk[k + 1], options))
            k += 2
        else:
            out.append(result_text(scene, q, options))
            k += 1
    return out


def _partners_after(queries, pairs: dict):
    """``queries`` (distinct, in the order of first use), each query of ``pairs`` followed at
    once by its reverse (which is not yielded again in its own place)."""
    pulled = set()
    for q in queries:
        if q in pulled:
            pulled.discard(q)
            continue
        yield q
        r = pairs.get(q)
        if r is not None:
            pulled.add(r)
            yield r


def iter_result_texts(scene, options: tuple = (False, False, False), jobs: int = 1):
    """The JSON texts of the results of ``scene``, in query order, computed in ``jobs``
    processes (forked: they share the loaded scene). A query asked again later in a
    ``queries`` list is evaluated once, its text kept until its last use (with any number of
    processes: the workers get the distinct queries in the order they are first asked). The
    output does not depend on ``jobs``; closing the generator ends the workers at once."""
    if scene.queries is None and not scene.triples:  # every pair once: nothing repeats
        queries = iter_queries(scene)
        if jobs <= 1:
            return (result_text(scene, q, options) for q in queries)
        return _texts_in_order(scene, options, jobs, queries, None, pair_count(scene))
    asked = scene.query_list()
    if options[1]:  # user methods may answer differently when asked again: every query
        return (result_text(scene, q, options) for q in asked)
    distinct = dict.fromkeys(asked)
    return _texts_in_order(scene, options, jobs, iter(distinct), asked, len(distinct))


def _texts_in_order(scene, options, jobs, distinct, asked, total=0):
    """The texts of ``asked`` (a list of queries; ``None``: ``distinct`` itself, each asked
    once), where ``distinct`` yields each of the ``total`` queries of ``asked`` once, in the
    order of its first use: evaluated here (``jobs <= 1``) or by forked workers."""
    import itertools

    if jobs <= 1 and asked is None:
        yield from (result_text(scene, q, options) for q in distinct)
        return
    last = {q: i for i, q in enumerate(asked or ())}  # where each text is used the last time
    known: dict = {}
    pos = 0
    pairs = partners(asked, options) if asked is not None else {}
    if jobs <= 1:
        for i, q in enumerate(asked):
            text = known.get(q)
            if text is None:
                r = pairs.get(q)
                if r is None:
                    text = result_text(scene, q, options)
                else:  # its reverse, asked later, in the same analysis; its text waits
                    text, known[r] = _pair_texts(scene, q, r, options)
                if last[q] != i:
                    known[q] = text
            elif last[q] == i:
                del known[q]
            yield text
        return
    if pairs:
        distinct = _partners_after(distinct, pairs)
    chunks = _evaluated_chunks(scene, options, jobs, distinct, total, pairs)
    try:  # (closing this generator closes the workers' at once)
        for chunk, texts in chunks:
            if asked is None:  # each asked once: a text goes out as soon as it is known
                yield from texts
                continue
            known.update(zip(chunk, texts))
            # the distinct queries arrive in the order of first use: every position up to
            # the next query not yet evaluated can be written now
            for i in itertools.count(pos):
                if i == len(asked) or asked[i] not in known:
                    pos = i
                    break
                q = asked[i]
                yield known.pop(q) if last[q] == i else known[q]
    finally:
        chunks.close()


def _evaluated_chunks(scene, options, jobs, queries, total, pairs=None):
    """``(chunk, texts)`` for consecutive chunks of the ``total`` ``queries``, in order,
    evaluated by ``jobs`` forked workers (:mod:`explorer.evalworkers`); ``pairs``
    (:func:`partners`): a query and its reverse next to it in a chunk share one analysis."""
    from algorithms import registry
    from explorer.evalworkers import run_in_order

    registry.load_all()  # imported once here, not once per worker
    kept: list = []  # the chunks out, until their texts come back
    pairs = pairs or {}
    texts = run_in_order(lambda chunk: _texts_of(scene, chunk, options, pairs),
                         _chunks(queries, total, jobs, kept, pairs), jobs)
    try:
        for result in texts:
            yield kept.pop(0), result
    finally:
        texts.close()


def _chunk_sizes(total: int, jobs: int):
    """The sizes of the tasks for ``total`` results in ``jobs`` workers: ``CHUNK`` while
    much is left, then a quarter of what is left per worker (at least ``MIN_CHUNK``, at most
    ``CHUNK``)."""
    left = total
    while left > 0:
        size = max(1, min(CHUNK, max(MIN_CHUNK, -(-left // (4 * jobs)))))
        yield size
        left -= size
    while True:  # (more queries than counted: never, but nothing is lost)
        yield CHUNK


def _chunks(queries, total: int, jobs: int, kept: list, pairs=None):
    """Lists of consecutive ``queries`` of :func:`_chunk_sizes`, each also put in ``kept``; a
    chunk ending on a query of ``pairs`` (:func:`partners`) takes the reverse that follows it
    too (:func:`_partners_after`: the two share one analysis in one worker)."""
    import itertools

    queries = iter(queries)
    for size in _chunk_sizes(total, jobs):
        chunk = list(itertools.islice(queries, size))
        if not chunk:
            return
        if pairs and chunk[-1] in pairs:
            after = next(queries, None)
            if after is not None:
                chunk.append(after)
        kept.append(chunk)
        yield chunk


def iter_queries(scene):
    """The queries one at a time, in file order (no list of every pair of a large scene): pairs
    ``(a, b)`` and three-planes queries ``(a, b, c)``."""
    import itertools

    if scene.queries is not None or scene.triples:
        return iter(scene.query_list())
    return itertools.combinations(scene.ids(), 2)


def eval_result(scene, query: tuple, cross_check: bool = False, user_methods: bool = False,
                exact: bool = False) -> dict:
    """One result of ``explorer eval`` (with the ``cross_check`` report when asked).

    ``user_methods``: the result gets ``"user_methods"``, one row per loaded user method that
    answers the pair; ``exact``: ``"exact"``, the float answer against the library's Fraction
    path per key (docs/scene-v1.md, Project extensions)."""
    from algorithms.report import result_json

    if len(query) == 3:  # three planes: one method, nothing to cross-check
        return scene.evaluate_query(*query)
    a, b = query
    ans = scene.answer(a, b)
    r = result_json(ans)
    if cross_check:
        from algorithms.crosscheck import cross_check_pair
        from algorithms.results import to_jsonable

        oa, ob = scene[a], scene[b]
        r["cross_check"] = to_jsonable(
            cross_check_pair(oa.primitive, ob.primitive, oa.motion, ob.motion, answer=ans))
    if user_methods:
        from explorer.model.methods import jsonable_row, rows_for_pair

        oa, ob = scene[a], scene[b]
        r["user_methods"] = [jsonable_row(row) for row in rows_for_pair(
            oa.primitive, ob.primitive, oa.motion, ob.motion)]
    if exact:
        from algorithms.exact import compare
        from algorithms.results import to_jsonable

        oa, ob = scene[a], scene[b]
        r["exact"] = to_jsonable(compare(r, oa.primitive, ob.primitive, oa.motion, ob.motion))
    return r


def eval_document(scene, cross_check: bool = False, user_methods: bool = False,
                  exact: bool = False) -> dict:
    """What ``explorer eval`` prints for ``scene``: ``{"results": [...]}`` (scene-v1.md), in
    query order, three-planes queries (docs/scene-v1.md, project extensions) in their places."""
    return {"results": [eval_result(scene, q, cross_check, user_methods, exact)
                        for q in iter_queries(scene)]}


def cmd_render(args) -> int:
    from explorer.model.scenefile import SceneError

    try:
        scene = _load(args.file)
    except SceneError as exc:
        return _fail(f"{args.file}: {exc}")
    w, h = args.size
    if not (16 <= w <= 8192 and 16 <= h <= 8192):
        return _fail(f"--size: width and height must be between 16 and 8192, got {w} {h}")
    out = Path(args.output)
    if not out.parent.exists():
        return _fail(f"-o: folder {out.parent} does not exist")
    from explorer.render.offscreen import render_to_png

    render_to_png(scene, out, size=(w, h), with_results=not args.no_results)
    print(out)
    return 0


def _under_xvfb(argv: list[str]) -> Optional[int]:
    """Without a display, run ``explorer ARGV`` again under a private Xvfb (the Qt window
    needs an X server) and return its status; ``None`` when there is a display already."""
    if os.environ.get("DISPLAY") or os.environ.get("EXPLORER_XVFB_CHILD"):
        return None
    xvfb = shutil.which("xvfb-run")
    if xvfb is None:
        return _fail("this command opens the window: it needs a display or xvfb-run "
                     "(apt-get install xvfb)")
    cmd = [xvfb, "-a", "-s", "-screen 0 1600x1000x24", sys.executable, "-m", "explorer", *argv]
    return subprocess.call(cmd, env={**os.environ, "EXPLORER_XVFB_CHILD": "1"})


def cmd_export(args) -> int:
    from explorer.model.scenefile import SceneError
    from explorer.render.export import ExportError, check_target

    try:
        scene = _load(args.file)
    except SceneError as exc:
        return _fail(f"{args.file}: {exc}")
    if args.panels:
        return _export_panels(args, scene)
    try:
        out = check_target(args.output, args.size)
        from explorer.render.export import export

        export(scene, out, size=tuple(args.size), animation=args.animate)
    except ExportError as exc:
        return _fail(str(exc))
    print(out)
    return 0


def _export_panels(args, scene) -> int:
    folder = Path(args.output)
    if not folder.is_dir():
        return _fail(f"-o {folder}: with --panels, -o names an existing folder")
    pair = tuple(args.pair) if args.pair else None
    for obj_id in pair or ():
        if obj_id not in scene:
            return _fail(f"--pair: no object {obj_id!r} in {args.file}")
    argv = ["export", str(args.file), "-o", str(folder), "--panels"]
    if pair:
        argv += ["--pair", *pair]
    status = _under_xvfb(argv)
    if status is not None:
        return status
    from explorer.qt.export_menu import export_panels_of

    for path in export_panels_of(str(args.file), folder, pair):
        print(path)
    return 0


def cmd_smoke(args) -> int:
    from explorer.model.scenefile import SceneError

    path = args.file or default_scene_path()
    try:
        _load(path)
    except SceneError as exc:
        return _fail(f"{path}: {exc}")
    status = _under_xvfb(["smoke", str(path)])
    if status is not None:
        return status
    from explorer.qt.smoke import run_smoke

    return run_smoke(str(path))


def cmd_gui(args) -> int:
    from explorer.model.scenefile import SceneError

    path = getattr(args, "file", None) or default_scene_path()
    try:
        scene = _load(path)  # refuse a bad file before any window opens
    except SceneError as exc:
        return _fail(f"{path}: {exc}")
    from explorer.model.documents import MAX_WINDOW_OBJECTS

    if len(scene) > MAX_WINDOW_OBJECTS:
        return _fail(f"{path}: the scene has {len(scene)} objects; the window shows at most "
                     f"{MAX_WINDOW_OBJECTS} (`explorer eval` evaluates larger scenes)")
    error = _load_methods(args)
    if error:
        return _fail(error)
    from explorer.qt.app import run

    methods = [str(Path(m).resolve()) for m in getattr(args, "methods", None) or ()]
    return run(str(path), methods=methods, scene=scene)


def cmd_fuzz(args) -> int:
    from explorer.fuzz import main as fuzz_main

    error = _load_methods(argparse.Namespace(methods=None))  # the installed entry points
    if error:
        return _fail(error)
    return fuzz_main(args)


def cmd_export_test(args) -> int:
    from explorer.model.scenefile import SceneError

    try:
        scene = _load(args.file)
    except SceneError as exc:
        return _fail(f"{args.file}: {exc}")
    ida, idb = args.pair
    for i in (ida, idb):
        if i not in scene.ids():
            return _fail(f"--pair: no object {i!r} in {args.file} (ids: "
                         f"{', '.join(scene.ids())})")
    if ida == idb:
        return _fail("--pair: name two different objects")
    out = Path(args.output)
    if not out.parent.exists():
        return _fail(f"-o: folder {out.parent} does not exist")
    from explorer.model.exporttest import pair_test_source

    out.write_text(pair_test_source(scene, ida, idb, scene_name=str(args.file)),
                   encoding="utf-8")
    print(out)
    return 0


def cmd_bench(args) -> int:
    if args.rounds is None:
        args.rounds = 5 if args.what == "startup" else 15
    if args.what == "drag":
        from explorer.bench import main as bench_main

        return bench_main(args)
    if args.what == "startup":
        from explorer.bench import startup_main

        return startup_main(args)
    from explorer import benchmarks

    return {"kernels": benchmarks.kernels_main, "batch": benchmarks.batch_main,
            "eval": benchmarks.eval_main, "answers": benchmarks.answers_main}[args.what](args)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="explorer",
        description="Intersection Explorer: drag 3D primitives and see distances, closest "
                    "points, hits, separating axes and times of impact live.",
    )
    parser.add_argument("--version", action="version", version=f"explorer {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("open", help="open the window on a scene file",
                       description="Open the explorer window on FILE.")
    p.add_argument("file", metavar="FILE", help="a scene file (scene-v1 JSON)")
    _methods_option(p)
    p.set_defaults(func=cmd_gui)

    p = sub.add_parser("eval", help="print the answers for a scene as JSON",
                       description="Evaluate every query of FILE and print one JSON document "
                                   "{\"results\": [...]} per scene-v1.md.")
    p.add_argument("file", metavar="FILE", help="a scene file (scene-v1 JSON)")
    p.add_argument("--pretty", action="store_true", help="indent the JSON")
    p.add_argument("--max-pairs", type=int, default=MAX_PAIRS, metavar="N",
                   help=f"refuse a scene asking for more than N pairs (default {MAX_PAIRS}; a "
                        "scene without 'queries' asks for every pair of its objects)")
    p.add_argument("--cross-check", action="store_true",
                   help="also run every other method registered for each pair (the generic "
                        "GJK distance, Moller-Trumbore, slabs, conservative advancement...) and "
                        "add a \"cross_check\" report of whether they agree")
    p.add_argument("--exact", action="store_true",
                   help="also run the library's exact (Fraction) path where it has one, on the "
                        "binary values of the inputs, and add an \"exact\" report: per key, "
                        "whether the float answer agrees within rounding")
    p.add_argument("--jobs", type=int, default=None, metavar="N",
                   help="evaluate in N processes (default or 0: one per core for scenes of "
                        f"{PARALLEL_MIN} results or more when the machine has a free core, "
                        "else 1); the output is the same")
    _methods_option(p)
    p.set_defaults(func=cmd_eval)

    p = sub.add_parser("render", help="render a scene to a PNG offscreen",
                       description="Render FILE with its answers to a PNG, offscreen (no Qt, "
                                   "no display needed).")
    p.add_argument("file", metavar="FILE", help="a scene file (scene-v1 JSON)")
    p.add_argument("-o", "--output", required=True, metavar="PNG", help="the image to write")
    p.add_argument("--size", nargs=2, type=int, default=(1024, 768), metavar=("W", "H"),
                   help="image size in pixels (default 1024 768)")
    p.add_argument("--no-results", action="store_true", help="draw the objects only")
    p.set_defaults(func=cmd_render)

    from explorer.render.export import FORMATS

    p = sub.add_parser("export", help="export a scene with its answers (PNG, glTF, OBJ, VTK, "
                                      "HTML, SVG, PDF, GIF, MP4, Markdown)",
                       description="Write SCENE with its answers drawn as in the window, in the "
                                   "format of OUT's extension: "
                                   + "; ".join(f"{e} {d}" for e, d in FORMATS.items())
                                   + ". No Qt window, no display needed.")
    p.add_argument("file", metavar="SCENE", help="a scene file (scene-v1 JSON)")
    p.add_argument("-o", "--output", required=True, metavar="OUT.EXT", help="the file to write")
    p.add_argument("--size", nargs=2, type=int, default=(1024, 768), metavar=("W", "H"),
                   help="picture size in pixels (default 1024 768)")
    p.add_argument("--animate", choices=["timeline", "drag"], default=None,
                   help="GIF/MP4: the time line t = 0 -> 1 (default when an object moves) or a "
                        "drag of the first object around a circle")
    p.add_argument("--panels", action="store_true",
                   help="instead: every panel of the window (results, st-plane, separating "
                        "axes, time line, explain) as PNG and SVG into the folder -o names, "
                        "for the scene's first pair (the window runs under Xvfb when there is "
                        "no display)")
    p.add_argument("--pair", nargs=2, metavar=("A", "B"), default=None,
                   help="with --panels: the pair the panels show")
    p.set_defaults(func=cmd_export)

    p = sub.add_parser("smoke", help="open the window, check that it drew, close it",
                       description="Open the window on FILE (default: the welcome scene), check "
                                   "that the scene, its answers, the panels and the Example "
                                   "Scenes menu are there, print one JSON line and exit 0 "
                                   "(1 when a check fails).")
    p.add_argument("file", nargs="?", default=None, metavar="FILE", help="a scene file")
    p.set_defaults(func=cmd_smoke)

    p = sub.add_parser("bench", help="benchmarks (drag, kernels, batch, eval, answers)",
                       description="Benchmarks that print their figures, each against a "
                                   "baseline measured in the same run (see README).")
    p.add_argument("what", choices=["drag", "kernels", "batch", "eval", "answers", "startup"],
                   help="drag: one drag step in the window (update + render); kernels: "
                        "scalar queries against plain textbook functions; batch: "
                        "algorithms.batch against a Python loop; eval: explorer eval "
                        "queries per second; answers: evaluate_pair against the single query "
                        "it builds on; startup: explorer open to the first frame against "
                        "importing pyvista, pyvistaqt and PyQt6 alone")
    p.add_argument("scene", nargs="?", default=None, metavar="SCENE",
                   help="scene file (default: a shipped 10-object scene)")
    p.add_argument("--steps", type=int, default=1000, help="drag steps (default 1000)")
    p.add_argument("--panels", action="store_true", help="with every panel open")
    p.add_argument("--anti-aliasing", choices=["adaptive", "fxaa", "msaa", "none"],
                   default=None,
                   help="drag: render with this instead of the window's own setting (adaptive: "
                        "no anti-aliasing while moving, multisampling once at rest)")
    p.add_argument("--reduction", type=int, default=None, metavar="F",
                   help="drag: render the moving frames at 1/F of the window's width and "
                        "height, scaled up (default: the window's own, 2; 1 = full)")
    p.add_argument("--rounds", type=int, default=None,
                   help="kernels/batch/eval (default 15), startup (default 5): interleaved "
                        "rounds")
    p.add_argument("--n", type=int, default=200_000, help="batch: rows per call")
    p.add_argument("--loop", type=int, default=500, help="batch: rows of the scalar loop")
    p.add_argument("--queries", type=int, default=5000, help="eval: queries in the scene")
    p.add_argument("--quick", action="store_true",
                   help="kernels/batch/eval: a tiny run (checks the output, not the speed)")
    p.set_defaults(func=cmd_bench)

    p = sub.add_parser(
        "fuzz", help="search for inputs where two methods of a pair disagree",
        description="Search (hypothesis, with shrinking) for inputs where a method disagrees "
                    "with the pair's reference: the user's methods (--methods) or the "
                    "library's second methods. Each disagreement is written as "
                    "DIR/<pair>-<n>.json (a scene) and DIR/test_<pair>_<n>.py (a failing "
                    "pytest file); the last line printed is a JSON summary; exit status 1 when "
                    "any was found.")
    _methods_option(p)
    p.add_argument("--query", default=None, metavar="Q",
                   help="only this query (distance, intersects, hits, separating_axis, side, "
                        "toi)")
    p.add_argument("--pair", default=None, metavar="A-B",
                   help="only this pair of types, e.g. segment-segment (either order)")
    p.add_argument("--seconds", type=float, default=60.0, metavar="S",
                   help="search for at most S seconds (default 60)")
    p.add_argument("--out", default="fuzz-cases", metavar="DIR",
                   help="where the cases go (default ./fuzz-cases)")
    p.add_argument("--seed", type=int, default=None,
                   help="random seed (default: a new one, printed on standard error)")
    p.add_argument("--time-limit", type=float, default=2.0, metavar="SECONDS",
                   help="stop a user method that runs longer than this per call (default 2)")
    p.set_defaults(func=cmd_fuzz)

    p = sub.add_parser(
        "export-test", help="write a pytest file asserting a pair's answer",
        description="Write a self-contained pytest file that rebuilds objects A and B of FILE "
                    "from their exact doubles (float.hex) and asserts the reference answer "
                    "of explorer eval with a stated tolerance.")
    p.add_argument("file", metavar="FILE", help="a scene file (scene-v1 JSON)")
    p.add_argument("--pair", nargs=2, required=True, metavar=("A", "B"),
                   help="the ids of the two objects")
    p.add_argument("-o", "--output", required=True, metavar="TEST.py", help="the file to write")
    p.set_defaults(func=cmd_export_test)
    return parser


def _methods_option(p) -> None:
    p.add_argument("--methods", action="append", default=None, metavar="FILE.py",
                   help="a Python file whose functions register with algorithms.register: "
                        "the user's own methods, run beside the library's (may be repeated)")


def main(argv=None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    func = getattr(args, "func", None)
    if func is None:
        return cmd_gui(args)
    try:
        return func(args)
    except KeyboardInterrupt:
        print("explorer: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:  # `explorer eval x | head`: the reader left; not an error of ours
        sys.stderr.close()
        return 0
    except MemoryError:
        return _fail(f"{getattr(args, 'file', '')}: out of memory")
    except Exception as exc:  # noqa: BLE001 - the promise is one line, never a traceback
        where = getattr(args, "file", None)
        return _fail(f"{where + ': ' if where else ''}internal error ({type(exc).__name__}: "
                     f"{exc}); please report it with the file")
