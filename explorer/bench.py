"""``explorer bench drag``: how fast is one drag step?

Moves one object of a 10-object scene (``scenes/gui_ten.json`` by default) along a circle for
``--steps`` steps through the same callback the viewport's grip uses
(:meth:`MainWindow.drag_handle`), in the real window (Qt + ``QtInteractor``; under Xvfb when
there is no display), and times separately

* the **update path**: the model edit, the object's mesh, the queries of the pairs drawn and the
  overlay geometry (everything but the render), and
* VTK's **render** of the frame.

It prints the median and the 95th percentile of both and of their sum per step (the line
``frame (update + render of each step): median ... ms``, the figure to hold under 16.7 ms for
60 frames a second), then, on its last line, one JSON object ``{"update_median_ms": ...,
"update_p95_ms": ..., "render_median_ms": ..., "render_p95_ms": ...}``.

The window renders with its own settings (:mod:`explorer.render.quality`: neither FXAA nor
multisampling nor the two back lights while anything moves, one multisampled frame with every
light once the view is still: the bench times the drag's frames, then that frame at rest
apart); ``--anti-aliasing fxaa``, ``msaa``
(the old 8 samples) or ``none`` measures the others.

With ``--panels`` every algorithm panel is open (each dock floated, so none hides behind a tab)
and the steps are split between two legs, as issue 7 asks: the dragged object against a
moving object (time line, explain), then a segment dragged against another linear object
(st-plane diagram). The panels refresh inside the timed update path (on the scene's event).
"""

from __future__ import annotations

import json
import math
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from explorer import SCENES_DIR

DEFAULT_SCENE = SCENES_DIR / "gui_ten.json"


def _percentile(values, q: float) -> float:
    v = sorted(values)
    if not v:
        return float("nan")
    k = (len(v) - 1) * q
    lo, hi = math.floor(k), math.ceil(k)
    return v[lo] + (v[hi] - v[lo]) * (k - lo)


def _pick_object(scene):
    """The object to drag: the first one with a ``center`` grip (a sphere in the default)."""
    for obj in scene.objects:
        if obj.kind in ("sphere", "aabb", "obb", "cylinder", "capsule", "segment", "triangle"):
            return obj
    return scene.objects[0]


_LINEAR = ("segment", "ray", "line")


def _legs(scene, panels: bool) -> list:
    """``[(object to drag, chosen pair or None), ...]``: one leg, or the two of ``--panels``."""
    obj = _pick_object(scene)
    if not panels:
        return [(obj, None)]
    legs = []
    moving = next((o for o in scene.objects if o.motion is not None and o is not obj), None)
    if moving is not None:
        legs.append((obj, (obj.id, moving.id)))
    linear = [o for o in scene.objects if o.kind in _LINEAR]
    if len(linear) >= 2:
        seg = next((o for o in linear if o.kind == "segment"), linear[0])
        other = next(o for o in linear if o is not seg)
        legs.append((seg, (seg.id, other.id)))
    return legs or [(obj, None)]


def describe_quality(viewport) -> str:
    """The render settings in words: ``"fxaa"``, ``"msaa"``, ``"none"`` or, for the window's
    default, ``"adaptive: no anti-aliasing, no back lights while moving, 4x MSAA at rest"``."""
    from explorer.render import quality

    if not quality.adaptive():
        return quality.ANTI_ALIASING
    samples = viewport.plotter.render_window.GetMultiSamples() if \
        viewport.render_settings == quality.idle() else quality.idle()[0]
    moving = "FXAA" if quality.moving()[1] else "no anti-aliasing"
    if not quality.moving()[2]:
        moving += ", no back lights"
    return f"adaptive: {moving} while moving, {samples}x MSAA at rest"


