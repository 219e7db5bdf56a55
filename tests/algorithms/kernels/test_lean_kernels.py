"""The one-frame lean kernels (algorithms.registry.lean_kernels, issue 12 part 1) return the very
records of the functions they stand in for, bit for bit, and count the filters' declines
exactly as those functions do. The oracle is the registered function's own path (its own
filters, then the careful kernels), which the other tests check against Fractions and
against :func:`careful_only`."""

from hypothesis import given, settings
from hypothesis import strategies as st
from tests.fuzz import examples

from algorithms import AABB, Ray, Segment, Triangle, query, registry
from algorithms.core.once import one_analysis
from algorithms.core.tolerance import plain
from algorithms.kernels import stplane
from algorithms.kernels.filters import FALLBACKS, careful_only
from algorithms.queries import linear_aabb, linear_linear, linear_triangle

# a coarse grid (touching, grazing, parallel and axis-aligned cases are common) or anywhere
coord = st.one_of(st.sampled_from([-2.0, -1.0, -0.5, -0.0, 0.0, 0.5, 1.0, 2.0]),
                  st.floats(-3, 3, allow_nan=False, allow_infinity=False))
vec = st.tuples(coord, coord, coord)
nonzero = vec.filter(lambda v: any(v))
FIELDS = ("method", "distance", "sqr_distance", "closest", "parameter", "intersects",
          "first_t", "hits")


def _same(r1, r2):
    """Bit for bit (repr tells -0.0 from 0.0) on every field the records have, traces too."""
    assert type(r1) is type(r2)
    for f in FIELDS:
        if hasattr(r2, f):
            assert repr(getattr(r1, f)) == repr(getattr(r2, f)), f
    assert repr(r1.trace) == repr(r2.trace)


def _counted(fn):
    before = dict(FALLBACKS)
    out = fn()
    return out, {k: v - before.get(k, 0) for k, v in FALLBACKS.items() if v != before.get(k, 0)}


def test_the_kernels_are_the_registry_defaults():
    seg = Segment((0, 0, 0), (1, 0, 0))
    for name, a, b, func in (("distance", seg, Segment((0.5, 1, -1), (0.5, 1, 1)),
                              linear_linear.linear_distance),
                             ("hits", Ray((-1, 0.5, 0.5), (1, 0, 0)), AABB((0, 0, 0), (1, 1, 1)),
                              linear_aabb.hits_linear_aabb),
                             ("hits", seg, Triangle(((0, -1, -1), (0, 1, -1), (0, 0, 1))),
                              linear_triangle.hits_linear_triangle)):
        lean, careful = func.lean[(a.kind, b.kind)]
        assert lean(a, b) is not None
        assert "lean" in registry.runner(name, a.kind, b.kind).__qualname__
    # the x axis against the z-parallel segment at x = 0.5, y = 1: region 0, 1 apart
    # (hand-derived), answered by the kernel
    r = query("distance", seg, Segment((0.5, 1, -1), (0.5, 1, 1)))
    assert (r.parameter, r.distance, r.closest) == ((0.5, 0.5), 1.0,
                                                    ((0.5, 0.0, 0.0), (0.5, 1.0, 0.0)))


@settings(max_examples=examples(400), deadline=None)
@given(vec, vec, vec, vec)
def test_segment_kernel_is_lean_distance_bit_for_bit(p0, p1, q0, q1):
    a, b = Segment(p0, p1), Segment(q0, q1)
    lean = linear_linear.linear_distance.lean[("segment", "segment")][0]
    r1, n1 = _counted(lambda: lean(a, b))
    r2, n2 = _counted(lambda: stplane.lean_distance(a, b, linear_linear.touch_tolerance,
                                                     linear_linear.METHOD))
    assert n1 == n2  # the same declines, counted alike
    assert (r1 is None) == (r2 is None)
    if r1 is not None:
        _same(r1, r2)
    # and the query (kernel or careful continuation) is the function's own answer, counted once
    # (a pair outside the safe range is rescaled first: never the kernels' business)
    if not (plain(a) and plain(b)):
        return
    q, nq = _counted(lambda: query("distance", a, b))
    f, nf = _counted(lambda: linear_linear.linear_distance(a, b))
    _same(q, f)
    assert nq == nf
    with careful_only():
        assert repr(query("distance", a, b).closest) == repr(
            linear_linear.linear_distance(a, b).closest)


