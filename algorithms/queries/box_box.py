"""Separating axes for boxes: OBB-OBB (15 axes), OBB-AABB, AABB-AABB; AABB-AABB distance.

The separating-axis kernel used by :mod:`algorithms.queries.triangle_solids` lives here too.

Method (Eberly & Schneider, GTCG §11.11 and §11.12.7). Two convex sets are disjoint iff the
projections on some line ``L`` are disjoint. For a box with centre ``C``, unit axes ``a_i`` and
half-extents ``h_i`` the projection on ``L`` is the interval ``C.L +- r`` with
``r = sum_i h_i |a_i . L|`` (the book's ``r_A``, ``r_B``); the boxes are separated on ``L`` iff
``|(C_B - C_A) . L| > r_A + r_B``. For two boxes the 15 candidates ``a_A,u`` (3), ``a_B,v``
(3) and ``a_A,u x a_B,v`` (9) suffice (§11.12.7, ``r_B`` over ``a_A,u x a_B,v``).

Everything is computed on the *unnormalised* candidate ``L`` with :mod:`algorithms.core.vec`, so
boxes built from rational rotations (``exact=True``) get an exact decision; only the trace and
the returned unit axis divide by ``|L|`` (one float square root each).

Near-parallel edges. When ``a_A,u`` and ``a_B,v`` are (nearly) parallel the cross product
degenerates: exactly zero it is no axis at all, and nearly zero its direction is rounding noise
while ``r_A + r_B`` and the centre distance both shrink towards 0, so a noisy "separated" could
come out. Such a cross axis is *skipped* (listed in ``trace["skipped_axes"]``) when
``|a x b| <= 1e-8 |a| |b|`` in floating point (only when exactly zero on Fractions). This is safe
because, when ``a_A,u`` is parallel to ``a_B,v``, separation reduces to the 2D problem in the
plane perpendicular to that edge, whose separating directions are the remaining face axes of
A and B; for an angle ``theta <= 1e-8`` a separation missed by skipping is at most about
``theta`` times the box size (the configuration is within that of the parallel one).

Touching counts as intersecting, unlike Listing A.5 of the Primer (App. A.17), which treats
touching AABBs as disjoint: exact input separates on ``margin > 0``; float input on a margin
above the touching band ``TOUCH_REL (|c_A| + |c_B| + r_A + r_B)`` of the compared projections
(:mod:`algorithms.core.tolerance`), so a margin of rounding noise (two triangles whose exact
margin is 0, boxes sharing a face) is touching, as the distance says.
"""

from __future__ import annotations

import math
from fractions import Fraction

from algorithms.core import vec as V
from algorithms.core.tolerance import SAT_PARALLEL_SIN, TOUCH_REL, unit
from algorithms.primitives import AABB, OBB
from algorithms.registry import register
from algorithms.results import DistanceResult, IntersectionResult, SeparationResult

#: relative threshold ``|a x b| / (|a| |b|)`` under which a cross axis is skipped (floats only)
PARALLEL_TOL = SAT_PARALLEL_SIN


# ----------------------------------------------------------------------------- registration


# ----------------------------------------------------------------------------- the kernel


def rescaled(v):
    """``v / max |v_i|`` (``v`` itself when zero): the same direction with components in
    ``[-1, 1]``, so products of tiny or huge coordinates neither underflow nor overflow.
    Exact on Fractions."""
    if len(v) == 3:  # (unrolled: the same maximum, the same quotients)
        x, y, z = v
        m = max(abs(x), abs(y), abs(z))
        if m == 0:
            return tuple(v)
        return (x / m, y / m, z / m)
    m = max(abs(c) for c in v)
    if m == 0:
        return tuple(v)
    return tuple(c / m for c in v)


#: the unit vector of ``v`` or ``None`` (the package's one helper, :func:`tolerance.unit`)
safe_unit = unit