def renders_per_step(app, window, obj, steps: int = 20) -> float:
    """How many frames VTK renders for one drag step as the window itself draws it: the edit
    with ``auto_render`` on, then the event loop (the widget's repaint) until it is idle.
    pyvistaqt's paint rendered every frame a second time (2.0 here before issue 12);
    :class:`explorer.qt.viewport.FreshInteractor` only blits a frame that is still fresh."""
    import numpy as np
    from vtkmodules.vtkCommonCore import vtkCommand

    from explorer.model import drag

    seen = []
    rw = window.viewport.plotter.render_window
    tag = rw.AddObserver(vtkCommand.EndEvent, lambda *_a: seen.append(1))
    window.auto_render = True
    try:
        handle, start = next((n, p) for n, p in drag.handles(obj.primitive,
                                                              window.viewport.view.ext.size)
                             if n in ("center", "position", "origin", "p0"))
        step = 0.01 * window.viewport.view.ext.size
        window.drag_start(obj.id, handle)
        window.viewport.begin_motion()  # as the grip's press: no frame at rest meanwhile
        for _ in range(3):
            app.processEvents()
        seen.clear()
        moved = 0
        for i in range(1, steps + 1):
            pos = np.asarray(start, dtype=float) + np.array([step * i, 0.0, 0.0])
            moved += bool(window.drag_handle(obj.id, handle, pos))
            for _ in range(3):
                app.processEvents()
        window.drag_end(obj.id, handle)
        window.viewport.end_motion()
    finally:
        rw.RemoveObserver(tag)
        window.auto_render = False
    return round(len(seen) / max(1, moved), 2)