@settings(max_examples=examples(400), deadline=None)
@given(st.sampled_from(["ray", "segment"]), vec, nonzero, vec, vec)
def test_box_kernel_is_hits_linear_aabb_bit_for_bit(kind, o, d, lo, size):
    a = Ray(o, d) if kind == "ray" else Segment(o, tuple(x + y for x, y in zip(o, d)))
    if not any(a.direction):
        return
    box = AABB(lo, tuple(x + abs(y) for x, y in zip(lo, size)))
    if not (plain(a) and plain(box)):
        return  # rescaled first (call_rescaled): never the kernels' business
    q, nq = _counted(lambda: query("hits", a, box))
    f, nf = _counted(lambda: linear_aabb.hits_linear_aabb(a, box))
    _same(q, f)
    assert nq == nf
    with one_analysis():  # inside a scope the shared path answers: the same record
        _same(query("hits", a, box), f)


@settings(max_examples=examples(400), deadline=None)
@given(st.sampled_from(["ray", "segment"]), vec, nonzero, vec, vec, vec)
def test_triangle_kernel_is_hits_linear_triangle_bit_for_bit(kind, o, d, v0, v1, v2):
    a = Ray(o, d) if kind == "ray" else Segment(o, tuple(x + y for x, y in zip(o, d)))
    if not any(a.direction):
        return
    tri = Triangle((v0, v1, v2))
    if not (plain(a) and plain(tri)):
        return  # rescaled first (call_rescaled): never the kernels' business
    q, nq = _counted(lambda: query("hits", a, tri))
    f, nf = _counted(lambda: linear_triangle.hits_linear_triangle(a, tri))
    _same(q, f)
    assert nq == nf
    with careful_only():  # the filters off: the kernel steps aside, the careful path answers
        _same(query("hits", a, tri), linear_triangle.hits_linear_triangle(a, tri))


def test_box_kernel_certifies_a_miss_on_the_pairs_scale_as_hits_linear_aabb_does():
    # Woo rejects this ray (its origin and direction below 1, the box's coordinates up to
    # 1.3e7) with the gap 8.5e-4 (woo_lean). The miss is certified only when the gap exceeds
    # 2 MARGIN times the pair's scale (_clear_miss: the box's 1.3e7, so 24.3): it does not,
    # so the careful path checks (and counts one woo_lean fallback), the kernel alike. (The
    # kernel once compared with the ray's own scale, 2 MARGIN 0.7 = 1.3e-6, and certified it.)
    ray = Ray((0.6962724823217186, -0.0003604924985383986, 0.34923212416625304),
              (-0.00014551129233039668, 0.0005810010126908581, -0.0006129111114082106))
    box = AABB((-9259993.220482625, 5810010.126548088, -6129110.7631044835),
               (298787.0002495814, 12752326.963067882, 534230.2674479894))
    assert linear_aabb.woo_lean(ray.origin, ray.direction, float("inf"), box.min,
                                box.max) == (linear_aabb.MISS, 0.0008494125014408611)
    q, nq = _counted(lambda: query("hits", ray, box))
    f, nf = _counted(lambda: linear_aabb.hits_linear_aabb(ray, box))
    assert nq == nf == {"woo_lean": 1}
    _same(q, f)
    assert not q.intersects


def test_box_kernel_is_direct_and_leaves_what_it_cannot_answer_to_the_runner():
    # query() calls a direct kernel without reading the plain flags or the scope itself
    # (registry.lean_kernels): the kernel declines (None) exactly the pairs the runner must
    # answer, and answers the others with the registered function's own record
    lean = linear_aabb.hits_linear_aabb.lean[("ray", "aabb")][0]
    assert lean.direct is True
    ray, box = Ray((-1, 0.5, 0.5), (1, 0, 0)), AABB((0, 0, 0), (1, 1, 1))
    # a box 2**30 wide is outside the safe range (not plain): rescaled by call_rescaled; the
    # ray enters at x = 0 (t = 1) and leaves at x = 2**30 (t = 2**30 + 1)
    big = AABB((0, 0, 0), (2.0 ** 30,) * 3)
    assert not plain(big) and lean(ray, big) is None
    r = query("hits", ray, big)
    assert r.trace["rescaled_by"] > 1 and [h.t for h in r.hits] == [1.0, 2.0 ** 30 + 1]
    exact = Ray((-1, 0.5, 0.5), (1, 0, 0), exact=True), AABB((0, 0, 0), (1, 1, 1), exact=True)
    assert lean(*exact) is None  # exact: the careful path, through the runner
    assert query("hits", *exact).first_t == 1
    with one_analysis():
        assert lean(ray, box) is None  # a scope: the runner's shared call
        _same(query("hits", ray, box), linear_aabb.hits_linear_aabb(ray, box))
    with careful_only():  # the filters off: the careful record, from the kernel itself
        _same(lean(ray, box), linear_aabb.hits_linear_aabb(ray, box))
    _same(lean(ray, box), linear_aabb.hits_linear_aabb(ray, box))
    # (the ray x = -1 + t at y = z = 0.5 enters the unit box at t = 1, leaves at t = 2)
    assert [(h.t, h.kind) for h in query("hits", ray, box).hits] == [(1.0, "entry"),
                                                                     (2.0, "exit")]


