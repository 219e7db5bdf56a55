"""An extreme-but-valid file in the window (issue 15 part 2): it opens, the object beyond the
drawing range is hidden and named in the status bar, the rest is drawn and answered, and no
numpy warning is printed."""

from __future__ import annotations

import json
import warnings

import pytest

pytest.importorskip("pytestqt")

pytestmark = pytest.mark.gui


def test_an_object_beyond_the_drawing_range_is_named_in_the_status_bar(gui_window, tmp_path):
    f = tmp_path / "far.json"
    f.write_text(json.dumps({"format": "intersection-explorer-scene", "version": 1, "objects": [
        {"id": "far", "type": "sphere", "center": [1e300, 0, 0], "radius": 1},
        {"id": "P", "type": "point", "position": [0, 0, 0]}]}))
    w = gui_window()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert w.open_file(f, ask=False)
        w.select("far")
        w.select("P")
        w.refresh()
    assert w.dialogs.errors == []
    message = w.statusBar().currentMessage()
    assert "beyond drawing range" in message and "'far'" in message
    view = w.viewport.view
    assert not view.actors["far"].GetVisibility() and view.actors["P"].GetVisibility()
    # the answer is computed as usual: 1e300 - 1 from the point (rounds to 1e300)
    (r,) = w.last_results
    assert r.distance == 1e300 and r.intersects is False
