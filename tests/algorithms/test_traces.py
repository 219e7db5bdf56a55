"""Every trace key a view reads is declared in its family's schema (algorithms/traces.py) and
present where the view reads it, on every shipped scene (issue 10 part 2)."""

from __future__ import annotations

import typing

from algorithms.traces import (FAMILIES, MovingAabbsAxis, MovingAabbsTrace, SatAxis, SatTrace,
                               StPlaneTrace)
from explorer import SCENES_DIR
from explorer.model.scenefile import load

#: schema -> the keys the views read (the SAT inspector, the time line, the st-plane panel,
#: the results summary; the overlays read only PairAnswer fields and Hit records)
VIEW_READS = {
    SatTrace: {"axes", "found_by", "chosen"},
    SatAxis: {"name", "axis", "separating", "r_A", "r_B", "distance", "margin"},
    MovingAabbsTrace: {"axes"},
    MovingAabbsAxis: {"axis", "t_enter", "t_leave", "overlap", "zero_velocity"},
    StPlaneTrace: {"region", "swapped"},
}
#: keys a view reads with a fallback: absent on purpose in some records
OPTIONAL = {"found_by", "chosen", "overlap", "zero_velocity", "swapped"}
LINEAR = {"segment", "ray", "line"}


def answers():
    for path in sorted(SCENES_DIR.glob("*.json")):
        scene = load(path)
        for ans in scene.answers():
            yield path.stem, ans


def test_every_key_a_view_reads_is_declared():
    for schema, keys in VIEW_READS.items():
        declared = set(typing.get_type_hints(schema))
        assert keys <= declared, (schema.__name__, keys - declared)


def test_the_families_required_keys_are_declared():
    for family, (schema, required) in FAMILIES.items():
        assert set(required) <= set(typing.get_type_hints(schema)), family


def _check(record: dict, schema, family: str, where: str, seen: set) -> None:
    required = FAMILIES[family][1]
    missing = [k for k in required if k not in record]
    assert not missing, (where, family, missing)
    for key in VIEW_READS.get(schema, ()):
        if key not in OPTIONAL:
            assert key in record, (where, family, key)
        if key in record:
            seen.add((schema.__name__, key))


def test_the_records_views_read_have_their_keys_on_every_shipped_scene():
    seen: set = set()
    n = {"st": 0, "sat": 0, "a17": 0}
    for stem, ans in answers():
        where = f"{stem}: {ans.a}-{ans.b}"
        ka, kb = ans.kinds
        if ka in LINEAR and kb in LINEAR:
            assert ans.records.distance is not None, where
            _check(ans.records.distance.trace, StPlaneTrace, "st_plane", where, seen)
            n["st"] += 1
        sep = ans.records.separation
        if sep is not None and sep.trace.get("axes"):
            _check(sep.trace, SatTrace, "separating_axis", where, seen)
            for row in sep.trace["axes"]:
                _check(row, SatAxis, "sat_axis", where, seen)
            n["sat"] += 1
        contact = ans.records.contact
        if contact is not None and "A.17" in (contact.method or ""):
            _check(contact.trace, MovingAabbsTrace, "moving_aabbs", where, seen)
            for row in contact.trace["axes"]:
                _check(row, MovingAabbsAxis, "moving_aabbs_axis", where, seen)
            n["a17"] += 1
        for hit in (ans.records.hits.hits if ans.records.hits is not None else ()):
            assert hit.point is not None and hit.kind, where  # what the overlays draw
    # the shipped scenes exercise every family the views read, and every key at least once
    assert n["st"] >= 9 and n["sat"] >= 3 and n["a17"] >= 1, n
    wanted = {(s.__name__, k) for s, keys in VIEW_READS.items() for k in keys}
    assert wanted - seen <= {("StPlaneTrace", "swapped"), ("MovingAabbsAxis", "overlap")}, \
        wanted - seen