def round_separation(P, Q, intersects: bool, project_a, project_b, name: str, method: str,
                     trace: dict) -> SeparationResult:
    """Separating-axis result of two shapes decided by the closest points ``P`` (of A's core)
    and ``Q`` (of B's): the one candidate ``u = (Q - P)/|Q - P|`` (Eberly GTCG §11.12.9 for
    capsules, Arvo's closest point of §11.12.8 for spheres and boxes).

    ``project_a(u)``, ``project_b(u)`` give ``(centre, radius)`` of the projections on the unit
    ``u``. The candidate is traced also when the shapes intersect (``separating`` False, margin
    <= 0), unless ``P == Q`` (no direction).
    """
    u = safe_unit(V.sub(Q, P))
    entries, ia, ib = [], None, None
    if u is not None:
        ca, ra = project_a(u)
        cb, rb = project_b(u)
        dist = abs(cb - ca)
        entries.append({"name": name, "axis": u, "r_A": ra, "r_B": rb, "distance": dist,
                        "margin": dist - ra - rb, "separating": not intersects})
        ia, ib = (ca - ra, ca + ra), (cb - rb, cb + rb)
    trace = {**trace, "axes": entries, "chosen": None if intersects else name}
    if intersects or u is None:
        return SeparationResult(intersects=True, axis=None, intervals=None, method=method,
                                trace=trace)
    return SeparationResult(intersects=False, axis=u, intervals=(ia, ib), method=method,
                            trace=trace)


def _is_exact(*vectors) -> bool:
    return all(isinstance(c, Fraction) for v in vectors for c in v)


def _is_zero_vec(v) -> bool:
    if len(v) == 3:
        return v[0] == 0 and v[1] == 0 and v[2] == 0
    return all(c == 0 for c in v)


class Convex:
    """A convex polytope as the SAT kernel sees it.

    ``project(L)`` gives ``(c, r)``: the projection interval on the unnormalised ``L`` is
    ``[c - r, c + r]`` (exact when the coordinates are Fractions). ``faces`` and ``edges`` are
    lists of ``(name, direction)``; ``points`` some points of the set (for the degenerate-span
    axes of :func:`degenerate_span_axes`).
    """

    def __init__(self, project, faces, edges, points, exact):
        self.project = project
        self.faces = faces
        self.edges = edges
        self.points = points
        self.exact = exact


def box_convex(center, axes, extents, role: str) -> Convex:
    """A box ``center + sum u_i axes[i]``, ``|u_i| <= extents[i]``; names ``A0``, ``B2``..."""
    center, axes, extents = tuple(center), tuple(map(tuple, axes)), tuple(extents)

    if len(center) == 3 and len(axes) == 3 and len(extents) == 3 \
            and all(len(a) == 3 for a in axes):
        # (the vec.dot calls and the sum written out: the same operations in the same order)
        c0, c1, c2 = center
        (a00, a01, a02), (a10, a11, a12), (a20, a21, a22) = axes
        h0, h1, h2 = extents

        def project(L):
            x, y, z = L
            c = c0 * x + c1 * y + c2 * z
            r = (0 * c + h0 * abs(a00 * x + a01 * y + a02 * z)) \
                + h1 * abs(a10 * x + a11 * y + a12 * z)
            r = r + h2 * abs(a20 * x + a21 * y + a22 * z)
            return c, r
    else:
        def project(L):
            c = V.dot(center, L)
            r = sum((h * abs(V.dot(a, L)) for h, a in zip(extents, axes)), 0 * c)
            return c, r

    named = [(f"{role}{i}", a) for i, a in enumerate(axes)]
    exact = _is_exact(center, *axes, extents)
    return Convex(project, named, named, [center], exact)


def obb_convex(box: OBB, role: str) -> Convex:
    return box_convex(box.center, box.axes, box.extents, role)


def aabb_convex(box: AABB, role: str) -> Convex:
    zero = 0 * box.min[0]
    one = zero + 1
    axes = ((one, zero, zero), (zero, one, zero), (zero, zero, one))
    return box_convex(box.center, axes, box.extents, role)


def _parallel(u, v, exact: bool, tol: float = PARALLEL_TOL) -> bool:
    """``u x v`` is zero (exact) or ``|u x v| <= tol |u| |v|`` (floats)."""
    u, v = rescaled(u), rescaled(v)
    c = V.cross(u, v)
    if exact:
        return _is_zero_vec(c)
    return float(V.sqr_norm(c)) <= tol * tol * float(V.sqr_norm(u)) * float(V.sqr_norm(v))


