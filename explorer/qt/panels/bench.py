"""Time the panels' per-drag-step cost with all four panels on screen (no main window).

``python -m explorer.qt.panels.bench [SCENE ...]`` (under ``xvfb-run -a`` when headless) opens the
four panels of :data:`explorer.qt.panels.PANELS` side by side on the scene's first query pair,
moves the pair's second object along a small path for ``--steps`` steps, and times each step:
the scene edit (the panels refresh on its event, including the pair's evaluation, which the
window would share) plus :func:`explorer.qt.panels.update_all` (the paint of what changed). It
prints the median and 95th percentile of the wall time and of this thread's CPU time (on a
loaded machine the CPU time is what the wall time becomes when idle), and the same figures as
one JSON object on its last line.

The window's own ``explorer bench drag --panels`` measures the panels inside the window, where
the docks are tabbed (only the selected tab of each group works; see ``PairPanel.on_screen``).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

from explorer import SCENES_DIR

SCENES = SCENES_DIR
DEFAULT = ["stplane_region3.json", "timeline_aabbs.json", "sat_obb_edge_edge.json"]


class _Viewport:
    def add_overlay(self, name, mesh, **kwargs):
        pass

    def remove_overlay(self, name):
        pass

    def set_time(self, t):
        pass

    def render(self):
        pass


def _pct(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def measure(scene_path, steps: int = 300) -> dict:
    """Per-step figures (ms) for one scene; see the module docstring."""
    from PyQt6.QtWidgets import QApplication

    from explorer.model.scenefile import load
    from explorer.qt.panels import PANELS, update_all

    app = QApplication.instance() or QApplication(sys.argv[:1])
    scene = load(scene_path)
    a_id, b_id = scene.pairs()[0]
    from explorer.model.commands import Commands
    from explorer.model.undo import UndoStack
    from explorer.model.workspace import Workspace

    workspace = Workspace(scene)
    workspace.set_pair(a_id, b_id)
    commands = Commands(scene, UndoStack(scene), workspace)
    panels = [factory(scene, workspace, commands, _Viewport(), None) for _, factory in PANELS]
    for i, panel in enumerate(panels):
        panel.resize(420, 460)
        panel.move(430 * i, 0)
        panel.show()
    for _ in range(5):
        app.processEvents()
    prim = scene[b_id].primitive
    wall, cpu = [], []
    for k in range(steps):
        offset = (0.002 * (k % 50), 0.001 * (k % 30), 0.0)
        c0, t0 = time.thread_time(), time.perf_counter()
        scene.update(b_id, primitive=prim.translated(offset))
        update_all(panels)
        cpu.append((time.thread_time() - c0) * 1e3)
        wall.append((time.perf_counter() - t0) * 1e3)
        if k % 25 == 0:
            app.processEvents()  # timers (throttled text) run here, untimed
    for panel in panels:
        panel.close()
    app.processEvents()
    return {"scene": Path(scene_path).name, "pair": f"{a_id}-{b_id}",
            "update_median_ms": round(statistics.median(wall), 3),
            "update_p95_ms": round(_pct(wall, 0.95), 3),
            "cpu_median_ms": round(statistics.median(cpu), 3),
            "cpu_p95_ms": round(_pct(cpu, 0.95), 3)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scenes", nargs="*", help="scene files (default: three shipped ones)")
    parser.add_argument("--steps", type=int, default=300)
    args = parser.parse_args(argv)
    paths = args.scenes or [str(SCENES / name) for name in DEFAULT]
    figures = [measure(p, args.steps) for p in paths]
    for f in figures:
        print(f"{f['scene']} ({f['pair']}): update median {f['update_median_ms']} ms, "
              f"p95 {f['update_p95_ms']} ms; CPU median {f['cpu_median_ms']} ms, "
              f"p95 {f['cpu_p95_ms']} ms")
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
