"""The moving separating-axis test of the time-of-impact fast path
(:func:`algorithms.kernels.toi_fast.moving_axes`; Dunn & Parberry, 3D Math Primer, App. A.17,
per-axis ``t_enter`` / ``t_leave``; Eberly's method of separating axes for moving objects):
hand-derived windows, the projections against the careful kernel's support intervals, and
property tests against the careful path and its static distance queries (a miss it proves is
a miss; the ``t_enter`` it would jump to is never past the contact and leaves a gap)."""

import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.fuzz import examples

from algorithms import OBB, Capsule, Cylinder, Sphere, Triangle, query
from algorithms.kernels import toi_fast
from algorithms.kernels.support import support_interval
from tests.algorithms.generic.test_advancement import BOUNDED, motion_st
from tests.algorithms.kernels.test_toi_fast import _moving_cases as moving_cases
from tests.algorithms.kernels.test_toi_fast import assert_as_careful, careful

SETTINGS = settings(max_examples=examples(150), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
CA = "conservative_advancement"
I3 = ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))


def box(c, e=(0.5, 0.5, 0.5)):
    return OBB(c, I3, e)


def dist(a, b, t, m):
    return query("distance", a, b.translated(tuple(t * x for x in m))).distance


def test_unit_boxes_closing_along_x_enter_at_one_half():
    # A = [-0.5, 0.5]^3 still, B = [2.5, 3.5] x [-0.5, 0.5]^2 moving by (-4, 0, 0). On x, B's
    # interval [2.5 - 4t, 3.5 - 4t] comes within h of A's [-0.5, 0.5] when 2.5 - 4t = 0.5 + h:
    # t_enter = 0.5 - h / 4 (Primer A.17: (a_max - b_min) / s with s = -4); it leaves when
    # 3.5 - 4t = -0.5 - h, t = 1 + h / 4 > 1. On y and z nothing moves and the intervals
    # overlap: no bound. So with h_jump = 1e-9 the jump is 0.5 - 2.5e-10 (earlier by the
    # 64-ulp rounding allowance of size 4 grown into h: 64 * 2^-52 * 4 / 4 = 1.4e-14 in t).
    a, b, m = box((0, 0, 0)), box((3, 0, 0)), (-4.0, 0.0, 0.0)
    t, axis = toi_fast.moving_axes(a, b, m, list(I3), 4e-9, 1e-9, 4.0)
    assert axis == (1.0, 0.0, 0.0)
    assert 0.5 - 2.5e-10 - 1e-13 <= t <= 0.5 - 2.5e-10
    # never past the contact: the faces x = 0.5 and x = 2.5 meet at t = 0.5 exactly
    assert t < careful(a, b, m).toi == pytest.approx(0.5, abs=1e-15)
    assert dist(a, b, t, m) >= 1e-9 - 1e-15  # the gap h_jump is left, as a step's tol / 2


def test_side_by_side_never_closes_on_y():
    # B = [2.5, 3.5] x [1.5, 2.5] x [-0.5, 0.5] moves along x only: on y its interval stays
    # [1.5, 2.5], 1 above A's [-0.5, 0.5] at every t (s = 0): a miss whatever x does
    a, b, m = box((0, 0, 0)), box((3, 2, 0)), (-4.0, 0.0, 0.0)
    assert toi_fast.moving_axes(a, b, m, list(I3), 4e-9, 1e-9, 4.0) is None
    r = query("toi", a, b, m, method=CA)
    assert r.toi is None and careful(a, b, m).toi is None


def test_diagonal_pass_by_windows_do_not_meet():
    # B = [1.5, 2.5] x [-4.7, -3.7] x [-0.5, 0.5] moving by (-4, 4, 0), passing A's corner.
    # x: B's [1.5 - 4t, 2.5 - 4t] meets A's [-0.5, 0.5] for t in [0.25, 0.75];
    # y: B's [-4.7 + 4t, -3.7 + 4t] meets it for t in [(-0.5 + 3.7) / 4, (0.5 + 4.7) / 4] =
    # [0.8, 1.3]. Each axis alone overlaps for a while, but the windows [0.25, 0.75] and
    # [0.8, 1.3] are disjoint: when the boxes overlap on y they are apart on x. No contact.
    a, b, m = box((0, 0, 0)), box((2, -4.2, 0)), (-4.0, 4.0, 0.0)
    for axis in ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0)):  # neither alone proves the miss
        assert toi_fast.moving_axes(a, b, m, [axis], 4e-9, 1e-9, 8.0) is not None
    assert toi_fast.moving_axes(a, b, m, [(1.0, 0.0, 0.0), (0.0, 1.0, 0.0)],
                                4e-9, 1e-9, 8.0) is None
    # the line of the centres at their nearest, t* = 24.8 / 32 = 0.775, is (-1.1, -1.1, 0):
    # on (-1, -1, 0) / sqrt 2 the boxes' half widths are 0.5 sqrt 2 each, their centres
    # 1.1 sqrt 2 apart, and the motion is normal to it: 0.1 sqrt 2 apart at every t
    (cc,) = toi_fast._axes(a, b, m, ((0.0, 0.0, 0.0), (2.0, -4.2, 0.0)))[:1]
    assert cc == pytest.approx((-math.sqrt(0.5), -math.sqrt(0.5), 0.0), abs=1e-15)
    assert toi_fast.moving_axes(a, b, m, [cc], 4e-9, 1e-9, 8.0) is None
    r = query("toi", a, b, m, method=CA)
    assert r.toi is None and r.trace["case"] == toi_fast.AXES_MISS
    assert r.trace["static_queries"] == 1  # only the distance at t = 0 (trace, tol)
    assert careful(a, b, m).toi is None


