"""``explorer export SCENE -o OUT.EXT [--size W H]``: the scene with its answers drawn, as in
the window, in the format the extension names (issue 14). No Qt here: everything is drawn by
an offscreen PyVista plotter through the same :class:`~explorer.render.view.SceneView` and
overlay frame (:func:`explorer.render.overlays.frame_for_view`) as the window and
``explorer render``; ``.md`` is the explain text of :mod:`explorer.present.explain_md`.

=============  ==========================================================================
extension      what is written (and what reads it back)
=============  ==========================================================================
``.png``       a picture (any image viewer; ``imageio``)
``.gltf``      the 3D scene, glTF 2.0 JSON with the buffers inlined (Blender, three.js;
               ``pygltflib``), by VTK's ``vtkGLTFExporter``
``.glb``       the same as binary glTF (converted by ``pygltflib``)
``.obj``       Wavefront OBJ plus its ``.mtl`` colours, written next to it (``pyvista.read``)
``.vtm``       a VTK multiblock: one block per drawn object and answer, named
               (ParaView; ``pyvista.read``)
``.vtksz``     a vtk.js scene (ParaView Glance, the HTML viewer), by trame-vtk
``.html``      one self-contained interactive page (rotate, zoom) that opens in a browser
               with no Python: the vtk.js viewer of trame-vtk with the scene inlined, plus
               the answers as a table (labels are 2-D text, which vtk.js does not carry)
``.svg``       the viewport by VTK's GL2PS exporter: the labels and the title as vector text,
               the 3D geometry as one embedded picture (GL2PS with VTK's OpenGL2 backend
               rasterises 3D props)
``.pdf``       the same as PDF (labels in ASCII: GL2PS uses a standard PDF font)
``.gif``       an animation: the time line ``t = 0 -> 1`` when an object moves, else a drag
               of the first object around a circle (``imageio``)
``.mp4``       the same animation as H.264 video (``imageio-ffmpeg``)
``.md``        the explain text of every query pair, as Markdown
=============  ==========================================================================

Labels (the distances, ``t`` values and axis names drawn as 2-D text) survive in the images
(PNG, SVG, PDF, GIF, MP4); the 3D formats carry the geometry of every answer (closest points,
hit points and normals, separating axes and their intervals, ghosts and swept paths) but no
text, so the HTML page adds a table of the answers.
"""

from __future__ import annotations

import contextlib
import html
import io
import json
import math
import os
import sys
import tempfile
from pathlib import Path
from typing import Iterable, Optional, Sequence

import numpy as np

#: extension -> one-line description (``explorer export --help``, File > Export's filter)
FORMATS: dict[str, str] = {
    ".png": "PNG image",
    ".gltf": "glTF 2.0 scene (JSON)",
    ".glb": "glTF 2.0 scene (binary)",
    ".obj": "Wavefront OBJ + MTL",
    ".vtm": "VTK multiblock",
    ".vtksz": "vtk.js scene",
    ".html": "interactive HTML page",
    ".svg": "SVG (labels as vector text over the 3D picture)",
    ".pdf": "PDF (the same as SVG)",
    ".gif": "animated GIF",
    ".mp4": "MP4 video",
    ".md": "explain text (Markdown)",
}

#: the animation's frames per second and the number of frames of the time line
FPS = 12
TIMELINE_FRAMES = 25
DRAG_FRAMES = 24


class ExportError(ValueError):
    """An export that cannot be written (unknown extension, missing folder, bad size)."""


def check_target(path, size=(1024, 768)) -> Path:
    """The output path, or :class:`ExportError` with one clear sentence."""
    out = Path(path)
    ext = out.suffix.lower()
    if ext not in FORMATS:
        raise ExportError(f"-o {out.name}: unknown extension {ext or '(none)'!r}; one of "
                          + ", ".join(FORMATS))
    if not out.parent.exists():
        raise ExportError(f"-o: folder {out.parent} does not exist")
    w, h = size
    if not (16 <= w <= 8192 and 16 <= h <= 8192):
        raise ExportError(f"--size: width and height must be between 16 and 8192, got {w} {h}")
    return out


