"""The drawing range: what of an extreme-but-valid scene is drawn (issue 15 part 2). No Qt.

Coordinates from ``1e-300`` to ``1e300`` are valid geometry (the answers keep their meaning at
every scale, :mod:`algorithms.core.tolerance`), but a picture cannot: the viewport's meshes,
camera and floor grid are numpy and VTK arithmetic in doubles (and OpenGL in floats), where a
sphere at ``1e300`` overflows to ``inf`` and its normals to ``nan``. The policy:

* geometry (object meshes, overlay meshes, labels, grips) is computed under :func:`quiet`,
  so an overflow gives ``inf``/``nan`` instead of a numpy ``RuntimeWarning``;
* geometry whose points are not all finite and within :data:`DRAW_LIMIT` (``1e15``, the range
  in which a unit-sized object still has a few digits in the floats VTK draws with) is
  *beyond the drawing range*: an object there is hidden (its actor kept, with its points
  clamped into the range) and named in the view's note and the window's status bar
  ("object beyond drawing range"); an overlay or label there is left out of the frame; a grip
  there is not offered;
* the scene extent, the floor grid and the camera frame only count the points within range.

Tiny coordinates need nothing: the drawn sizes have a minimum relative to the scene
(``1e-3`` of its extent), and underflow to ``0`` is silent.
"""

from __future__ import annotations

import numpy as np

#: the largest absolute coordinate that is drawn
DRAW_LIMIT = 1e15


def quiet():
    """``np.errstate`` that turns numpy's overflow/invalid/divide warnings off (the results,
    ``inf`` or ``nan``, are then checked with :func:`drawable`)."""
    return np.errstate(over="ignore", invalid="ignore", divide="ignore", under="ignore")


def drawable(points) -> bool:
    """True when every coordinate of ``points`` is finite and within :data:`DRAW_LIMIT`."""
    with quiet():
        a = np.asarray(points, dtype=float)
        if a.size == 0:
            return True
        return bool(np.all(np.abs(a) <= DRAW_LIMIT))  # NaN compares False


def clamped(points) -> np.ndarray:
    """``points`` with NaN as ``0`` and every coordinate clamped into the drawing range."""
    with quiet():
        a = np.nan_to_num(np.asarray(points, dtype=float), nan=0.0, posinf=DRAW_LIMIT,
                          neginf=-DRAW_LIMIT)
        return np.clip(a, -DRAW_LIMIT, DRAW_LIMIT)


def in_range_rows(points) -> np.ndarray:
    """The rows of the ``(n, 3)`` array ``points`` that are :func:`drawable`."""
    with quiet():
        a = np.asarray(points, dtype=float).reshape(-1, 3)
        return a[np.all(np.abs(a) <= DRAW_LIMIT, axis=1)]


def beyond_note(ids) -> str:
    """The message naming the objects beyond the drawing range (``""`` for none)."""
    ids = list(ids)
    if not ids:
        return ""
    names = ", ".join(repr(i) for i in ids[:5]) + (f" and {len(ids) - 5} more"
                                                  if len(ids) > 5 else "")
    what = "object" if len(ids) == 1 else "objects"
    return (f"{len(ids)} {what} beyond drawing range (|coordinate| > {DRAW_LIMIT:.0e}), "
            f"not drawn: {names}; the answers are computed as usual")
