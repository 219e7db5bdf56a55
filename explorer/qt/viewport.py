"""The 3-D viewport: a pyvistaqt ``QtInteractor`` showing a :class:`~explorer.render.view.SceneView`,
plus the drag grips of the selected object and click-to-select.

Hooks other panels rely on (keep them stable): :meth:`Viewport.add_overlay`,
:meth:`Viewport.remove_overlay` (prefix match), :meth:`Viewport.set_time`,
:meth:`Viewport.render` and :attr:`Viewport.plotter` (the ``QtInteractor``).
"""

from __future__ import annotations

import time
from contextlib import contextmanager
from typing import Callable, Optional

import numpy as np
from PyQt6.QtCore import QTimer, pyqtSignal
from PyQt6.QtWidgets import QVBoxLayout, QWidget
from pyvistaqt import QtInteractor
from pyvistaqt.rwi import GL_COLOR_BUFFER_BIT, GL_DRAW_FRAMEBUFFER, GL_LINEAR, GL_SCISSOR_TEST
from vtkmodules.vtkCommonCore import vtkCommand, vtkObject
from vtkmodules.vtkInteractionWidgets import vtkSphereWidget
from vtkmodules.vtkRenderingCore import vtkPropPicker

from explorer.model import drag
from explorer.model.scene import Scene
from explorer.present import labels as labels_layout
from explorer.render import quality
from explorer.render.view import SceneView, frame_bounds

#: grip colours by role
GRIP_COLORS = {"center": (0.15, 0.15, 0.15), "radius": (0.85, 0.1, 0.45),
               "direction": (0.9, 0.45, 0.0), "normal": (0.9, 0.45, 0.0)}
GRIP_DEFAULT = (1.0, 0.85, 0.1)