# ----------------------------------------------------------------------------- the view


@contextlib.contextmanager
def offscreen_view(scene, size=(1024, 768), with_results: bool = True, camera=None,
                   decorations: bool = True):
    """An offscreen plotter drawing ``scene`` with its answers as the window does.

    Yields ``(plotter, view, answers)`` (the typed :class:`~algorithms.answer.PairAnswer` of
    each query pair). ``camera`` is a PyVista camera position (the
    window's); default: the ``iso`` view of every object. ``decorations``: the axes widget and
    the scene's name (left out of the 3D formats, where they would become geometry)."""
    os.environ.setdefault("VTK_DEFAULT_OPENGL_WINDOW", "vtkEGLRenderWindow")
    import pyvista as pv

    from explorer.render.overlays import frame_for_view
    from explorer.render.view import SceneView, frame_bounds

    plotter = pv.Plotter(off_screen=True, window_size=[int(size[0]), int(size[1])])
    view = SceneView(plotter)
    try:
        view.set_scene(scene)
        answers = scene.answers() if with_results else []
        if with_results:
            view.apply_frame(frame_for_view(scene, answers, view))
        if decorations:
            plotter.add_axes()
            plotter.add_text(scene.name, font_size=12, color="#222222", name="title")
        if camera is not None:
            plotter.camera_position = camera
        else:
            plotter.camera_position = "iso"
            plotter.reset_camera(bounds=frame_bounds(view))
        yield plotter, view, answers
    finally:
        view.close()
        plotter.close()


def _visible_meshes(plotter) -> list[tuple[str, object, tuple]]:
    """``[(name, mesh, rgb)]`` of every visible actor with a data set (objects and answers)."""
    out = []
    for name, actor in plotter.actors.items():
        if not actor.GetVisibility():
            continue
        mapper = actor.GetMapper() if hasattr(actor, "GetMapper") else None
        data = mapper.GetInput() if mapper is not None else None
        if data is None or data.GetNumberOfPoints() == 0:
            continue
        rgb = tuple(actor.GetProperty().GetColor())
        out.append((name, data, rgb))
    return out


# ----------------------------------------------------------------------------- writers


def _write_png(plotter, out: Path) -> None:
    plotter.screenshot(str(out))


def _write_gltf(plotter, out: Path) -> None:
    plotter.export_gltf(str(out), inline_data=True)


def _write_glb(plotter, out: Path) -> None:
    """VTK writes glTF JSON with one inline buffer per array; a GLB holds one binary chunk,
    so the buffers are joined (each view keeps its bytes, at a 4-byte aligned offset)."""
    from pygltflib import GLTF2, Buffer

    with tempfile.TemporaryDirectory() as tmp:
        tmp_gltf = Path(tmp) / "scene.gltf"
        plotter.export_gltf(str(tmp_gltf), inline_data=True)
        gltf = GLTF2().load(str(tmp_gltf))
    blob = bytearray()
    starts = []
    for buf in gltf.buffers:
        blob += b"\0" * (-len(blob) % 4)
        starts.append(len(blob))
        blob += gltf.decode_data_uri(buf.uri)
    for view in gltf.bufferViews:
        view.byteOffset = (view.byteOffset or 0) + starts[view.buffer]
        view.buffer = 0
    blob += b"\0" * (-len(blob) % 4)
    gltf.buffers = [Buffer(byteLength=len(blob))]
    gltf.set_binary_blob(bytes(blob))
    gltf.save_binary(str(out))


def _write_obj(plotter, out: Path) -> None:
    plotter.export_obj(str(out))  # writes out and out.with_suffix(".mtl")


def _write_vtm(plotter, out: Path) -> None:
    import pyvista as pv

    blocks = pv.MultiBlock()
    for name, data, rgb in _visible_meshes(plotter):
        mesh = pv.wrap(data).copy()
        mesh.field_data["color"] = np.array(rgb, dtype=float)
        blocks.append(mesh, name)
    blocks.save(str(out))


