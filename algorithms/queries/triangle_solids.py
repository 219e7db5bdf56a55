"""Separating axes for triangles: triangle-AABB, triangle-OBB (13 axes), triangle-triangle.

Triangle-box after Akenine-Moller ("Fast 3D triangle-box overlap testing", JGT 2001), the
separating-axis method of Eberly & Schneider, GTCG §11.11 with the box radius of §11.12.7:
the 3 box face axes, the triangle normal and the 9 crosses ``edge_i x a_j``. The triangle's
projection is ``[min, max]`` of its three vertices.

Triangle-triangle: the 2 normals and the 9 crosses ``edge_A,i x edge_B,j``. When the triangles
are coplanar every cross is parallel to the normal, so the in-plane edge normals
``n_A x edge_A,i`` and ``n_B x edge_B,j`` are needed; they are always tested (6 axes named
``A.n x A.edge0``...), which also keeps nearly coplanar pairs robust (their crosses then give
margins of the size of the tilt angle, i.e. of rounding).

Degenerate triangles (collinear or a single point) have no normal. When the edge directions of
both shapes span fewer than 3 dimensions the extra axes of
:func:`~algorithms.queries.box_box.degenerate_span_axes` (common plane normal and its in-plane
edge normals; the perpendicular between parallel lines; the centre line of two points) keep the
test complete. Everything runs exactly on Fractions (:mod:`algorithms.core.vec`).
"""

from __future__ import annotations

from algorithms.core import vec as V
from algorithms.primitives import AABB, OBB, Triangle
from algorithms.queries.box_box import (Convex, _is_exact, _is_zero_vec, aabb_convex, cross_axes,
                                        degenerate_span_axes, obb_convex, rescaled, run_sat)
from algorithms.registry import register
from algorithms.results import SeparationResult


def triangle_convex(tri: Triangle, role: str, prefix: str = "") -> Convex:
    """The SAT kernel of a triangle: projection = [min, max] of the vertices.

    Face ``"<prefix>normal"`` (``(v1 - v0) x (v2 - v0)``, omitted when zero: collinear
    vertices), edges ``edge0 = v1 - v0``, ``edge1 = v2 - v1``, ``edge2 = v0 - v2``.
    """
    v0, v1, v2 = tri.vertices

    if len(v0) == 3 and len(v1) == 3 and len(v2) == 3:
        (a0, a1, a2), (b0, b1, b2), (c0, c1, c2) = v0, v1, v2

        def project(L):  # (vec.dot written out: the same sums; min/max of the same three)
            x, y, z = L
            pa = a0 * x + a1 * y + a2 * z
            pb = b0 * x + b1 * y + b2 * z
            pc = c0 * x + c1 * y + c2 * z
            lo, hi = min(pa, pb, pc), max(pa, pb, pc)
            return (lo + hi) / 2, (hi - lo) / 2
    else:
        def project(L):
            p = (V.dot(v0, L), V.dot(v1, L), V.dot(v2, L))
            lo, hi = min(p), max(p)
            return (lo + hi) / 2, (hi - lo) / 2

    edges = [(f"{prefix}edge0", V.sub(v1, v0)), (f"{prefix}edge1", V.sub(v2, v1)),
             (f"{prefix}edge2", V.sub(v0, v2))]
    n = V.cross(rescaled(edges[0][1]), rescaled(V.sub(v2, v0)))
    faces = [] if _is_zero_vec(n) else [(f"{'triangle ' if not prefix else prefix}normal", n)]
    return Convex(project, faces, edges, [v0], _is_exact(v0, v1, v2))


TRI_BOX_METHOD = ("triangle-box separating axes: box faces, triangle normal, 9 edge crosses "
                  "(Akenine-Moller 2001; Eberly GTCG §11.11, §11.12.7)")


def _triangle_box(tri: Triangle, box: Convex, method: str) -> SeparationResult:
    T = triangle_convex(tri, "A")
    exact = T.exact and box.exact
    crosses, skipped = cross_axes(T, box, exact, sep=" x ")
    cands = box.faces + T.faces + crosses
    rank, extra = degenerate_span_axes(T, box, cands, exact)
    return run_sat(T, box, cands + extra, method, skipped, {"edge_span_rank": rank},
                   exact=exact)


@register("separating_axis", "triangle", "aabb")
def separating_axis_triangle_aabb(tri: Triangle, box: AABB) -> SeparationResult:
    """Triangle-AABB by 13 axes (Akenine-Moller; Eberly GTCG §11.11)."""
    return _triangle_box(tri, aabb_convex(box, "B"), TRI_BOX_METHOD)


@register("separating_axis", "triangle", "obb")
def separating_axis_triangle_obb(tri: Triangle, box: OBB) -> SeparationResult:
    """Triangle-OBB by 13 axes (Akenine-Moller; Eberly GTCG §11.11, box radius §11.12.7)."""
    return _triangle_box(tri, obb_convex(box, "B"), TRI_BOX_METHOD)


TRI_TRI_METHOD = ("triangle-triangle separating axes: 2 normals, 9 edge crosses, 6 in-plane "
                  "edge normals (Eberly GTCG §11.11)")


@register("separating_axis", "triangle", "triangle")
def separating_axis_triangle_triangle(a: Triangle, b: Triangle) -> SeparationResult:
    """Triangle-triangle by separating axes (GTCG §11.11; coplanar case by in-plane normals)."""
    A, B = triangle_convex(a, "A", "A."), triangle_convex(b, "B", "B.")
    exact = A.exact and B.exact
    crosses, skipped = cross_axes(A, B, exact, sep=" x ")
    cands = A.faces + B.faces + crosses
    for T, tag in ((A, "A"), (B, "B")):
        for _, n in T.faces:
            for en, e in T.edges:
                if not _is_zero_vec(e):
                    cands.append((f"{tag}.n x {en}", V.cross(rescaled(n), rescaled(e))))
    rank, extra = degenerate_span_axes(A, B, cands, exact)
    return run_sat(A, B, cands + extra, TRI_TRI_METHOD, skipped, {"edge_span_rank": rank},
                   exact=exact)
