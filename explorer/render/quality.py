"""The render settings of the window's 3-D view, shared with ``explorer bench drag`` so the
bench measures what a user sees (issue 12).

Multisampling doubles the cost of a frame on software OpenGL (Mesa llvmpipe: 45-50 ms instead
of 23.5 ms for the 10-object drag scene); FXAA, one screen-space pass over the finished frame,
smooths edges for much less but softens the answer labels' text. So by default
(``ANTI_ALIASING = "adaptive"``) the view renders **while anything moves** (a drag, the
camera, an edit) with FXAA and no multisampling, and once the view has been still for
:data:`IDLE_MS` it renders the same frame **once more with multisampling** (FXAA off): crisp
labels and smooth edges at rest, the cheap frame while dragging
(:class:`explorer.qt.viewport.Viewport` switches the render window between the two).
(pyvista's ``enable_anti_aliasing("fxaa")`` switches to the far costlier SSAA when VTK is built
with EGL, which it is here, although the window itself is an X window where FXAA works: the
renderer's own ``SetUseFXAA`` is called.)

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


def moving() -> tuple[int, bool]:
    """``(multisamples, fxaa)`` of the frames rendered while something moves."""
    if ANTI_ALIASING == "msaa":
        return MSAA_SAMPLES, False
    return 0, ANTI_ALIASING in ("adaptive", "fxaa")


def idle() -> tuple[int, bool]:
    """``(multisamples, fxaa)`` of the frame rendered once the view is still."""
    if ANTI_ALIASING == "adaptive":
        return MSAA_SAMPLES, False
    return moving()


def first() -> tuple[int, bool]:
    """``(multisamples, fxaa)`` of the view's very first frame: with ``"adaptive"`` neither
    (the frame at rest, multisampled, follows :data:`IDLE_MS` later anyway, so the start-up
    does not build the FXAA pass for a frame shown a fifth of a second), else :func:`moving`."""
    if ANTI_ALIASING == "adaptive":
        return 0, False
    return moving()


def adaptive() -> bool:
    """Whether the view renders again at rest with other settings than while moving."""
    return idle() != moving()


def multi_samples() -> int:
    """Samples per pixel of the render window to create (those of a moving frame)."""
    return moving()[0]


def apply(renderer, settings: tuple[int, bool] | None = None) -> None:
    """Set ``settings`` (default: :func:`moving`) on the VTK ``renderer`` and its render
    window: multisamples on the window (VTK rebuilds its framebuffers at the next frame; the
    driver may give fewer samples than asked), FXAA on the renderer."""
    samples, fxaa = moving() if settings is None else settings
    window = renderer.GetRenderWindow()
    if window is not None:
        window.SetMultiSamples(samples)
    renderer.SetUseFXAA(fxaa)
    renderer.Modified()


def current(renderer) -> tuple[int, bool]:
    """``(multisamples, fxaa)`` the renderer renders with now (the samples the driver gave)."""
    window = renderer.GetRenderWindow()
    return (0 if window is None else window.GetMultiSamples()), bool(renderer.GetUseFXAA())
