"""Methods from the user's code (algorithms.usermethods): loading, wrapping, failing, reloading.

Every number asserted is derived by hand in the comment beside it. A user method must never
change a default answer, and whatever it does (raise, return the wrong type, NaN, hang) comes
back as a UserMethodError naming the method, never as anything else.
"""

from __future__ import annotations

import os
import sys
import textwrap
import threading

import pytest

from algorithms import AABB, OBB, Plane, Ray, Segment, Sphere, evaluate_pair, registry, usermethods
from algorithms.usermethods import MethodsLoadError, Policy, UserMethodError

SEG_A = Segment((0, 0, 0), (1, 0, 0))
SEG_B = Segment((0, 2, 0), (1, 2, 0))  # parallel, 2 apart: distance 2


@pytest.fixture(autouse=True)
def _clean():
    yield
    usermethods.unload_all()


def write(tmp_path, text, name="mine.py"):
    p = tmp_path / name
    p.write_text(textwrap.dedent(text))
    return p


def test_plain_float_is_wrapped_listed_last_and_never_the_default(tmp_path):
    before = evaluate_pair(SEG_A, SEG_B)
    p = write(tmp_path, """
        from algorithms import register

        @register("distance", "segment", "segment", name="my_dist")
        def my_dist(a, b):
            return 2.5
    """)
    mf = usermethods.load_methods(p, Policy(time_limit=None))
    assert mf.methods() == [("distance", "segment", "segment", "my_dist")]
    names = registry.methods("distance", "segment", "segment")
    assert names[-1] == "my_dist" and names[0] == "st_plane"
    assert registry.default_method("distance", "segment", "segment") == "st_plane"
    assert registry.is_user("distance", "segment", "segment", "my_dist")
    r = registry.query("distance", SEG_A, SEG_B, method="my_dist")
    assert r.distance == 2.5 and r.sqr_distance == 6.25  # 2.5^2
    assert "user method" in r.method and r.trace["user"] is True
    # the default answer is untouched (distance 2 between the parallel segments)
    assert evaluate_pair(SEG_A, SEG_B) == before and before.distance == 2.0
    # the swapped pair answers through the registry's flip
    assert registry.query("distance", SEG_B, SEG_A, method="my_dist").distance == 2.5
    # the table for the README and the menus leaves user methods out unless asked
    assert all(not e.user for e in registry.table())
    assert any(e.user for e in registry.table(include_user=True))


def test_every_query_wraps_its_plain_value(tmp_path):
    p = write(tmp_path, """
        from algorithms import register

        @register("intersects", "sphere", "sphere", name="u_int")
        def u_int(a, b):
            return True

        @register("hits", "ray", "aabb", name="u_hits")
        def u_hits(a, b):
            return 2.0

        @register("separating_axis", "aabb", "aabb", name="u_axis")
        def u_axis(a, b):
            return (0, 0, 2)

        @register("side", "plane", "sphere", name="u_side")
        def u_side(a, b):
            return -1

        @register("toi", "sphere", "sphere", name="u_toi")
        def u_toi(a, b, motion):
            return None if motion[0] == 0 else 0.25

        @register("distance", "sphere", "sphere", name="u_dist_points")
        def u_dist_points(a, b):
            return 1.0, (1, 0, 0), (2, 0, 0)
    """)
    usermethods.load_methods(p, Policy(time_limit=None))
    s1, s2 = Sphere((0, 0, 0), 1), Sphere((3, 0, 0), 1)
    assert registry.query("intersects", s1, s2, method="u_int").intersects is True
    ray, box = Ray((0, 0, 0), (1, 0, 0)), AABB((2, -1, -1), (3, 1, 1))
    h = registry.query("hits", ray, box, method="u_hits")
    # one hit at t = 2: the point origin + 2 direction = (2, 0, 0)
    assert h.first_t == 2.0 and h.intersects and h.hits[0].point == (2.0, 0.0, 0.0)
    box2 = AABB((0, 0, 5), (1, 1, 6))
    sep = registry.query("separating_axis", AABB((0, 0, 0), (1, 1, 1)), box2, method="u_axis")
    # (0, 0, 2) normalised to (0, 0, 1); the boxes project on z to [0, 1] and [5, 6]
    assert sep.axis == (0.0, 0.0, 1.0) and not sep.intersects
    assert sep.intervals == ((0.0, 1.0), (5.0, 6.0))
    side = registry.query("side", Plane((0, 0, 1), 0), Sphere((0, 0, -5), 1), method="u_side")
    assert side.side == -1
    assert registry.query("toi", s1, s2, (1, 0, 0), method="u_toi").toi == 0.25
    assert registry.query("toi", s1, s2, (0, 1, 0), method="u_toi").toi is None
    d = registry.query("distance", s1, s2, method="u_dist_points")
    assert d.distance == 1.0 and d.closest == ((1.0, 0.0, 0.0), (2.0, 0.0, 0.0))


