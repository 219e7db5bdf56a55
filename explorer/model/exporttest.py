"""Pytest files written from a pair: ``explorer export-test``, Copy as pytest, and the fuzzer's
failing cases. Qt-free.

Each file is self-contained: it rebuilds the two primitives from the exact doubles of the scene
(``float.fromhex``, with the shortest repr beside each value as a comment) and asserts answers
with a tolerance stated at the top of the file.

* :func:`reference_test_source`: the reference answer of ``explorer eval`` for one pair (every
  key that applies), so a later change of the library that moves an answer fails the test.
* :func:`disagreement_test_source`: one method (a user's, or a second library method) must
  agree with the reference on one query; it fails while the method is wrong.
"""

from __future__ import annotations

import math
import re
from datetime import datetime, timezone
from typing import Optional, Sequence

from algorithms.compare import ABS_TOL, REL_TOL, TOI_TOL, scale_of
from algorithms.primitives import Primitive

#: tolerance of an exported reference test, relative to the pair's scale
EXPORT_TOL = 1e-9


def num(x) -> str:
    """Source for the exact double ``x``: small integers as they are, others as
    ``float.fromhex(...)``."""
    x = float(x)
    if x.is_integer() and abs(x) < 2 ** 53:
        return repr(x)
    mantissa, exponent = x.hex().split("p")
    if "." in mantissa:
        mantissa = mantissa.rstrip("0").rstrip(".")
    return f"float.fromhex('{mantissa}p{exponent}')"


def _vec(v) -> str:
    return "(" + ", ".join(num(c) for c in v) + ")"


def _plain(v) -> str:
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_plain(c) for c in v) + "]"
    return repr(float(v))


def primitive_source(p: Primitive) -> str:
    """``Segment(p0=(...), p1=(...))`` rebuilding ``p`` bit for bit."""
    parts = []
    for name, value in p.to_fields().items():
        if name in ("vertices", "axes"):
            src = "(" + ", ".join(_vec(v) for v in value) + ")"
        elif isinstance(value, list):
            src = _vec(value)
        else:
            src = num(value)
        parts.append(f"{name}={src}")
    return f"{type(p).__name__}({', '.join(parts)})"


def _comment(p: Primitive) -> str:
    return "# " + ", ".join(f"{k}={_plain(v)}" for k, v in p.to_fields().items())


def _ident(text: str) -> str:
    s = re.sub(r"\W+", "_", text).strip("_").lower()
    return s if s and not s[0].isdigit() else f"m_{s}"


def _header(title: str, lines: Sequence[str]) -> str:
    stamp = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    body = "\n".join(lines)
    return f'"""{title}\n\n{body}\n\nWritten by Intersection Explorer on {stamp}.\n"""\n'


def reference_test_source(a: Primitive, b: Primitive, answer: dict, *, id_a: str = "A",
                          id_b: str = "B", motion_a=None, motion_b=None,
                          scene_name: str = "") -> str:
    """A pytest file asserting ``answer`` (the ``explorer eval`` result of the pair)."""
    kinds = sorted({type(a).__name__, type(b).__name__})
    motion = [motion_a, motion_b]
    scale = scale_of(a, b, motion=[c for m in motion if m is not None for c in m] or None)
    title = f"{scene_name + ': ' if scene_name else ''}{id_a} ({a.kind}) against {id_b} ({b.kind})"
    lines = [
        "The objects are rebuilt from the exact doubles of the scene (float.fromhex), and the",
        "test asserts the reference answer of `explorer eval` (the library's default methods)",
        "as it was when this file was written:",
        f"  method: {answer.get('method')}",
        "Tolerance: distances and points within TOL = 1e-9 x SCALE (the largest coordinate or",
        "length of the pair); parameters (first_t) within 1e-9 x SCALE / |direction|; toi within",
        "1e-6 (the iterative time-of-impact methods converge to about 1e-9); decisions exactly.",
    ]
    out = [_header(title, lines)]
    out.append("import math\n\nimport pytest\n")
    out.append(f"from algorithms import {', '.join(kinds)}\n")
    out.append("from algorithms.report import evaluate_json\n\n")
    out.append(f"SCALE = {num(scale)}  # {scale!r}\nTOL = {EXPORT_TOL!r} * SCALE\n"
               f"TOI_TOL = {TOI_TOL!r}\n\n")
    out.append(f"{_comment(a)}\nA = {primitive_source(a)}\n")
    out.append(f"{_comment(b)}\nB = {primitive_source(b)}\n")
    out.append(f"MOTION_A = {None if motion_a is None else _vec(motion_a)}\n")
    out.append(f"MOTION_B = {None if motion_b is None else _vec(motion_b)}\n\n")
    keys = ("intersects", "distance", "closest", "first_t", "separating_axis", "side", "toi")
    expected = {k: answer.get(k) for k in keys}
    out.append("EXPECTED = {\n")
    for k in keys:
        out.append(f"    {k!r}: {_literal(expected[k])},\n")
    out.append("}\n\n\n")
    out.append(_ANSWER_HELPER)
    out.append(f"def test_{_ident(id_a)}_{_ident(id_b)}_reference_answer():\n")
    out.append("    r = answer()\n")
    out.append("    assert r['intersects'] == EXPECTED['intersects']\n")
    if expected["distance"] is not None:
        out.append("    assert r['distance'] == pytest.approx(EXPECTED['distance'], abs=TOL)\n")
    if expected["closest"] is not None:
        out.append("    for got, want in zip(r['closest'], EXPECTED['closest']):\n"
                   "        assert math.dist(got, want) <= TOL\n")
    if expected["first_t"] is None:
        out.append("    assert r['first_t'] is None\n")
    else:
        out.append("    assert r['first_t'] == pytest.approx(EXPECTED['first_t'], "
                   "abs=TOL / _length(A))\n")
    if expected["separating_axis"] is None:
        out.append("    assert r['separating_axis'] is None\n")
    else:
        out.append("    # a unit axis, either sign\n"
                   "    dot = sum(x * y for x, y in zip(r['separating_axis'], "
                   "EXPECTED['separating_axis']))\n"
                   "    assert abs(dot) == pytest.approx(1.0, abs=1e-9)\n")
    out.append("    assert r['side'] == EXPECTED['side']\n")
    if expected["toi"] is None:
        out.append("    assert r['toi'] is None\n")
    else:
        out.append("    assert r['toi'] == pytest.approx(EXPECTED['toi'], abs=TOI_TOL)\n")
    return "".join(out)


