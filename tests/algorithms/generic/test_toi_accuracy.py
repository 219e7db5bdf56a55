"""Accuracy of the general time-of-impact methods against the Primer's exact ones.

For sphere-sphere (A.13), plane-sphere (A.15), aabb-aabb (A.17) and sphere-aabb (rounded box),
random cases aimed so that about two thirds collide are answered by the exact test and by
``conservative_advancement`` and ``convex_search`` running on the registry's static distance
(the path ``explorer eval`` takes for pairs without an exact test). The default run checks
``N = 25`` cases per pair; ``TOI_ACCURACY_N=2000 pytest -s tests/algorithms/generic/test_toi_accuracy.py``
prints the full report.

A contact is *grazing* when the closing speed along the contact normal is below ``1e-3 |d|``:
there ``d(t)`` is nearly flat at its zero and the time is only determined to about
``sqrt(tol)``; elsewhere the error is about ``tol / closing speed``.
"""

import os
import time

import numpy as np

from algorithms import AABB, Plane, Sphere, query, registry
from algorithms.generic import advancement as toi_generic
from tests.algorithms.generic.test_advancement import ORACLES

N = int(os.environ.get("TOI_ACCURACY_N", "25"))
EXACT = {("sphere", "sphere"): "primer_a13_moving_spheres",
         ("plane", "sphere"): "primer_a15_moving_sphere_plane",
         ("aabb", "aabb"): "primer_a17_moving_aabbs", ("sphere", "aabb"): "rounded_box_ray_cast"}
GENERIC = ("conservative_advancement", "convex_search")


def _make(kind, rng):
    if kind == "sphere":
        return Sphere(tuple(rng.uniform(-3, 3, 3)), float(rng.uniform(0, 1.5)))
    if kind == "aabb":
        c, e = rng.uniform(-3, 3, 3), rng.uniform(0, 1.5, 3)
        return AABB(tuple(c - e), tuple(c + e))
    n = rng.normal(size=3)
    return Plane(tuple(n), float(rng.uniform(-2, 2)))


def _centre(p):
    if p.kind == "plane":
        return np.asarray(p.origin, float)
    return np.asarray(p.center, float)


def run(n, seed=0):
    rng = np.random.default_rng(seed)
    report = {}
    for pair, exact_name in EXACT.items():
        rows = {g: {"hits": 0, "max_err": 0.0, "max_err_grazing": 0.0, "none_mismatch": 0,
                    "queries": [], "seconds": 0.0} for g in GENERIC}
        count = grazing = hits = 0
        # the registry's static distance where one is registered, else the closed-form oracle
        dist = None if registry.has_query("distance", *pair) else ORACLES[pair]
        for _ in range(n):
            a, b = _make(pair[0], rng), _make(pair[1], rng)
            # aim B at A with some scatter, sometimes too short or away
            m = (_centre(a) - _centre(b)) * rng.uniform(-0.5, 2.5) + rng.normal(size=3)
            m = tuple(float(c) for c in m)
            ex = query("toi", a, b, m, method=exact_name)
            count += 1
            graze = False
            if ex.toi is not None:
                hits += 1
                if ex.toi > 0 and ex.normal is not None:
                    closing = -float(np.dot(ex.normal, m))
                    graze = closing < 1e-3 * np.linalg.norm(m)
                grazing += graze
            for g in GENERIC:
                t0 = time.perf_counter()
                res = getattr(toi_generic, g)(a, b, m, distance=dist)
                row = rows[g]
                row["seconds"] += time.perf_counter() - t0
                row["queries"].append(res.trace.get("static_queries", 0))
                if (res.toi is None) != (ex.toi is None):
                    row["none_mismatch"] += 1
                    continue
                if res.toi is None:
                    continue
                row["hits"] += 1
                err = abs(res.toi - ex.toi)
                key = "max_err_grazing" if graze else "max_err"
                row[key] = max(row[key], err)
        for g in GENERIC:
            rows[g]["median_queries"] = float(np.median(rows[g]["queries"]))
            rows[g]["ms_per_case"] = 1000 * rows[g]["seconds"] / count
            del rows[g]["queries"], rows[g]["seconds"]
        report[pair] = {"distance": "oracle" if dist else "registry", "cases": count, "exact_hits": hits, "grazing": grazing, **rows}
    return report


