"""Panels that show the algorithms' own pictures of the selected pair (issue 7).

``PANELS`` is the list the window turns into docks: ``(title, factory)`` with
``factory(scene, workspace, commands, viewport, evaluator) -> QWidget``, all from the Qt-free
model (:mod:`explorer.model`) but the viewport the panel draws in; no panel calls back into the
window. Each panel follows the workspace's ``pair_changed`` and the scene's change events;
:func:`update_all` runs their per-update path once (the ``explorer bench drag --panels`` hook).
"""

from __future__ import annotations

from typing import Iterable


def _stplane(scene, workspace, commands, viewport, evaluator=None):
    from explorer.qt.panels.stplane import StPlanePanel

    return StPlanePanel(scene, workspace, commands, viewport, evaluator)


def _sat(scene, workspace, commands, viewport, evaluator=None):
    from explorer.qt.panels.sat import SatInspectorPanel

    return SatInspectorPanel(scene, workspace, commands, viewport, evaluator)


def _timeline(scene, workspace, commands, viewport, evaluator=None):
    from explorer.qt.panels.timeline import TimelinePanel

    return TimelinePanel(scene, workspace, commands, viewport, evaluator)


def _explain(scene, workspace, commands, viewport, evaluator=None):
    from explorer.qt.panels.explain import ExplainPanel

    return ExplainPanel(scene, workspace, commands, viewport, evaluator)


def _three_planes(scene, workspace, commands, viewport, evaluator=None):
    from explorer.qt.panels.three_planes import ThreePlanesPanel

    return ThreePlanesPanel(scene, workspace, commands, viewport, evaluator)


def _steps(scene, workspace, commands, viewport, evaluator=None):
    from explorer.qt.panels.steps import StepsPanel

    return StepsPanel(scene, workspace, commands, viewport, evaluator)


PANELS = [
    ("st-plane", _stplane),
    ("Separating axes", _sat),
    ("Time line", _timeline),
    ("Explain", _explain),
    ("Three planes", _three_planes),
    ("Step through", _steps),
]


def update_all(panels: Iterable, paint: bool = True) -> None:
    """Bring every panel up to date with the scene, as one drag step needs, and paint them.

    Panels already refresh synchronously on the scene's ``object_changed`` (so a drag step that
    edits the scene has run most of their work before this call); ``update_all`` catches up any
    panel that has not (a no-op for a current one). With ``paint=True`` it then paints, now and
    in one pass per window, the widgets that the update changed (each panel's ``paint_now``
    schedules them; Qt's pending ``UpdateRequest`` events are delivered), so a benchmark that
    times *scene edit + update_all* measures the panels' whole per-frame cost. Panels off
    screen (a tab not selected, a closed dock) do no work at all. Widgets without ``refresh``
    are skipped.
    """
    for panel in panels:
        refresh = getattr(panel, "refresh", None)
        if refresh is None:
            continue
        refresh()
        on_screen = getattr(panel, "on_screen", panel.isVisible)
        if paint and on_screen():
            paint_now = getattr(panel, "paint_now", None)
            (paint_now or panel.update)()
    if paint:
        from PyQt6.QtCore import QCoreApplication, QEvent

        QCoreApplication.sendPostedEvents(None, QEvent.Type.UpdateRequest)
