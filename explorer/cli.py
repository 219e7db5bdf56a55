"""The ``explorer`` command line.

``explorer``                      open the window on the default scene
``explorer open FILE``            open the window on FILE
``explorer eval FILE``            print the answers as JSON (scene-v1.md)
``explorer render FILE -o PNG``   render FILE offscreen to a PNG (no display needed)
``explorer bench drag [SCENE]``   measure the drag update path and the render (see ``--help``)
``explorer bench kernels``        scalar queries against plain textbook functions (ratios)
``explorer bench batch``          ``algorithms.batch`` against a Python loop (ratios)
``explorer bench eval``           ``explorer eval`` queries per second on a generated scene

A bad scene file prints one line on standard error and exits with status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

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
        return len(scene.queries)
    n = len(scene)
    return n * (n - 1) // 2


def cmd_eval(args) -> int:
    from explorer.model.scenefile import SceneError

    try:
        scene = _load(args.file)
    except SceneError as exc:
        return _fail(f"{args.file}: {exc}")
    n = pair_count(scene)
    if n > args.max_pairs:
        how = (f"{len(scene)} objects and no 'queries' list make {n} pairs" if
               scene.queries is None else f"'queries' lists {n} pairs")
        return _fail(f"{args.file}: {how}, more than the limit of {args.max_pairs} (list the "
                     "pairs wanted in 'queries', or raise the limit with --max-pairs)")
    if args.pretty:
        doc = eval_document(scene, cross_check=args.cross_check)
        sys.stdout.write(json.dumps(doc, indent=2, allow_nan=False))
        sys.stdout.write("\n")
        return 0
    # streamed: one result is written as soon as it is known, so memory stays flat however
    # many pairs there are, and Ctrl+C stops at once (the same bytes as json.dumps(doc))
    done = 0
    try:
        sys.stdout.write('{"results": [')
        for a, b in iter_pairs(scene):
            r = eval_result(scene, a, b, cross_check=args.cross_check)
            sys.stdout.write((", " if done else "") + json.dumps(r, allow_nan=False))
            done += 1
        sys.stdout.write("]}\n")
    except KeyboardInterrupt:
        sys.stdout.write("\n")
        sys.stdout.flush()
        print(f"explorer: {_line(args.file)}: interrupted after {done} of {n} pairs (the output "
              "is incomplete)", file=sys.stderr)
        return EXIT_INTERRUPTED
    return 0


def iter_pairs(scene):
    """The query pairs one at a time (no list of every pair of a large scene)."""
    import itertools

    if scene.queries is not None:
        return iter(scene.pairs())
    return itertools.combinations(scene.ids(), 2)


def eval_result(scene, a: str, b: str, cross_check: bool = False) -> dict:
    """One result of ``explorer eval`` (with the ``cross_check`` report when asked)."""
    from algorithms.report import result_json

    ans = scene.answer(a, b)
    r = result_json(ans)
    if cross_check:
        from algorithms.crosscheck import cross_check_pair
        from algorithms.results import to_jsonable

        oa, ob = scene[a], scene[b]
        r["cross_check"] = to_jsonable(
            cross_check_pair(oa.primitive, ob.primitive, oa.motion, ob.motion, answer=ans))
    return r


def eval_document(scene, cross_check: bool = False) -> dict:
    """What ``explorer eval`` prints for ``scene``: ``{"results": [...]}`` (scene-v1.md)."""
    return {"results": [eval_result(scene, a, b, cross_check) for a, b in scene.pairs()]}


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
    from explorer.qt.app import run

    return run(str(path))


def cmd_bench(args) -> int:
    if args.what == "drag":
        from explorer.bench import main as bench_main

        return bench_main(args)
    from explorer import benchmarks

    return {"kernels": benchmarks.kernels_main, "batch": benchmarks.batch_main,
            "eval": benchmarks.eval_main}[args.what](args)


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

    p = sub.add_parser("bench", help="benchmarks (drag, kernels, batch, eval)",
                       description="Benchmarks that print their figures, each against a "
                                   "baseline measured in the same run (see README).")
    p.add_argument("what", choices=["drag", "kernels", "batch", "eval"],
                   help="drag: one drag step in the window (update + render); kernels: "
                        "scalar queries against plain textbook functions; batch: "
                        "algorithms.batch against a Python loop; eval: explorer eval "
                        "queries per second")
    p.add_argument("scene", nargs="?", default=None, metavar="SCENE",
                   help="scene file (default: a shipped 10-object scene)")
    p.add_argument("--steps", type=int, default=1000, help="drag steps (default 1000)")
    p.add_argument("--panels", action="store_true", help="with every panel open")
    p.add_argument("--anti-aliasing", choices=["fxaa", "msaa", "none"], default=None,
                   help="drag: render with this instead of the window's own setting (fxaa)")
    p.add_argument("--rounds", type=int, default=15,
                   help="kernels/batch/eval: interleaved rounds, the best is printed")
    p.add_argument("--n", type=int, default=200_000, help="batch: rows per call")
    p.add_argument("--loop", type=int, default=500, help="batch: rows of the scalar loop")
    p.add_argument("--queries", type=int, default=5000, help="eval: queries in the scene")
    p.add_argument("--quick", action="store_true",
                   help="kernels/batch/eval: a tiny run (checks the output, not the speed)")
    p.set_defaults(func=cmd_bench)
    return parser


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
