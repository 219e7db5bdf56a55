"""The step-through of a two-object scene, for the tests of explorer.present.steps."""

from __future__ import annotations

from explorer.model.scene import Scene
from explorer.present.steps import walkthrough


def walk(a, b):
    """``(walkthrough, answer)`` of the pair ``A = a``, ``B = b`` in a scene of its own."""
    scene = Scene()
    scene.add(a, id="A")
    scene.add(b, id="B")
    ans = scene.answer("A", "B")
    return walkthrough(ans, a, b), ans