def cross_axes(A: Convex, B: Convex, exact: bool, sep: str = "x"):
    """The edge-edge candidates ``e_A x e_B``: ``(kept, skipped)`` lists."""
    kept, skipped = [], []
    # per edge, once: whether it is zero, its rescaled direction and that one's |.|^2 (what
    # _parallel and the kept cross product computed for every pair: the same values)
    eb_all = [(nb, _is_zero_vec(eb), rescaled(eb)) for nb, eb in B.edges]
    eb_all = [(nb, z, r, None if exact else float(V.sqr_norm(r))) for nb, z, r in eb_all]
    tol2 = PARALLEL_TOL * PARALLEL_TOL
    for na, ea in A.edges:
        za = _is_zero_vec(ea)
        ru = rescaled(ea)
        nu = None if exact else float(V.sqr_norm(ru))
        for nb, zb, rv, nv in eb_all:
            name = f"{na}{sep}{nb}"
            if za or zb:
                skipped.append({"name": name, "reason": "zero-length edge"})
                continue
            c = V.cross(ru, rv)  # (_parallel's cross product, and the axis kept)
            if _is_zero_vec(c) if exact else float(V.sqr_norm(c)) <= tol2 * nu * nv:
                skipped.append({"name": name, "reason": "parallel edges: cross product "
                                "degenerates, the face axes cover this direction"})
            else:
                kept.append((name, c))
    return kept, skipped


def degenerate_span_axes(A: Convex, B: Convex, existing, exact: bool):
    """Extra candidates when all edge directions of A and B span fewer than 3 dimensions.

    Then ``A - B`` is flat (or a segment, or a point) and the face normals and edge crosses may
    miss the separating direction. Rank 2 (common normal ``N``): ``N`` and the in-plane edge
    normals ``N x e``; rank 1 (all edges along ``e``): ``e`` and the perpendicular from A's
    line to B's; rank 0 (two points): the centre line. Extras parallel to an existing
    candidate are dropped. Returns ``(rank, axes)``.
    """
    dirs = [(n, rescaled(e)) for n, e in A.edges + B.edges if not _is_zero_vec(e)]
    D = rescaled(V.sub(B.points[0], A.points[0]))
    out = []
    if not dirs:
        rank = 0
        if not _is_zero_vec(D):
            out.append(("centre line", D))
    else:
        n0, e0 = max(dirs, key=lambda ne: float(V.sqr_norm(ne[1])))
        N, best_s = None, -1.0
        for _, e in dirs:
            c = V.cross(e0, e)
            s = float(V.sqr_norm(c)) / (float(V.sqr_norm(e0)) * float(V.sqr_norm(e)))
            if s > best_s:
                N, best_s = c, s
        if _is_zero_vec(N) or (not exact and best_s <= PARALLEL_TOL ** 2):
            rank = 1
            out.append((f"common direction {n0}", e0))
            w = V.sub(V.scale(V.dot(e0, e0), D), V.scale(V.dot(D, e0), e0))
            if not _is_zero_vec(w):
                out.append(("perpendicular between the lines", w))
        else:
            def in_plane(e):
                t = V.dot(N, e)
                if exact:
                    return t == 0
                return float(t) ** 2 <= (PARALLEL_TOL ** 2 * float(V.sqr_norm(N))
                                         * float(V.sqr_norm(e)))
            if all(in_plane(e) for _, e in dirs):
                rank = 2
                out.append(("common plane normal N", N))
                for n, e in dirs:
                    out.append((f"N x {n}", V.cross(N, e)))
            else:
                rank = 3
    kept = []
    for name, L in out:
        if any(_parallel(L, M, exact) for _, M in list(existing) + kept):
            continue
        kept.append((name, L))
    return rank, kept


