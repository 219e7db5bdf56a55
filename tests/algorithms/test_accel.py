"""algorithms.accel: the compiled loops give the numpy code's bits, and switch off cleanly."""

import os
import subprocess
import sys

import numpy as np
import pytest

from algorithms import accel, batch
from tests.algorithms.test_batch import _rotations

NUMBA = pytest.mark.skipif(not accel.available(), reason="numba is not installed")


def _grid_or_normal(rng, kind, n, shape=(3,)):
    if kind == "random":
        return rng.normal(size=(n,) + shape)
    return rng.integers(-2, 3, size=(n,) + shape) / 2.0


@NUMBA
@pytest.mark.parametrize("kind", ["random", "degenerate"])
def test_compiled_loops_give_numpys_bits(kind):
    """Every compiled loop gives the numpy code's bits on every row, and the same ``careful``
    mask (same formulas in the same order, plain IEEE doubles), on random rows and on grid rows
    full of ties, parallels and touching cases."""
    rng = np.random.default_rng(11)
    n = 4000

    def g(shape=(3,)):
        return _grid_or_normal(rng, kind, n, shape)

    def direction():
        d = g()
        d[~d.any(axis=1)] = (1.0, 0.0, 0.0)  # a ray needs a direction
        return d

    boxes = (np.minimum(g(), 0.0), np.maximum(g(), 0.0))
    args = {"segment_segment": (g(), g(), g(), g()),
            "obb_obb": (g(), _rotations(rng, n), np.abs(g()) + 0.1, g(), _rotations(rng, n),
                        np.abs(g()) + 0.1)}
    args["sphere_aabb"] = (g(), np.abs(g(())), *boxes)
    args["point_triangle"] = (g(), g(), g(), g())
    args["point_aabb"] = (g(), *boxes)
    args["moving_spheres"] = (g(), np.abs(g(())), g(), np.abs(g(())), g())
    args["moving_aabbs"] = (*boxes, np.minimum(g(), 0.0), np.maximum(g(), 0.0), g())
    for linear in ("ray", "segment"):
        args[f"linear_aabb {linear}"] = (g(), direction(), *boxes)
        args[f"linear_sphere {linear}"] = (g(), direction(), g(), np.abs(g(())))
        args[f"linear_triangle {linear}"] = (g(), direction(), g(), g(), g())
    assert {k.split()[0] for k in args} == set(accel.KERNELS)
    careful_rows = 0
    for key, a in args.items():
        name, *linear = key.split()
        f = getattr(batch, name)
        kw = {"kind": linear[0]} if linear else {}
        compiled = f(*a, **kw)
        with accel.disabled():
            reference = f(*a, **kw)
        assert np.array_equal(compiled.careful, reference.careful), key
        careful_rows += int(reference.careful.sum())
        for field, want in reference.fields.items():
            assert np.array_equal(compiled.fields[field], want, equal_nan=True), (key, field)
    if kind == "degenerate":
        assert careful_rows > n  # the grid rows do reach the careful path


def test_filter_band_is_batchs():
    # accel's K must be batch's FILTER_ULPS * EPS, or the two paths' filters would differ
    assert accel.K == batch.FILTER_ULPS * batch.EPS


def test_switched_off_by_the_environment_and_by_disabled():
    code = ("from algorithms import accel; import numpy as np; from algorithms import batch; "
            "r = batch.segment_segment(np.zeros((1, 3)), np.ones((1, 3)), np.ones((1, 3)) * 2, "
            "np.ones((1, 3)) * 3); import sys; print(accel.enabled(), 'numba' in sys.modules, "
            "r.distance[0])")
    env = dict(os.environ, INTERSECTION_EXPLORER_NUMBA="0")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True).stdout.split()
    # numpy only, numba never loaded; the segments (0,0,0)-(1,1,1) and (2,2,2)-(3,3,3) are
    # sqrt(3) apart (end to end along the diagonal)
    assert out == ["False", "False", repr(3 ** 0.5)]
    with accel.disabled():
        assert not accel.enabled()
        assert accel.kernel("segment_segment") is None


def test_importing_algorithms_does_not_load_numba():
    code = ("import sys, algorithms; from algorithms import registry, batch; "
            "registry.load_all(); print('numba' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.split()
    assert out == ["False"]
