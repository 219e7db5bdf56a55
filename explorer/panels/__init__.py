"""Panels that show the algorithms' own pictures of the selected pair (issue 7).

``PANELS`` is the list the window turns into docks: ``(title, factory)`` with
``factory(scene, viewport, window) -> QWidget``. Each panel follows ``window.pair_changed``
and the scene's change events; :func:`update_all` runs their per-update path once (the
``explorer bench drag --panels`` hook).
"""

from __future__ import annotations

from typing import Iterable


def _stplane(scene, viewport, window):
    from .stplane import StPlanePanel

    return StPlanePanel(scene, viewport, window)


def _sat(scene, viewport, window):
    from .sat import SatInspectorPanel

    return SatInspectorPanel(scene, viewport, window)


def _timeline(scene, viewport, window):
    from .timeline import TimelinePanel

    return TimelinePanel(scene, viewport, window)


def _explain(scene, viewport, window):
    from .explain import ExplainPanel

    return ExplainPanel(scene, viewport, window)


PANELS = [
    ("st-plane", _stplane),
    ("Separating axes", _sat),
    ("Time line", _timeline),
    ("Explain", _explain),
]


def update_all(panels: Iterable, paint: bool = True) -> None:
    """Refresh every panel from the scene as a drag step would, and (``paint``) repaint now.

    ``panels`` are the widgets the factories returned (other widgets are skipped). With
    ``paint=True`` the repaint is synchronous, so a benchmark timing this call measures the
    panels' whole per-frame cost.
    """
    for panel in panels:
        refresh = getattr(panel, "refresh", None)
        if refresh is None:
            continue
        refresh()
        if paint and panel.isVisible():
            panel.repaint()