@contextlib.contextmanager
def _without_vtk_wasm():
    """trame-pyvista's vtk.js exporter runs a local trame server; when trame-vtklocal is
    installed (a dependency of trame-pyvista) that server's set-up downloads VTK's WebAssembly
    build from the internet, which the vtk.js scene does not use. Hide the module for the call
    (its import is optional there: an ImportError is skipped)."""
    name = "trame.widgets.vtklocal"
    saved = sys.modules.get(name, _MISSING)
    sys.modules[name] = None  # `import` raises ImportError
    try:
        yield
    finally:
        if saved is _MISSING:
            sys.modules.pop(name, None)
        else:
            sys.modules[name] = saved


_MISSING = object()


def _vtksz_bytes(plotter) -> bytes:
    with _without_vtk_wasm():
        return plotter.trame.export_vtksz(filename=None)


def _write_vtksz(plotter, out: Path) -> None:
    out.write_bytes(_vtksz_bytes(plotter))


def results_table_html(results: Sequence) -> str:
    """The answers (typed :class:`~algorithms.answer.PairAnswer`\\ s) as an HTML table (the
    page's panel; also the notebook's table)."""
    from explorer.present.table import ROW_KEYS, cell

    head = "".join(f"<th>{html.escape(k)}</th>" for k in ("pair", *ROW_KEYS))
    rows = []
    for r in results:
        cells = [f"{r.a}–{r.b}"] + [cell(r, k) for k in ROW_KEYS]
        rows.append("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in cells) + "</tr>")
    return f"<table class='explorer-results'><tr>{head}</tr>{''.join(rows)}</table>"


_PANEL_CSS = (
    "#explorer-answers{position:fixed;top:8px;left:8px;z-index:1000;max-width:46vw;"
    "max-height:60vh;overflow:auto;background:rgba(255,255,255,.88);font:12px sans-serif;"
    "padding:6px 8px;border-radius:4px;box-shadow:0 1px 4px rgba(0,0,0,.3)}"
    "#explorer-answers table{border-collapse:collapse}"
    "#explorer-answers td,#explorer-answers th{border-bottom:1px solid #ddd;padding:1px 5px;"
    "text-align:left;white-space:nowrap}"
    "#explorer-answers td:last-child{white-space:normal;min-width:18em}"
)


def _write_html(plotter, out: Path, scene=None, results=(), panel: bool = True) -> None:
    from trame_vtk.tools.vtksz2html import write_html

    buffer = io.StringIO()
    write_html(_vtksz_bytes(plotter), buffer)
    page = buffer.getvalue()
    title = html.escape(scene.name if scene is not None else "scene")
    panel = (f"<style>{_PANEL_CSS}</style><b>{title}</b>"
             f"<br>drag to rotate, wheel to zoom{results_table_html(results)}")
    # the viewer's script replaces the page's body when it starts: the panel is added (again)
    # by a script of ours once it has, and kept there
    script = ("<script>(function(){var html=" + json.dumps(panel).replace("</", "<\\/")
              + ";function put(){if(!document.getElementById('explorer-answers')&&"
              "document.body){var d=document.createElement('div');d.id='explorer-answers';"
              "d.innerHTML=html;document.body.appendChild(d);}}"
              "var n=0,timer=setInterval(function(){put();if(++n>40)clearInterval(timer);},250);"
              "window.addEventListener('load',put);})();</script>")
    if not panel:
        script = ""
    if "</body>" in page:
        page = page.replace("</body>", script + "</body>", 1)
    else:
        page += script
    page = page.replace("<title>", f"<title>{title} — ", 1) if "<title>" in page else page
    out.write_text(page, encoding="utf-8")


#: what GL2PS's PDF text (a standard font, bytes read as a one-byte encoding) gets for the
#: characters the labels use beyond ASCII
_ASCII = {"\u2013": "-", "\u2014": "-", "\u2212": "-", "\u00a7": "S", "\u00b2": "^2",
          "\u00b3": "^3", "\u00b7": "*", "\u00d7": "x", "\u2264": "<=", "\u2265": ">=",
          "\u2192": "->", "\u221a": "sqrt", "\u2248": "~", "\u2009": " ", "\u00a0": " ",
          "\u01c0": "|"}  # the view's stand-in for "|" (view.BAR): the bar itself again


def ascii_text(text: str) -> str:
    """``text`` in ASCII: the labels' dashes, section signs and powers spelled out, accents
    dropped (so the PDF shows ``seg-ball d = 1.37``, not mojibake).

    >>> ascii_text("seg\u2013ball, GTCG \u00a711.12.9, r\u00b2")
    'seg-ball, GTCG S11.12.9, r^2'
    """
    import unicodedata

    text = "".join(_ASCII.get(c, c) for c in text)
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")


@contextlib.contextmanager
def _ascii_labels(plotter, convert=None):
    """Every 2-D text of the plotter in ASCII for the duration (restored after);
    ``convert``: another rewrite of each text instead."""
    convert = convert or ascii_text
    from vtkmodules.vtkRenderingAnnotation import vtkCornerAnnotation
    from vtkmodules.vtkRenderingCore import vtkTextActor

    undo = []
    for renderer in plotter.renderers:
        props = renderer.GetViewProps()
        for actor in [props.GetItemAsObject(i) for i in range(props.GetNumberOfItems())]:
            if isinstance(actor, vtkTextActor):
                old = actor.GetInput() or ""
                actor.SetInput(convert(old))
                undo.append(lambda a=actor, t=old: a.SetInput(t))
            elif isinstance(actor, vtkCornerAnnotation):
                for i in range(8):
                    old = actor.GetText(i) or ""
                    if old:
                        actor.SetText(i, convert(old))
                        undo.append(lambda a=actor, i=i, t=old: a.SetText(i, t))
    try:
        yield
    finally:
        for restore in undo:
            restore()


def _write_vector(plotter, out: Path) -> None:
    if out.suffix.lower() == ".pdf":
        with _ascii_labels(plotter):
            plotter.save_graphic(str(out), title=out.stem, raster=False, painter=True)
    else:  # SVG text is UTF-8 and shows every character; the bars are bars again
        from explorer.render.view import BAR

        with _ascii_labels(plotter, lambda t: t.replace(BAR, "|")):
            plotter.save_graphic(str(out), title=out.stem, raster=False, painter=True)


# ----------------------------------------------------------------------------- animations


def _even(size) -> tuple[int, int]:
    """H.264 wants even sides (and imageio-ffmpeg blocks of 16 unless told): round up."""
    return tuple(int(v) + (int(v) % 2) for v in size)


def write_frames(frames: list, out: Path, fps: int = FPS) -> None:
    """Write ``frames`` (H x W x 3 uint8 arrays) as a GIF (loops) or an MP4 (H.264)."""
    import imageio.v3 as iio

    if out.suffix.lower() == ".gif":
        iio.imwrite(out, np.stack(frames), extension=".gif", duration=int(1000 / fps), loop=0)
    else:
        import imageio.v2 as iio2

        with iio2.get_writer(str(out), format="FFMPEG", mode="I", fps=fps, codec="libx264",
                             macro_block_size=2, pixelformat="yuv420p") as writer:
            for f in frames:
                writer.append_data(f)


def _shot(plotter) -> np.ndarray:
    plotter.render()  # the scene changed since the last frame: draw it before reading it
    img = plotter.screenshot(return_img=True)
    return np.ascontiguousarray(img[:, :, :3])


def timeline_frames(plotter, view, n: int = TIMELINE_FRAMES) -> list:
    """The time line: moving objects drawn at ``t = 0, 1/(n-1), ..., 1``, each frame titled
    with its ``t`` (the answers about ``t = 0`` show on the first frame only, as in the
    window)."""
    frames = []
    for i in range(n):
        t = i / (n - 1)
        view.set_time(t)
        plotter.add_text(f"t = {t:.2f}", position="upper_right", font_size=12,
                         color="#222222", name="time")
        frames.append(_shot(plotter))
    view.set_time(0.0)
    return frames


def drag_frames(plotter, view, scene, obj_id: str, primitives: Iterable) -> list:
    """A drag replayed: ``obj_id`` takes each primitive of ``primitives`` in turn, the answers
    are evaluated and drawn again, and each step is one frame (a drag recorded in the window
    or the circle of :func:`circle_drag`)."""
    from explorer.render.overlays import frame_for_view

    frames = []
    for prim in primitives:
        scene.update(obj_id, primitive=prim)
        view.apply_frame(frame_for_view(scene, scene.answers(), view))
        frames.append(_shot(plotter))
    return frames


def draggable(scene) -> Optional[str]:
    """The object the command line drags: the first solid or segment (as ``bench drag``)."""
    for obj in scene.objects:
        if obj.kind in ("sphere", "aabb", "obb", "cylinder", "capsule", "segment", "triangle",
                        "point"):
            return obj.id
    return scene.objects[0].id if scene.objects else None


def circle_drag(prim, radius: float, n: int = DRAG_FRAMES) -> list:
    """``prim`` moved around a horizontal circle of ``radius`` back to where it started."""
    out = []
    for i in range(n + 1):
        a = 2 * math.pi * i / n
        out.append(prim.translated((radius * (math.cos(a) - 1), radius * math.sin(a), 0.0)))
    return out


def moves(scene) -> bool:
    return any(o.motion is not None for o in scene.objects)


# ----------------------------------------------------------------------------- entry


def export(scene, path, size=(1024, 768), camera=None, animation: Optional[str] = None,
           drag: Optional[tuple] = None, html_panel: bool = True) -> Path:
    """Write ``scene`` with its answers to ``path`` in the format of its extension.

    ``camera``: a PyVista camera position (default: the iso view of the whole scene).
    ``animation`` (GIF, MP4): ``"timeline"`` or ``"drag"`` (default: the time line when an
    object moves, else a drag); ``drag``: ``(object id, [primitive, ...])`` of a recorded drag
    (the window's), else the first object goes around a circle. ``html_panel=False``: the
    HTML page without its table of answers (the notebook view shows the table under it).
    Returns the path written; raises :class:`ExportError` for a bad target."""
    out = check_target(path, size)
    ext = out.suffix.lower()
    if ext == ".md":
        from explorer.present.explain_md import scene_markdown

        out.write_text(scene_markdown(scene), encoding="utf-8")
        return out
    if ext in (".gif", ".mp4"):
        size = _even(size)
        scene = scene.copy()  # a drag edits it
        kind = animation or ("drag" if drag is not None else
                             "timeline" if moves(scene) else "drag")
        if kind not in ("timeline", "drag"):
            raise ExportError(f"--animate: 'timeline' or 'drag', got {kind!r}")
        if kind == "timeline" and not moves(scene):
            raise ExportError("--animate timeline: no object of the scene has a motion")
        if kind == "drag" and not scene.objects:
            raise ExportError("--animate drag: the scene has no object")
        with offscreen_view(scene, size, camera=camera) as (plotter, view, _results):
            if kind == "timeline":
                frames = timeline_frames(plotter, view)
            else:
                if drag is None:
                    obj_id = draggable(scene)
                    drag = (obj_id, circle_drag(scene[obj_id].primitive, view.ext.size * 0.15))
                frames = drag_frames(plotter, view, scene, drag[0], drag[1])
        write_frames(frames, out)
        return out
    three_d = ext in (".gltf", ".glb", ".obj", ".vtm", ".vtksz", ".html")
    with offscreen_view(scene, size, camera=camera, decorations=not three_d) as (
            plotter, _view, results):
        if ext == ".html":
            _write_html(plotter, out, scene, results, panel=html_panel)
        elif ext in (".svg", ".pdf"):
            _write_vector(plotter, out)
        else:
            {".png": _write_png, ".gltf": _write_gltf, ".glb": _write_glb, ".obj": _write_obj,
             ".vtm": _write_vtm, ".vtksz": _write_vtksz}[ext](plotter, out)
    return out
