"""Import pyvista for the window's start-up without matplotlib's plotting half.

pyvista imports ``matplotlib.pyplot`` (``pyvista.plotting.colors``, ``pyvista.plotting.charts``)
and ``matplotlib.backends.backend_agg`` (``charts``) when it is imported, for its 2-D charts
and colour cycler; the explorer's view needs neither to draw its first frame. Those two
modules, with the figure, axes, text and backend machinery they pull in, are about a quarter
of the CPU time of importing pyvista on this project's machine (``explorer bench startup``
compares the start-up with a plain ``import pyvista, pyvistaqt, PyQt6.QtWidgets``).

:func:`import_pyvista` imports pyvista with a :class:`Deferred` stand-in for each: a module
object that imports the real module the first time a name is read from it, and then answers
with the real module's attribute. pyvista keeps the stand-in as its ``plt`` (every use of it
reads an attribute, ``plt.subplots``, ``plt.rcParams``); ``charts.FigureCanvasAgg`` is a
function that imports the real class and calls it. The stand-ins are in ``sys.modules`` only
while pyvista is imported: any later ``import matplotlib.pyplot`` gets the real module.
``matplotlib`` and ``matplotlib.colors`` themselves are imported as usual (pyvista's type
aliases read ``matplotlib.colors.Colormap`` when imported)."""

from __future__ import annotations

import importlib
import sys
import types

#: what :func:`import_pyvista` defers (pyvista 0.4x imports them at import time)
DEFERRED = ("matplotlib.pyplot", "matplotlib.backends.backend_agg")


class Deferred(types.ModuleType):
    """A stand-in for the module ``name``: reading a (non-dunder) name imports the real
    module (once; Python's import caches it) and returns the real attribute."""

    def __getattr__(self, attr: str):
        if attr.startswith("__"):  # the import system's probes (__path__, __file__, ...)
            raise AttributeError(attr)
        return getattr(real_module(self), attr)


def real_module(stand_in: types.ModuleType) -> types.ModuleType:
    """The real module of a :class:`Deferred` stand-in (imported now if it was not)."""
    name = stand_in.__name__
    if sys.modules.get(name) is stand_in:  # still installed (an import of pyvista failed)
        del sys.modules[name]
    return importlib.import_module(name)


def _figure_canvas_agg(*args, **kwargs):
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    return FigureCanvasAgg(*args, **kwargs)


def import_pyvista() -> types.ModuleType:
    """``import pyvista`` with :data:`DEFERRED` left for later (see the module's docstring);
    the plain import when pyvista or any of them is imported already."""
    if "pyvista.plotting" in sys.modules or any(name in sys.modules for name in DEFERRED):
        import pyvista.plotting  # noqa: F401

        return sys.modules["pyvista"]
    import matplotlib.backends  # noqa: F401 - the parent package of backend_agg, as usual
    import matplotlib.colors  # noqa: F401 - pyvista's type aliases read it

    stand_ins = []
    for name in DEFERRED:
        module = Deferred(name)
        module.__spec__ = None  # the import system's "is it still initialising?" probe
        stand_ins.append(module)
    stand_ins[1].FigureCanvasAgg = _figure_canvas_agg
    try:
        for module in stand_ins:
            sys.modules[module.__name__] = module
        import pyvista.plotting  # noqa: F401 - ``import pyvista`` loads it at first use only
    finally:
        for module in stand_ins:
            if sys.modules.get(module.__name__) is module:
                del sys.modules[module.__name__]
    return sys.modules["pyvista"]