class FreshInteractor(QtInteractor):
    """A ``QtInteractor`` whose paint renders only when the frame is stale (issue 12).

    pyvistaqt's ``paintGL`` always renders (its invariant 3: pyvista changes the scene without
    asking the widget to repaint), and every VTK render (``plotter.render()``, a grip widget's
    or the camera's ``iren.Render()``) asks for that paint: each frame of a drag or a turn of
    the camera rendered twice on software OpenGL. Here the paint only blits the finished frame
    when **no VTK object at all has been modified since that frame was rendered**: VTK's
    modification times come from one global counter, so one probe object read after each
    frame and again at the paint tells it exactly (a camera, an actor, a mesh, a property or
    the window's size changed in between: the paint renders, as before).

    **Image reduction** (:func:`explorer.render.quality.reduction`, ParaView's "image
    reduction factor"): with :attr:`reduction` ``f > 1`` a render draws into the lower-left
    ``1/f`` x ``1/f`` of the window only: at the render window's start every renderer's
    viewport (the scene's, the axes widget's) is scaled by ``1/f`` towards the origin, so each
    keeps its aspect, and the window's DPI, the actors' line widths and point sizes and the axes
    letters' minimum size too (text, lines, point spheres and the axes' X, Y, Z keep their size
    on screen); at its end the viewports and the DPI
    are put back (picking, the grips' drag and every pixel query between frames see the
    full window; the widths stay divided until a full-size frame, :meth:`restore_widths`),
    and the paint blits that rectangle onto the whole widget with linear
    interpolation (:meth:`_blit`). :attr:`frame_reduction` is the factor of the frame now in
    VTK's display framebuffer; :attr:`reduced_viewport` the main renderer's pixel size of
    that frame.

    :attr:`renders` counts the frames rendered; :attr:`paints_blitted` the paints that only
    showed the frame already rendered."""

    def __init__(self, *args, **kwargs):
        self._probe = vtkObject()
        self._fresh_at: Optional[int] = None
        self.renders = 0
        self.paints_blitted = 0
        self.last_paint_ms = 0.0
        #: the image reduction factor of the next renders (1: full resolution)
        self.reduction = 1
        self.frame_reduction = 1
        self.reduced_viewport: Optional[tuple] = None
        #: called at the start of a reduced render, before the viewports shrink (the labels
        #: are placed in the full window's pixels)
        self.before_reduce: Optional[Callable] = None
        self._saved: Optional[tuple] = None
        #: id(property) -> (property, its line width, point size, the divided ones, factor)
        #: of the actors a reduced render thinned (see restore_widths)
        self._thin: dict = {}
        super().__init__(*args, **kwargs)
        # first of the observers of a render's start, last of those of its end (before the
        # freshness probe, which must read the clock after the viewports are put back)
        self.render_window.AddObserver(vtkCommand.StartEvent, self._reduce, 100.0)
        self.render_window.AddObserver(vtkCommand.EndEvent, self._unreduce, -50.0)
        self.render_window.AddObserver(vtkCommand.EndEvent, self._frame_done, -100.0)

    @contextmanager
    def full_resolution(self):
        """Renders inside render at full resolution (a pick's selection render, a
        screenshot: both read the window's pixels where the full-size viewports put them)."""
        reduction, self.reduction = self.reduction, 1
        self.restore_widths()
        try:
            yield
        finally:
            self.reduction = reduction

    @property
    def reducing(self) -> bool:
        """Whether a reduced render is under way (the viewports are shrunk now)."""
        return self._saved is not None

    def _reduce(self, *_args) -> None:
        f = self.reduction
        rw = self.render_window
        if f <= 1 or rw is None or self._saved is not None:
            self.frame_reduction = 1
            if self._saved is None:
                self.restore_widths()  # a full-size frame: every line and point as set
            return
        if self.before_reduce is not None:
            try:
                self.before_reduce()
            except Exception:  # noqa: BLE001 - never break a render
                pass
        renderers = rw.GetRenderers()
        saved, seen, captions = [], set(), []
        thin = self._thin
        for i in range(renderers.GetNumberOfItems()):
            ren = renderers.GetItemAsObject(i)
            vp = ren.GetViewport()
            saved.append((ren, vp))
            ren.SetViewport(vp[0] / f, vp[1] / f, vp[2] / f, vp[3] / f)
            captions += _shrink_captions(ren, f)
            actors = ren.GetActors()
            for j in range(actors.GetNumberOfItems()):
                prop = actors.GetItemAsObject(j).GetProperty()
                if prop is None or id(prop) in seen:
                    continue
                seen.add(id(prop))
                width, size = prop.GetLineWidth(), prop.GetPointSize()
                entry = thin.get(id(prop))
                if entry is not None:
                    if entry[3:] == (width, size, f):
                        continue  # thinned for an earlier frame of this motion: left as is
                    # set anew meanwhile (an overlay's new look): that one is the full size
                    width = entry[1] if width == entry[3] else width
                    size = entry[2] if size == entry[4] else size
                # pixels: the same size on screen
                prop.SetLineWidth(width / f)
                prop.SetPointSize(size / f)
                thin[id(prop)] = (prop, width, size, prop.GetLineWidth(), prop.GetPointSize(), f)
        for key in [k for k in thin if k not in seen]:  # no longer drawn: as it was set
            self._restore_width(thin.pop(key))
        self._saved = (saved, rw.GetDPI(), f, captions)
        rw.SetDPI(max(1, round(rw.GetDPI() / f)))

    @staticmethod
    def _restore_width(entry) -> None:
        prop, width, size, thin_width, thin_size, _f = entry
        if prop.GetLineWidth() == thin_width:  # (else set anew meanwhile: that stays)
            prop.SetLineWidth(width)
        if prop.GetPointSize() == thin_size:
            prop.SetPointSize(size)

    def restore_widths(self) -> None:
        """Put back the line widths and point sizes a reduced render divided (they stay
        divided from one reduced frame to the next: writing them twice a frame modified every
        actor's property, and a modified property makes VTK rebuild that actor's shaders at
        the next frame, issue 12); a full-size frame, the end of the motion and
        :meth:`full_resolution` call it."""
        thin, self._thin = self._thin, {}
        for entry in thin.values():
            self._restore_width(entry)

    def _unreduce(self, *_args) -> None:
        if self._saved is None:
            return
        saved, dpi, f, captions = self._saved
        self._saved = None
        self.reduced_viewport = tuple(self.renderer.GetSize())
        for ren, vp in saved:
            ren.SetViewport(*vp)
        for text, size in captions:
            text.SetMinimumSize(*size)
        self.render_window.SetDPI(dpi)
        self.frame_reduction = f

    def _now(self) -> int:
        self._probe.Modified()
        return self._probe.GetMTime()

    def _frame_done(self, *_args) -> None:
        self.renders += 1
        if self._saved is None and self.reduction <= 1:
            self.frame_reduction = 1
        self._fresh_at = self._now()

    def frame_is_fresh(self) -> bool:
        """Whether the last rendered frame shows the scene as it is now (nothing in VTK was
        modified since); reading it counts as a modification (call it once per paint)."""
        last = self._fresh_at
        now = self._now()
        if last is not None and now == last + 1:
            self._fresh_at = now  # still fresh for the next paint (an expose) too
            return True
        self._fresh_at = None
        return False

    def _blit(self, target_id, rect):
        """pyvistaqt's blit of VTK's display framebuffer into the widget's, from the reduced
        rectangle of a reduced frame (scaled up with linear interpolation), else as is."""
        rw = self.render_window
        f = self._gl
        if self.frame_reduction <= 1 or self.reduced_viewport is None or rw is None or f is None:
            return super()._blit(target_id, rect)
        f.glBindFramebuffer(GL_DRAW_FRAMEBUFFER, target_id)
        f.draw_buffer_attachment0()
        scissor = bool(f.glIsEnabled(GL_SCISSOR_TEST))
        if scissor:
            rw.GetState().vtkglDisable(GL_SCISSOR_TEST)
            f.glDisable(GL_SCISSOR_TEST)
        # one pixel less at the top and the right: the linear filter of the last row and
        # column reads half a pixel beyond the rectangle, where nothing was rendered (a dark
        # seam); the lower-left corner is the buffer's own, where the filter clamps
        sw, sh = (max(1, n - 1) for n in self.reduced_viewport)
        rw.BlitDisplayFramebuffer(0, 0, 0, sw, sh, rect.x(), rect.y(), rect.width(),
                                  rect.height(), GL_COLOR_BUFFER_BIT, GL_LINEAR)
        f.glColorMask(False, False, False, True)  # alpha 1, as pyvistaqt's blit
        f.glClearColor(0.0, 0.0, 0.0, 1.0)
        f.glViewport(rect.x(), rect.y(), rect.width(), rect.height())
        f.glClear(GL_COLOR_BUFFER_BIT)
        f.glColorMask(True, True, True, True)
        if scissor:
            rw.GetState().vtkglEnable(GL_SCISSOR_TEST)
            f.glEnable(GL_SCISSOR_TEST)

    def paintGL(self):  # noqa: N802 - Qt's name
        t0 = time.perf_counter()
        try:
            if self.render_window is None or not self.frame_is_fresh():
                return super().paintGL()
            self.paints_blitted += 1
            self._in_paint = True  # pyvistaqt's paint then skips its render and only blits
            try:
                return super().paintGL()
            finally:
                self._in_paint = False
        finally:
            #: milliseconds of the last paint (its blit; with a render when it was stale),
            #: without Qt's composition of the window that follows (explorer bench drag)
            self.last_paint_ms = (time.perf_counter() - t0) * 1e3


