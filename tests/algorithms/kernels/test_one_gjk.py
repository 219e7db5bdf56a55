"""One GJK in the library (issue 10, part 5): every GJK iteration is
:func:`algorithms.kernels.gjk.run` and every simplex sub-algorithm is
:func:`algorithms.kernels.gjk.closest_on_simplex`.

These tests fail if a query grows a private GJK again (as cylinder-cylinder had one, with its
own signed-volume sub-algorithm): the counting wrappers see no call, or the scan of the
sources finds a second sub-algorithm (the exhaustive :func:`closest_on_simplex` and Ericson's
regions, :func:`closest_on_simplex_fast`, both live in the kernel) or an unlisted GJK loop
(:data:`SECOND_LOOPS`: the time-of-impact fast path's own loop is still one, and says so)."""

from __future__ import annotations

import ast
import math
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.fuzz import examples

import algorithms
from algorithms import Cylinder, query
from algorithms.kernels import gjk as kernel
from algorithms.queries import cylinder_cylinder as cc
from tests.algorithms.generic.test_advancement import BOUNDED


@pytest.fixture
def counted(monkeypatch):
    calls = {"run": 0, "closest_on_simplex": 0}
    real_run, real_closest = kernel.run, kernel.closest_on_simplex

    def run(*args, **kwargs):
        calls["run"] += 1
        return real_run(*args, **kwargs)

    def closest(*args, **kwargs):
        calls["closest_on_simplex"] += 1
        return real_closest(*args, **kwargs)

    monkeypatch.setattr(kernel, "run", run)
    monkeypatch.setattr(kernel, "closest_on_simplex", closest)
    return calls


def test_cylinder_cylinder_runs_the_kernel_gjk(counted):
    # skew axes (z and y), centres 3 apart along x, radius 1, height 2: the wall of A at
    # x = 1 and the wall of B at x = 2 are the nearest features, so the distance is 1
    a = Cylinder((0.0, 0.0, 0.0), (0.0, 0.0, 1.0), 1.0, 2.0)
    b = Cylinder((3.0, 0.0, 0.0), (0.0, 1.0, 0.0), 1.0, 2.0)
    res = cc.decide(a, b)
    assert math.isclose(res["distance"], 1.0, rel_tol=0, abs_tol=1e-12)
    # the two separating-plane tests and the gradient-zero test: three GJK runs, each
    # through the kernel's loop and the kernel's sub-algorithm
    assert counted["run"] == 3
    assert counted["closest_on_simplex"] >= 3
    assert set(res["gjk"]) == {"perpendicular to w0", "perpendicular to w1", "gradient zero"}


def test_generic_gjk_distance_runs_the_kernel_loop(counted):
    a = Cylinder((0.0, 0.0, 0.0), (0.0, 0.0, 1.0), 1.0, 2.0)
    b = Cylinder((3.0, 0.0, 0.0), (0.0, 1.0, 0.0), 1.0, 2.0)
    res = query("distance", a, b, method="gjk")
    assert math.isclose(res.distance, 1.0, abs_tol=1e-9)
    assert counted["run"] == 1 and counted["closest_on_simplex"] >= 1


def _functions(path: Path):
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield node


def test_no_second_simplex_subalgorithm_or_gjk_loop_in_the_sources():
    """No module but kernels/gjk.py defines a simplex sub-algorithm (a function named for a
    simplex, a tetrahedron or Johnson's / signed-volume method) or a ``*gjk*`` function that
    iterates on its own (a ``while`` loop without calling the kernel's ``run``; the ray
    cast, a different algorithm on the same sub-algorithm, is the one exception)."""
    root = Path(algorithms.__file__).parent
    kernel_path = root / "kernels" / "gjk.py"
    offenders = []
    for path in sorted(root.rglob("*.py")):
        if path == kernel_path:
            continue
        for fn in _functions(path):
            name = fn.name.lower()
            if any(word in name for word in ("simplex", "tetra", "johnson", "signed_vol")):
                offenders.append(f"{path.relative_to(root)}:{fn.name}")
            if "gjk" in name and name != "gjk_ray_cast":
                loops = any(isinstance(n, ast.While) for n in ast.walk(fn))
                calls_run = any(isinstance(n, ast.Attribute) and n.attr == "run"
                                for n in ast.walk(fn))
                if loops and not calls_run:
                    offenders.append(f"{path.relative_to(root)}:{fn.name} (its own loop)")
    assert not offenders, offenders


