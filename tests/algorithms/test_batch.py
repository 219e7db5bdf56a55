"""algorithms.batch gives the scalar query's answer on every row.

Each vectorised function is compared row by row with :func:`algorithms.query` (the independent
oracle here is the scalar path, itself tested against Fraction oracles) on random rows and on
degenerate rows: coordinates snapped to the grid {-1, -1/2, 0, 1/2, 1} (segments sharing ends,
parallel and collinear pairs, rays along faces and through edges and corners, points on
triangles, touching boxes), parallel and tangent constructions, zero lengths and radii. The
filter must send the doubtful rows to the scalar path (``careful``): the test checks that
there are such rows in the degenerate set and that every row agrees. Booleans must be equal,
numbers equal within 1e-9 of the row's scale (the scalar path is correctly rounded where the
batch is plain double: they differ by rounding, far less than this), ``nan`` where the scalar
answer is ``None``.

``BATCH_ROWS=100000 BATCH_DEGENERATE=10000`` runs the issue's full sizes (minutes).

Every test runs twice: on the numpy code and on :mod:`algorithms.accel`'s compiled loops
(skipped where numba is not installed); ``tests/algorithms/test_accel.py`` compares the two
paths bit for bit.
"""

import math
import os

import numpy as np
import pytest

from algorithms import AABB, OBB, Point, Ray, Segment, Sphere, Triangle, accel, batch, query

RANDOM = int(os.environ.get("BATCH_ROWS", "1500"))
DEGENERATE = int(os.environ.get("BATCH_DEGENERATE", "1000"))
NAN3 = (math.nan,) * 3


def _grid(rng, n, shape=(3,)):
    return rng.integers(-2, 3, size=(n,) + shape) / 2.0


def _rows(kind, rng, n):
    """Random rows (``kind="random"``) or degenerate ones (``"degenerate"``)."""
    if kind == "random":
        return lambda shape=(3,), s=1.0: s * rng.normal(size=(n,) + shape)
    return lambda shape=(3,), s=1.0: s * _grid(rng, n, shape)


def _same(got, want, scale):
    got = np.asarray(got, dtype=float)
    want = np.asarray(np.nan if want is None else want, dtype=float)
    both_nan = np.isnan(got) & np.isnan(want)
    return bool(np.all(both_nan | (np.abs(got - want) <= 1e-9 * scale)))


def _check(res, scalar, fields, scale_of):
    bad = []
    for i in range(len(res)):
        want = scalar(i)
        for key in fields:
            got = res.fields[key][i]
            w = want[key]
            if isinstance(w, bool) or key == "intersects":
                ok = bool(got) == bool(w)
            else:
                ok = _same(got, w, scale_of(i))
            if not ok:
                bad.append((i, key, got, w, bool(res.careful[i])))
    assert not bad, bad[:5]


def _first_hit(r):
    if not r.intersects or not r.hits:
        return {"intersects": False, "t": None, "point": NAN3, "normal": NAN3}
    h = r.hits[0]
    return {"intersects": True, "t": r.first_t, "point": h.point,
            "normal": NAN3 if h.normal is None else h.normal}


def _t(v):
    return tuple(float(x) for x in v)


SETS = [("random", RANDOM), ("degenerate", DEGENERATE)]

NUMBA = pytest.mark.skipif(not accel.available(), reason="numba is not installed")


@pytest.fixture(autouse=True, params=["numpy", pytest.param("numba", marks=NUMBA)])
def path(request):
    """Each test on the numpy code and on the compiled loops."""
    if request.param == "numpy":
        with accel.disabled():
            yield "numpy"
    else:
        assert accel.enabled(), "numba is installed but INTERSECTION_EXPLORER_NUMBA=0"
        yield "numba"


@pytest.mark.parametrize("kind,n", SETS)
def test_segment_segment(kind, n):
    rng = np.random.default_rng(1)
    g = _rows(kind, rng, n)
    p0, p1, q0, q1 = g(), g(), g(), g()
    if kind == "degenerate":
        k = n // 4  # exactly parallel (q = p shifted), collinear overlapping, zero length
        q0[:k], q1[:k] = p0[:k] + g()[:k] * 0.5, p1[:k] + g()[:k] * 0 + (p0[:k] - p0[:k])
        q1[:k] = q0[:k] + (p1[:k] - p0[:k]) * 2
        p1[k:2 * k] = p0[k:2 * k]
    res = batch.segment_segment(p0, p1, q0, q1)

    def scalar(i):
        r = query("distance", Segment(_t(p0[i]), _t(p1[i])), Segment(_t(q0[i]), _t(q1[i])))
        return {"distance": r.distance, "s": r.parameter[0], "t": r.parameter[1],
                "closest_a": r.closest[0], "closest_b": r.closest[1]}

    _check(res, scalar, ["distance", "s", "t", "closest_a", "closest_b"], lambda i: 4.0)
    if kind == "degenerate":
        assert res.careful.sum() > n // 4  # the parallel, zero-length, touching rows


