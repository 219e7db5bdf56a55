"""``explorer bench drag``: the command runs and prints what issue 6 asks for (its figures are
timings, so only their form and sanity are checked here, never their size)."""

from __future__ import annotations

import json
import math
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
KEYS = {"update_median_ms", "update_p95_ms", "render_median_ms", "render_p95_ms"}


def run_bench(*args: str) -> list[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run([sys.executable, "-m", "explorer", "bench", "drag", *args],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=180)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout.strip().splitlines()


@pytest.mark.parametrize("extra", [[], ["--panels"]], ids=["window", "panels"])
def test_bench_drag_prints_the_figures_and_one_json_object_last(extra):
    lines = run_bench("--steps", "20", *extra)
    figures = json.loads(lines[-1])
    assert set(figures) == KEYS  # exactly the four keys, nothing private leaks out
    for key, value in figures.items():
        assert isinstance(value, float) and math.isfinite(value) and value > 0, (key, value)
    assert figures["update_median_ms"] <= figures["update_p95_ms"]
    assert figures["render_median_ms"] <= figures["render_p95_ms"]
    text = "\n".join(lines[:-1])
    assert "20 drag steps" in text and ("with panels" in text) == bool(extra)
    # the human-readable lines repeat the JSON figures (rounded to 0.01 ms)
    assert f"median {figures['update_median_ms']:.2f} ms" in text
    assert f"p95 {figures['render_p95_ms']:.2f} ms" in text
    assert "CPU time" in text


def test_bench_drag_refuses_a_missing_scene():
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run([sys.executable, "-m", "explorer", "bench", "drag",
                           str(ROOT / "no-such-scene.json")], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "no such file" in proc.stderr


def test_bench_drag_prints_the_frame_update_plus_render():
    # issue 12: the frame (each step's update + render) is reported with its median and p95,
    # against 60 frames a second; the render line names the window's anti-aliasing (none
    # while moving, multisampling at rest) and the frame at rest is timed apart
    lines = run_bench("--steps", "8")
    text = "\n".join(lines[:-1])
    m = re.search(r"frame \(update \+ render of each step\): median ([0-9.]+) ms, "
                  r"p95 ([0-9.]+) ms; 60 frames a second is 16\.7 ms \(ratio ([0-9.]+)\)", text)
    assert m, text
    median, p95, ratio = map(float, m.groups())
    assert 0 < median <= p95 and ratio == pytest.approx(median / 16.7, abs=0.01)
    assert re.search(r"render \(VTK, adaptive: no anti-aliasing, no back lights while moving, "
                     r"[1-9][0-9]*x MSAA at rest\)",
                     text), text
    # the moving frames render a quarter of the pixels (half of 489 x 699, say), scaled up
    m = re.search(r"image reduction while moving: 1/2, ([0-9]+)x([0-9]+) pixels rendered, "
                  r"blitted onto ([0-9]+)x([0-9]+) \(linear\)", text)
    assert m, text
    rw, rh, ww, wh = map(int, m.groups())
    assert abs(rw - ww / 2) <= 1 and abs(rh - wh / 2) <= 1
    assert re.search(r"the frame at rest \(once, 200 ms after the last move, multisampled\): "
                     r"median [0-9.]+ ms", text), text


def test_bench_startup_prints_the_window_the_first_frame_and_the_floor():
    # issue 12, part 4: explorer open's start-up window and the view's first frame, each
    # against a fresh python importing the GUI libraries (wall and CPU seconds), JSON last
    proc = subprocess.run([sys.executable, "-m", "explorer", "bench", "startup", "--rounds",
                           "1"], cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)),
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    lines = proc.stdout.strip().splitlines()
    text = "\n".join(lines)
    assert re.search(r"window on screen .*: [0-9.]+ / [0-9.]+, ratio to the floor [0-9.]+ / "
                     r"[0-9.]+ \(target at most 1\.2\)", text), text
    assert re.search(r"the view's first frame .*ratio to the floor [0-9.]+ / [0-9.]+", text)
    figures = json.loads(lines[-1])
    # the start-up window shows before the view has drawn, and each ratio is its quotient
    assert 0 < figures["on_screen_s"] <= figures["first_frame_s"]
    assert figures["first_frame_ratio"] == pytest.approx(
        figures["first_frame_s"] / figures["import_floor_s"], abs=1e-3)