_ANSWER_HELPER = '''def answer() -> dict:
    """The pair's answer as `explorer eval` prints it."""
    return evaluate_json(A, B, MOTION_A, MOTION_B)


def _length(p) -> float:
    """|direction| of a linear component (the parameter's unit of length)."""
    if p.kind == "segment":
        return math.dist(p.p0, p.p1) or 1.0
    if p.kind in ("ray", "line"):
        return math.hypot(*p.direction)
    return 1.0


'''


def _literal(v) -> str:
    if v is None or isinstance(v, bool) or isinstance(v, int):
        return repr(v)
    if isinstance(v, float):
        return num(v)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_literal(c) for c in v) + "]"
    return repr(v)


def disagreement_test_source(query: str, a: Primitive, b: Primitive, args: tuple, *,
                             method: str, reference: str, reference_value, verdict: dict,
                             methods_file: Optional[str] = None, scene_file: str = "") -> str:
    """A pytest file that fails while ``method`` disagrees with ``reference`` on ``query``."""
    kinds = sorted({type(a).__name__, type(b).__name__})
    lines = [
        f"`explorer fuzz` found that {method!r} disagrees with the reference {reference!r}",
        f"on {query} for {a.kind}-{b.kind}: {verdict.get('why', '')}",
        "",
        f"Scene: {scene_file}  (open it: explorer open {scene_file}"
        + (f" --methods {methods_file}" if methods_file else "") + ")",
        "The objects are rebuilt from the exact doubles of the case (float.fromhex).",
        f"Tolerance: {ABS_TOL!r} x SCALE (the largest coordinate or length of the case) plus "
        f"{REL_TOL!r} x the",
        f"reference value on distances; the same over |direction| on first_t; {TOI_TOL!r} on",
        "toi; decisions exactly (algorithms.compare.judge, the fuzzer's own verdict).",
    ]
    out = [_header(f"Fuzz case: {method} against {reference}, {query}, {a.kind}-{b.kind}",
                   lines)]
    out.append("from pathlib import Path\n\n")
    out.append(f"from algorithms import {', '.join(kinds)}, registry\n")
    out.append("from algorithms.compare import judge\n")
    if methods_file:
        out.append("from algorithms.usermethods import load_methods\n\n")
        out.append(f"METHODS_FILE = Path({str(methods_file)!r})\n")
    out.append("\n")
    out.append(f"{_comment(a)}\nA = {primitive_source(a)}\n")
    out.append(f"{_comment(b)}\nB = {primitive_source(b)}\n")
    out.append(f"ARGS = {'(' + _vec(args[0]) + ',)' if args else '()'}"
               f"{'  # B' + chr(39) + 's motion relative to A' if args else ''}\n")
    out.append(f"REFERENCE_VALUE = {_literal(_jsonish(reference_value))}  # {reference} "
               "when the case was found\n\n\n")
    name = _ident(method)
    out.append(f"def test_{name}_agrees_with_{_ident(reference)}_on_{query}():\n")
    if methods_file:
        out.append("    load_methods(METHODS_FILE)\n")
    out.append(f"    ref = registry.query({query!r}, A, B, *ARGS, method={reference!r})\n")
    out.append("    try:\n")
    out.append(f"        got = registry.query({query!r}, A, B, *ARGS, method={method!r})\n")
    out.append("    except Exception as exc:  # a user method's failure is reported, "
               "not raised\n")
    out.append("        got = exc\n")
    out.append(f"    verdict = judge({query!r}, A, B, ARGS, ref, got)\n")
    out.append("    assert not verdict['disagrees'], verdict['why']\n")
    return "".join(out)


def _jsonish(v):
    if isinstance(v, tuple):
        return list(v)
    if isinstance(v, float) and not math.isfinite(v):
        return None
    return v




def pair_test_source(scene, id_a: str, id_b: str, scene_name: str = "") -> str:
    """:func:`reference_test_source` for objects ``id_a`` and ``id_b`` of a scene."""
    a, b = scene[id_a], scene[id_b]
    answer = scene.evaluate_pair(id_a, id_b)
    if not isinstance(answer, dict):  # a typed answer: its scene-v1 dict
        from algorithms.report import result_json

        answer = result_json(answer)
    return reference_test_source(a.primitive, b.primitive, answer, id_a=id_a, id_b=id_b,
                                 motion_a=a.motion, motion_b=b.motion,
                                 scene_name=scene_name or getattr(scene, "name", "") or "")
