"""Copy as pytest / ``explorer export-test``: the written file rebuilds the pair bit for bit,
passes on today's library, and fails when the answer it asserts moves."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from explorer import SCENES_DIR
from explorer.model.exporttest import num, pair_test_source, reference_test_source
from explorer.model.scenefile import load

ROOT = Path(__file__).resolve().parents[3]
ENV = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "HOME": "/tmp"}


def _module(src: str) -> dict:
    ns: dict = {"__name__": "exported"}
    exec(compile(src, "exported.py", "exec"), ns)
    return ns


def test_num_is_exact():
    for x in (0.1, -1.5, 1e-300, 2.0 ** 60, 3.0, -0.0, 5e-324):
        assert eval(num(x)) == x and str(eval(num(x))) == str(x)
    assert num(0.5) == "float.fromhex('0x1p-1')" and num(3.0) == "3.0"


def test_export_of_every_shipped_gui_scene_rebuilds_and_passes():
    for name in ("gui_segments.json", "gui_ray_box.json", "gui_obb_obb.json",
                 "gui_moving_sphere.json"):
        scene = load(SCENES_DIR / name)
        a, b = scene.pairs()[0]
        ns = _module(pair_test_source(scene, a, b))
        assert ns["A"] == scene[a].primitive and ns["B"] == scene[b].primitive  # bit for bit
        tests = [v for k, v in ns.items() if k.startswith("test_")]
        assert len(tests) == 1
        tests[0]()  # passes on today's library


def test_the_exported_test_fails_when_the_answer_moves():
    scene = load(SCENES_DIR / "gui_moving_sphere.json")
    a, b = scene.pairs()[0]
    good = scene.evaluate_pair(a, b)
    for key, moved in (("distance", good["distance"] + 1e-6), ("intersects",
                                                            not good["intersects"]),
                       ("toi", None if good["toi"] is not None else 0.5)):
        wrong = {**good, key: moved}
        ns = _module(reference_test_source(scene[a].primitive, scene[b].primitive, wrong,
                                           motion_a=scene[a].motion, motion_b=scene[b].motion))
        test = next(v for k, v in ns.items() if k.startswith("test_"))
        try:
            test()
        except AssertionError:
            continue
        raise AssertionError(f"the exported test passed with a moved {key}")


def test_command_line(tmp_path):
    out = tmp_path / "test_x.py"
    r = subprocess.run([sys.executable, "-m", "explorer", "export-test",
                        str(SCENES_DIR / "gui_ray_box.json"), "--pair", "ray", "box", "-o",
                        str(out)], capture_output=True, text=True, env=ENV, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "float.fromhex" in out.read_text() and "TOL = 1e-09 * SCALE" in out.read_text()
    t = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                        str(out)], capture_output=True, text=True, env=ENV, cwd=tmp_path)
    assert "1 passed" in t.stdout, t.stdout
    bad = subprocess.run([sys.executable, "-m", "explorer", "export-test",
                          str(SCENES_DIR / "gui_ray_box.json"), "--pair", "ray", "nope", "-o",
                          str(out)], capture_output=True, text=True, env=ENV, cwd=tmp_path)
    assert bad.returncode == 2 and "no object 'nope'" in bad.stderr