def run_bench(scene_path, steps: int = 1000, panels: bool = False, size=(1280, 800),
              anti_aliasing: str | None = None, reduction: int | None = None) -> dict:
    """Time ``steps`` drag steps; returns the figures (milliseconds). ``reduction`` sets
    :data:`explorer.render.quality.REDUCTION` (else the window's own)."""
    import numpy as np
    from PyQt6.QtWidgets import QApplication

    from explorer.model import drag
    from explorer.model.scenefile import load
    from explorer.qt.window import MainWindow
    from explorer.render import quality

    if anti_aliasing is not None:
        quality.ANTI_ALIASING = anti_aliasing  # else the window's own setting
    if reduction is not None:
        quality.REDUCTION = max(1, int(reduction))
    app = QApplication.instance() or QApplication(sys.argv[:1])
    scene = load(scene_path)
    os.environ.setdefault("EXPLORER_STATE_DIR", str(Path.home() / ".cache" / "explorer-bench"))
    window = MainWindow(scene, scene_path, with_panels=panels, autosave_ms=0)
    window.resize(*size)
    window.show()
    app.processEvents()
    if panels:
        for dock in getattr(window, "panel_docks", []):
            dock.setFloating(True)  # its own window: on screen, not behind another tab
            dock.show()
        app.processEvents()
    window.auto_render = False
    update_ms, render_ms, update_cpu, frame_ms, render_cpu = [], [], [], [], []
    compose_ms = []
    legs = _legs(window.scene, panels)
    for leg, (obj, pair) in enumerate(legs):
        window.auto_render = True
        window.select(obj.id)
        if pair is not None:
            window.set_pair(*pair)
        for _ in range(3):
            app.processEvents()
        window.auto_render = False
        handle, start = next((n, p) for n, p in drag.handles(obj.primitive,
                                                              window.viewport.view.ext.size)
                             if n in ("center", "position", "origin", "p0"))
        start = np.asarray(start, dtype=float)
        radius = 0.25 * window.viewport.view.ext.size
        n = max(1, steps // len(legs) + (1 if leg < steps % len(legs) else 0))
        window.drag_start(obj.id, handle)
        window.viewport.begin_motion()  # what the grip's press does: the moving settings
        for i in range(n):
            a = 2 * math.pi * i / n * 3
            pos = start + radius * np.array([math.cos(a) - 1.0, math.sin(a),
                                             0.3 * math.sin(2 * a)])
            c0 = time.thread_time()
            t0 = time.perf_counter()
            window.drag_handle(obj.id, handle, pos)
            t1 = time.perf_counter()
            update_cpu.append((time.thread_time() - c0) * 1e3)
            p0 = time.process_time()
            window.viewport.plotter.render()
            t2 = time.perf_counter()
            cpu = (time.process_time() - p0) * 1e3
            # the widget's paint, as the window shows the frame: the blit of VTK's frame into
            # the widget (scaled up from the reduced rectangle while moving, quality.reduction)
            # counts; Qt's composition of the whole window after it is timed apart
            plotter = window.viewport.plotter
            plotter.last_paint_ms = 0.0
            c1 = time.perf_counter()
            plotter.interactor.repaint()
            compose_ms.append((time.perf_counter() - c1) * 1e3 - plotter.last_paint_ms)
            t2 += plotter.last_paint_ms / 1e3
            render_cpu.append(cpu + plotter.last_paint_ms)
            update_ms.append((t1 - t0) * 1e3)
            render_ms.append((t2 - t1) * 1e3)
            frame_ms.append((t2 - t0) * 1e3)
            if i % 50 == 0:
                app.processEvents()  # let the results panel (timer) and Qt breathe, untimed
        moving_px = window.viewport.plotter.reduced_viewport \
            if window.viewport.plotter.frame_reduction > 1 else None
        window_px = tuple(window.viewport.plotter.render_window.GetSize())
        window.drag_end(obj.id, handle)
        window.viewport.end_motion()
    per_step = renders_per_step(app, window, legs[0][0])
    rest_ms, rest_cpu = [], []  # the one frame at rest (quality.idle(): multisampling), when it differs
    if quality.adaptive():
        for _ in range(5):
            window.viewport.begin_motion()
            window.viewport.end_motion()
            t0, p0 = time.perf_counter(), time.process_time()
            window.viewport.render_at_rest(now=True)
            rest_ms.append((time.perf_counter() - t0) * 1e3)
            rest_cpu.append((time.process_time() - p0) * 1e3)
    settings = describe_quality(window.viewport)
    window.dirty = False
    window.close()
    app.processEvents()
    return {"update_median_ms": round(_percentile(update_ms, 0.5), 3),
            "update_p95_ms": round(_percentile(update_ms, 0.95), 3),
            "render_median_ms": round(_percentile(render_ms, 0.5), 3),
            "render_p95_ms": round(_percentile(render_ms, 0.95), 3),
            "_frame_median_ms": round(_percentile(frame_ms, 0.5), 3),
            "_frame_p95_ms": round(_percentile(frame_ms, 0.95), 3),
            "_anti_aliasing": settings,
            "_renders_per_step": per_step,
            "_reduction": (quality.reduction(quality.moving()), moving_px, window_px),
            "_compose_median_ms": round(_percentile(compose_ms, 0.5), 3),
            "_rest_median_ms": round(_percentile(rest_ms, 0.5), 3) if rest_ms else None,
            "_rest_cpu_median_ms": round(_percentile(rest_cpu, 0.5), 3) if rest_cpu else None,
            "_render_cpu_median_ms": round(_percentile(render_cpu, 0.5), 3),
            "_update_cpu_median_ms": round(_percentile(update_cpu, 0.5), 3),
            "_update_cpu_p95_ms": round(_percentile(update_cpu, 0.95), 3)}


def _needs_display() -> bool:
    """True when the Qt viewport has no X server (and this is not already the re-run child)."""
    return not os.environ.get("DISPLAY") and not os.environ.get("EXPLORER_BENCH_CHILD")


def _rerun_under_xvfb(verb: str, scene, extra: list) -> int:
    """Run ``explorer bench VERB SCENE EXTRA...`` again under a private Xvfb (xvfb-run)."""
    xvfb = shutil.which("xvfb-run")
    if xvfb is None:
        print(f"explorer: bench {verb} needs a display or xvfb-run (apt-get install xvfb)",
              file=sys.stderr)
        return 2
    cmd = [xvfb, "-a", "-s", "-screen 0 1600x1000x24", sys.executable, "-m", "explorer",
           "bench", verb, str(scene), *extra]
    return subprocess.call(cmd, env={**os.environ, "EXPLORER_BENCH_CHILD": "1"})


def main(args) -> int:
    scene = Path(args.scene) if args.scene else DEFAULT_SCENE
    if not scene.exists():
        print(f"explorer: {scene}: no such file", file=sys.stderr)
        return 2
    if _needs_display():
        extra = ["--steps", str(args.steps)] + (["--panels"] if args.panels else [])
        if getattr(args, "anti_aliasing", None):
            extra += ["--anti-aliasing", args.anti_aliasing]
        if getattr(args, "reduction", None):
            extra += ["--reduction", str(args.reduction)]
        return _rerun_under_xvfb("drag", scene, extra)
    from explorer.model.scenefile import SceneError
    from explorer.render import quality

    try:
        figures = run_bench(scene, steps=max(1, args.steps), panels=args.panels,
                            anti_aliasing=getattr(args, "anti_aliasing", None),
                            reduction=getattr(args, "reduction", None))
    except SceneError as exc:
        print(f"explorer: {scene}: {exc}", file=sys.stderr)
        return 2
    print(f"scene: {scene.name}, {args.steps} drag steps{' with panels' if args.panels else ''}")
    print(f"update path (model, meshes, queries, overlay geometry): "
          f"median {figures['update_median_ms']:.2f} ms, p95 {figures['update_p95_ms']:.2f} ms")
    aa = figures.pop("_anti_aliasing")
    print(f"render (VTK, {aa}) and the widget's paint (its blit): median "
          f"{figures['render_median_ms']:.2f} ms, p95 {figures['render_p95_ms']:.2f} ms")
    factor, moving_px, window_px = figures.pop("_reduction")
    if factor > 1 and moving_px:
        print(f"image reduction while moving: 1/{factor}, {moving_px[0]}x{moving_px[1]} pixels "
              f"rendered, blitted onto {window_px[0]}x{window_px[1]} (linear); the frame at "
              f"rest full size")
    else:
        print(f"image reduction while moving: none, {window_px[0]}x{window_px[1]} pixels")
    print(f"then Qt composes the whole window (not counted above, the same at any reduction): "
          f"median {figures.pop('_compose_median_ms'):.2f} ms")
    frame, frame95 = figures.pop("_frame_median_ms"), figures.pop("_frame_p95_ms")
    print(f"frame (update + render of each step): median {frame:.2f} ms, "
          f"p95 {frame95:.2f} ms; 60 frames a second is 16.7 ms (ratio {frame / 16.7:.2f})")
    per_step = figures.pop("_renders_per_step")
    print(f"renders per drag step as the window draws it (the edit, then its repaint): "
          f"{per_step:.2f} (each render above counts that often)")
    rest, rest_cpu = figures.pop("_rest_median_ms"), figures.pop("_rest_cpu_median_ms")
    if rest is not None:
        print(f"the frame at rest (once, {quality.IDLE_MS} ms after the last move, "
              f"multisampled): median {rest:.2f} ms")
    print(f"render CPU time of the process (all threads, the software rasteriser's too; "
          f"steadier than wall time on a busy machine): median "
          f"{figures.pop('_render_cpu_median_ms'):.2f} ms"
          + (f", the frame at rest {rest_cpu:.2f} ms" if rest_cpu is not None else ""))
    print(f"update path CPU time of this thread (what wall time becomes on an idle machine): "
          f"median {figures.pop('_update_cpu_median_ms'):.2f} ms, "
          f"p95 {figures.pop('_update_cpu_p95_ms'):.2f} ms")
    try:
        print(f"load average: {', '.join(f'{x:.1f}' for x in os.getloadavg())} "
              f"on {os.cpu_count()} cores")
    except OSError:
        pass
    print(json.dumps(figures))
    return 0


# ----------------------------------------------------------------------------- startup
#: what the start-up is compared with: importing the GUI libraries and nothing else
FLOOR_CODE = ("import pyvista, pyvistaqt, PyQt6.QtWidgets, time; "
              "print(f'first-frame {time.process_time():.4f}', flush=True)")


def _time_to_marker(cmd: list, env: dict) -> dict:
    """``{marker: (wall seconds from starting cmd, CPU seconds the process reports)}`` for
    each ``MARKER CPU`` line ``cmd`` prints (``on-screen``, ``first-frame``, ``complete``) until
    it exits (the app quits once complete; the import floor prints ``first-frame`` only)."""
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env,
                         text=True)
    seen: dict = {}
    try:
        for line in p.stdout:
            words = line.split()
            if len(words) == 2 and words[0] in ("on-screen", "first-frame", "complete"):
                seen[words[0]] = (time.perf_counter() - t0, float(words[1]))
                if words[0] == "complete":
                    break
        if "first-frame" not in seen:
            raise RuntimeError(f"{' '.join(cmd)}: exited {p.wait()} before its first frame")
        p.wait(timeout=60)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    return seen