@pytest.mark.parametrize("kind,n", SETS)
@pytest.mark.parametrize("linear", ["ray", "segment"])
@pytest.mark.parametrize("shape", ["aabb", "sphere", "triangle"])
def test_linear_first_hit(kind, n, linear, shape):
    rng = np.random.default_rng(2)
    g = _rows(kind, rng, n)
    o, d = g(s=2.0), g()
    if kind == "degenerate":
        d[: n // 10] = 0.0  # zero-length segments / a ray needs a direction: fixed below
        if linear == "ray":
            d[np.all(d == 0, axis=1)] = (1.0, 0.0, 0.0)
    make = ((lambda i: Ray(_t(o[i]), _t(d[i]))) if linear == "ray"
            else (lambda i: Segment(_t(o[i]), _t(o[i] + d[i]))))
    if shape == "aabb":
        lo = g()
        hi = lo + np.abs(g()) + (0.5 if kind == "random" else 0.0)
        res = batch.linear_aabb(o, d, lo, hi, linear)
        other = lambda i: AABB(_t(lo[i]), _t(hi[i]))  # noqa: E731
    elif shape == "sphere":
        c = g()
        r = np.abs(g(shape=())) + (0.2 if kind == "random" else 0.0)
        if kind == "degenerate":  # tangent rays: the centre at distance r from the line
            k = n // 4
            side = np.cross(d[:k] + (d[:k] == 0).all(axis=1)[:, None] * [0, 0, 1.0], [0, 0, 1.0])
            side[np.all(side == 0, axis=1)] = (1.0, 0.0, 0.0)
            c[:k] = o[:k] + side / np.linalg.norm(side, axis=1)[:, None] * r[:k, None]
        res = batch.linear_sphere(o, d, c, r, linear)
        other = lambda i: Sphere(_t(c[i]), float(r[i]))  # noqa: E731
    else:
        v0, v1, v2 = g(), g(), g()
        if kind == "degenerate":  # collinear triangles and components in the plane z = 0
            k = n // 4
            v2[:k] = 2 * v1[:k] - v0[:k]
            o[k:2 * k, 2] = d[k:2 * k, 2] = v0[k:2 * k, 2] = v1[k:2 * k, 2] = 0.0
            v2[k:2 * k, 2] = 0.0
            if linear == "ray":
                d[np.all(d == 0, axis=1)] = (1.0, 0.0, 0.0)
        res = batch.linear_triangle(o, d, v0, v1, v2, linear)
        other = lambda i: Triangle((_t(v0[i]), _t(v1[i]), _t(v2[i])))  # noqa: E731
    _check(res, lambda i: _first_hit(query("hits", make(i), other(i))),
           ["intersects", "t", "point", "normal"],
           lambda i: 1.0 + float(np.abs(o[i]).max() + np.abs(d[i]).max()))
    if kind == "degenerate":
        assert res.careful.any()


def _rotations(rng, n):
    q = rng.normal(size=(n, 4))
    q /= np.linalg.norm(q, axis=1)[:, None]
    w, a, b, c = q.T
    rows = ((1 - 2 * (b * b + c * c), 2 * (a * b + c * w), 2 * (a * c - b * w)),
            (2 * (a * b - c * w), 1 - 2 * (a * a + c * c), 2 * (b * c + a * w)),
            (2 * (a * c + b * w), 2 * (b * c - a * w), 1 - 2 * (a * a + b * b)))
    return np.stack([np.stack(row, 1) for row in rows], 1)


@pytest.mark.parametrize("kind,n", SETS)
def test_obb_obb(kind, n):
    rng = np.random.default_rng(3)
    g = _rows(kind, rng, n)
    if kind == "random":
        a0, a1 = _rotations(rng, n), _rotations(rng, n)
    else:  # the same axes (parallel edges everywhere), boxes touching on the grid
        a0 = np.broadcast_to(np.eye(3), (n, 3, 3)).copy()
        a1 = a0.copy()
        a1[n // 2:] = _rotations(rng, n - n // 2)
    c0, c1 = g(s=1.5), g(s=1.5)
    e0, e1 = np.abs(g()) + 0.25, np.abs(g()) + 0.25
    res = batch.obb_obb(c0, a0, e0, c1, a1, e1)
    _check(res, lambda i: {"intersects": query(
        "separating_axis", OBB(_t(c0[i]), a0[i], _t(e0[i])), OBB(_t(c1[i]), a1[i], _t(e1[i]))
    ).intersects}, ["intersects"], lambda i: 1.0)
    if kind == "degenerate":
        assert res.careful.any()


@pytest.mark.parametrize("kind,n", SETS)
def test_sphere_aabb_and_point_closest(kind, n):
    rng = np.random.default_rng(4)
    g = _rows(kind, rng, n)
    c, lo = g(s=1.5), g()
    hi = lo + np.abs(g()) + (0.3 if kind == "random" else 0.0)
    r = np.abs(g(shape=())) + (0.1 if kind == "random" else 0.0)
    res = batch.sphere_aabb(c, r, lo, hi)

    def sa(i):
        s, b = Sphere(_t(c[i]), float(r[i])), AABB(_t(lo[i]), _t(hi[i]))
        return {"intersects": query("intersects", s, b).intersects,
                "distance": query("distance", s, b).distance}

    _check(res, sa, ["intersects", "distance"], lambda i: 4.0)
    res = batch.point_aabb(c, lo, hi)
    _check(res, lambda i: (lambda x: {"closest": x.closest[1], "distance": x.distance})(
        query("distance", Point(_t(c[i])), AABB(_t(lo[i]), _t(hi[i])))),
        ["closest", "distance"], lambda i: 4.0)
    v0, v1, v2 = g(), g(), g()
    res = batch.point_triangle(c, v0, v1, v2)
    _check(res, lambda i: (lambda x: {"closest": x.closest[1], "distance": x.distance})(
        query("distance", Point(_t(c[i])), Triangle((_t(v0[i]), _t(v1[i]), _t(v2[i]))))),
        ["closest", "distance"], lambda i: 4.0)


@pytest.mark.parametrize("kind,n", SETS)
def test_moving_spheres_and_aabbs(kind, n):
    rng = np.random.default_rng(5)
    g = _rows(kind, rng, n)
    c0, c1, m = g(s=1.5), g(s=1.5), g(s=3.0)
    r0 = np.abs(g(shape=())) + (0.1 if kind == "random" else 0.0)
    r1 = np.abs(g(shape=())) + (0.1 if kind == "random" else 0.0)
    res = batch.moving_spheres(c0, r0, c1, r1, m)

    def ct(x):
        return {"toi": x.toi, "point": NAN3 if x.point is None else x.point,
                "normal": NAN3 if x.normal is None else x.normal}

    _check(res, lambda i: ct(query("toi", Sphere(_t(c0[i]), float(r0[i])),
                                   Sphere(_t(c1[i]), float(r1[i])), _t(m[i]))),
           ["toi", "point", "normal"], lambda i: 8.0)
    lo, e = g(), np.abs(g())
    res = batch.moving_aabbs(lo, lo + e, c1, c1 + e[::-1], m)
    _check(res, lambda i: ct(query("toi", AABB(_t(lo[i]), _t(lo[i] + e[i])),
                                   AABB(_t(c1[i]), _t(c1[i] + e[::-1][i])), _t(m[i]))),
           ["toi", "point", "normal"], lambda i: 8.0)


def test_segment_segment_hand_derived():
    # segment A along x from 0 to 1; B from (0.5, 1, -1) to (0.5, 1, 1) crosses above A's
    # middle: closest points (0.5, 0, 0) and (0.5, 1, 0), distance 1, s = t = 1/2.
    # C from (2, 0, 1) to (2, 1, 1): A's end (1, 0, 0) to C's start, distance sqrt(2).
    r = batch.segment_segment([[0, 0, 0], [0, 0, 0]], [[1, 0, 0], [1, 0, 0]],
                              [[0.5, 1, -1], [2, 0, 1]], [[0.5, 1, 1], [2, 1, 1]])
    assert r.distance.tolist() == [1.0, math.sqrt(2.0)]
    assert r.s.tolist() == [0.5, 1.0] and r.t.tolist() == [0.5, 0.0]
    assert r.closest_b[0].tolist() == [0.5, 1.0, 0.0]
    assert not r.careful.any()
    # a parallel pair is the careful path's (the minimiser is not unique)
    r = batch.segment_segment([[0, 0, 0]], [[1, 0, 0]], [[0, 1, 0]], [[1, 1, 0]])
    assert r.careful.tolist() == [True] and r.distance.tolist() == [1.0]


def test_ray_aabb_hand_derived():
    # the ray from (-2, 0.5, 0.5) along +x enters the unit box at x = 0: t = 2, normal -x;
    # from the box's centre it starts inside: t = 0, no normal; along +y it misses.
    r = batch.linear_aabb([[-2, 0.5, 0.5], [0.5, 0.5, 0.5], [-2, 0.5, 0.5]],
                          [[1, 0, 0], [1, 0, 0], [0, 1, 0]], [0, 0, 0], [1, 1, 1])
    assert r.intersects.tolist() == [True, True, False]
    assert r.t[:2].tolist() == [2.0, 0.0] and math.isnan(r.t[2])
    assert r.normal[0].tolist() == [-1.0, 0.0, 0.0] and np.isnan(r.normal[1]).all()


def test_readme_batch_example_runs_as_printed():
    import doctest
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    section = readme.split("## Many queries at once")[1].split("\n## ")[0]
    block = section.split("```python")[1].split("```")[0]
    test = doctest.DocTestParser().get_doctest(block, {}, "README batch", "README.md", 0)
    runner = doctest.DocTestRunner()
    runner.run(test)
    assert runner.failures == 0 and runner.tries >= 6
    # and the module's own example
    assert doctest.testmod(batch).failed == 0

