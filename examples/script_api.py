"""A script that uses the library and, when asked, the window: ``python examples/script_api.py``
prints the answers; ``python examples/script_api.py --show`` also opens the explorer on them.

A capsule of radius 0.25 around the segment (0,0,0)-(2,0,0) and a box [0.5, 1.5] x [1, 2] x
[-0.5, 0.5]: the box's face y = 1 is 1 above the axis, so the distance is 1 - 0.25 = 0.75.
"""

import sys

from algorithms import AABB, Capsule, methods, query

capsule = Capsule((0, 0, 0), (2, 0, 0), 0.25)
box = AABB((0.5, 1, -0.5), (1.5, 2, 0.5))

d = query("distance", capsule, box)
print(f"distance {d.distance:.6g} by {d.method}")
print(f"closest points {d.closest}")
print("other methods:", ", ".join(methods("distance", "capsule", "aabb")[1:]) or "none")
assert abs(d.distance - 0.75) < 1e-9

if "--show" in sys.argv:
    from explorer import show

    show(capsule=capsule, box=box)
