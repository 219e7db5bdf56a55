"""What pyproject.toml cannot say: the shipped scenes stay in the checkout's top-level
``scenes/`` folder and install as the package ``explorer_scenes`` (package data found through
``importlib.resources`` by :mod:`explorer.resources`), in a wheel and in an editable install
alike. Everything else about the build is in pyproject.toml."""

from setuptools import find_packages, setup

setup(
    packages=find_packages(include=["algorithms", "algorithms.*", "explorer", "explorer.*"])
    + ["explorer_scenes"],
    package_dir={"explorer_scenes": "scenes"},
)