def run_startup(scene, rounds: int = 5) -> dict:
    """Medians over interleaved rounds of (a) ``explorer open SCENE`` from process start to
    its start-up window on screen (``on_screen``), to the view's first rendered frame
    (``first_frame``; :data:`explorer.qt.app.FIRST_FRAME_PROBE`) and to the window complete
    with its algorithm panels (``complete``, built after that frame) and (b) a fresh Python
    importing pyvista, pyvistaqt and PyQt6 alone (``import_floor``): wall seconds and the CPU
    seconds each process reports (``*_cpu_s``, steadier on a shared machine).

    Both run with their bytecode cached, as an installed wheel has it (pip compiles it): in a
    private ``PYTHONPYCACHEPREFIX`` that a first, untimed run of each fills (a checkout run
    with ``PYTHONDONTWRITEBYTECODE`` would otherwise compile every module of the explorer at
    each start, 0.5-1.4 s here)."""
    import statistics
    import tempfile

    from explorer.qt.app import FIRST_FRAME_PROBE

    runs: dict = {"on-screen": [], "first-frame": [], "complete": [], "floor": []}
    with tempfile.TemporaryDirectory() as state:
        env = {**os.environ, FIRST_FRAME_PROBE: "1", "EXPLORER_STATE_DIR": state,
               "PYTHONPYCACHEPREFIX": str(Path(state) / "pycache")}
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        app_cmd = [sys.executable, "-m", "explorer", "open", str(scene)]
        floor_cmd = [sys.executable, "-c", FLOOR_CODE]
        _time_to_marker(floor_cmd, env)  # bytecode and file cache: no round pays for them
        _time_to_marker(app_cmd, env)
        for _ in range(max(1, rounds)):
            runs["floor"].append(_time_to_marker(floor_cmd, env)["first-frame"])
            app = _time_to_marker(app_cmd, env)
            runs["first-frame"].append(app["first-frame"])
            runs["on-screen"].append(app.get("on-screen", app["first-frame"]))
            runs["complete"].append(app.get("complete", app["first-frame"]))

    def med(key, i):
        return statistics.median(r[i] for r in runs[key])

    out = {"rounds": len(runs["floor"]), "target_ratio": 1.2}
    for key, name in (("on-screen", "on_screen"), ("first-frame", "first_frame"),
                      ("complete", "complete"), ("floor", "import_floor")):
        out[f"{name}_s"] = round(med(key, 0), 3)
        out[f"{name}_cpu_s"] = round(med(key, 1), 3)
    for name in ("on_screen", "first_frame", "complete"):
        out[f"{name}_ratio"] = round(out[f"{name}_s"] / out["import_floor_s"], 3)
        out[f"{name}_cpu_ratio"] = round(out[f"{name}_cpu_s"] / out["import_floor_cpu_s"], 3)
    return out