#: GJK iterations outside kernels/gjk.py, each with the reason it is still there: none. The
#: time-of-impact fast path's warm-started, early-stopping plain-float GJK was the last one
#: (issue 10); it now runs the kernel's :func:`algorithms.kernels.gjk.iterate`. A new entry
#: here needs a reason as strong.
SECOND_LOOPS: dict = {}


def test_every_gjk_iteration_outside_the_kernel_is_listed():
    """A loop that calls a simplex sub-algorithm (``closest_on_simplex*`` or ``self.closest``)
    is a GJK iteration: outside kernels/gjk.py only the listed ones exist, and each listed one
    still does (so the list cannot go stale)."""
    root = Path(algorithms.__file__).parent
    kernel_path = root / "kernels" / "gjk.py"
    found = set()
    for path in sorted(root.rglob("*.py")):
        if path == kernel_path:
            continue
        for fn in _functions(path):
            for loop in (n for n in ast.walk(fn) if isinstance(n, (ast.For, ast.While))):
                names = {n.attr for n in ast.walk(loop) if isinstance(n, ast.Attribute)}
                names |= {n.id for n in ast.walk(loop) if isinstance(n, ast.Name)}
                if any(x.startswith("closest_on_simplex") or x == "closest" for x in names):
                    if fn.name != "gjk_ray_cast":  # a different algorithm on the same pieces
                        found.add(f"{path.relative_to(root)}:{fn.name}")
    assert found == set(SECOND_LOOPS), found ^ set(SECOND_LOOPS)


def test_closest_on_simplex_base_gives_the_full_search_answer():
    """GJK's shortcut (only the faces holding the new point are tried) gives the full
    search's answer bit for bit, on simplices met in real runs."""
    import numpy as np

    rng = np.random.default_rng(5)
    seen = 0
    for _ in range(300):
        pts = [tuple(float(x) for x in rng.normal(size=3) + rng.normal(size=3) * 0.1)
               for _ in range(int(rng.integers(2, 5)))]
        idx, lam, v = kernel.closest_on_simplex(pts[:-1])
        if len(idx) != len(pts) - 1:
            continue  # the base must be the whole earlier simplex, as in GJK
        base = (lam, v[0] * v[0] + v[1] * v[1] + v[2] * v[2])
        assert kernel.closest_on_simplex(pts, base=base) == kernel.closest_on_simplex(pts)
        seen += 1
    assert seen > 100


# ------------------------------------------------------------- the fold: one loop, two modes


def test_the_toi_fast_path_runs_the_kernel_loop(monkeypatch):
    """The time-of-impact fast path iterates in :func:`algorithms.kernels.gjk.iterate` (the
    loop :func:`algorithms.kernels.gjk.run` is built on), in its plain-float mode."""
    from algorithms import OBB
    from algorithms.kernels import toi_fast

    modes = []
    real = toi_fast.iterate

    def counted_iterate(*args, **kwargs):
        modes.append(kwargs.get("plain"))
        return real(*args, **kwargs)

    monkeypatch.setattr(toi_fast, "iterate", counted_iterate)
    # unit boxes 3 apart along x, closing at speed 4: the faces x = 0.5 and x = 2.5 meet after
    # 2 of the 4 units, t = 0.5
    a = OBB((0, 0, 0), ((1, 0, 0), (0, 1, 0), (0, 0, 1)), (0.5, 0.5, 0.5))
    b = OBB((3, 0, 0), ((1, 0, 0), (0, 1, 0), (0, 0, 1)), (0.5, 0.5, 0.5))
    r = query("toi", a, b, (-4, 0, 0), method="conservative_advancement")
    assert "path" in r.trace and r.toi == pytest.approx(0.5, abs=1e-15)
    assert modes and all(m is True for m in modes)


