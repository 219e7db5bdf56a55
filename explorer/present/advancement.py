"""Conservative advancement's steps for the chosen moving pair, in world coordinates (issue 13,
part 2). No Qt: the time line (:mod:`explorer.qt.panels.timeline`) draws a tick at each ``t_i``
and the step-through (:func:`explorer.present.steps.advancement`) walks them.

The pair's answer says which method found the time of impact; when it is conservative
advancement (Mirtich; Dunn & Parberry, 3D Math Primer, App. A.6) the run is repeated with
``record=True`` on the same objects and relative motion (the same deterministic run, now
keeping each step's closest points: the plain path never pays for them). The library's rows
are in A's frame (A held still, B moved by ``t (d_B - d_A)``); the world has A moved by
``t d_A``, so every closest point gains ``t d_A``.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Optional

import numpy as np

from algorithms.generic.advancement import METHOD_CA, conservative_advancement
from algorithms.kernels.motion import relative_motion

_CACHE: "OrderedDict[tuple, list]" = OrderedDict()
_LIMIT = 64


def answered_by_advancement(answer) -> bool:
    """Whether the pair's time of impact came from conservative advancement."""
    contact = answer.records.contact if answer is not None else None
    return contact is not None and contact.method == METHOD_CA


def _vec(v):
    return None if v is None else tuple(float(c) for c in v)


def advancement_steps(answer, a, b, motion_a=None, motion_b=None) -> Optional[list]:
    """The recorded steps (:class:`algorithms.traces.AdvancementStep` rows) of the pair's
    conservative advancement with ``"world"``: the closest points in world coordinates at
    ``t_i``; ``None`` when the answer did not come from conservative advancement.

    ``a``, ``b``: the primitives at ``t = 0``; ``motion_a``, ``motion_b``: their motions.
    """
    if not answered_by_advancement(answer):
        return None
    key = (a, b, _vec(motion_a), _vec(motion_b))
    hit = _CACHE.get(key)
    if hit is not None:
        return hit
    rel = relative_motion(motion_a, motion_b)
    try:
        res = conservative_advancement(a, b, rel, record=True)
    except Exception:  # noqa: BLE001 - a teaching aid: no steps rather than a broken panel
        return None
    da = np.zeros(3) if motion_a is None else np.asarray(motion_a, dtype=float)
    rows = []
    for row in res.trace.get("steps") or []:
        t = float(row["t"])
        pa, pb = (np.asarray(p, dtype=float) + t * da for p in row["closest"])
        rows.append({**row, "world": (tuple(pa.tolist()), tuple(pb.tolist())),
                     "case": res.trace.get("case", ""), "tol": res.trace.get("tol")})
    _CACHE[key] = rows
    if len(_CACHE) > _LIMIT:
        _CACHE.popitem(last=False)
    return rows
