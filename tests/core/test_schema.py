"""The studio's composed state schema is a valid schema of its dialect (draft 2020-12): checked here once
rather than at every start of a process that opens a store (``StateSchema`` imports jsonschema only when
a state needs it: the compiled checks answer every valid one)."""

from __future__ import annotations

import subprocess
import sys

import jsonschema
import pytest

from broadcast.core.schema import DIALECT, StateInvalid
from broadcast.studio import state_schema


def test_the_studios_schema_is_valid_in_its_dialect() -> None:
    schema = state_schema().schema
    assert schema["$schema"] == DIALECT
    cls = jsonschema.validators.validator_for(schema)
    assert cls is jsonschema.Draft202012Validator
    cls.check_schema(schema)


def test_a_bad_state_is_still_named_by_jsonschema() -> None:
    s = state_schema()
    state = s.default_state()
    state["show"]["episode"] = 12  # a number where the schema says text
    with pytest.raises(StateInvalid) as err:
        s.validate(state, ["show"])
    assert "show/episode" in str(err.value)
    with pytest.raises(StateInvalid):
        s.validate(state)


def test_opening_a_store_does_not_import_jsonschema(tmp_path) -> None:  # noqa: ANN001
    code = (
        "import sys; from broadcast.studio import open_store;"
        f" s = open_store({str(tmp_path / 'a.sqlite')!r});"
        " s.dispatch('show.update', {'episode': '第1期'});"
        " print('jsonschema' in sys.modules)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    assert out.stdout.strip() == "False", out.stderr
