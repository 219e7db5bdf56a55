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

import algorithms
from algorithms import Cylinder, query
from algorithms.kernels import gjk as kernel
from algorithms.queries import cylinder_cylinder as cc


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


#: GJK iterations outside kernels/gjk.run, each with the reason it is still there. The
#: time-of-impact fast path's warm-started, early-stopping plain-float GJK is a second loop:
#: the open part of issue 10's "one GJK" (it uses the kernel's sub-algorithms; folding it into
#: ``run`` is the next step). A new entry here needs the same kind of reason.
SECOND_LOOPS = {
    "kernels/toi_fast.py:at": "toi fast path (issue 10, open)",
    "kernels/toi_fast.py:_retry": "toi fast path's tilted retry (issue 10, open)",
}


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
