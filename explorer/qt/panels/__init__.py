"""Panels that show the algorithms' own pictures of the selected pair (issue 7).

``PANELS`` is the list the window turns into docks: ``(title, factory)`` with
``factory(scene, workspace, commands, viewport, evaluator) -> QWidget``, all from the Qt-free
model (:mod:`explorer.model`) but the viewport the panel draws in; no panel calls back into the
window. Each panel follows the workspace's ``pair_changed`` and the scene's change events;
:func:`update_all` runs their per-update path once (the ``explorer bench drag --panels`` hook).
"""

from __future__ import annotations

import importlib

from typing import Iterable


def _lazy(module: str, name: str):
    """A factory that imports ``explorer.qt.panels.<module>`` only when the panel is built (the
    window starts without the panels' imports) and calls its class ``name`` with the model."""

    def factory(scene, workspace, commands, viewport, evaluator=None):
        cls = getattr(importlib.import_module(f"explorer.qt.panels.{module}"), name)
        return cls(scene, workspace, commands, viewport, evaluator)

    factory.__name__ = f"make_{module}"
    return factory


PANELS = [
    ("st-plane", _lazy("stplane", "StPlanePanel")),
    ("Separating axes", _lazy("sat", "SatInspectorPanel")),
    ("Time line", _lazy("timeline", "TimelinePanel")),
    ("Explain", _lazy("explain", "ExplainPanel")),
    ("Three planes", _lazy("three_planes", "ThreePlanesPanel")),
    ("Step through", _lazy("steps", "StepsPanel")),
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
