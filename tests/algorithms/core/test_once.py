"""algorithms.core.once: the one-analysis scope and GUARD, the list of open scopes and filter
switches the lean kernels test instead of asking both on every query."""

import threading

import pytest

from algorithms import AABB, Ray, query
from algorithms import evaluate_pair
from algorithms.core import once
from algorithms.core.once import GUARD, current_memo, one_analysis, shared
from algorithms.kernels.filters import careful_only, enabled
from algorithms.kernels.toi_fast import off as toi_fast_off
from algorithms.queries import linear_aabb


def test_guard_counts_every_open_scope_and_filter_switch_and_is_zero_at_rest():
    assert len(GUARD) == 0 and current_memo() is None and enabled()
    with one_analysis():
        assert len(GUARD) == 1 and current_memo() == {}
        with careful_only():
            assert len(GUARD) == 2 and not enabled()
            with toi_fast_off():  # (the same switch: counted too, harmless)
                assert len(GUARD) == 3
            assert len(GUARD) == 2
        assert len(GUARD) == 1 and enabled()
    assert len(GUARD) == 0 and current_memo() is None


def test_guard_goes_back_to_zero_when_a_block_raises():
    with pytest.raises(ZeroDivisionError):
        with one_analysis():
            with careful_only():
                1 / 0
    assert len(GUARD) == 0 and enabled() and current_memo() is None


def test_a_scope_open_in_another_thread_leaves_this_thread_s_answers_alone():
    # GUARD holds the other thread's scope, so the kernel here asks the scope itself: there
    # is none in this thread, and the answer is the kernel's own record (the ray x = -1 + t
    # at y = z = 0.5 enters the unit box at t = 1, hand-derived), not the runner's shared one
    ray, box = Ray((-1, 0.5, 0.5), (1, 0, 0)), AABB((0, 0, 0), (1, 1, 1))
    lean = linear_aabb.hits_linear_aabb.lean[("ray", "aabb")][0]
    opened, release = threading.Event(), threading.Event()

    def other():
        with one_analysis():
            opened.set()
            release.wait(10)

    t = threading.Thread(target=other)
    t.start()
    try:
        assert opened.wait(10)
        assert len(GUARD) == 1 and current_memo() is None
        r = lean(ray, box)
        assert r is not None and r.first_t == 1.0
        assert query("hits", ray, box).first_t == 1.0
    finally:
        release.set()
        t.join()
    assert len(GUARD) == 0


def test_inside_a_scope_the_kernel_leaves_the_pair_to_the_shared_call():
    calls = []

    @shared
    def twice(a, b):
        calls.append((a, b))
        return a + b

    ray, box = Ray((-1, 0.5, 0.5), (1, 0, 0)), AABB((0, 0, 0), (1, 1, 1))
    lean = linear_aabb.hits_linear_aabb.lean[("ray", "aabb")][0]
    with one_analysis():
        assert lean(ray, box) is None  # GUARD not empty: the kernel asked; a scope is open
        assert (twice(1, 2), twice(1, 2)) == (3, 3) and calls == [(1, 2)]
    assert lean(ray, box) is not None


def test_begin_and_end_hold_the_guard_as_evaluate_pair_s_scope():
    # evaluate_pair opens its scope with begin() (no context manager): the kernels inside it
    # must ask the scope, as inside one_analysis, and an answer leaves GUARD empty
    ray, box = Ray((-1, 0.5, 0.5), (1, 0, 0)), AABB((0, 0, 0), (1, 1, 1))
    lean = linear_aabb.hits_linear_aabb.lean[("ray", "aabb")][0]
    token = once.begin()
    try:
        assert len(GUARD) == 1 and current_memo() == {}
        assert lean(ray, box) is None  # the runner's shared call answers in a scope
    finally:
        once.end(token)
    assert len(GUARD) == 0 and current_memo() is None
    # (the ray enters the unit box at t = 1: x = -1 + t = 0, hand-derived)
    assert evaluate_pair(ray, box).first_t == 1.0 and len(GUARD) == 0
