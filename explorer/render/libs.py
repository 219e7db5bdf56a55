"""Import pyvista for the window's start-up without what it imports for charts and downloads.

pyvista 0.49 imports ``matplotlib.pyplot`` (``pyvista.plotting.colors``,
``pyvista.plotting.charts``), ``matplotlib.backends.backend_agg`` (``charts``) and ``pooch``
(``pyvista.core.utilities.reader_registry``) when it is imported, for its 2-D charts, its
colour cycler and files read from a URL; the explorer's view needs none of them to draw its
first frame. Those modules, with the figure, axes, text and backend machinery of matplotlib
and the network and archive modules of pooch, are about a quarter of the CPU time of
importing pyvista on this project's machine (``explorer bench startup`` compares the start-up
with a plain ``import pyvista, pyvistaqt, PyQt6.QtWidgets``).

:func:`import_pyvista` imports pyvista with a :class:`Deferred` stand-in for each: a module
object that imports the real module the first time a name is read from it, and then answers
with the real module's attribute. pyvista keeps the stand-in as its ``plt`` and ``pooch``
(every use of them reads an attribute: ``plt.subplots``, ``plt.rcParams``,
``pooch.retrieve``); ``charts.FigureCanvasAgg`` is a function that imports the real class and
calls it. The stand-ins are in ``sys.modules`` only while pyvista imports: any later
``import matplotlib.pyplot`` gets the real module. ``matplotlib`` and ``matplotlib.colors``
are imported as usual (pyvista's type aliases read ``matplotlib.colors.Colormap``)."""

from __future__ import annotations

import importlib
import sys
import types

#: what :func:`import_pyvista` defers: pyvista 0.49 imports them when imported and reads a
#: name of them only when used (``pooch``: ``pooch.retrieve`` to read a file from a URL)
DEFERRED = ("matplotlib.pyplot", "matplotlib.backends.backend_agg", "pooch")


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
    """``import pyvista.plotting`` with the modules of :data:`DEFERRED` that are not imported
    yet left for later (see the module's docstring); the plain import when pyvista's
    plotting is imported already. Returns ``pyvista``."""
    if "pyvista.plotting" not in sys.modules:
        stand_ins = [Deferred(name) for name in DEFERRED if name not in sys.modules]
        try:
            for module in stand_ins:
                module.__spec__ = None  # the import system's "still initialising?" probe
                if module.__name__ == "matplotlib.backends.backend_agg":
                    module.FigureCanvasAgg = _figure_canvas_agg
                sys.modules[module.__name__] = module
            import pyvista.plotting  # noqa: F401 - ``import pyvista`` loads it at first use
        finally:
            for module in stand_ins:
                if sys.modules.get(module.__name__) is module:
                    del sys.modules[module.__name__]
    import pyvista.plotting  # noqa: F401

    return sys.modules["pyvista"]