BAD_METHODS = """
    import math
    from algorithms import register

    @register("distance", "segment", "segment", name="divides")
    def divides(a, b):
        n = 0
        return 1 / n

    @register("distance", "sphere", "sphere", name="stringly")
    def stringly(a, b):
        return "1.0"

    @register("distance", "point", "point", name="nan_dist")
    def nan_dist(a, b):
        return math.nan

    @register("side", "plane", "point", name="side_two")
    def side_two(a, b):
        return 2

    @register("intersects", "aabb", "aabb", name="int_not_bool")
    def int_not_bool(a, b):
        return 1

    @register("hits", "ray", "sphere", name="wrong_record")
    def wrong_record(a, b):
        from algorithms import DistanceResult
        return DistanceResult(distance=1.0)
"""


def test_failures_come_back_as_user_method_errors(tmp_path):
    from algorithms import Point

    p = write(tmp_path, BAD_METHODS, "bad.py")
    usermethods.load_methods(p, Policy(time_limit=None))
    with pytest.raises(UserMethodError) as e:
        registry.query("distance", SEG_A, SEG_B, method="divides")
    assert e.value.kind == "exception" and "ZeroDivisionError" in str(e.value)
    # the traceback starts in the user's file, at the line of the division (line 8)
    assert f'File "{p}", line 8, in divides' in e.value.traceback
    assert "return 1 / n" in e.value.traceback
    cases = [
        ("distance", Sphere((0, 0, 0), 1), Sphere((3, 0, 0), 1), "stringly", "type"),
        ("distance", Point((0, 0, 0)), Point((1, 0, 0)), "nan_dist", "nan"),
        ("side", Plane((0, 0, 1), 0), Point((0, 0, 1)), "side_two", "type"),
        ("intersects", AABB((0, 0, 0), (1, 1, 1)), AABB((0, 0, 0), (1, 1, 1)), "int_not_bool",
         "type"),
        ("hits", Ray((0, 0, 0), (1, 0, 0)), Sphere((3, 0, 0), 1), "wrong_record", "type"),
    ]
    for query, a, b, name, kind in cases:
        with pytest.raises(UserMethodError) as e:
            registry.query(query, a, b, method=name)
        assert e.value.kind == kind, (name, e.value)
        assert name in str(e.value) and e.value.where.startswith(str(p))
    # the library's own answers are unaffected by the broken file
    assert evaluate_pair(SEG_A, SEG_B).distance == 2.0


def test_a_hang_is_stopped_at_the_time_limit_and_then_suspended(tmp_path):
    p = write(tmp_path, """
        from algorithms import register

        @register("distance", "segment", "segment", name="spins")
        def spins(a, b):
            while True:
                try:
                    pass
                except Exception:  # a broad except in user code must not swallow the stop
                    pass

        @register("distance", "sphere", "sphere", name="fine")
        def fine(a, b):
            return 1.0
    """)
    usermethods.load_methods(p, Policy(time_limit=0.2, suspend_after_timeout=True))
    with pytest.raises(UserMethodError) as e:
        registry.query("distance", SEG_A, SEG_B, method="spins")
    assert e.value.kind == "timeout" and "0.2 s" in str(e.value)
    with pytest.raises(UserMethodError) as e:  # not run again until reloaded
        registry.query("distance", SEG_A, SEG_B, method="spins")
    assert e.value.kind == "suspended"
    # the thread goes on working: no stray exception lands later
    s = Sphere((0, 0, 0), 1)
    for _ in range(50):
        assert registry.query("distance", s, Sphere((3, 0, 0), 1), method="fine").distance == 1.0
    usermethods.load_methods(p, Policy(time_limit=0.2))  # reload lifts the suspension
    with pytest.raises(UserMethodError) as e:
        registry.query("distance", SEG_A, SEG_B, method="spins")
    assert e.value.kind == "timeout"


def test_time_limit_works_in_another_thread(tmp_path):
    p = write(tmp_path, """
        from algorithms import register

        @register("distance", "segment", "segment", name="spins")
        def spins(a, b):
            while True:
                pass
    """)
    usermethods.load_methods(p, Policy(time_limit=0.2))
    out = []

    def worker():
        try:
            registry.query("distance", SEG_A, SEG_B, method="spins")
        except UserMethodError as exc:
            out.append(exc.kind)

    t = threading.Thread(target=worker)
    t.start()
    t.join(10)
    assert out == ["timeout"]


