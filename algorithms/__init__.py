"""Intersection Explorer's geometry: pure numpy and the standard library, nothing else.

Primitives (:mod:`algorithms.primitives`), result records (:mod:`algorithms.results`), the
pair-dispatch registry (:mod:`algorithms.registry`) and one module per pair family under
:mod:`algorithms.queries` (generic methods for any pair under :mod:`algorithms.generic`, the
reusable pieces under :mod:`algorithms.kernels`). :func:`evaluate_pair` composes them into one
typed :class:`PairAnswer` per pair; :mod:`algorithms.report` writes the ``explorer eval`` answer
of ``scene-v1.md`` from it.

This package never imports Qt, PyVista, VTK or ``explorer`` (a test checks ``sys.modules``).
"""

from algorithms.answer import PairAnswer, Records
from algorithms.evaluate import evaluate_pair
from algorithms.primitives import (AABB, OBB, TYPES, Capsule, Cylinder, GeometryError, Line, Plane,
                                   Point, Primitive, Ray, Segment, Sphere, Triangle, from_fields)
from algorithms.registry import QueryNotAvailable, methods, query, register
from algorithms.results import (ContactResult, DistanceResult, Hit, HitResult, IntersectionResult,
                                SeparationResult, SideResult)

__all__ = [
    "AABB", "OBB", "TYPES", "Capsule", "Cylinder", "GeometryError", "Line", "Plane", "Point",
    "Primitive", "Ray", "Segment", "Sphere", "Triangle", "from_fields", "QueryNotAvailable",
    "methods", "query", "register", "ContactResult", "DistanceResult", "Hit", "HitResult",
    "IntersectionResult", "SeparationResult", "SideResult", "evaluate_pair", "PairAnswer",
    "Records",
]
