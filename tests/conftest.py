import os

# Offscreen PyVista renders through EGL here; silence the X warning it would print otherwise.
os.environ.setdefault("VTK_DEFAULT_OPENGL_WINDOW", "vtkEGLRenderWindow")