def test_a_gap_within_h_miss_is_not_called_a_miss():
    # B passes A on y with its interval 3e-9 above A's (s = 0 on y): within h_miss = 4e-9,
    # so no miss is claimed (the careful path decides distances near tol); 5e-9: a miss
    a, m = box((0, 0, 0)), (-4.0, 0.0, 0.0)
    assert toi_fast.moving_axes(a, box((3, 1 + 3e-9, 0)), m, list(I3), 4e-9, 1e-9, 4.0) \
        is not None
    assert toi_fast.moving_axes(a, box((3, 1 + 5e-9, 0)), m, list(I3), 4e-9, 1e-9, 4.0) \
        is None


def test_no_jump_when_the_jump_window_is_empty():
    # The diagonal pass with B 4e-9 further down: B = [1.5, 2.5] x [-4.5 - d, -3.5 - d] x
    # [-0.5, 0.5], d = 4e-9, moving by (-4, 4, 0). Grown by h the x window ends at
    # (-0.5 - h - 2.5) / -4 = 0.75 + h / 4 and the y window starts at (-0.5 - h + 3.5 + d) / 4
    # = 0.75 + (d - h) / 4: they meet iff d <= 2 h. h_miss = 8e-9: they meet (no miss is
    # claimed, the pass comes within h_miss); h_jump = 1e-9: they do not (no t_enter to
    # jump to: conservative advancement decides this grazing pass)
    a, m = box((0, 0, 0)), (-4.0, 4.0, 0.0)
    b = box((2, -4.0 - 4e-9, 0))
    axes = [(1.0, 0.0, 0.0), (0.0, 1.0, 0.0)]
    assert toi_fast.moving_axes(a, b, m, axes, 8e-9, 1e-9, 8.0) == (0.0, None)
    # d = 1e-9 <= 2 h_jump: the windows meet, the jump is the y window's start 0.75 (the
    # rounding allowance moves it earlier by 3e-14); there B's top is 1e-9 below A's bottom
    b = box((2, -4.0 - 1e-9, 0))
    t, axis = toi_fast.moving_axes(a, b, m, axes, 8e-9, 1e-9, 8.0)
    assert axis == (0.0, 1.0, 0.0) and t == pytest.approx(0.75, abs=1e-12)
    assert dist(a, b, t, m) >= 1e-9 - 1e-13


@pytest.mark.parametrize("prim", [
    box((0.2, -0.1, 0.3), (0.5, 0.0, 0.2)),
    OBB((1, 2, 3), ((0.6, 0.8, 0), (-0.8, 0.6, 0), (0, 0, 1)), (0.5, 0.3, 0.4)),
    Sphere((1, -1, 0.5), 0.7),
    Capsule((0, 0, 0), (1, 2, -1), 0.3),
    Cylinder((1, 0, 0), (0.0, 0.6, 0.8), 0.35, 0.9),
    Cylinder((1, 0, 0), (0.0, 0.6, 0.8), 0.0, 0.9),
    Triangle(((0, 0, 0), (1, 0, 0), (0, 1, 1))),
])
def test_projections_are_the_support_intervals(prim):
    # the plain-float projections against kernels.support's numpy closed forms, on the
    # world axes, the shape's own axes and an axis within 1e-9 of a cylinder's
    proj, axes = toi_fast.projector(prim)
    dirs = list(I3) + list(axes) + [(0.0, 0.6 + 1e-9, 0.8), (0.48, -0.6, 0.64)]
    for d in dirs:
        n = math.sqrt(sum(x * x for x in d))
        d = tuple(x / n for x in d)
        lo, hi = proj(*d)
        elo, ehi = support_interval(prim, d)
        assert lo == pytest.approx(elo, abs=1e-14) and hi == pytest.approx(ehi, abs=1e-14)


