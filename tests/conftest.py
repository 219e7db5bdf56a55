import os

from hypothesis import settings

# Offscreen PyVista renders through EGL here; silence the X warning it would print otherwise.
os.environ.setdefault("VTK_DEFAULT_OPENGL_WINDOW", "vtkEGLRenderWindow")

# CI (CI=true) runs every property test with a fixed seed so that a green or red run repeats;
# local runs keep hypothesis's random exploration (and its example database) to find new cases.
settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")
