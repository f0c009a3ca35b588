"""Fuzzing ``razz_env/train/psro.py``'s input: every setting, the loop's ``psro.json`` and a generation's
``generation.json`` are either accepted or refused with one clean :class:`ConfigError` line, and a refusal
leaves the output folder as it was. No training runs here.

Categories: one-field mutations of valid settings (any value type), bytes and JSON documents written as
``psro.json`` of an existing loop, and as ``gen_0/generation.json``. ``RAZZ_PSRO_FUZZ_SCALE`` multiplies the
example counts for a longer run by hand; ``--hypothesis-show-statistics`` shows how many inputs were accepted
and how many refused.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import tempfile
from dataclasses import fields, replace
from pathlib import Path

import pytest

pytest.importorskip("sb3_contrib")

from hypothesis import HealthCheck, event, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from razz_env.engine.errors import ConfigError  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
SCALE = int(os.environ.get("RAZZ_PSRO_FUZZ_SCALE", "1"))
BASE = {"name": "fuzz", "n_envs": 1, "net_arch": [8], "algo_kwargs": {"n_steps": 32, "batch_size": 32},
        "eval_opponents": ["random"], "opponents": {"baselines": ["random"], "weights": [1]}}


def fuzz(examples: int) -> settings:
    return settings(max_examples=examples * SCALE, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


@pytest.fixture(scope="module")
def psro():
    import sys

    sys.path.insert(0, str(REPO))
    return importlib.import_module("razz_env.train.psro")


@pytest.fixture(scope="module")
def base_file(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("psro_fuzz") / "base.yaml"
    path.write_text(json.dumps(BASE))
    return str(path)


scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**12, 10**12), st.floats(), st.text(max_size=12),
                    st.sampled_from(["configs/train_ppo_razz.yaml", "runs/x", "", " ", "0", "1e9"]))
json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
                           lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
                               st.sampled_from(["learner", "best_response", "row", "path", "sha256", "generation",
                                                "learner_steps", "base_config"]) | st.text(max_size=5),
                               inner, max_size=4), max_leaves=10)


def _state(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


@fuzz(120)
@given(name=st.sampled_from(["generations", "steps_per_generation", "br_steps", "br_weight", "deals", "seed",
                             "max_minutes", "workers", "output", "config"]), value=scalars)
def test_any_setting_is_accepted_or_refused_in_one_line(psro, base_file, name, value):
    args = replace(psro.Args(config=base_file, output=tempfile.mkdtemp() + "/out"), **{name: value})
    try:
        base = psro.check_args(args)
    except ConfigError as err:
        assert str(err) and "\n" not in str(err)
        event("refused")
        return
    assert base.num_seats == 2
    event("accepted")


@fuzz(60)
@given(content=st.binary(max_size=64) | json_values.map(lambda v: json.dumps(v).encode()))
def test_any_psro_json_is_refused_unless_it_is_the_loops_own(psro, base_file, content):
    args = psro.Args(config=base_file, output=tempfile.mkdtemp() + "/out", progress=False)
    out = Path(args.output)
    (out / "gen_0").mkdir(parents=True)
    (out / "psro.json").write_bytes(content)
    before = _state(out)
    try:
        psro.prepare_output(args, psro.record_of(args, psro.check_args(args)))
    except ConfigError as err:
        assert "\n" not in str(err) and ("holds another PSRO run" in str(err) or "unreadable" in str(err))
        event("refused")
    else:
        pytest.fail(f"a foreign psro.json was taken for this loop's: {content!r}")
    assert _state(out) == before


@fuzz(60)
@given(content=st.binary(max_size=64) | json_values.map(lambda v: json.dumps(v).encode()))
def test_any_generation_json_is_read_or_refused_in_one_line(psro, content):
    out = Path(tempfile.mkdtemp())
    (out / "gen_0").mkdir()
    (out / "gen_0" / "generation.json").write_bytes(content)
    try:
        entries = psro.finished_generations(out)
    except ConfigError as err:
        assert "\n" not in str(err) and "pass --fresh to start over" in str(err)
        event("refused")
        return
    assert len(entries) == 1 and entries[0]["row"]["generation"] == 0
    event("accepted")


def test_the_loops_own_record_is_continued(psro, base_file, tmp_path):
    args = psro.Args(config=base_file, output=str(tmp_path / "out"))
    record = psro.record_of(args, psro.check_args(args))
    assert psro.prepare_output(args, record) == "new"
    assert psro.prepare_output(replace(args, generations=7, workers=2), record) == "continue"
    assert {f.name for f in fields(psro.Args)} - set(record) == set(psro.FREE) | {"config"}
