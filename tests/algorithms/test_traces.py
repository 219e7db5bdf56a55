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


# ---------------------------------------------------------------------- the explain text
#: keys the explain text reads that must be there whenever its template shows (the rest drop
#: their step when absent: Hultquist's f on a miss, Woo's chosen plane when nothing is chosen)
EXPLAIN_ALWAYS = {
    "StPlaneTrace": {"a", "b", "c", "d", "e", "det", "region", "edge", "s", "t", "sqr_distance",
                     "candidates"},
    "StPlaneCandidate": {"edge", "s", "t", "sqr_distance"},
    "SatAxis": {"name", "r_A", "r_B", "distance", "margin"},
    "ArvoAxis": {"axis", "c", "where", "min", "max", "q", "term"},
    "GjkStep": {"w", "gap"},
    "GjkTrace": {"iterations", "termination", "steps"},
    "MovingAabbsTrace": {"axes", "t_enter", "t_leave"},
    "MovingAabbsAxis": {"axis", "d", "t_enter", "t_leave"},
    "HultquistTrace": {"e", "e^2", "r^2", "a", "b^2", "f^2"},
    "WooTrace": {"candidate planes"},
}


def _schemas():
    import algorithms.traces as traces

    return {name: obj for name, obj in vars(traces).items()
            if isinstance(obj, type) and typing.is_typeddict(obj)}


def test_every_key_the_explain_text_reads_is_declared_and_present_on_the_shipped_scenes():
    from explorer.present.explain import TEMPLATES, matching, recording, subject

    schemas = _schemas()
    shown: dict = {}
    with recording() as reads:
        probes = len(reads)
        for path in sorted(SCENES_DIR.glob("*.json")):
            scene = load(path)
            for ans in scene.answers():
                where = f"{path.stem}: {ans.a}-{ans.b}"
                x = subject(ans, scene[ans.a].primitive, scene[ans.b].primitive)
                for template in matching(x):
                    start = len(reads)
                    sentences = template.sentences(x)
                    shown.setdefault(template.title, []).append(len(sentences))
                    for schema, key, present in reads[start:]:
                        if key in EXPLAIN_ALWAYS.get(schema, ()):
                            assert present, (where, template.title, schema, key)
        assert len(reads) > probes
    seen = {}
    for schema, key, present in reads:
        assert schema in schemas, schema  # every accessor is bound to a declared schema
        assert key in typing.get_type_hints(schemas[schema]), (schema, key)  # declared
        seen[(schema, key)] = seen.get((schema, key), False) or present
    # no key is read that no shipped scene has (a misspelt key would never be present)
    assert all(seen.values()), sorted(k for k, ok in seen.items() if not ok)
    # every template is shown on some shipped pair, with sentences (Boreskov's sphere classify
    # has one step, every other template at least two)
    assert set(shown) == {t.title for t in TEMPLATES.values()}, \
        {t.title for t in TEMPLATES.values()} - set(shown)
    short = {title for title, n in shown.items() if max(n) < 2}
    assert short == {"Sphere against a plane: Boreskov's classify"}, short
    for schema, keys in EXPLAIN_ALWAYS.items():  # the always-there keys are read somewhere
        assert {(schema, k) for k in keys} <= set(seen), (schema, keys)