def run_sat(A: Convex, B: Convex, candidates, method: str, skipped=(), extra_trace=None,
            exact=None) -> SeparationResult:
    """Test every candidate ``(name, L)``; trace each; pick the most separating axis.

    The decision per axis is made on the unnormalised ``L``: separating iff
    ``|c_B - c_A| - (r_A + r_B)`` exceeds the touching band (``0`` on exact input, so exact
    there; module notes). Trace values are divided by ``|L|`` (floats). The chosen axis
    (largest normalised margin among the separating ones) is returned unit, oriented from A
    to B, with both projection intervals on it.
    """
    entries = []
    best = None
    least = None
    if exact is None:
        exact = A.exact and B.exact
    for name, L in candidates:
        s = V.norm(L)
        if s == 0 or not math.isfinite(s):
            # |L| under- or overflows in floats: rescale by the largest component (exact)
            m = max(abs(c) for c in L)
            L = tuple(c / m for c in L)
            s = V.norm(L)
        ca, ra = A.project(L)
        cb, rb = B.project(L)
        dist = abs(cb - ca)
        # exact input: separating iff dist > r_A + r_B; floats: by more than the touching band
        # of the compared magnitudes (core.tolerance: a margin of rounding noise is touching)
        band = 0 if exact else TOUCH_REL * (abs(float(ca)) + abs(float(cb)) + float(ra + rb))
        separating = bool(dist - (ra + rb) > band)
        # (s: |L| of the L projected, computed above)
        if len(L) == 3:
            unit = (float(L[0]) / s + 0.0, float(L[1]) / s + 0.0, float(L[2]) / s + 0.0)
        else:
            unit = tuple(float(c) / s + 0.0 for c in L)
        margin = float(dist - ra - rb) / s
        entry = {"name": name, "axis": unit, "r_A": float(ra) / s, "r_B": float(rb) / s,
                 "distance": float(dist) / s, "margin": margin, "separating": separating}
        entries.append(entry)
        if separating and (best is None or margin > best[0]["margin"]):
            best = (entry, L, ca, ra, cb, rb, s)
        if least is None or margin > least["margin"]:
            least = entry
    trace = {"axes": entries, "skipped_axes": list(skipped),
             "chosen": None if best is None else best[0]["name"],
             "parallel_tolerance": 0 if exact else PARALLEL_TOL}
    if least is not None and best is None:
        trace["least_overlap"] = least["name"]
    if extra_trace:
        trace.update(extra_trace)
    if best is None:
        return SeparationResult(intersects=True, axis=None, intervals=None, method=method,
                                trace=trace)
    entry, L, ca, ra, cb, rb, s = best
    sign = 1.0 if cb >= ca else -1.0
    unit = tuple(sign * c + 0.0 for c in entry["axis"])
    pa, pb = sign * float(ca) / s, sign * float(cb) / s
    ia = (pa - float(ra) / s, pa + float(ra) / s)
    ib = (pb - float(rb) / s, pb + float(rb) / s)
    return SeparationResult(intersects=False, axis=unit, intervals=(ia, ib), method=method,
                            trace=trace)


# ----------------------------------------------------------------------------- boxes


OBB_METHOD = "separating axes: 3 + 3 face axes and 9 edge crosses (Eberly GTCG §11.12.7)"


def box_box_sat(A: Convex, B: Convex, method: str = OBB_METHOD) -> SeparationResult:
    """The 15-axis test of GTCG §11.12.7 for two box kernels (names ``A0``, ``B1``, ``A1xB0``).

    The trace also holds the book's table entries: ``R[i][j] = a_A,i . a_B,j`` and
    ``D_A[i] = a_A,i . (C_B - C_A)`` (floats), from which §11.12.7 writes every ``r_A``,
    ``r_B`` and centre distance, e.g. ``r_B = h_B,u |R_02| + h_B,w |R_00|`` on
    ``a_A,u x a_B,v``.
    """
    exact = A.exact and B.exact
    faces = [(n, L) for n, L in A.faces + B.faces]
    crosses, skipped = cross_axes(A, B, exact)
    D = V.sub(B.points[0], A.points[0])
    extra = {"R": [[float(V.dot(a, b)) for _, b in B.faces] for _, a in A.faces],
             "D_A": [float(V.dot(a, D)) for _, a in A.faces]}
    return run_sat(A, B, faces + crosses, method, skipped, extra, exact=exact)