def test_run_is_iterate_from_a_cold_start():
    """``run`` is ``iterate`` from the one-point simplex of the centres, careful mode: the same
    answer, key for key (so the careful path the benchmarks measure is the loop itself)."""
    import numpy as np

    from algorithms.kernels.support import centre, support

    a = Cylinder((0.0, 0.0, 0.0), (0.0, 0.3, 1.0), 1.0, 2.0)
    b = Cylinder((3.0, 0.5, 0.0), (1.0, 1.0, 0.0), 0.7, 1.5)
    sa, sb = (lambda d: support(a, d)), (lambda d: support(b, d))
    r = kernel.run(sa, sb, centre(a), centre(b), size=3.0, record=True)
    y0 = tuple(float(c) for c in centre(a) - centre(b))
    s = kernel.iterate(sa, sb, [(centre(a), centre(b))], [y0], (1.0,), y0, size=3.0,
                       record=True)
    assert r["termination"] == s["termination"] and r["iterations"] == s["iterations"]
    assert r["W"] == s["W"] and r["lam"] == s["lam"] and r["v"] == s["v"]
    assert r["lower"] == s["lower"] and r["steps"] == s["steps"]
    assert np.array_equal(r["lower_direction"], s["lower_direction"])
    # the skew cylinders' distance (their GJK certificate): lower <= |v|, within 1e-12
    vn = math.sqrt(sum(c * c for c in r["v"]))
    assert r["lower"] <= vn * (1 + 1e-15) and vn - r["lower"] <= 1e-12 * vn


def _plain(shape_a, shape_b, pts, offset, size, closest):
    """One plain-mode run from the simplex ``pts`` (support pairs, B's at offset 0) to a gap of
    ``1e-12 size``: ``(upper, lower, termination)``."""
    ox, oy, oz = offset
    Y = [(p[0] - q[0] - ox, p[1] - q[1] - oy, p[2] - q[2] - oz) for p, q in pts]
    if len(Y) > 1:
        idx, lam, v = closest(Y)
        pts, Y = [pts[i] for i in idx], [Y[i] for i in idx]
    else:
        lam, v = (1.0,), Y[0]
    s = kernel.iterate(shape_a, shape_b, pts, Y, lam, v, size=size, offset=offset,
                       closest=closest, plain=True, touch=8 * 2.0 ** -52 * size,
                       stop=(1e-12 * size, 0.0, 0.0), max_iterations=256)
    vx, vy, vz = s["v"]
    return math.sqrt(vx * vx + vy * vy + vz * vz), s["lower"], s["termination"], s["simplex"]


@settings(max_examples=examples(150), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(st.data())
def test_warm_started_run_agrees_with_a_cold_run(data):
    """The toi path's warm start (the simplex of the shapes at an earlier offset of B) finds
    the distance a cold start finds, and both bracket the careful static query's core
    distance: ``lower <= d <= upper`` up to rounding (the careful GJK, an independent run on
    numpy supports, is the oracle)."""
    from algorithms.kernels import toi_fast

    bounded = BOUNDED
    ka = data.draw(st.sampled_from(sorted(bounded)))
    kb = data.draw(st.sampled_from(sorted(bounded)))
    a, b = data.draw(bounded[ka]), data.draw(bounded[kb])
    o1 = data.draw(st.tuples(*[st.floats(-6, 6, allow_nan=False)] * 3))
    o2 = data.draw(st.tuples(*[st.floats(-6, 6, allow_nan=False)] * 3))
    _, _, sa, ra, ca, sza = toi_fast.shape(a)
    _, _, sb, rb, cb, szb = toi_fast.shape(b)
    size = max(sza, szb, *map(abs, o1), *map(abs, o2), 1e-3)
    closest = data.draw(st.sampled_from([kernel.closest_on_simplex_fast,
                                         kernel.closest_on_simplex]))
    cold = _plain(sa, sb, [(ca, cb)], o2, size, closest)
    first = _plain(sa, sb, [(ca, cb)], o1, size, closest)
    warm = _plain(sa, sb, first[3], o2, size, closest)
    careful = query("distance", a, b.translated(o2), method="gjk")
    # the cores' distance (the registry may solve the pair rescaled: its trace is in those
    # units, the distance is not); a distance of 0 says only that the cores are within ra + rb
    core = careful.distance + ra + rb
    slack = 1e-9 * size
    for up, low, term, _ in (cold, warm):
        assert term != "max iterations"
        if term.startswith("overlap"):
            assert careful.distance <= slack  # touching or overlapping cores
            continue
        if careful.distance == 0:
            assert low <= core + slack  # the cores within ra + rb: only the lower bound
            continue
        assert low <= core + slack and core <= up + slack
        if term == "converged (gap)":
            assert up - core <= 2e-12 * size + slack
    if not (cold[2].startswith("overlap") or warm[2].startswith("overlap")):
        assert warm[0] == pytest.approx(cold[0], abs=2 * slack)