@pytest.mark.parametrize("text, expect", [
    ("def broken(:\n    pass\n", ":1: SyntaxError"),
    ("import no_such_module_anywhere\n", ":1: ModuleNotFoundError"),
    ("from algorithms import register\n\n@register('distance', 'segmnet', 'sphere')\n"
     "def f(a, b):\n    return 0.0\n", "'segmnet' is not a type"),
    ("from algorithms import register\n\n@register('distance', 'segment', 'segment', "
     "name='st_plane')\ndef f(a, b):\n    return 0.0\n", "already has a method 'st_plane'"),
    ("from algorithms import register\n\n@register('volume', 'segment', 'segment')\n"
     "def f(a, b):\n    return 0.0\n", "unknown query 'volume'"),
])
def test_a_bad_file_is_refused_with_one_line_naming_file_and_line(tmp_path, text, expect):
    p = write(tmp_path, text, "bad.py")
    n_before = len(registry.table(include_user=True))
    with pytest.raises(MethodsLoadError) as e:
        usermethods.load_methods(p)
    msg = str(e.value)
    assert "\n" not in msg and str(p) in msg and expect in msg, msg
    assert e.value.traceback  # the whole story is kept for the panel
    assert len(registry.table(include_user=True)) == n_before
    # the library method of the same name is still the library's
    assert not registry.is_user("distance", "segment", "segment", "st_plane")


def test_missing_file():
    with pytest.raises(MethodsLoadError, match="no such file"):
        usermethods.load_methods("/nonexistent/methods.py")


V1 = """
from algorithms import register

@register("distance", "segment", "segment", name="mine")
def mine(a, b):
    return {value}
"""


def test_reload_on_change_and_a_failed_reload_keeps_the_old_methods(tmp_path):
    p = tmp_path / "m.py"
    p.write_text(V1.format(value="1.0"))
    mf = usermethods.load_methods(p, Policy(time_limit=None))
    assert registry.query("distance", SEG_A, SEG_B, method="mine").distance == 1.0
    assert usermethods.reload_changed() == []  # unchanged: nothing reloaded
    p.write_text(V1.format(value="3.0"))
    st = p.stat()
    os.utime(p, ns=(st.st_atime_ns, st.st_mtime_ns + 10_000_000))
    (reloaded, error), = usermethods.reload_changed()
    assert error is None and reloaded is mf
    assert registry.query("distance", SEG_A, SEG_B, method="mine").distance == 3.0
    p.write_text("this is not python (\n")
    os.utime(p, ns=(st.st_atime_ns, st.st_mtime_ns + 20_000_000))
    (same, error), = usermethods.reload_changed()
    assert isinstance(error, MethodsLoadError) and same.error is error
    # the previous version still answers
    assert registry.query("distance", SEG_A, SEG_B, method="mine").distance == 3.0
    assert usermethods.reload_changed() == []  # the broken version is not retried
    usermethods.unload(mf)
    assert "mine" not in registry.methods("distance", "segment", "segment")


def test_entry_point_group(tmp_path, monkeypatch):
    # a fake installed distribution: a module and its dist-info with the entry point
    (tmp_path / "fake_ie_plugin.py").write_text(textwrap.dedent("""
        from algorithms import register

        @register("distance", "sphere", "obb", name="plugin_dist")
        def plugin_dist(a, b):
            return 7.0
    """))
    info = tmp_path / "fake_ie_plugin-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: fake-ie-plugin\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(
        "[intersection_explorer.methods]\nfake = fake_ie_plugin\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    loaded, errors = usermethods.load_entry_points()
    monkeypatch.delitem(sys.modules, "fake_ie_plugin", raising=False)
    assert errors == []
    assert [mf.source for mf in loaded] == ["entry point fake"]
    obb = OBB((5, 0, 0), ((1, 0, 0), (0, 1, 0), (0, 0, 1)), (1, 1, 1))
    assert registry.query("distance", Sphere((0, 0, 0), 1), obb,
                          method="plugin_dist").distance == 7.0
    assert registry.is_user("distance", "sphere", "obb", "plugin_dist")


def test_cross_check_lists_user_methods_with_their_traceback(tmp_path):
    from algorithms.crosscheck import cross_check_pair

    p = write(tmp_path, """
        from algorithms import register

        @register("distance", "segment", "segment", name="off_by_one")
        def off_by_one(a, b):
            return 3.0

        @register("intersects", "aabb", "aabb", name="crashes")
        def crashes(a, b):
            raise RuntimeError("boom")
    """)
    usermethods.load_methods(p, Policy(time_limit=None))
    rep = cross_check_pair(SEG_A, SEG_B)["distance"]
    # st_plane and gjk say 2 (the parallel segments are 2 apart), the user's method 3
    assert not rep["agree"] and rep["spread"] == 1.0
    (row,) = [r for r in rep["methods"] if r["name"] == "off_by_one"]
    assert row["user"] is True and row["value"] == 3.0
    box = AABB((0, 0, 0), (1, 1, 1))
    rep = cross_check_pair(box, box)["intersects"]
    (row,) = [r for r in rep["methods"] if r["name"] == "crashes"]
    assert row["error_kind"] == "exception" and "RuntimeError: boom" in row["traceback"]
    assert not rep["agree"]
