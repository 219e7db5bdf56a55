"""Point, segment, ray and line against a (solid) sphere.

* point: closest point of the ball, Dunn & Parberry, 3D Math Primer, App. A.4 (a point inside
  the solid ball is its own closest point; see :func:`algorithms.kernels.closest.closest_point_sphere`);
* segment/ray/line ``hits``: App. A.12, Hultquist's construction ``t = a - f`` with
  ``e = c - p0``, ``a = e . d_hat``, ``f^2 = r^2 - e^2 + a^2``; the exit ``a + f`` is returned too,
  and an origin inside (``e^2 < r^2``, which the book leaves to the application) gives
  ``first_t = 0`` for a segment or ray and a hit of kind ``"inside"``;
* ``distance``: 0 at the first touching point; otherwise the point of the component nearest
  the centre (App. A.2, clamped to the domain) and the sphere point toward it (App. A.4).
"""

from __future__ import annotations

import math

from algorithms.core import vec as V
from algorithms.core.once import shared
from algorithms.kernels.closest import (closest_point_sphere, closest_t_to_point,
                                        intersects_from_hits, is_zero_vector, linear_parts,
                                        point_at, rescaled, rescue_hit, robust_distance,
                                        solid_hits, touching_distance)
from algorithms.registry import register
from algorithms.results import DistanceResult, IntersectionResult

LINEAR = ("segment", "ray", "line")
A12 = "ray-sphere, Hultquist, Dunn & Parberry, 3D Math Primer App. A.12"
A4 = "closest point on a sphere, Dunn & Parberry, 3D Math Primer App. A.4"


def hits_linear_sphere(a, sph):
    """Segment, ray or line against the solid sphere: Hultquist (App. A.12).

    The book's names, with ``d_hat = d / |d|`` and lengths along ``d_hat``: ``e = c - p0``,
    ``a = e . d_hat``, ``f^2 = r^2 - e^2 + a^2``; entry ``a - f``, exit ``a + f``. Changes for
    robustness, all exact in real arithmetic: ``e^2 - a^2`` (the squared distance ``b^2`` from
    the centre to the line) is computed as ``|e x d|^2 / (d . d)`` (Lagrange's identity: no
    cancellation far from the sphere, and exactly 0 when ``e`` and ``d`` are parallel in
    floating point); the roots are found in the component's own ``t`` as
    ``(e . d -+ sqrt(d.d r^2 - |e x d|^2)) / (d . d)`` without normalising ``d``; and the root
    nearer the origin is taken from Vieta (the product of the roots is
    ``(e^2 - r^2) / (d . d)``), avoiding the ``a - f`` cancellation. ``trace`` keeps the book's
    ``e``, ``e^2``, ``a``, ``b^2``, ``f^2``, ``f`` and ``t = a - f`` (a length).
    """
    o, d, lo, hi = linear_parts(a)
    c = V.to_float(sph.center)
    r = float(sph.radius)
    of, df = V.to_float(o), V.to_float(d)
    e = V.sub(c, of)
    e2 = V.dot(e, e)
    r2 = r * r
    trace = {"e": e, "e^2": e2, "r^2": r2, "inside": e2 < r2}
    if is_zero_vector(df):
        inside = e2 <= r2
        trace["degenerate"] = "zero-length segment: point in ball test"
        return solid_hits(of, df, lo, hi, -math.inf if inside else None, math.inf, None, None,
                          A12, trace)
    ds, m = rescaled(df)  # a direction whose square under/overflows is scaled first
    dd = V.dot(ds, ds)
    dl = math.sqrt(dd)
    ed = V.dot(e, ds)
    exd2 = V.sqr_norm(V.cross(e, ds))
    av = ed / dl
    b2 = exd2 / dd
    f2 = r2 - b2
    trace.update({"a": av, "b^2": b2, "f^2": f2})
    # in t units (lengths divided by |d|): roots (e.d -+ sqrt(disc)) / (d.d), disc = d.d f^2
    disc = dd * r2 - exd2
    if disc < 0:
        trace["rejected"] = "f^2 < 0: the line misses the sphere"
        return solid_hits(of, df, lo, hi, None, None, None, None, A12, trace)
    f = math.sqrt(max(f2, 0.0))
    sq = math.sqrt(disc)
    trace["f"] = f
    if ed >= 0:
        q = ed + sq
        t_out = q / dd
        t_in = (e2 - r2) / q if q > 0 else (ed - sq) / dd
    else:
        q = ed - sq
        t_in = q / dd
        t_out = (e2 - r2) / q
    if t_in > t_out:  # rounding in (e^2 - r^2) on a tangent line
        t_in = t_out = (t_in + t_out) / 2
    trace.update({"t = a - f": t_in * dl, "a + f": t_out * dl})
    t_in, t_out = t_in / m, t_out / m
    trace.update({"t_enter": t_in, "t_leave": t_out})

    def normal(t):
        if r == 0:
            return None
        p = point_at(of, df, t)
        return V.scale(1.0 / r, V.sub(p, c))

    return solid_hits(of, df, lo, hi, t_in, t_out, normal(t_in), normal(t_out), A12, trace)


