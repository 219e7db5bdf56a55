"""``explorer bench answers``: one typed answer per pair costs little more than its core query.

For each case, the median time of :func:`algorithms.evaluate_pair` (every key of the pair: the
distance, intersects, hits, separating axis...) against the single default query it builds on
(``query("distance")`` for two segments, ``query("hits")`` for a ray against a box or a
triangle, ``query("distance")`` for a ray missing a box, whose 12-edge minimisation is the
costly part), timed interleaved in the same run. Issue 10's target: at most 1.3x.
"""

from __future__ import annotations

import json
import statistics
import time

from algorithms import AABB, Ray, Segment, Triangle, evaluate_pair, query

CASES = [
    ("segment-segment", "distance", Segment((0, 0, 0), (1, 0, 0)),
     Segment((0.3, 1, 0.2), (0.7, -0.5, 1.1))),
    ("ray-aabb hit", "hits", Ray((-2, 0.5, 0.5), (1, 0.1, 0.05)), AABB((0, 0, 0), (1, 1, 1))),
    ("ray-aabb miss", "distance", Ray((-2, 3, 0.5), (1, 0.1, 0.05)), AABB((0, 0, 0), (1, 1, 1))),
    ("ray-triangle", "hits", Ray((0.2, 0.2, -1), (0.05, 0.02, 1)),
     Triangle(((0, 0, 0), (1, 0, 0), (0, 1, 0)))),
]


def _time(fn, repeat: int) -> float:
    t0 = time.perf_counter()
    for _ in range(repeat):
        fn()
    return (time.perf_counter() - t0) / repeat


def measure(rounds: int = 15, repeat: int = 200) -> list[dict]:
    rows = []
    for name, q, a, b in CASES:
        single, whole = [], []
        for _ in range(rounds):  # interleaved: the machine's noise hits both alike
            single.append(_time(lambda: query(q, a, b), repeat))
            whole.append(_time(lambda: evaluate_pair(a, b), repeat))
        s, w = statistics.median(single), statistics.median(whole)
        rows.append({"case": name, "baseline": f'query("{q}")', "baseline_us": s * 1e6,
                     "evaluate_pair_us": w * 1e6, "ratio": w / s, "target": 1.3})
    return rows


def main(rounds: int = 15, repeat: int = 200) -> int:
    rows = measure(rounds, repeat)
    for r in rows:
        print(f"{r['case']:16s} evaluate_pair {r['evaluate_pair_us']:8.1f} us  "
              f"{r['baseline']:18s} {r['baseline_us']:8.1f} us  ratio {r['ratio']:.2f} "
              f"(target <= {r['target']})")
    print(json.dumps({"answers": rows}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
