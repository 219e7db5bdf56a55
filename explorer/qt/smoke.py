"""``explorer smoke [FILE]``: open the real window, check that it drew, close it.

CI runs it from an installed wheel in a fresh virtual environment, from a folder that is not
the checkout, so a data file missing from the wheel (the shipped scenes behind File > Example
Scenes and the default scene) fails CI. Checks, each named in the JSON line printed:

* ``objects``: the scene's objects are in the window (as many as in the file);
* ``examples``: File > Example Scenes lists the shipped scenes (at least one, each a file);
* ``drawn``: the viewport's picture is not one flat colour;
* ``panels``: every algorithm panel loaded (``window.panel_errors`` is empty);
* ``example_opens``: the first example scene opens in the window.

Exit status 0 when all hold, 1 otherwise. Recent files and autosave go to a temporary folder
(``EXPLORER_STATE_DIR``) so the check leaves nothing behind.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile


def run_smoke(path: str) -> int:
    with tempfile.TemporaryDirectory() as state:
        os.environ.setdefault("EXPLORER_STATE_DIR", state)
        from PyQt6.QtWidgets import QApplication

        from explorer.model.scenefile import load
        from explorer.qt.app import make_window
        from explorer.qt.window import shipped_scenes

        app = QApplication.instance() or QApplication(sys.argv[:1])
        window = make_window(path)
        window.show()
        for _ in range(20):
            app.processEvents()
        window.refresh()
        checks: dict = {}
        checks["objects"] = len(window.scene) == len(load(path)) and len(window.scene) > 0
        examples = [a for a in window.examples_menu.actions() if a.text()]
        files = shipped_scenes()
        checks["examples"] = (len(examples) >= 1 and len(examples) == len(files)
                              and all(p.is_file() for _t, p in files))
        img = window.viewport.screenshot()
        checks["drawn"] = bool(img is not None and img.size and (img.reshape(-1, img.shape[-1])
                                                                 .std(axis=0).max() > 1.0))
        checks["panels"] = not window.panel_errors
        opened = False
        if files:
            opened = window.open_file(files[0][1], ask=False)
            app.processEvents()
        checks["example_opens"] = bool(opened) and len(window.scene) > 0
        window.dirty = False
        window.close()
        window.shutdown()
        app.processEvents()
        ok = all(checks.values())
        print(json.dumps({"ok": ok, "scene": path, "example_count": len(files), **checks}))
        return 0 if ok else 1
