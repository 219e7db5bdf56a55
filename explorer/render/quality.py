"""The render settings of the window's 3-D view, shared with ``explorer bench drag`` so the
bench measures what a user sees (issue 12).

On software OpenGL (Mesa llvmpipe, most of a frame is the rasteriser's fragment work) every
full-screen pass shows in a drag frame: multisampling doubles the frame of the 10-object drag
scene (45-50 ms instead of 23.5 ms), and FXAA, one screen-space pass over the finished frame,
costs a third of it too (measured on ``scenes/gui_ten.json``, 489x699 pixels, CPU time of the
process per frame: 66 ms with FXAA, 42 ms without; its search iterations do not matter, the
pass itself does), besides softening the answer labels' text. So by default
(``ANTI_ALIASING = "adaptive"``) the view renders **while anything moves** (a drag, the
camera, an edit) with neither multisampling nor FXAA, and once the view has been still for
:data:`IDLE_MS` it renders the same frame **once more with multisampling**: crisp labels and
smooth edges at rest, the cheapest frame while dragging (the edges of a moving picture are
stepped, the light kit's two back lights are off, :func:`moving`, and translucent surfaces
are blended without the order-independent translucency pass, :func:`ordered_translucency`;
translucency itself, tubes and spheres stay: measured, they cost nothing worth a change of
look)
(:class:`explorer.qt.viewport.Viewport` switches the render window between the two).
(pyvista's ``enable_anti_aliasing("fxaa")`` switches to the far costlier SSAA when VTK is built
with EGL, which it is here, although the window itself is an X window where FXAA works: the
renderer's own ``SetUseFXAA`` is called.)

While moving, ``"adaptive"`` also renders at :data:`REDUCTION` (half) resolution and scales
the picture up (:func:`reduction`); the frame at rest is full resolution. Measured on
``scenes/gui_ten.json`` (489x699), the render of a drag frame went from about 30 ms to about
22 ms: a fixed cost of about 15 ms a frame remains whatever the pixels (1/8 resolution still
takes 15-19 ms), so the fragment work is less than half of the moving frame. Of that fixed
cost (``perf`` of the main thread while dragging, issue 12): VTK rebuilt every actor's shaders
each frame because the reduction wrote every property's line width twice a frame (now they
stay divided while moving), the frustum culler asked each prop for its bounds (removed), the
translucency pass (off while moving); what remains is the label pass in Python, the 16 text
actors and the draw calls themselves.

``ANTI_ALIASING`` may be ``"adaptive"`` (default), ``"fxaa"`` (always FXAA), ``"msaa"`` (always
multisampling, the old look) or ``"none"``; ``explorer bench drag --anti-aliasing`` sets it to
compare them.
"""

from __future__ import annotations

ANTI_ALIASING = "adaptive"
#: samples asked for (the driver may give fewer: Mesa's llvmpipe gives 4)
MSAA_SAMPLES = 8
#: milliseconds without a render after which the view renders once more at rest quality
IDLE_MS = 200
MODES = ("adaptive", "fxaa", "msaa", "none")
#: the image reduction factor of a moving frame with ``"adaptive"`` (ParaView's "image
#: reduction factor"): it renders into the lower-left ``1/REDUCTION`` x ``1/REDUCTION`` of the
#: window (every renderer's viewport scaled, the window's DPI too so text keeps its size on
#: screen) and that rectangle is blitted, linearly interpolated, onto the whole window; 1 is
#: full resolution. On software OpenGL the fragment work is most of a frame and scales with
#: the pixels (see :func:`reduction`)
REDUCTION = 2


def moving() -> tuple[int, bool, bool]:
    """``(multisamples, fxaa, back_lights)`` of the frames rendered while something moves.

    With ``"adaptive"`` the light kit's two back lights (see :func:`back_lights`) are off
    while moving: on software OpenGL every light is fragment work on every lit pixel, and
    these two light the sides turned away from the camera, so the moving frame hardly
    changes (``scenes/gui_ten.json``: 0.7% of its pixels differ by more than 30 of 765 in
    the sum of R, G and B; the mean difference is 1.6) while it costs a ninth less (render
    CPU time of a drag frame 50 ms with all five lights, 45 ms with three, interleaved)."""
    if ANTI_ALIASING == "msaa":
        return MSAA_SAMPLES, False, True
    return 0, ANTI_ALIASING == "fxaa", ANTI_ALIASING != "adaptive"


