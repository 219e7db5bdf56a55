"""``explorer render``: a scene and its answers drawn offscreen to a PNG (no Qt, no display:
EGL/OSMesa), exactly as the window draws them (the same :mod:`explorer.render.overlays`)."""

from __future__ import annotations

import os

import pyvista as pv

from explorer.model.scene import Scene
from explorer.render.overlays import frame_for_view
from explorer.render.view import SceneView, frame_bounds


def render_to_png(scene: Scene, path, size=(1024, 768), with_results: bool = True) -> None:
    """Render ``scene`` (with its answers unless ``with_results`` is false) to the PNG ``path``."""
    os.environ.setdefault("VTK_DEFAULT_OPENGL_WINDOW", "vtkEGLRenderWindow")
    plotter = pv.Plotter(off_screen=True, window_size=list(size))
    view = SceneView(plotter)
    try:
        view.set_scene(scene)
        if with_results:
            view.apply_frame(frame_for_view(scene, scene.answers(), view))
        plotter.add_axes()
        plotter.add_text(scene.name, font_size=12, color="#222222")
        plotter.camera_position = "iso"
        plotter.reset_camera(bounds=frame_bounds(view))
        plotter.screenshot(str(path))
    finally:
        view.close()
        plotter.close()