def test_accuracy_of_general_methods_against_exact():
    report = run(N)
    if os.environ.get("TOI_ACCURACY_N"):
        for pair, r in report.items():
            print(f"\n{pair[0]}-{pair[1]}: {r['cases']} cases, {r['exact_hits']} exact hits, "
                  f"{r['grazing']} grazing, static distance from the {r['distance']}")
            for g in GENERIC:
                x = r[g]
                print(f"  {g:26s} max|dtoi| {x['max_err']:.2e}  grazing {x['max_err_grazing']:.2e}"
                      f"  hit/miss disagreements {x['none_mismatch']}  median static queries "
                      f"{x['median_queries']:.0f}  {x['ms_per_case']:.2f} ms/case")
    for pair, r in report.items():
        for g in GENERIC:
            assert r[g]["max_err"] < 1e-8, (pair, g, r[g])
            assert r[g]["max_err_grazing"] < 1e-5, (pair, g, r[g])
            assert r[g]["none_mismatch"] <= max(1, r["cases"] // 500), (pair, g, r[g])


def _perp_unit(u, rng):
    w = np.cross(u, rng.normal(size=3))
    return w / np.linalg.norm(w)


def run_grazing(n, seed=1):
    """Paths that pass at a closest-approach gap ``eps`` from touching, ``|eps|`` log-uniform in
    ``[1e-12, 1e-2]`` with either sign: sphere-sphere (A.13) and a sphere sweeping past an
    AABB's corner (the rounded box's corner sphere)."""
    rng = np.random.default_rng(seed)
    report = {}
    for pair in (("sphere", "sphere"), ("sphere", "aabb")):
        rows = {g: {"max_err": 0.0, "mismatch": [], "queries": []} for g in GENERIC}
        for _ in range(n):
            eps = float(np.exp(rng.uniform(np.log(1e-12), np.log(1e-2))) * rng.choice([-1, 1]))
            ra = float(rng.uniform(0.2, 1.5))
            a = Sphere((0.0, 0.0, 0.0), ra)
            if pair[1] == "sphere":
                rb = float(rng.uniform(0, 1.5))
                u = rng.normal(size=3)
                u /= np.linalg.norm(u)
                w = _perp_unit(u, rng)
                start = (ra + rb + eps) * w - 5 * u
                b = Sphere(tuple(start), rb)
                m = tuple(float(c) for c in 10 * u)
            else:
                # box corner C passes the still sphere's centre at distance ra + eps:
                # C(t) = C0 + t m with closest approach at t = 0.5 along the direction -w
                k = np.abs(rng.normal(size=3)) + 0.1
                w = k / np.linalg.norm(k)  # all positive: the corner region of C = box max
                u = _perp_unit(w, rng)
                c_mid = -(ra + eps) * w  # corner at closest approach, seen from the centre
                ext = rng.uniform(0.2, 2, 3)
                corner0 = c_mid - 5 * u
                # the box lies on the -w side of its corner (max corner, w all positive)
                b = AABB(tuple(corner0 - ext), tuple(corner0))
                m = tuple(float(c) for c in 10 * u)
                # the corner's opposite: flip so the box's max corner faces the sphere
                b = AABB(tuple(-np.asarray(b.max)), tuple(-np.asarray(b.min)))
                m = tuple(-c for c in m)
            ex = query("toi", a, b, m, method=EXACT[pair])
            for g in GENERIC:
                res = query("toi", a, b, m, method=g)
                row = rows[g]
                row["queries"].append(res.trace.get("static_queries", 0))
                if (res.toi is None) != (ex.toi is None):
                    row["mismatch"].append(eps)
                elif res.toi is not None:
                    row["max_err"] = max(row["max_err"], abs(res.toi - ex.toi))
        report[pair] = rows
    return report


def test_grazing_accuracy():
    report = run_grazing(max(10, N // 5))
    for pair, rows in report.items():
        for g, row in rows.items():
            if os.environ.get("TOI_ACCURACY_N"):
                mm = row["mismatch"]
                print(f"\ngrazing {pair[0]}-{pair[1]} {g}: max|dtoi| {row['max_err']:.2e}, "
                      f"hit/miss disagreements {len(mm)} (|gap| <= "
                      f"{max(map(abs, mm)) if mm else 0:.1e}), median static queries "
                      f"{np.median(row['queries']):.0f}, max {max(row['queries'])}")
            # only gaps within the tolerance (1e-9 * |d| = 1e-8) may be called either way
            assert all(abs(e) < 1e-7 for e in row["mismatch"]), (pair, g, row["mismatch"])
            assert row["max_err"] < 1e-5
