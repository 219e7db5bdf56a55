"""The render settings of the window's 3-D view, shared with ``explorer bench drag`` so the
bench measures what a user sees (issue 12).

Multisampling (pyvista's default, 8 samples) doubles the cost of a frame on software OpenGL
(Mesa llvmpipe: 45-50 ms instead of 23.5 ms for the 10-object drag scene). FXAA is one
screen-space pass over the finished frame: edges stay smooth at a fraction of the cost. So the
view renders with ``MULTI_SAMPLES = 0`` and FXAA on. (pyvista's ``enable_anti_aliasing("fxaa")``
switches to the far costlier SSAA when VTK is built with EGL, which it is here, although the
window itself is an X window where FXAA works: the renderer's own ``SetUseFXAA`` is called.)

``ANTI_ALIASING`` may be ``"fxaa"`` (default), ``"msaa"`` (8 samples, the old look) or
``"none"``; ``explorer bench drag --anti-aliasing`` sets it to compare them.
"""

from __future__ import annotations

ANTI_ALIASING = "fxaa"
MSAA_SAMPLES = 8


def multi_samples() -> int:
    """Samples per pixel of the render window to create."""
    return MSAA_SAMPLES if ANTI_ALIASING == "msaa" else 0


def apply(renderer) -> None:
    """Switch FXAA on the (VTK) ``renderer`` as :data:`ANTI_ALIASING` says."""
    renderer.SetUseFXAA(ANTI_ALIASING == "fxaa")
    renderer.Modified()
