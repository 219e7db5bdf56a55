"""The scene-file fuzzer, short and derandomised (issue 15, part 4). The long version runs on
demand and reports counts: ``python -m tests.explorer.model.fuzz_scenefile --examples 5000``.

See :mod:`tests.explorer.model.fuzz_scenefile` for what each file must do.
"""

import json

from hypothesis import HealthCheck, given, settings
from tests.fuzz import examples

from tests.explorer.model.fuzz_scenefile import (
    check_file,
    mutated_text,
    scene_files,
    valid_document,
)

SHORT = settings(max_examples=examples(150), derandomize=True, database=None, deadline=None,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@SHORT
@given(scene_files())
def test_every_file_is_evaluated_or_refused_in_one_line(tmp_path_factory, data):
    # valid files with extreme numbers may still carry an `error` key in a result (an
    # exception inside a query: issue 15 part 2, branch "robust"); the rest of the contract
    # (exit 0 with strict JSON and all keys, or exit 2 with one line) holds for every file
    assert check_file(data, str(tmp_path_factory.getbasetemp())) in (
        "evaluated", "refused", "pair errors")


@SHORT
@given(valid_document(allow_extreme=False))
def test_valid_files_of_ordinary_numbers_are_evaluated_without_errors(tmp_path_factory, doc):
    data = json.dumps(doc).encode()
    assert check_file(data, str(tmp_path_factory.getbasetemp()), pair_errors=False) == \
        "evaluated"


@SHORT
@given(mutated_text())
def test_mutated_files_never_crash_the_loader_or_eval(tmp_path_factory, data):
    assert check_file(data, str(tmp_path_factory.getbasetemp())) in (
        "evaluated", "refused", "pair errors")
