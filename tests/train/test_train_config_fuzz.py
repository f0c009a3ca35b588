"""Fuzzing training YAML: every input is a valid TrainConfig or one clean ConfigError line.

Categories: random documents (known and unknown keys, values of any YAML type), one-field
mutations of a valid config (near-valid values), garbage text and bytes, YAML token soup, and
``razz train`` itself: invalid files exit 2 with one stderr line and leave run folders as they
were; a few valid ones go through ``--dry-run``. ``RAZZ_TRAIN_FUZZ_SCALE`` multiplies the
example counts for a longer run by hand; ``--hypothesis-show-statistics`` shows how many inputs
were valid and how many were refused.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import tempfile
from pathlib import Path

import pytest

pytest.importorskip("sb3_contrib")
pytest.importorskip("yaml")

import yaml
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from razz_env.cli import main
from razz_env.engine.errors import ConfigError
from razz_env.train.config import OpponentPoolConfig, TrainConfig

SCALE = int(os.environ.get("RAZZ_TRAIN_FUZZ_SCALE", "1"))


def fuzz(examples: int) -> settings:
    return settings(max_examples=examples * SCALE, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


VALID = {
    "name": "fuzz", "algorithm": "maskable_ppo", "total_timesteps": 64, "n_envs": 1, "net_arch": [8],
    "algo_kwargs": {"n_steps": 32, "batch_size": 32, "n_epochs": 1}, "eval_every": 64, "eval_deals": 2,
    "checkpoint_every": 64, "opponents": {"baselines": ["random", "razz_heuristic"], "weights": [1, 2]},
}
TOP_FIELDS = [f for f in TrainConfig.__dataclass_fields__]
POOL_FIELDS = [f for f in OpponentPoolConfig.__dataclass_fields__]
SB3_KEYS = ["n_steps", "batch_size", "n_epochs", "learning_rate", "gamma", "gae_lambda", "ent_coef", "buffer_size",
            "train_freq", "target_kl", "seed", "device", "rollout_buffer_kwargs", "lr"]
POLICY_KEYS = ["net_arch", "activation_fn", "ortho_init", "n_quantiles", "optimizer_kwargs", "share_features_extractor"]
AGENTS = ["random", "calling_station", "razz_heuristic", "monte_carlo", "ppo_razz", "nobody", ""]

scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**12, 10**12), st.floats(), st.text(max_size=12),
                    st.sampled_from(AGENTS + ["maskable_ppo", "qrdqn", "a2c", "stud", "razz", "flat", "subproc"]))
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                      | st.dictionaries(st.text(max_size=8) | st.sampled_from(SB3_KEYS + ["type"]), inner, max_size=4),
                      max_leaves=8)
near_valid = st.one_of(
    st.integers(-2, 300), st.floats(-0.5, 1.5), st.sampled_from(AGENTS), st.booleans(),
    st.lists(st.integers(-1, 64), max_size=3), st.lists(st.sampled_from(AGENTS), max_size=3),
    st.lists(st.floats(-1, 3, allow_nan=False), max_size=3),
    st.fixed_dictionaries({"type": st.sampled_from(AGENTS)}, optional={"seed": st.integers(-1, 5),
                                                                        "bluff": st.floats(0, 1)}),
    values,
)
documents = st.dictionaries(st.sampled_from(TOP_FIELDS) | st.text(max_size=10), values, max_size=8)
YAML_TOKENS = ["{", "}", "[", "]", ": ", "- ", "\n", "  ", "\t", "&a ", "*a", "!!python/object:os.system ", "%TAG ",
               "---", "...", "'", '"', "#", "name", "opponents", "1e999", ".nan", "2001-13-45", "? ", "|", ">", ","]


def _outcome(load) -> TrainConfig | None:
    """Load a config; a refusal must be one ConfigError line (anything else fails the test)."""
    try:
        config = load()
    except ConfigError as err:
        message = str(err)
        assert message and "\n" not in message, repr(message)
        event("clean error")
        return None
    assert isinstance(config, TrainConfig)
    json.dumps(config.to_dict(), allow_nan=False)
    event("valid")
    return config


def _write(folder: Path, text: str | bytes) -> Path:
    path = folder / "fuzz.yaml"
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8", "surrogatepass"))
    return path


@fuzz(60)
@given(documents)
def test_random_documents(data):
    with tempfile.TemporaryDirectory() as folder:
        path = _write(Path(folder), yaml.safe_dump(data))
        _outcome(lambda: TrainConfig.from_yaml(path))


@fuzz(100)
@given(st.sampled_from(TOP_FIELDS + [f"opponents.{f}" for f in POOL_FIELDS] + [f"algo_kwargs.{k}" for k in SB3_KEYS]
                       + [f"policy_kwargs.{k}" for k in POLICY_KEYS]), near_valid, st.booleans())
def test_one_field_mutations_of_a_valid_config(where, value, qrdqn):
    data = json.loads(json.dumps(VALID))
    if qrdqn:
        data.update(algorithm="qrdqn", algo_kwargs={"learning_starts": 8, "buffer_size": 100})
    *parents, key = where.split(".")
    target = data
    for parent in parents:
        target = target.setdefault(parent, {})
    target[key] = value
    _outcome(lambda: TrainConfig.from_dict(data))


token_soup = st.lists(st.sampled_from(YAML_TOKENS), max_size=30).map("".join)


@fuzz(40)
@given(st.text(max_size=200) | st.binary(max_size=200) | token_soup)
def test_garbage_files(text):
    with tempfile.TemporaryDirectory() as folder:
        _outcome(lambda: TrainConfig.from_yaml(_write(Path(folder), text)))


def _tree(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@fuzz(30)
@given(documents | st.text(max_size=80) | st.builds(lambda d: {**VALID, **d}, documents))
def test_razz_train_refuses_invalid_files_with_one_line_and_touches_nothing(data):
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        config = _write(folder, data if isinstance(data, str) else yaml.safe_dump(data))
        earlier = folder / "earlier"
        earlier.mkdir()
        (earlier / "config.json").write_text("{}")
        (earlier / "eval.csv").write_text("steps\n")
        for output in (folder / "new_run", earlier):
            if _outcome(lambda out=output: TrainConfig.from_yaml(config, total_timesteps=64, output=str(out))):
                continue
            before = _tree(folder)
            stderr = io.StringIO()
            with contextlib.redirect_stderr(stderr), contextlib.redirect_stdout(io.StringIO()):
                code = main(["train", "--config", str(config), "--steps", "64", "--output", str(output), "--quiet"])
            assert code == 2
            assert stderr.getvalue().count("\n") == 1 and stderr.getvalue().startswith("razz train: ")
            assert _tree(folder) == before and not (folder / "new_run").exists()


@fuzz(5)
@given(st.sampled_from(["net_arch", "eval_deals", "opponents.self_play_end", "opponents.max_snapshots", "seed"]),
       st.integers(1, 16))
def test_valid_files_pass_the_dry_run_without_writing(where, value):
    data = json.loads(json.dumps(VALID))
    *parents, key = where.split(".")
    target = data
    for parent in parents:
        target = target[parent]
    target[key] = [value] if key == "net_arch" else value / 16 if key == "self_play_end" else value
    with tempfile.TemporaryDirectory() as tmp:
        config = _write(Path(tmp), yaml.safe_dump(data))
        with contextlib.redirect_stdout(io.StringIO()) as out, contextlib.redirect_stderr(io.StringIO()):
            code = main(["train", "--config", str(config), "--output", f"{tmp}/run", "--dry-run", "--quiet"])
        assert code == 0 and json.loads(out.getvalue())["dry_run"]
        assert not Path(tmp, "run").exists()
        event("valid")


@fuzz(60)
@given(st.one_of(st.integers(-1, 10), st.lists(st.integers(0, 10) | st.sampled_from([True, "6", 2.0, None]),
                                               max_size=5)),
       st.sampled_from(["flat", "ranks", "flat8", "ranks8"]), st.integers(1, 12),
       st.sampled_from(["auto", "dummy", "subproc", "batch"]))
def test_table_size_lists_are_valid_or_refused_with_one_line(num_seats, encoding, n_envs, vec_env):
    """Mixed table sizes: a valid config lists different legal sizes, a padded encoding and a multiple of them as
    n_envs (any vec env: the batched one plays an engine per size); anything else is one ConfigError line."""
    data = {**VALID, "num_seats": num_seats, "encoding": encoding, "n_envs": n_envs, "vec_env": vec_env}
    config = _outcome(lambda: TrainConfig.from_dict(data))
    if config is None:
        return
    sizes = config.seat_counts
    assert all(2 <= seats <= 8 for seats in sizes) and len(set(sizes)) == len(sizes)
    if isinstance(num_seats, list):
        assert sizes == tuple(num_seats) and len(sizes) >= 2 and config.to_dict()["num_seats"] == num_seats
        assert encoding in ("flat8", "ranks8") and n_envs % len(sizes) == 0