def startup_main(args) -> int:
    from explorer import default_scene_path

    scene = Path(args.scene) if args.scene else Path(default_scene_path())
    if not scene.exists():
        print(f"explorer: {scene}: no such file", file=sys.stderr)
        return 2
    if _needs_display():
        return _rerun_under_xvfb("startup", scene, ["--rounds", str(args.rounds)])
    f = run_startup(scene, rounds=args.rounds)
    print(f"bench startup: explorer open {scene.name}, medians of {f['rounds']} interleaved "
          f"rounds (wall s / CPU s of the process)")
    print(f"import floor (a fresh python importing pyvista, pyvistaqt and PyQt6 alone): "
          f"{f['import_floor_s']:.3f} / {f['import_floor_cpu_s']:.3f}")
    print(f"window on screen (the start-up window, before the 3-D libraries load): "
          f"{f['on_screen_s']:.3f} / {f['on_screen_cpu_s']:.3f}, ratio to the floor "
          f"{f['on_screen_ratio']:.2f} / {f['on_screen_cpu_ratio']:.2f} (target at most 1.2)")
    print(f"the view's first frame (the scene and its answers drawn): {f['first_frame_s']:.3f} "
          f"/ {f['first_frame_cpu_s']:.3f}, ratio to the floor {f['first_frame_ratio']:.2f} / "
          f"{f['first_frame_cpu_ratio']:.2f}")
    print(f"the window complete (the algorithm panels, built after the first frame): "
          f"{f['complete_s']:.3f} / {f['complete_cpu_s']:.3f}, ratio to the floor "
          f"{f['complete_ratio']:.2f} / {f['complete_cpu_ratio']:.2f}")
    try:
        print(f"load average: {', '.join(f'{x:.1f}' for x in os.getloadavg())} "
              f"on {os.cpu_count()} cores")
    except OSError:
        pass
    print(json.dumps(f))
    return 0