@SETTINGS
@given(st.data())
def test_axes_never_contradict_the_careful_path(data):
    """On random bounded pairs and motions, with h as the fast path takes them (tol =
    1e-9 of the scale): a miss the axes prove is the careful path's miss, with a distance
    above tol at sampled times; a ``t_enter`` to jump to is no later than the careful toi and
    leaves a gap there (a jump past the contact fails here)."""
    ka = data.draw(st.sampled_from(sorted(BOUNDED)))
    kb = data.draw(st.sampled_from(sorted(BOUNDED)))
    a, b = data.draw(BOUNDED[ka]), data.draw(BOUNDED[kb])
    if data.draw(st.booleans()):
        m = data.draw(motion_st)
    else:  # B drawn 12 along x, moving back by about that: most of these meet A
        b = b.translated((12.0, 0.0, 0.0))
        m = data.draw(st.tuples(st.floats(-16, -8).map(lambda x: round(x, 2)),
                                st.floats(-2, 2).map(lambda x: round(x, 2)),
                                st.floats(-2, 2).map(lambda x: round(x, 2))))
    size = max(toi_fast.shape(a)[5], toi_fast.shape(b)[5], *map(abs, m))
    if not size > 0.0:
        return
    tol = 1e-9 * size
    centres = (toi_fast.shape(a)[4], toi_fast.shape(b)[4])
    axes = toi_fast._axes(a, b, toi_fast._t3(m), centres, faces=True)
    found = toi_fast.moving_axes(a, b, toi_fast._t3(m), axes, 2 * tol, tol / 2, size)
    c = careful(a, b, m)
    if found is None:
        assert c.toi is None
        for k in range(9):
            assert dist(a, b, k / 8, m) > tol
        return
    t, axis = found
    if axis is None:
        return
    assert 0.0 < t
    if c.toi is not None:
        assert t <= c.toi
    if t <= 1.0:
        assert dist(a, b, t, m) > 0.0
        # at least h_jump, less the static distance query's own rounding
        assert dist(a, b, t, m) >= tol / 2 - 128 * 2.0 ** -52 * size


def _moving_cases():
    return list(moving_cases())


def test_the_jump_keeps_the_careful_answers(monkeypatch):
    """With :data:`toi_fast.JUMP` on (the first step jumps to the axes' t_enter when later than
    the plane's bound) the fast path answers the moving pairs of ``bench kernels``'s kinds
    as it does off: hit or miss as the careful path, never after its contact, before it by
    the documented tolerance."""
    monkeypatch.setattr(toi_fast, "JUMP", True)
    jumped = 0
    real = toi_fast.moving_axes

    def counted(*args):
        nonlocal jumped
        out = real(*args)
        jumped += out is not None and out[1] is not None
        return out

    monkeypatch.setattr(toi_fast, "moving_axes", counted)
    for ka, kb, a, b, m in _moving_cases():
        r = query("toi", a, b, m, method=CA)
        c = careful(a, b, m)
        assert "path" in r.trace
        assert_as_careful(ka, kb, r, c)
    assert jumped > 10


def test_axes_misses_on_the_bench_kinds():
    """The moving pairs of ``bench kernels``'s kinds that miss: the axes prove most of them
    after the first distance (the trace says so), the careful path misses them all."""
    by_axes = misses = 0
    for ka, kb, a, b, m in _moving_cases():
        r = query("toi", a, b, m, method=CA)
        if r.toi is None:
            misses += 1
            by_axes += r.trace["case"] == toi_fast.AXES_MISS
            assert careful(a, b, m).toi is None
    assert misses >= 15 and by_axes >= misses // 2


def test_plain_stall_retry_takes_the_first_tilt_that_shrinks_v():
    """The stall retry of the kernel's GJK (:func:`algorithms.kernels.gjk._retry`): the careful
    mode keeps the tilt of ``v`` that shrinks it most, the plain mode of the fast path the
    first that shrinks it at all. Simplex ``{(1, 0, 0)}``, ``v = (1, 0, 0)``, B the origin:
    the tilt ``+x`` (the first tried) finds ``w = (0.9, 0.3, 0)``, the nearest point of its
    segment to ``(1, 0, 0)`` (edge e = (-0.1, 0.3, 0): -(1, 0, 0) . e = 0.1 = |e|^2, the end),
    |v|^2 = 0.81 + 0.09 = 0.9; the tilt ``+y`` finds ``w = (0, 0.5, 0)``: e = (-1, 0.5, 0),
    t = 1 / 1.25 = 0.8, the point (0.2, 0.4, 0), |v|^2 = 0.2; every other direction finds
    ``(1, 0, 0)`` again (no progress)."""
    from algorithms.kernels import gjk

    tilt = 1e-7
    found = {(-(1.0 + tilt), -0.0, -0.0): (0.9, 0.3, 0.0), (-1.0, -tilt, -0.0): (0.0, 0.5, 0.0)}

    def support_a(d):
        return found.get(tuple(d), (1.0, 0.0, 0.0))

    def support_b(d):
        return (0.0, 0.0, 0.0)

    args = ([(1.0, 0.0, 0.0)], (1.0,), (1.0, 0.0, 0.0), 1.0, 0.0, 0.0, 0.0,
            gjk.closest_on_simplex)
    plain = gjk._retry(support_a, support_b, *args, True)
    best = gjk._retry(support_a, support_b, *args, False)
    assert plain[2] == (0.9, 0.3, 0.0) and plain[6] == pytest.approx(0.9, abs=1e-12)
    assert best[2] == (0.0, 0.5, 0.0) and best[6] == pytest.approx(0.2, abs=1e-12)
