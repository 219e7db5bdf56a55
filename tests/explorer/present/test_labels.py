"""explorer.present.labels.place: the grid placement gives exactly the places of the
all-pairs search it replaced (the oracle below, the old Viewport.declutter loop verbatim in
pure Python), on random views with crowded labels and marks."""

import random

import pytest

from explorer.present.labels import place


def brute_force(items, marks, w, h):
    """The quadratic placement: every try scans every placed label, anchor and mark."""
    pad = 7.0
    placed = []
    out = []
    for ax, ay, bw, bh in items:
        def cost(r):
            x0, y0, x1, y1 = r
            c = 0.0
            for q in placed:
                ox = min(x1, q[2]) - max(x0, q[0])
                oy = min(y1, q[3]) - max(y0, q[1])
                if ox > 0 and oy > 0:
                    c += ox * oy
            c += 400.0 * sum(1 for px, py, _w, _h in items
                             if x0 - 4 < px < x1 + 4 and y0 - 4 < py < y1 + 4)
            if x0 < 0 or y0 < 0 or x1 > w or y1 > h:
                c += 1000.0
            c += 8.0 * sum(1 for px, py in marks if x0 < px < x1 and y0 < py < y1)
            return c

        best, best_cost = None, None
        for step in range(4):
            lift = step * (bh + 3)
            for dx, dy in ((pad, pad + lift), (pad, -bh - pad - lift),
                           (-bw - pad, pad + lift), (-bw - pad, -bh - pad - lift)):
                r = (ax + dx, ay + dy, ax + dx + bw, ay + dy + bh)
                c = cost(r) + step * 1.0
                if best_cost is None or c < best_cost:
                    best, best_cost = r, c
                if best_cost < 1.0:
                    break
            if best_cost < 4.0:
                break
        if best[0] < 0 or best[1] < 0 or best[2] > w or best[3] > h:
            x0 = min(max(best[0], 0.0), max(w - bw, 0.0))
            y0 = min(max(best[1], 0.0), max(h - bh, 0.0))
            best = (x0, y0, x0 + bw, y0 + bh)
        placed.append(best)
        out.append(best)
    return out


@pytest.mark.parametrize("seed,n,m", [(1, 5, 0), (2, 40, 200), (3, 150, 800), (4, 300, 50)])
def test_grid_placement_equals_brute_force(seed, n, m):
    rng = random.Random(seed)
    w, h = 800, 500
    # anchors in clusters (labels of one pair sit together), some off screen
    items = [(rng.gauss(rng.choice([100, 400, 700]), 60), rng.gauss(250, 120),
              rng.choice([60.0, 110.0, 180.0]), rng.choice([21.5, 41.0])) for _ in range(n)]
    marks = [(rng.uniform(-20, w + 20), rng.uniform(-20, h + 20)) for _ in range(m)]
    got = place(items, marks, w, h)
    want = brute_force(items, marks, w, h)
    assert len(got) == n
    for g, e in zip(got, want):
        assert g == pytest.approx(e, abs=1e-9)


def test_two_labels_on_one_anchor_go_apart():
    # two 100 x 20 labels anchored at (200, 200): the first takes the upper right quadrant
    # (x0 = 200 + 7, y0 = 200 + 7), the second may not overlap it: the lower right one
    got = place([(200.0, 200.0, 100.0, 20.0), (200.0, 200.0, 100.0, 20.0)], [], 800, 500)
    assert got[0] == (207.0, 207.0, 307.0, 227.0)
    assert got[1] == (207.0, 173.0, 307.0, 193.0)


def test_fixed_labels_are_avoided_and_kept():
    # a label already at the upper right of (200, 200) stays; a new one on the same anchor
    # takes the next free quadrant (lower right), as if the first had been placed before it
    fixed = [(207.0, 207.0, 307.0, 227.0)]
    got = place([(200.0, 200.0, 100.0, 20.0)], [], 800, 500, fixed=fixed,
                fixed_anchors=[(200.0, 200.0)])
    assert got == [(207.0, 173.0, 307.0, 193.0)]
    assert got == place([(200.0, 200.0, 100.0, 20.0)] * 2, [], 800, 500)[1:]
