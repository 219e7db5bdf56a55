"""Label placement for the 3-D view (Qt-free, VTK-free): put each answer label beside its
anchor so that labels neither overlap each other nor cover an anchor or a drawn answer mark.

Each label is tried beside its anchor in the four quadrants, then further out (four steps),
and the first free place wins; the cost of a place is the area it shares with the labels
placed before it, 400 per anchor under it, 1000 when it is cut off at the view's edge and 8
per answer mark (hit normal, closest point) under it. The placed rectangles, the anchors and
the marks live in a grid of :data:`CELL`-pixel cells, so each try looks at its neighbours
only: near-linear in the number of labels (the all-pairs version was 53% of a 100-object
frame, issue 12).
"""

from __future__ import annotations

#: the grid's cell size in display pixels (about three label heights)
CELL = 64.0
PAD = 7.0


def _cells(x0, y0, x1, y1, cell=CELL):
    for gx in range(int(x0 // cell), int(x1 // cell) + 1):
        for gy in range(int(y0 // cell), int(y1 // cell) + 1):
            yield gx, gy


def place(items, marks, w: float, h: float, fixed=(), fixed_anchors=()) -> list:
    """``items``: ``[(ax, ay, bw, bh), ...]`` anchors and box sizes in display pixels, in
    placing order; ``marks``: ``[(x, y), ...]``; ``fixed``: rectangles of labels already
    placed (kept where they are, avoided like any placed label) and ``fixed_anchors`` their
    anchors. Returns one ``(x0, y0, x1, y1)`` per item."""
    cell = CELL
    anchor_grid: dict = {}
    for ax, ay in [(it[0], it[1]) for it in items] + list(fixed_anchors):
        anchor_grid.setdefault((int(ax // cell), int(ay // cell)), []).append((ax, ay))
    mark_grid: dict = {}
    for mx, my in marks:
        mark_grid.setdefault((int(mx // cell), int(my // cell)), []).append((mx, my))
    placed: list = []
    placed_grid: dict = {}
    for r in fixed:
        for g in _cells(*r):
            placed_grid.setdefault(g, []).append(len(placed))
        placed.append(r)

    def cost(x0, y0, x1, y1) -> float:
        # the cells of _cells, unrolled (this is the inner loop of every drag frame's label
        # pass: about 130 tries a frame on gui_ten); the same sums in the same order
        c = 0.0
        gx0, gx1 = int(x0 // cell), int(x1 // cell) + 1
        gy0, gy1 = int(y0 // cell), int(y1 // cell) + 1
        if placed_grid:
            seen = set()
            for gx in range(gx0, gx1):
                for gy in range(gy0, gy1):
                    ks = placed_grid.get((gx, gy))
                    if ks is None:
                        continue
                    for k in ks:
                        if k in seen:
                            continue
                        seen.add(k)
                        q = placed[k]
                        ox = (x1 if x1 < q[2] else q[2]) - (x0 if x0 > q[0] else q[0])
                        if ox > 0:
                            oy = (y1 if y1 < q[3] else q[3]) - (y0 if y0 > q[1] else q[1])
                            if oy > 0:
                                c += ox * oy
        n = 0
        ex0, ey0, ex1, ey1 = x0 - 4, y0 - 4, x1 + 4, y1 + 4
        for gx in range(int(ex0 // cell), int(ex1 // cell) + 1):
            for gy in range(int(ey0 // cell), int(ey1 // cell) + 1):
                pts = anchor_grid.get((gx, gy))
                if pts is None:
                    continue
                for px, py in pts:
                    if ex0 < px < ex1 and ey0 < py < ey1:
                        n += 1
        c += 400.0 * n
        if x0 < 0 or y0 < 0 or x1 > w or y1 > h:  # cut off at the view's edge
            c += 1000.0
        if mark_grid:
            n = 0
            for gx in range(gx0, gx1):
                for gy in range(gy0, gy1):
                    pts = mark_grid.get((gx, gy))
                    if pts is None:
                        continue
                    for px, py in pts:
                        if x0 < px < x1 and y0 < py < y1:
                            n += 1
            c += 8.0 * n
        return c

    out = []
    pad = PAD
    for ax, ay, bw, bh in items:
        best, best_cost = None, None
        for step in range(4):
            lift = step * (bh + 3)
            for dx, dy in ((pad, pad + lift), (pad, -bh - pad - lift),
                           (-bw - pad, pad + lift), (-bw - pad, -bh - pad - lift)):
                r = (ax + dx, ay + dy, ax + dx + bw, ay + dy + bh)
                c = cost(*r) + step * 1.0  # nearer places win a tie
                if best_cost is None or c < best_cost:
                    best, best_cost = r, c
                if best_cost < 1.0:  # a free place: the first one wins
                    break
            if best_cost < 4.0:
                break
        if best[0] < 0 or best[1] < 0 or best[2] > w or best[3] > h:
            # anchored off screen (an axis end, a far hit): kept inside the view's edge
            x0 = min(max(best[0], 0.0), max(w - bw, 0.0))
            y0 = min(max(best[1], 0.0), max(h - bh, 0.0))
            best = (x0, y0, x0 + bw, y0 + bh)
        for g in _cells(*best):
            placed_grid.setdefault(g, []).append(len(placed))
        placed.append(best)
        out.append(best)
    return out