def test_kept_per_primitive_data_serves_every_partner_bit_for_bit():
    # the kernels keep what depends on one primitive alone on its (frozen) instance
    # (linear_triangle._plane_of and _ray_form, linear_aabb._woo_form and _box_form,
    # stplane.segment_form): each
    # primitive here meets many partners, and every answer must still be the registered
    # function's own (which keeps nothing), the counts of declines alike
    import random

    rng = random.Random(5)

    def rv(s=1.0):
        return tuple(rng.choice([rng.uniform(-s, s), float(rng.randint(-2, 2))])
                     for _ in range(3))

    rays = [Ray(rv(3), rv()) for _ in range(12)] + [Segment(rv(2), rv(2)) for _ in range(12)]
    rays = [r for r in rays if any(r.direction)]
    boxes = []
    for _ in range(8):
        lo = rv()
        boxes.append(AABB(lo, tuple(x + abs(y) for x, y in zip(lo, rv()))))
    tris = [Triangle((rv(), rv(), rv())) for _ in range(8)]
    tris.append(Triangle(((0.0, 0.0, 0.0), (1.0, 1.0, 1.0), (2.0, 2.0, 2.0))))  # collinear
    for _ in range(2):  # the second round: every kept value read back, not computed
        for a in rays:
            for b, func in [(b, linear_aabb.hits_linear_aabb) for b in boxes] + \
                    [(t, linear_triangle.hits_linear_triangle) for t in tris]:
                q, nq = _counted(lambda: query("hits", a, b))
                f, nf = _counted(lambda: func(a, b))
                _same(q, f)
                assert nq == nf
        segs = [r for r in rays if r.kind == "segment"]
        for a in segs:
            for b in segs:
                q, nq = _counted(lambda: query("distance", a, b))
                f, nf = _counted(lambda: linear_linear.linear_distance(a, b))
                _same(q, f)
                assert nq == nf
    # the kept values are not fields: equality, hashing and the fields' view are unchanged
    import dataclasses

    t = tris[0]
    fresh = Triangle(t.vertices)
    assert linear_triangle.PLANE_KEY in t.__dict__
    assert t == fresh and hash(t) == hash(fresh)
    assert dataclasses.asdict(t) == dataclasses.asdict(fresh)


def test_the_triangle_kernel_keeps_the_plane_and_answers_as_the_general_step():
    # the ray (0.2, 0.2, -1) + t (0, 0, 1) crosses the triangle z = 0 with vertices (0, 0, 0),
    # (1, 0, 0), (0, 1, 0) at t = 1 (hand-derived); (2, 2, -1) misses it by the edge x + y = 1
    # (1.5 sqrt 2 away in the plane, the ray perpendicular to it: sin theta = 1)
    tri = Triangle(((0, 0, 0), (1, 0, 0), (0, 1, 0)))
    lean = linear_triangle.hits_linear_triangle.lean[("ray", "triangle")][0]
    general = linear_triangle._lean_general(float("inf"))
    hit, miss = Ray((0.2, 0.2, -1), (0, 0, 1)), Ray((2, 2, -1), (0, 0, 1))
    r = lean(hit, tri)
    assert r.intersects and r.first_t == 1.0 and r.hits[0].point == (0.2, 0.2, 0.0)
    assert linear_triangle._plane_of(tri) is not False  # kept: the fast step answered
    _same(r, general(hit, tri))
    m = lean(miss, tri)
    assert not m.intersects and m.hits == ()
    _same(m, general(miss, tri))
    assert m.trace["rejected"] == general(miss, tri).trace["rejected"]
    # a collinear triangle keeps False: the general step answers (and counts) as before
    flat = Triangle(((0, 0, 0), (1, 1, 1), (2, 2, 2)))
    assert linear_triangle._plane_of(flat) is False
    (r1, n1), (r2, n2) = _counted(lambda: lean(hit, flat)), _counted(lambda: general(hit, flat))
    _same(r1, r2)
    assert n1 == n2 and n1["badouel_lean"] == 1


