"""The st-plane of two linear components, as the diagram draws it (no Qt).

Schneider & Eberly, GTCG §10.8.2-10.8.3, Figs. 10.35-10.37. With ``L0(s) = B0 + s m0`` (object
A) and ``L1(t) = B1 + t m1`` (object B), the squared distance is

    Q(s, t) = a s^2 + 2 b s t + c t^2 + 2 d s + 2 e t + f

with ``a = m0.m0``, ``b = -m0.m1``, ``c = m1.m1``, ``d = m0.(B0 - B1)``, ``e = -m1.(B0 - B1)``,
``f = |B0 - B1|^2``. The domain is ``[0, 1]`` for a segment's parameter, ``[0, inf)`` for a ray's,
all reals for a line's. The domain's bounds cut the plane into the nine regions of Fig. 10.36::

    4 | 3 | 2
    5 | 0 | 1
    6 | 7 | 8

and the region holding the unconstrained minimiser ``(s_bar, t_bar) = ((be - cd)/det,
(bd - ae)/det)``, ``det = ac - b^2``, decides on which edge the constrained minimum lies. The
diagram computes all of this itself, independently of the algorithm, so that dragging ``(s, t)``
needs no query and the two can be checked against each other.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Optional

import numpy as np

INF = math.inf

#: (side of s, side of t) -> region number of Fig. 10.36; -1 below the domain, +1 above
REGION_OF = {(0, 0): 0, (1, 0): 1, (1, 1): 2, (0, 1): 3, (-1, 1): 4, (-1, 0): 5,
             (-1, -1): 6, (0, -1): 7, (1, -1): 8}
SIDES_OF = {r: k for k, r in REGION_OF.items()}
#: region seen with s and t exchanged (a trace computed for the pair in the other order)
TRANSPOSED_REGION = {r: REGION_OF[(k[1], k[0])] for k, r in REGION_OF.items()}

#: parameter domain of each linear kind
DOMAINS = {"segment": (0.0, 1.0), "ray": (0.0, INF), "line": (-INF, INF)}


def base_and_direction(prim) -> tuple[np.ndarray, np.ndarray]:
    """``(B, m)`` of a segment (``p0``, ``p1 - p0``), ray or line (``origin``, ``direction``)."""
    if prim.kind == "segment":
        p0 = np.asarray(prim.p0, dtype=float)
        return p0, np.asarray(prim.p1, dtype=float) - p0
    return np.asarray(prim.origin, dtype=float), np.asarray(prim.direction, dtype=float)


def _side(x: float, lo: float, hi: float) -> int:
    return -1 if x < lo else (1 if x > hi else 0)


def _clamp(x: float, lo: float, hi: float) -> float:
    return lo if x < lo else (hi if x > hi else x)


@dataclass
class STPlane:
    """Coefficients, domain, minimisers and region of one pair of linear components."""

    kind_a: str
    kind_b: str
    B0: np.ndarray
    m0: np.ndarray
    B1: np.ndarray
    m1: np.ndarray
    a: float
    b: float
    c: float
    d: float
    e: float
    f: float
    det: float
    s_lo: float
    s_hi: float
    t_lo: float
    t_hi: float
    parallel: bool
    s_bar: Optional[float]
    t_bar: Optional[float]
    region: Optional[int]
    s: float  # constrained minimiser
    t: float
    q_min: float  # Q(s, t): the first-contact level V0 (Fig. 10.37)
    q_free: float  # minimum of Q over the whole plane

    @property
    def domain(self) -> str:
        return f"{self.kind_a}-{self.kind_b}"

    def Q(self, s, t):
        """``Q(s, t)`` (works on arrays)."""
        return (self.a * s * s + 2 * self.b * s * t + self.c * t * t + 2 * self.d * s
                + 2 * self.e * t + self.f)

    def grad(self, s: float, t: float) -> tuple[float, float]:
        """``grad Q = 2 (a s + b t + d, b s + c t + e)``."""
        return (2 * (self.a * s + self.b * t + self.d), 2 * (self.b * s + self.c * t + self.e))

    def points(self, s: float, t: float) -> tuple[np.ndarray, np.ndarray]:
        """``L0(s)`` on A and ``L1(t)`` on B."""
        return self.B0 + s * self.m0, self.B1 + t * self.m1

    def clamp(self, s: float, t: float) -> tuple[float, float]:
        return _clamp(s, self.s_lo, self.s_hi), _clamp(t, self.t_lo, self.t_hi)

    def region_of(self, s: float, t: float) -> int:
        return REGION_OF[(_side(s, self.s_lo, self.s_hi), _side(t, self.t_lo, self.t_hi))]

    def free_minimiser_line(self) -> Optional[tuple[np.ndarray, np.ndarray]]:
        """For parallel components: a point and a direction of the line ``a s + b t + d = 0``
        where ``Q`` is least (Eberly §10.8.3, "Parallel Line Segments")."""
        if not self.parallel:
            return None
        if self.a > 0:
            return np.array([-self.d / self.a, 0.0]), np.array([-self.b, self.a])
        if self.c > 0:
            return np.array([0.0, -self.e / self.c]), np.array([1.0, 0.0])
        return None


def _edge_min(q: STPlane, fixed: str, value: float) -> tuple[float, float]:
    """Minimise ``Q`` on the edge ``s = value`` (``fixed == "s"``) or ``t = value``.

    On ``s = s0``: ``F(t) = c t^2 + 2 (b s0 + e) t + ...``, least at ``t = -(b s0 + e)/c``
    clamped to the domain (Eberly's region-1 block, Fig. 10.37); a zero-length B (``c = 0``)
    makes ``F`` constant and any ``t`` will do.
    """
    if fixed == "s":
        t = -(q.b * value + q.e) / q.c if q.c > 0 else 0.0
        return value, _clamp(t, q.t_lo, q.t_hi)
    s = -(q.b * value + q.d) / q.a if q.a > 0 else 0.0
    return _clamp(s, q.s_lo, q.s_hi), value


def stplane(prim_a, prim_b) -> STPlane:
    """The st-plane of two linear primitives (``segment``, ``ray``, ``line``), A giving ``s``."""
    B0, m0 = base_and_direction(prim_a)
    B1, m1 = base_and_direction(prim_b)
    diff = B0 - B1
    a, b, c = float(m0 @ m0), float(-(m0 @ m1)), float(m1 @ m1)
    d, e, f = float(m0 @ diff), float(-(m1 @ diff)), float(diff @ diff)
    # det = ac - b^2 = |m0 x m1|^2 and the numerators be - cd = (m1 x D).(m0 x m1),
    # bd - ae = (m0 x D).(m0 x m1) (Lagrange's identity): no cancellation for nearly
    # parallel components, where ac - b^2 would be rounding noise
    n = np.cross(m0, m1)
    det = float(n @ n)
    s_lo, s_hi = DOMAINS[prim_a.kind]
    t_lo, t_hi = DOMAINS[prim_b.kind]
    parallel = det == 0
    s_bar = t_bar = None
    if not parallel:
        s_bar = float(np.cross(m1, diff) @ n) / det
        t_bar = float(np.cross(m0, diff) @ n) / det
        parallel = not (math.isfinite(s_bar) and math.isfinite(t_bar))
    q = STPlane(prim_a.kind, prim_b.kind, B0, m0, B1, m1, a, b, c, d, e, f, det,
                s_lo, s_hi, t_lo, t_hi, parallel, None, None, None, 0.0, 0.0, 0.0, 0.0)
    candidates = []
    if not parallel:
        q.s_bar, q.t_bar = s_bar, t_bar
        q.region = q.region_of(q.s_bar, q.t_bar)
        # the lines' squared distance (D.n)^2 / |n|^2: Q(s_bar, t_bar) would cancel badly
        q.q_free = float(diff @ n) ** 2 / det
        if q.region == 0:
            candidates.append((q.s_bar, q.t_bar))
    else:
        line = q.free_minimiser_line()
        p0 = line[0] if line is not None else np.zeros(2)
        q.q_free = max(float(q.Q(*p0)), 0.0)
        s0, t0 = q.clamp(*p0)
        if line is None or q.region_of(*p0) == 0:
            candidates.append((s0, t0))
    for fixed, value in (("s", s_lo), ("s", s_hi), ("t", t_lo), ("t", t_hi)):
        if math.isfinite(value):
            candidates.append(_edge_min(q, fixed, value))
    if not candidates:  # two parallel lines: any point of the minimiser line
        candidates.append(tuple(q.free_minimiser_line()[0]))
    best = min(candidates, key=lambda st: float(q.Q(*st)))
    q.s, q.t = float(best[0]), float(best[1])
    q.q_min = max(float(q.Q(q.s, q.t)), 0.0)
    return q


def ellipse_points(q: STPlane, level: float, n: int = 96,
                   view: Optional[tuple] = None) -> list[np.ndarray]:
    """Polylines (arrays of ``(s, t)`` rows) of the level curve ``Q = level`` (Fig. 10.37).

    An ellipse when ``det > 0``; two parallel lines for parallel components (the graph is a
    parabolic cylinder); nothing below the minimum. With ``view = (s0, s1, t0, t1)`` only the
    part that can show in that rectangle is sampled (a nearly parallel pair has ellipses far
    larger than the view: sampling them whole would waste the points and the painting).
    """
    r = level - q.q_free
    if r < 0 or not math.isfinite(r):
        return []
    eig = getattr(q, "_eig", None)
    if eig is None:  # once per model: every level curve shares the axes
        eig = np.linalg.eigh(np.array([[q.a, q.b], [q.b, q.c]]))
        q._eig = eig
    lam, vec = eig
    corners = None
    if view is not None:
        s0, s1, t0, t1 = view
        corners = np.array([[s0, t0], [s1, t0], [s1, t1], [s0, t1]], dtype=float)
    if not q.parallel:
        if not lam[0] > 0:  # nearly parallel: the smaller eigenvalue lost to rounding
            return []
        centre = np.array([q.s_bar, q.t_bar])
        ru, rv = math.sqrt(r / lam[0]), math.sqrt(r / lam[1])
        lo, hi = 0.0, 2 * math.pi
        if corners is not None:
            s0, s1, t0, t1 = view
            inside = s0 <= centre[0] <= s1 and t0 <= centre[1] <= t1
            if not inside and ru > 0 and rv > 0:
                # the arc inside the (convex) view lies within the view's angular span seen
                # from the centre, in the frame where the ellipse is a circle
                rel = (corners - centre) @ vec
                ang = np.arctan2(rel[:, 1] / rv, rel[:, 0] / ru)
                ang = np.unwrap(ang - ang[0]) + ang[0]
                lo, hi = float(ang.min()), float(ang.max())
        theta = np.linspace(lo, hi, n + 1)
        u = ru * np.cos(theta)
        v = rv * np.sin(theta)
        return [centre + np.outer(u, vec[:, 0]) + np.outer(v, vec[:, 1])]
    if lam[1] <= 0:
        return []
    line = q.free_minimiser_line()
    if line is None:
        return []
    p0 = line[0]
    normal, along = vec[:, 1], vec[:, 0]
    off = math.sqrt(r / lam[1])
    if corners is not None:
        proj = (corners - p0) @ along
        span = np.array([proj.min(), proj.max()])
    else:
        span = np.array([-1e3, 1e3])
    return [np.array([p0 + sgn * off * normal + x * along for x in span]) for sgn in (-1, 1)]


def Q_grid(q: STPlane, s: np.ndarray, t: np.ndarray) -> np.ndarray:
    """``Q`` on the grid ``s x t`` (rows follow ``t``), as ``|D + s m0 - t m1|^2``: no
    cancellation, however far the unconstrained minimum is."""
    S, T = np.meshgrid(s, t)
    diff = q.B0 - q.B1
    P = diff + S[..., None] * q.m0 - T[..., None] * q.m1
    return np.einsum("ijk,ijk->ij", P, P)


def level_segments(q: STPlane, level: float, view: tuple, n: int = 80) -> np.ndarray:
    """The level curve ``Q = level`` inside ``view`` by marching squares: an ``(k, 2, 2)``
    array of segments ``((s, t), (s, t))``.

    For nearly parallel components the ellipses are so long and thin that their axes from an
    eigen-decomposition are rounding noise; sampling ``Q`` itself on the view is reliable.
    """
    cached = getattr(q, "_grid", None)
    if cached is None or cached[0] != (tuple(view), n):  # one grid serves every level
        s0, s1, t0, t1 = view
        s = np.linspace(s0, s1, n + 1)
        t = np.linspace(t0, t1, n + 1)
        cached = q._grid = ((tuple(view), n), *np.meshgrid(s, t), Q_grid(q, s, t))
    _, Sg, Tg, Qg = cached
    V = Qg - level
    # cell corners in the order (s0,t0), (s1,t0), (s1,t1), (s0,t1); edges between them
    vals = [V[:-1, :-1], V[:-1, 1:], V[1:, 1:], V[1:, :-1]]
    xs = [Sg[:-1, :-1], Sg[:-1, 1:], Sg[1:, 1:], Sg[1:, :-1]]
    ys = [Tg[:-1, :-1], Tg[:-1, 1:], Tg[1:, 1:], Tg[1:, :-1]]
    masks, points = [], []
    for i in range(4):
        j = (i + 1) % 4
        va, vb = vals[i], vals[j]
        cross = (va < 0) != (vb < 0)
        with np.errstate(divide="ignore", invalid="ignore"):
            frac = np.where(cross, va / (va - vb), 0.0)
        points.append(np.stack([xs[i] + frac * (xs[j] - xs[i]),
                                ys[i] + frac * (ys[j] - ys[i])], axis=-1))
        masks.append(cross)
    masks = np.stack(masks)  # (4, n, n)
    points = np.stack(points)  # (4, n, n, 2)
    count = masks.sum(axis=0)
    out = []
    two = count == 2
    if two.any():
        order = np.argsort(~masks[:, two], axis=0, kind="stable")[:2]  # the two crossed edges
        pts = points[:, two]  # (4, m, 2)
        cols = np.arange(pts.shape[1])
        out.append(np.stack([pts[order[0], cols], pts[order[1], cols]], axis=1))
    four = count == 4
    if four.any():
        pts = points[:, four]
        out.append(np.stack([pts[0], pts[1]], axis=1))
        out.append(np.stack([pts[2], pts[3]], axis=1))
    return np.concatenate(out) if out else np.zeros((0, 2, 2))


def well_conditioned(q: STPlane) -> bool:
    """Whether the level ellipses can be drawn from their axes (not too long and thin)."""
    if q.parallel:
        return True  # drawn as the exact pairs of lines
    eig = getattr(q, "_eig", None)
    if eig is None:
        eig = np.linalg.eigh(np.array([[q.a, q.b], [q.b, q.c]]))
        q._eig = eig
    lam = eig[0]
    return bool(lam[0] > 1e-8 * lam[1])
