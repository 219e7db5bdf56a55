"""The shipped example scenes (scene-v1 JSON files), installed as the package
``explorer_scenes`` (``setup.py``). Code finds them through :mod:`explorer.resources`
(``importlib.resources``), never by a path relative to itself."""
