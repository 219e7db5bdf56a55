"""``explorer.render.libs``: pyvista imported for the window's start-up without matplotlib's
pyplot and Agg backend and without pooch (issue 12, part 4), and each of them the real module
as soon as pyvista uses it. Each check runs in a fresh Python: the test process imported
pyvista long ago."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from explorer.render import libs

ROOT = Path(__file__).resolve().parents[3]


def _python(code: str, **env) -> dict:
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=300,
                          env=dict(os.environ, PYTHONPATH=str(ROOT), **env))
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_a_stand_in_imports_the_real_module_at_the_first_name_read():
    name = "explorer.render.libs_probe_module_that_does_not_exist"
    stand_in = libs.Deferred(name)
    with pytest.raises(AttributeError):  # the import system's probes are not a use
        stand_in.__path__
    with pytest.raises(ModuleNotFoundError):  # a use imports it (here: there is none)
        stand_in.anything
    json_stand_in = libs.Deferred("json")
    assert json_stand_in.dumps is json.dumps  # the real attribute
    assert libs.real_module(json_stand_in) is sys.modules["json"]


def test_import_pyvista_leaves_pyplot_backend_agg_and_pooch_for_later():
    code = """if True:
        import json, sys
        from explorer.render import libs
        pv = libs.import_pyvista()
        import pyvistaqt  # the window's next import: it must not load them either
        from pyvista.plotting import charts, colors
        from pyvista.core.utilities import reader_registry
        out = {"loaded": [m for m in libs.DEFERRED + ("matplotlib.figure",)
                          if m in sys.modules],
               "stand_ins": [type(m).__name__ for m in (colors.plt, charts.plt,
                                                        reader_registry.pooch)],
               "plotting": "pyvista.plotting" in sys.modules,
               "matplotlib_colors": "matplotlib.colors" in sys.modules}
        # first uses: pyvista's colour cycler (plt.rcParams), a matplotlib chart
        # (plt.subplots and FigureCanvasAgg), then a later import gets the real modules
        cycler = colors.get_cycler("matplotlib")
        chart = pv.ChartMPL()
        import matplotlib.pyplot as plt
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        import pooch
        out["after"] = {
            "pyplot_real": type(sys.modules["matplotlib.pyplot"]).__name__,
            "same_rc": colors.plt.rcParams is plt.rcParams,
            "cycler": cycler == plt.rcParams["axes.prop_cycle"],
            "canvas": type(chart._canvas) is FigureCanvasAgg,
            "pooch_retrieve": reader_registry.pooch.retrieve is pooch.retrieve}
        print(json.dumps(out))"""
    out = _python(code, MPLBACKEND="Agg")  # the chart's figure without a display
    assert out["loaded"] == []  # none of them, nor matplotlib's figure machinery
    assert out["stand_ins"] == ["Deferred"] * 3
    assert out["plotting"] and out["matplotlib_colors"]  # what pyvista needs is in
    assert out["after"] == {"pyplot_real": "module", "same_rc": True, "cycler": True,
                            "canvas": True, "pooch_retrieve": True}


def test_import_pyvista_is_the_plain_import_when_pyplot_is_in_already():
    code = """if True:
        import json, sys
        import matplotlib.pyplot as plt
        from explorer.render import libs
        libs.import_pyvista()
        from pyvista.plotting import colors
        print(json.dumps({"plt": colors.plt is plt,
                          "pooch": type(sys.modules.get("pooch")).__name__}))"""
    # pyplot was imported first: pyvista gets it; pooch, not imported yet, is still deferred
    assert _python(code) == {"plt": True, "pooch": "NoneType"}


def test_explorer_open_draws_its_first_frame_without_pyplot(tmp_path):
    # the start-up path itself (explorer.qt.app.run): at the view's first frame neither
    # pyplot nor pooch has been imported (a later import anywhere would show here)
    pytest.importorskip("pyvistaqt")
    if not os.environ.get("DISPLAY"):
        pytest.skip("needs the X server of pytest-xvfb")
    code = """if True:
        import json, sys
        from explorer.qt import app
        from explorer.render import libs
        say = app._say
        seen = {}

        def probe(on, what):
            say(False, what)
            if what == "first-frame":
                seen["loaded"] = [m for m in libs.DEFERRED + ("matplotlib.figure",)
                                  if m in sys.modules]
        app._say = probe
        status = app.run(%r)
        print(json.dumps({"status": status, **seen}))""" % str(ROOT / "scenes" / "welcome.json")
    out = _python(code, EXPLORER_FIRST_FRAME_PROBE="1", EXPLORER_STATE_DIR=str(tmp_path))
    assert out == {"status": 0, "loaded": []}
