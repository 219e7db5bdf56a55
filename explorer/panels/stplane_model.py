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

#: relative tolerance on det = |m0 x m1|^2 under which the components count as parallel
PARALLEL_EPS = 1e-10


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
    det = abs(a * c - b * b)
    s_lo, s_hi = DOMAINS[prim_a.kind]
    t_lo, t_hi = DOMAINS[prim_b.kind]
    parallel = not (det > PARALLEL_EPS * a * c) or a == 0 or c == 0
    q = STPlane(prim_a.kind, prim_b.kind, B0, m0, B1, m1, a, b, c, d, e, f, det,
                s_lo, s_hi, t_lo, t_hi, parallel, None, None, None, 0.0, 0.0, 0.0, 0.0)
    candidates = []
    if not parallel:
        q.s_bar = (b * e - c * d) / det
        q.t_bar = (b * d - a * e) / det
        q.region = q.region_of(q.s_bar, q.t_bar)
        q.q_free = max(float(q.Q(q.s_bar, q.t_bar)), 0.0)
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


def ellipse_points(q: STPlane, level: float, n: int = 96) -> list[np.ndarray]:
    """Polylines (arrays of ``(s, t)`` rows) of the level curve ``Q = level`` (Fig. 10.37).

    An ellipse when ``det > 0``; two parallel lines for parallel components (the graph is a
    parabolic cylinder); nothing below the minimum.
    """
    r = level - q.q_free
    if r < 0:
        return []
    eig = getattr(q, "_eig", None)
    if eig is None:  # once per model: every level curve shares the axes
        eig = np.linalg.eigh(np.array([[q.a, q.b], [q.b, q.c]]))
        q._eig = eig
    lam, vec = eig
    if not q.parallel:
        centre = np.array([q.s_bar, q.t_bar])
        theta = np.linspace(0, 2 * math.pi, n + 1)
        u = np.sqrt(r / lam[0]) * np.cos(theta)
        v = np.sqrt(r / lam[1]) * np.sin(theta)
        return [centre + np.outer(u, vec[:, 0]) + np.outer(v, vec[:, 1])]
    if lam[1] <= 0:
        return []
    line = q.free_minimiser_line()
    if line is None:
        return []
    p0 = line[0]
    normal, along = vec[:, 1], vec[:, 0]
    off = math.sqrt(r / lam[1])
    span = np.array([-1e3, 1e3])
    return [np.array([p0 + sgn * off * normal + x * along for x in span]) for sgn in (-1, 1)]