def _shrink_captions(renderer, f: int) -> list:
    """Divide by ``f`` the minimum size of the letters of every axes actor in ``renderer``
    (the axes widget's X, Y, Z); returns ``[(text actor, its minimum size), ...]`` to put back.

    A caption's text scales with its box, which a reduced viewport shrinks with the rest; but
    VTK keeps a scaled text at least ``GetMinimumSize()`` pixels (10 x 10) tall and wide, so at
    half the viewport the letters stopped shrinking and came out twice their size once the
    frame was scaled up (seen in the moving frame's screenshots)."""
    out = []
    props = renderer.GetViewProps()
    for i in range(props.GetNumberOfItems()):
        prop = props.GetItemAsObject(i)
        if prop is None or not prop.IsA("vtkAxesActor"):
            continue
        for caption in (prop.GetXAxisCaptionActor2D(), prop.GetYAxisCaptionActor2D(),
                        prop.GetZAxisCaptionActor2D()):
            text = caption.GetTextActor()
            size = text.GetMinimumSize()
            out.append((text, size))
            text.SetMinimumSize(max(1, round(size[0] / f)), max(1, round(size[1] / f)))
    return out


class Viewport(QWidget):
    """The centre of the window: the PyVista view of the scene and its grips.

    Signals: ``picked(str)`` (an object id clicked in the view, ``""`` for empty space).
    Callbacks: :attr:`on_drag` ``(obj_id, handle, position)`` while a grip moves,
    :attr:`on_drag_start` / :attr:`on_drag_end` ``(obj_id, handle)``.
    """

    picked = pyqtSignal(str)

    def __init__(self, parent=None):
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.plotter = FreshInteractor(self, auto_update=False,
                                    multi_samples=quality.multi_samples())
        #: the (multisamples, FXAA, back lights) the view renders with: quality.moving() from
        #: the press of a mouse button (a grip's drag, the camera) to its release,
        #: quality.idle() from quality.IDLE_MS later (one frame renders then); the first frame
        #: quality.first()
        self.render_settings = quality.first()
        quality.apply(self.plotter.renderer, self.render_settings)  # (render/quality.py)
        self.plotter.reduction = quality.reduction(self.render_settings)
        # labels are placed in the full window's pixels, before a reduced render shrinks
        # the viewports (the renderer's own start then leaves them: _declutter)
        self.plotter.before_reduce = self.declutter
        self._moving = False
        self._idle_timer = QTimer(self)
        self._idle_timer.setSingleShot(True)
        self._idle_timer.setInterval(quality.IDLE_MS)
        self._idle_timer.timeout.connect(self.render_at_rest)
        #: callbacks run once, at the turn of the event loop after the view's first frame
        #: (work the first frame does not show waits for it: the start-up's panels)
        self.after_first_frame: list[Callable] = []
        self.first_frame_done = False
        self._first_frame = self.plotter.render_window.AddObserver(vtkCommand.EndEvent,
                                                                   self._after_first_frame)
        layout.addWidget(self.plotter.interactor)
        self.setMinimumSize(420, 320)  # the docks never squeeze the view away
        self.plotter.add_axes()
        # no frustum culling: asking each of some 40 props for its bounds (a pipeline update
        # each) cost about a millisecond a frame, and a prop outside the view draws nothing
        # anyway (the same picture; issue 12)
        renderers = self.plotter.render_window.GetRenderers()
        for i in range(renderers.GetNumberOfItems()):
            renderers.GetItemAsObject(i).GetCullers().RemoveAllItems()
        self.view = SceneView(self.plotter, merge_overlays=True)  # an actor per look
        self.on_drag: Optional[Callable] = None
        self.on_drag_start: Optional[Callable] = None
        self.on_drag_end: Optional[Callable] = None
        #: called after the grips appeared, moved or went (the grip labels follow them)
        self.grips_changed: Optional[Callable] = None
        self._grips: list[tuple[str, vtkSphereWidget]] = []
        self._grip_at: dict = {}  # where each grip was last put (SetCenter only on a change)
        self._grip_obj: Optional[str] = None
        self._dragging: Optional[str] = None
        self._press = None
        iren = self.plotter.iren
        iren.add_observer("LeftButtonPressEvent", self._on_press)
        iren.add_observer("LeftButtonReleaseEvent", self._on_release)
        for button in ("Left", "Middle", "Right"):  # the camera (or a grip) moves meanwhile
            iren.add_observer(f"{button}ButtonPressEvent", lambda *_a: self.begin_motion())
            iren.add_observer(f"{button}ButtonReleaseEvent", lambda *_a: self.end_motion())
        for way in ("Forward", "Backward"):  # a zoom step: the frame at rest follows it
            iren.add_observer(f"MouseWheel{way}Event",
                              lambda *_a: (self.begin_motion(), self.end_motion()))
        self._picker = vtkPropPicker()
        #: move labels apart and off their anchor points before each render (see declutter)
        self.declutter_labels = True
        self.label_rects: dict = {}  # name -> (x0, y0, x1, y1) display pixels, last placement
        self.plotter.renderer.AddObserver(vtkCommand.StartEvent, self._declutter)
        self.setToolTip("3-D view: left-drag rotates, middle-drag (or Shift+left) pans, "
                        "wheel zooms; click an object to select it, drag its grips to edit it")

    # ------------------------------------------------------------------ hooks for panels
    @property
    def dragging(self) -> Optional[str]:
        """The name of the grip being dragged, ``None`` between drags."""
        return self._dragging

    def add_overlay(self, name: str, mesh, **add_mesh_kwargs):
        """Add or replace (by name) an overlay mesh; returns its actor."""
        return self.view.add_overlay(name, mesh, **add_mesh_kwargs)

    def remove_overlay(self, name: str) -> None:
        """Remove every overlay whose name starts with ``name``."""
        self.view.remove_overlay(name)

    def set_time(self, t: float) -> None:
        """Draw moving objects at ``t * motion`` (0: as in the file)."""
        self.view.set_time(t)
        if self._grip_obj and self.view.scene is not None and self._grip_obj in self.view.scene:
            self.sync_grips()
        self.render()

    def render(self) -> None:
        self.plotter.render()

    def _after_first_frame(self, *_args) -> None:
        self.plotter.render_window.RemoveObserver(self._first_frame)
        self.end_motion()
        self.first_frame_done = True
        for callback in self.after_first_frame:  # at the next turn of the loop, not mid-render
            QTimer.singleShot(0, callback)
        self.after_first_frame = []

    def begin_motion(self) -> None:
        """Something starts moving (a mouse button went down: a grip's drag, the camera):
        frames render with :func:`quality.moving` (no anti-aliasing pass) until
        :meth:`end_motion`."""
        self._moving = True
        self._idle_timer.stop()
        self._use_settings(quality.moving())

    def end_motion(self) -> None:
        """The motion ended: :data:`quality.IDLE_MS` later, unless something moves again, the
        view renders once with :func:`quality.idle` (:meth:`render_at_rest`)."""
        self._moving = False
        self.plotter.restore_widths()  # between frames, every line and point as set
        if quality.adaptive():
            self._idle_timer.start()

    def _use_settings(self, settings: tuple) -> None:
        if settings != self.render_settings:
            quality.apply(self.plotter.renderer, settings)
            self.render_settings = settings
        self.plotter.reduction = quality.reduction(settings)

    def render_at_rest(self, now: bool = False) -> None:
        """Render the frame once more with the settings at rest (multisampling):
        what the view shows once nothing has moved for :data:`quality.IDLE_MS` (``now``: at
        once, as ``explorer bench drag`` times it, instead of at the widget's next paint)."""
        if not quality.adaptive() or self._moving or self.plotter.render_window is None:
            return
        self._use_settings(quality.idle())
        if now:
            self.plotter.render()
        else:  # a repaint: the widget's paint renders the frame (once; plotter.render()
            self.plotter.interactor.update()  # would, and then again in the paint it asks)

    # ------------------------------------------------------------------ scene
    def set_scene(self, scene: Scene) -> None:
        self.clear_grips()
        self.view.set_scene(scene)

    def close_viewport(self) -> None:
        self._idle_timer.stop()
        self.clear_grips()
        self.view.close()
        self.plotter.close()

    # ------------------------------------------------------------------ grips
    def grip_radius(self) -> float:
        return 0.018 * self.view.ext.size

    def show_grips(self, obj_id: Optional[str]) -> None:
        """Put the grips of ``obj_id`` (``None``: no grips) in the view."""
        scene = self.view.scene
        if obj_id is None or scene is None or obj_id not in scene or scene[obj_id].hidden:
            self.clear_grips()
            return
        obj = scene[obj_id]
        items = drag.handles(self.view.prim_of(obj), self.view.ext.size, self.view.ext.center)
        if self._grip_obj == obj_id and [n for n, _ in self._grips] == [n for n, _ in items]:
            self.sync_grips()
            return
        self.clear_grips()
        self._grip_obj = obj_id
        for name, pos in items:
            w = vtkSphereWidget()
            w.SetInteractor(self.plotter.iren.interactor)
            w.SetCurrentRenderer(self.plotter.renderer)
            w.SetRepresentationToSurface()
            w.SetRadius(self.grip_radius())
            w.SetCenter(*pos)
            self._grip_at[name] = pos
            w.SetThetaResolution(16)
            w.SetPhiResolution(12)
            w.ScaleOff()  # right-drag would resize the grip itself: not wanted
            role = "direction" if name in ("direction", "normal") else name
            w.GetSphereProperty().SetColor(*GRIP_COLORS.get(role, GRIP_DEFAULT))
            w.GetSelectedSphereProperty().SetColor(1.0, 0.3, 0.3)
            w.AddObserver(vtkCommand.StartInteractionEvent,
                          lambda *_a, n=name: self._grip_start(n))
            w.AddObserver(vtkCommand.InteractionEvent,
                          lambda wid, _e, n=name: self._grip_moved(n, wid.GetCenter()))
            w.AddObserver(vtkCommand.EndInteractionEvent, lambda *_a, n=name: self._grip_end(n))
            w.On()
            self._grips.append((name, w))
        self._notify_grips()

    def _notify_grips(self) -> None:
        if self.grips_changed is not None:
            try:
                self.grips_changed()
            except Exception:  # noqa: BLE001 - labels must never break a drag
                pass

    def sync_grips(self) -> None:
        """Move the grips to the selected object's current shape (the dragged one stays)."""
        scene = self.view.scene
        if self._grip_obj is None or scene is None or self._grip_obj not in scene:
            return
        items = dict(drag.handles(self.view.prim_of(scene[self._grip_obj]), self.view.ext.size,
                                  self.view.ext.center))
        for name, w in self._grips:
            if name != self._dragging and name in items and self._grip_at.get(name) != items[name]:
                w.SetCenter(*items[name])
                self._grip_at[name] = items[name]
        self._notify_grips()

    def clear_grips(self) -> None:
        for _name, w in self._grips:
            w.Off()
            w.RemoveAllObservers()
            w.SetInteractor(None)
        self._grips = []
        self._grip_at = {}
        self._grip_obj = None
        self._dragging = None
        self._notify_grips()

    def grip_names(self) -> list[str]:
        return [n for n, _ in self._grips]

    def grip_position(self, name: str) -> tuple:
        return dict(self._grips)[name].GetCenter()

    def _grip_start(self, name: str) -> None:
        self._dragging = name
        self.begin_motion()
        if self.on_drag_start:
            self.on_drag_start(self._grip_obj, name)

    def _grip_moved(self, name: str, center) -> None:
        self._grip_at[name] = tuple(center)
        if self.on_drag and self._grip_obj is not None:
            self.on_drag(self._grip_obj, name, tuple(center))

    def _grip_end(self, name: str) -> None:
        self._dragging = None
        obj = self._grip_obj
        if self.on_drag_end:
            self.on_drag_end(obj, name)
        self.sync_grips()
        self.render()
        self.end_motion()

    # ------------------------------------------------------------------ labels
    def _declutter(self, *_args) -> None:
        if self.plotter.reducing:
            return  # placed already, at full size (before_reduce)
        try:
            self.declutter()
        except Exception:  # noqa: BLE001 - a label pass must never break a render
            pass

    def declutter(self, force: bool = False) -> dict:
        """Place the answer labels so that they neither overlap each other nor cover any
        label's anchor point (a hit point, a closest point): each label is tried beside its
        anchor in the four quadrants, then further out, and the first free place wins
        (:func:`explorer.present.labels.place`, near-linear: a grid of cells).

        Runs at the start of a render, and only does what changed: nothing when no label
        (text, anchor, visibility), camera or view size changed; when only some labels
        changed (a drag moves the dragged object's labels), those are placed again around the
        others, which keep their places (they do not jump while you drag); when the camera or
        the size changed (or ``force``), every label is placed afresh. The anchor is the
        label's own 3-D position as the scene view set it; only the drawn position moves.
        Returns ``{name: (x0, y0, x1, y1)}`` in display pixels."""
        labels = self.view.label_actors()
        if not self.declutter_labels or not labels:
            self.label_rects = {}
            self._declutter_key = None
            return self.label_rects
        ren = self.plotter.renderer
        w, h = ren.GetSize()
        if w <= 0 or h <= 0:
            self.label_rects = {}
            return self.label_rects
        view_key = (w, h, ren.GetActiveCamera().GetMTime())
        states = {name: (id(a), self.view.label_state(name), a.GetVisibility())
                  for name, a in labels.items()}
        last = getattr(self, "_declutter_key", None)
        if not force and last is not None and last[0] == view_key and last[1] == states:
            return self.label_rects  # nothing moved: the labels stay where they were put
        incremental = not force and last is not None and last[0] == view_key
        old_rects = self.label_rects if incremental else {}
        rects: dict = {}
        items, fixed, fixed_anchors = [], [], []
        for name, actor in labels.items():
            state = states[name][1]
            if state is None or not actor.GetVisibility():
                continue
            text, anchor = state[0], state[1]
            ren.SetWorldPoint(*anchor, 1.0)
            ren.WorldToDisplay()
            ax, ay, az = ren.GetDisplayPoint()
            if incremental and name in old_rects and last[1].get(name) == states[name]:
                fixed.append(old_rects[name])  # unchanged: keeps its place
                fixed_anchors.append((ax, ay))
                rects[name] = old_rects[name]
                continue
            tp = actor.GetTextProperty()
            size = tp.GetFontSize()
            lines = str(text).split("\n")
            bw = 0.62 * size * max(len(x) for x in lines) + 4  # pixels, a generous estimate
            bh = 1.3 * size * len(lines) + 2
            items.append((name, actor, anchor, ax, ay, az, bw, bh))
        self.label_rects = rects
        marks = self._overlay_marks(w, h) if items else np.zeros((0, 2))
        boxes = labels_layout.place([(ax, ay, bw, bh) for *_x, ax, ay, _z, bw, bh in items],
                                    marks.tolist(), w, h, fixed=fixed,
                                    fixed_anchors=fixed_anchors)
        for (name, actor, anchor, ax, ay, az, bw, bh), best in zip(items, boxes):
            rects[name] = best
            ren.SetDisplayPoint(best[0], best[1], az)
            ren.DisplayToWorld()
            x, y, z, wh = ren.GetWorldPoint()
            if wh:
                actor.GetPositionCoordinate().SetValue(x / wh, y / wh, z / wh)
        self._declutter_key = (view_key, states)
        return rects

    def _overlay_marks(self, w: int, h: int, per_mesh: int = 32) -> "np.ndarray":
        """Display positions of up to ``per_mesh`` points of each small answer overlay (hit
        normals, closest points, interval bars): the places a label should not cover."""
        p = self.view.answer_mark_points(per_mesh)  # cached while no overlay changed
        if not len(p):
            return np.zeros((0, 2))
        ren = self.plotter.renderer
        m = ren.GetActiveCamera().GetCompositeProjectionTransformMatrix(
            ren.GetTiledAspectRatio(), -1, 1)
        mat = np.array([[m.GetElement(i, j) for j in range(4)] for i in range(4)])
        q = np.hstack([p, np.ones((len(p), 1))]) @ mat.T
        q = q[q[:, 3] > 1e-12]
        ndc = q[:, :2] / q[:, 3:4]
        return np.column_stack([(ndc[:, 0] + 1) * 0.5 * w, (ndc[:, 1] + 1) * 0.5 * h])

    # ------------------------------------------------------------------ picking
    def _event_position(self):
        return self.plotter.iren.interactor.GetEventPosition()

    def _on_press(self, *_args) -> None:
        self._press = self._event_position()

    def _on_release(self, *_args) -> None:
        pos = self._event_position()
        if self._press is None or self._dragging is not None:
            return
        moved = abs(pos[0] - self._press[0]) + abs(pos[1] - self._press[1])
        self._press = None
        if moved > 3:  # a rotation, not a click
            return
        self.picked.emit(self.pick_at(*pos) or "")

    def pick_at(self, x: int, y: int) -> Optional[str]:
        """The id of the object drawn at display pixel ``(x, y)``, or ``None``."""
        # (the view draws them merged by look; the picker's selection render reads pixels)
        with self.view.objects_in_renderer(), self.plotter.full_resolution():
            found = self._picker.PickProp(x, y, self.plotter.renderer)
        if found:
            actor = self._picker.GetViewProp()
            for obj_id, a in self.view.actors.items():
                if a is actor:
                    return obj_id
        return None

    # ------------------------------------------------------------------ camera
    def frame(self, obj_id: Optional[str] = None) -> None:
        """Frame ``obj_id`` (or every bounded object, when ``None``) in the view."""
        self.plotter.reset_camera(bounds=frame_bounds(self.view, obj_id))
        self.render()

    def in_view(self, obj_id: str, margin: float = 0.02) -> bool:
        """Whether the whole drawn object ``obj_id`` lies inside the view (its bounding box's
        corners project inside the viewport, ``margin`` of its size away from the edges)."""
        actor = self.view.actors.get(obj_id)
        scene = self.view.scene
        if actor is None or scene is None or obj_id not in scene:
            return True
        obj = scene[obj_id]
        if obj.kind in ("ray", "line", "plane"):  # drawn across the scene: their first grip
            points = [p for _n, p in drag.handles(self.view.prim_of(obj), self.view.ext.size,
                                                  self.view.ext.center)][:1]
        else:
            x0, x1, y0, y1, z0, z1 = actor.GetBounds()
            points = [(x, y, z) for x in (x0, x1) for y in (y0, y1) for z in (z0, z1)]
        ren = self.plotter.renderer
        w, h = ren.GetSize()
        if w <= 0 or h <= 0:
            return True
        mx, my = margin * w, margin * h
        for x, y, z in points:
            ren.SetWorldPoint(float(x), float(y), float(z), 1.0)
            ren.WorldToDisplay()
            dx, dy, dz = ren.GetDisplayPoint()
            if not (mx <= dx <= w - mx and my <= dy <= h - my and 0.0 <= dz <= 1.0):
                return False
        return True

    def screenshot(self, path=None):
        """Save (or return, with ``path=None``) the current view as an image array (always
        at full resolution, also in the middle of a motion)."""
        with self.plotter.full_resolution():
            self.render()
            if path is None:
                return self.plotter.screenshot(return_img=True)
            return self.plotter.screenshot(str(path))