def idle() -> tuple[int, bool, bool]:
    """``(multisamples, fxaa, back_lights)`` of the frame rendered once the view is still:
    with ``"adaptive"`` the full look (multisampled, every light)."""
    if ANTI_ALIASING == "adaptive":
        return MSAA_SAMPLES, False, True
    return moving()


def first() -> tuple[int, bool, bool]:
    """``(multisamples, fxaa, back_lights)`` of the view's very first frame: that of a moving
    frame, :func:`moving` (with ``"adaptive"`` the frame at rest, in full, follows
    :data:`IDLE_MS` later anyway)."""
    return moving()


def adaptive() -> bool:
    """Whether the view renders again at rest with other settings than while moving."""
    return idle() != moving()


def multi_samples() -> int:
    """Samples per pixel of the render window to create (those of a moving frame)."""
    return moving()[0]


def back_lights(renderer) -> list:
    """The lights of ``renderer`` behind the scene as the camera sees it: its camera lights
    placed behind the focal point (a light kit's two back lights, at azimuth +-110 degrees;
    its key, fill and head lights are in front)."""
    lights = renderer.GetLights()
    found = []
    for i in range(lights.GetNumberOfItems()):
        light = lights.GetItemAsObject(i)
        if light.LightTypeIsCameraLight() and light.GetPosition()[2] < 0.0:
            found.append(light)
    return found


def reduction(settings: tuple | None = None) -> int:
    """The image reduction factor of the frames rendered with ``settings`` (default
    :func:`moving`): :data:`REDUCTION` for the moving frames of ``"adaptive"``, else 1 (the
    frame at rest, and every frame of the other modes, is full resolution).
    :class:`explorer.qt.viewport.FreshInteractor` renders and blits with it."""
    settings = moving() if settings is None else settings
    if ANTI_ALIASING == "adaptive" and settings == moving() and adaptive():
        return max(1, int(REDUCTION))
    return 1


def ordered_translucency(settings: tuple | None = None) -> bool:
    """Whether the frames rendered with ``settings`` (default :func:`moving`) blend their
    translucent surfaces with VTK's order-independent translucency pass (the renderer's
    ``UseOIT``, VTK's default: two more colour buffers, a full-window composite and its own
    shader variant of every translucent actor). With ``"adaptive"`` the moving frames do
    without (translucent surfaces are blended in drawing order, depth-tested): measured on
    ``scenes/gui_ten.json`` (process CPU time of a reduced drag frame's render, medians of
    interleaved blocks in one run on the loaded machine) 15.8 ms without the pass against
    20.1 ms with it, and in a screenshot of the window while dragging 214 pixels of the 3-D
    view differ by more than 30 of 765 (sum of R, G and B) from the frame with the pass (in
    the translucent spheres); the frame at rest keeps the pass."""
    settings = moving() if settings is None else settings
    return not (ANTI_ALIASING == "adaptive" and settings == moving() and adaptive())


def apply(renderer, settings: tuple | None = None) -> None:
    """Set ``settings`` (default: :func:`moving`) on the VTK ``renderer`` and its render
    window: multisamples on the window (VTK rebuilds its framebuffers at the next frame; the
    driver may give fewer samples than asked), FXAA on the renderer, its back lights on or
    off, its order-independent translucency (:func:`ordered_translucency`)."""
    samples, fxaa, backs = moving() if settings is None else settings
    window = renderer.GetRenderWindow()
    if window is not None:
        window.SetMultiSamples(samples)
    renderer.SetUseFXAA(fxaa)
    renderer.SetUseOIT(ordered_translucency(settings))
    for light in back_lights(renderer):
        light.SetSwitch(backs)
    renderer.Modified()


def current(renderer) -> tuple[int, bool, bool]:
    """``(multisamples, fxaa, back_lights)`` the renderer renders with now (the samples the
    driver gave; whether any back light is on)."""
    window = renderer.GetRenderWindow()
    backs = any(light.GetSwitch() for light in back_lights(renderer))
    return (0 if window is None else window.GetMultiSamples()), bool(renderer.GetUseFXAA()), \
        backs