@register("separating_axis", "obb", "obb")
def separating_axis_obb_obb(a: OBB, b: OBB) -> SeparationResult:
    """OBB-OBB by the 15 separating axes (Eberly & Schneider, GTCG §11.12.7).

    ``r_A = sum h_A,i |a_A,i . L|`` and ``r_B = sum h_B,i |a_B,i . L|`` over
    ``L in {a_A,u, a_B,v, a_A,u x a_B,v}``; near-parallel edge pairs are skipped (module doc).
    """
    return box_box_sat(obb_convex(a, "A"), obb_convex(b, "B"))


@register("separating_axis", "obb", "aabb")
def separating_axis_obb_aabb(a: OBB, b: AABB) -> SeparationResult:
    """OBB-AABB: the AABB is a box with axes x, y, z (GTCG §11.12.7, 15 axes)."""
    return box_box_sat(obb_convex(a, "A"), aabb_convex(b, "B"),
                       OBB_METHOD.replace("§11.12.7", "§11.12.7, AABB as a box"))


AABB_METHOD = "AABB overlap per axis x, y, z (Dunn & Parberry App. A.17; Boreskov)"


@register("separating_axis", "aabb", "aabb")
def separating_axis_aabb_aabb(a: AABB, b: AABB) -> SeparationResult:
    """AABB-AABB: the boxes overlap iff their extents overlap on x, y and z.

    Dunn & Parberry, App. A.17, Listing A.5 (``aabbsOverlap``); Boreskov, bounding volumes
    (component-wise inequalities). Touching counts as overlapping here.
    """
    A, B = aabb_convex(a, "A"), aabb_convex(b, "B")
    names = ("x", "y", "z")
    return run_sat(A, B, [(names[i], L) for i, (_, L) in enumerate(A.faces)], AABB_METHOD,
                   exact=A.exact and B.exact)


@register("intersects", "aabb", "aabb")
def intersects_aabb_aabb(a: AABB, b: AABB) -> IntersectionResult:
    """Listing A.5 of App. A.17 with touching counted as overlap (``>`` instead of ``>=``)."""
    per_axis = []
    ok = True
    for i in range(3):
        overlap = not (a.min[i] > b.max[i] or a.max[i] < b.min[i])
        per_axis.append(overlap)
        ok = ok and overlap
    return IntersectionResult(intersects=ok, method=AABB_METHOD,
                              trace={"overlap_per_axis": per_axis})


@register("distance", "aabb", "aabb")
def distance_aabb_aabb(a: AABB, b: AABB) -> DistanceResult:
    """Exact per-axis gap: ``g_i = max(0, B.min_i - A.max_i, A.min_i - B.max_i)``.

    The squared distance is ``sum g_i^2`` (the axes are independent, as in Arvo's test of
    GTCG §11.12.8 and the per-axis overlap of App. A.17). Closest points: on an axis with a
    gap the facing faces; on an overlapping axis the middle of the common interval.
    """
    pa, pb, gaps = [], [], []
    for i in range(3):
        if b.min[i] > a.max[i]:
            g = b.min[i] - a.max[i]
            pa.append(a.max[i]), pb.append(b.min[i])
        elif a.min[i] > b.max[i]:
            g = a.min[i] - b.max[i]
            pa.append(a.min[i]), pb.append(b.max[i])
        else:
            g = 0 * a.min[i]
            m = (max(a.min[i], b.min[i]) + min(a.max[i], b.max[i])) / 2
            pa.append(m), pb.append(m)
        gaps.append(g)
    sq = sum((g * g for g in gaps), 0 * gaps[0])
    return DistanceResult(distance=math.sqrt(float(sq)), sqr_distance=sq,
                          closest=(tuple(pa), tuple(pb)), parameter=(None, None),
                          method="AABB-AABB distance from per-axis gaps (App. A.17, §11.12.8)",
                          trace={"gaps": gaps})
