"""Record (or compare) the golden files: ``explorer eval`` output and the overlay frame of every
shipped scene.

    python -m tests.golden.record          # rewrite tests/golden/{eval,frames}/*.json
    python -m tests.golden.record sat_cylinders   # rewrite only that scene's two files
    python -m tests.golden.record --check  # compare, print the differences, exit 1 on any
                                           # (numbers within FLOAT_REL: see there)

``tests/test_golden.py`` runs the comparison. A change that alters an answer on purpose (a fixed
defect) rewrites the files in the same commit and says why in its message.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
SCENES = ROOT / "scenes"


def scene_paths() -> list[Path]:
    return sorted(p for p in SCENES.rglob("*.json") if "lessons" not in p.parts)


def eval_document(path: Path) -> dict:
    """What ``explorer eval PATH`` prints, as a Python value (a strict-JSON round trip)."""
    from explorer.cli import eval_document as doc
    from explorer.model.scenefile import load

    return json.loads(json.dumps(doc(load(path)), allow_nan=False))


def _digest(points) -> dict:
    pts = np.asarray(points, dtype=float).reshape(-1, 3)
    if len(pts) == 0:
        return {"n": 0}
    # 1e-9 of the values' own scale: what changes when a drawing changes, not rounding noise
    scale = float(np.max(np.abs(pts))) or 1.0
    q = np.round(pts / scale * 1e9).astype(np.int64)
    return {"n": len(pts), "bounds": [round(float(v), 9) for v in
                                      np.concatenate([pts.min(axis=0), pts.max(axis=0)])],
            "sha": hashlib.sha1(q.tobytes()).hexdigest()[:16]}


def _jsonable(v):
    from algorithms.results import to_jsonable

    return to_jsonable(v)


def frame_document(path: Path) -> dict:
    """The overlay frame of the scene at t = 0 with every overlay kind on: per item its name,
    look and a digest of its points; every label; every tint."""
    from explorer.model.scenefile import load
    from explorer.render.overlays import Context, build

    scene = load(path)
    frame = build(scene, scene.answers(), Context.for_scene(scene))
    items = []
    for it in frame.items:
        mesh = it.mesh
        pts = getattr(mesh, "points", None)
        items.append({"name": it.name, "look": _jsonable(it.kwargs),
                      "topo": getattr(mesh, "topo", ""), "points": _digest(pts)})
    labels = [{"name": lb.name, "text": lb.text, "color": lb.color,
               "at": [round(float(c), 9) for c in lb.position]} for lb in frame.labels]
    return {"items": items, "labels": labels,
            "tints": {k: _jsonable(v) for k, v in sorted(frame.tints.items())}}


def documents(path: Path) -> dict:
    return {"eval": eval_document(path), "frames": frame_document(path)}


#: a number of a golden file and the same number of a new run agree within ``FLOAT_REL`` of
#: ``max(1, |x|)``. The last bits of numpy's dot products and norms depend on the CPU: OpenBLAS
#: and numpy pick AVX2 or AVX-512 kernels at run time, and they sum in different orders. The
#: files recorded on an AVX-512 machine differed from an AVX2 machine's run by up to 3.5e-15,
#: in 8 of the eval files (GJK's lower bounds, cylinder traces). Everything else must be
#: equal: strings, bools, nulls, the keys and the lengths of lists.
FLOAT_REL = 1e-12


def differences(want, got, path: str = "", limit: int = 5) -> list:
    """Where ``got`` differs from the golden ``want`` (JSON values), as ``(path, want, got)``;
    at most ``limit`` of them."""
    out: list = []

    def walk(a, b, where):
        if len(out) >= limit:
            return
        numbers = (int, float)
        if isinstance(a, numbers) and isinstance(b, numbers) and \
                not isinstance(a, bool) and not isinstance(b, bool):
            if a != b and not abs(a - b) <= FLOAT_REL * max(1.0, abs(a), abs(b)):
                out.append((where, a, b))
        elif isinstance(a, dict) and isinstance(b, dict):
            if a.keys() != b.keys():
                out.append((where + "/{keys}", sorted(a), sorted(b)))
            else:
                for k in a:
                    walk(a[k], b[k], f"{where}/{k}")
        elif isinstance(a, list) and isinstance(b, list):
            if len(a) != len(b):
                out.append((where + "/{len}", len(a), len(b)))
            else:
                for i, (x, y) in enumerate(zip(a, b)):
                    walk(x, y, f"{where}[{i}]")
        elif type(a) is not type(b) or a != b:
            out.append((where, a, b))

    walk(want, got, path)
    return out


def golden_path(kind: str, scene: Path) -> Path:
    return HERE / kind / (scene.stem + ".json")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tests.golden.record",
        description="Rewrite the golden files of the shipped scenes (explorer eval output and "
                    "overlay frames), or compare them with --check.")
    parser.add_argument("--check", action="store_true",
                        help="compare only: print the differences, exit 1 on any (numbers "
                             "within FLOAT_REL)")
    parser.add_argument("scenes", nargs="*", metavar="SCENE",
                        help="only these scenes (file stems, e.g. sat_cylinders); default all")
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    check = args.check
    paths = scene_paths()
    if args.scenes:
        known = {p.stem: p for p in paths}
        unknown = [s for s in args.scenes if s not in known]
        if unknown:
            parser.error(f"no shipped scene named {', '.join(unknown)}")
        paths = [known[s] for s in args.scenes]
    bad = 0
    for scene in paths:
        for kind, doc in documents(scene).items():
            gp = golden_path(kind, scene)
            text = json.dumps(doc, indent=1, sort_keys=True) + "\n"
            if check:
                old = json.loads(gp.read_text()) if gp.exists() else None
                diff = differences(old, json.loads(text))
                if diff:
                    bad += 1
                    print(f"differs: {gp.relative_to(ROOT)}")
                    for where, a, b in diff:
                        print(f"  {where}: {a!r} -> {b!r}")
            else:
                gp.parent.mkdir(exist_ok=True)
                gp.write_text(text)
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