def _nearest(a, sph):
    """``(t, A(t), |A(t) - c|)`` for ``t`` the parameter nearest the centre (App. A.2, clamped)."""
    o, d, lo, hi = linear_parts(a)
    of, df = V.to_float(o), V.to_float(d)
    c = V.to_float(sph.center)
    t = float(closest_t_to_point(of, df, lo, hi, c))
    p = point_at(of, df, t)
    return t, p, V.norm(V.sub(p, c))


@shared
def hits_sphere(a, sph):
    """Hultquist's cast (:func:`hits_linear_sphere`); when it rejects a line passing within
    rounding of the sphere while the component's point nearest the centre lies in the ball
    (``|A(t) - c| <= r`` in floating point), that touching point is reported
    (:func:`algorithms.kernels.closest.rescue_hit`), so hits, intersects and distance agree."""
    hr = hits_linear_sphere(a, sph)
    if hr.intersects:
        return hr
    t, p, lpc = _nearest(a, sph)
    o, d, _, _ = linear_parts(a)
    sq = 0 if lpc <= float(sph.radius) else 1
    return rescue_hit(hr, V.to_float(o), V.to_float(d), sq, t,
                      "the point nearest the centre lies in the ball within rounding")


def distance_linear_sphere(a, sph):
    """Distance from a segment, ray or line to the solid sphere.

    Touching (App. A.12 finds a hit): 0 at ``first_t``. Otherwise ``t`` = the parameter nearest
    the centre, ``d . (c - p0) / (d . d)`` clamped to the domain (App. A.2), and the distance is
    ``|A(t) - c| - r`` with the sphere point ``c + r (A(t) - c) / |A(t) - c|`` (App. A.4).
    """
    method = "linear-sphere distance: " + A12 + "; " + A4
    hr = hits_sphere(a, sph)
    o, d, lo, hi = linear_parts(a)
    of, df = V.to_float(o), V.to_float(d)
    if hr.intersects:
        return touching_distance(of, df, hr, method, {"first_t": hr.first_t})
    t, p, lpc = _nearest(a, sph)
    q = closest_point_sphere(p, sph)
    dist = max(lpc - float(sph.radius), 0.0)
    trace = {"t": t, "|A(t) - c|": lpc, "r": float(sph.radius)}
    return DistanceResult(method=method, trace=trace, distance=dist, sqr_distance=dist * dist,
                          closest=(p, q), parameter=(t, None))


def distance_point_sphere(pt, sph):
    """App. A.4: ``q' = q + (|d| - r)/|d| d``, ``d = c - q``; ``q`` itself when inside the ball."""
    q = V.to_float(pt.position)
    c = V.to_float(sph.center)
    dl = V.norm(V.sub(c, q))
    r = float(sph.radius)
    qp = closest_point_sphere(q, sph)
    inside = V.sqr_dist(q, c) <= r * r  # the same test as closest_point_sphere
    dist = 0.0 if inside else max(dl - r, 0.0)
    trace = {"|d|": dl, "r": r, "inside": inside}
    return DistanceResult(method=A4, trace=trace, distance=dist, sqr_distance=dist * dist,
                          closest=(q, q if dist == 0 else qp), parameter=(None, None))


def intersects_point_sphere(pt, sph):
    """``|q - c|^2 <= r^2``."""
    q = V.to_float(pt.position)
    dd = V.sqr_dist(q, V.to_float(sph.center))
    r2 = float(sph.radius) ** 2
    return IntersectionResult(method=A4, trace={"|q - c|^2": dd, "r^2": r2},
                              intersects=bool(dd <= r2))


intersects_linear_sphere = intersects_from_hits(hits_sphere, A12)


register("distance", "point", "sphere")(robust_distance(distance_point_sphere))
register("intersects", "point", "sphere")(intersects_point_sphere)
for _k in LINEAR:
    register("hits", _k, "sphere")(hits_sphere)
    register("distance", _k, "sphere")(robust_distance(distance_linear_sphere))
    register("intersects", _k, "sphere")(intersects_linear_sphere)