def test_a_direct_edit_of_the_table_reaches_the_class_keyed_probe():
    # query() keeps its answer per (table, query, class of A, class of B) and checks nothing
    # else: the table itself drops the cache when a key is set, and so does each entry
    # list when it is changed in place (registry._Entries)
    key = ("hits", "ray", "aabb")
    ray, box = Ray((-2, 0.5, 0.5), (1, 0, 0)), AABB((0, 0, 0), (1, 1, 1))
    assert query("hits", ray, box).method == linear_aabb.A18  # the probe's entry is cached
    saved = registry._TABLE[key]
    registry._TABLE[key] = [e for e in saved if e.name != "woo"]  # no _CACHE.clear() here
    try:
        assert query("hits", ray, box).method == linear_aabb.SLABS
    finally:
        registry._TABLE[key] = saved
    assert query("hits", ray, box).method == linear_aabb.A18
    # an entry removed from its list in place is noticed as well (the list drops the cache)
    saved = list(registry._TABLE[key])
    woo = next(e for e in saved if e.name == "woo")
    registry._TABLE[key].remove(woo)
    try:
        assert query("hits", ray, box).method == linear_aabb.SLABS
    finally:
        registry._TABLE[key][:] = saved
        registry._CACHE.clear()
    assert query("hits", ray, box).method == linear_aabb.A18


def test_every_in_place_change_of_an_entry_list_reaches_the_class_keyed_probe():
    key = ("hits", "ray", "aabb")
    ray, box = Ray((-2, 0.5, 0.5), (1, 0, 0)), AABB((0, 0, 0), (1, 1, 1))
    entries = registry._TABLE[key]
    assert type(entries) is registry._Entries
    saved = list(entries)
    woo = next(e for e in saved if e.name == "woo")
    slabs = next(e for e in saved if e.name == "slabs")
    # each edit leaves slabs first (the default: the first entry that is not a user's)
    edits = (lambda: entries.reverse(), lambda: entries.sort(key=lambda e: e.priority),
             lambda: entries.pop(0), lambda: entries.__delitem__(0),
             lambda: entries.__setitem__(0, slabs), lambda: entries.insert(0, slabs),
             lambda: entries.clear() or entries.append(slabs),
             lambda: entries.clear() or entries.extend([slabs, woo]))
    try:
        for edit in edits:
            entries[:] = saved
            assert query("hits", ray, box).method == linear_aabb.A18  # cached again
            edit()
            assert query("hits", ray, box).method == linear_aabb.SLABS
    finally:
        entries[:] = saved
    assert query("hits", ray, box).method == linear_aabb.A18
    # a plain list set in the table is kept as an _Entries (a copy of it)
    registry._TABLE[key] = [slabs, woo]
    try:
        assert type(registry._TABLE[key]) is registry._Entries
        assert query("hits", ray, box).method == linear_aabb.SLABS
        registry._TABLE[key].reverse()
        assert query("hits", ray, box).method == linear_aabb.A18
    finally:
        registry._TABLE[key] = saved


def test_a_moving_pair_s_cached_function_follows_the_table():
    # query("toi", a, b, motion) keeps the default function per (table, class of A, class of
    # B) for its probe (registry._TOI): an in-place edit of the entry list reaches it, as
    # does a new list set in the table
    from algorithms import Capsule, Sphere
    from algorithms.generic.advancement import METHOD_CA

    key = ("toi", "sphere", "capsule")
    s, c = Sphere((0, 0, 0), 0.5), Capsule((3, -1, 0), (3, 1, 0), 0.5)
    motion = (-4.0, 0.0, 0.0)
    # B's axis at x = 3 closes on A's centre at 4 a unit of t: the gap 3 - 0.5 - 0.5 = 2
    # closes at t = 0.5 (conservative advancement stops within its tol of 1e-9 of the scale)
    first = query("toi", s, c, motion)
    assert first.method == METHOD_CA and abs(first.toi - 0.5) < 1e-8
    assert registry._CACHE[registry._TABLE][registry._TOI][Sphere][Capsule] is not None
    flipped = ("toi", "capsule", "sphere")  # (its entries answer the pair flipped)
    entries, saved, saved_flipped = registry._TABLE[key], list(registry._TABLE[key]), \
        registry._TABLE[flipped]
    ca = next(e for e in saved if e.name == "conservative_advancement")
    try:
        registry._TABLE[flipped] = [e for e in saved_flipped if e.name != ca.name]
        assert query("toi", s, c, motion).method == METHOD_CA  # A-B's own entry still
        entries.remove(ca)  # in place: the list drops the cache
        other = query("toi", s, c, motion)
        assert other.method != METHOD_CA and abs(other.toi - 0.5) < 1e-6
        registry._TABLE[key] = saved  # a new list: the table drops the cache
        assert query("toi", s, c, motion).method == METHOD_CA
    finally:
        registry._TABLE[key] = saved
        registry._TABLE[flipped] = saved_flipped
    assert query("toi", s, c, motion).toi == first.toi
