"""Fuzz ``razz tournament --config F`` with hypothesis: any YAML gives a valid run or one clean message.

A clean message is exit status 2, one line on stderr starting ``razz tournament:``, no traceback,
and nothing written (the working folder, where the results would go, is unchanged). Valid configs
run the whole command with the blocks stubbed out (zero sums), so the fuzz stays fast while the
checks, the results folder and the reports are real. ``RAZZ_FUZZ_EXAMPLES`` sets the examples per
category (default 30); ``--hypothesis-show-statistics`` prints how many gave each outcome.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from dataclasses import fields
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, assume, event, example, given, settings
from hypothesis import strategies as st

from razz_env.cli import main
from razz_env.engine.errors import ConfigError
from razz_env.evaluate import runner
from razz_env.evaluate.config import TournamentConfig
from razz_env.evaluate.policy_fit import FitSums

FUZZ = settings(max_examples=int(os.environ.get("RAZZ_FUZZ_EXAMPLES", "30")), deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
FIELDS = [f.name for f in fields(TournamentConfig) if f.init]
FAST_AGENTS = ["random", "calling_station", "razz_heuristic"]
VALID = {"agents": ["random", "calling_station"], "deals": 4, "block_deals": 2, "workers": 1}

scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.integers(-2**70, 2**70),
                    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=12))
anything = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                         st.dictionaries(st.text(max_size=6), inner, max_size=4)),
                        max_leaves=10)
# A relative path only, so that a valid config writes inside the example's own folder.
safe_output = st.from_regex(r"[a-z][a-z0-9_]{0,8}(/[a-z0-9_]{1,8})?", fullmatch=True)
agent_spec = st.one_of(
    st.sampled_from([*FAST_AGENTS, "monte_carlo", "rndom", ""]),
    st.text(max_size=10),
    st.fixed_dictionaries({"type": st.sampled_from([*FAST_AGENTS, "nope"])},
                          optional={"label": st.one_of(st.text(max_size=8), scalars), "seed": scalars,
                                    "samples": st.integers(-3, 50), "bogus": anything}),
    anything,
)
plausible = {
    "name": st.one_of(st.from_regex(r"[a-z][a-z0-9_.-]{0,10}", fullmatch=True), st.text(max_size=12)),
    "variant": st.sampled_from(["razz", "stud", "stud8", "action_razz", "minirazz", "minirazz_tiny", "holdem",
                                "RAZZ"]),
    "format": st.sampled_from(["round_robin", "table", "swiss"]),
    "agents": st.lists(agent_spec, max_size=9),
    "deals": st.integers(-2, 12),
    "block_deals": st.integers(-1, 12),
    "workers": st.integers(-1, 4),
    "seed": st.integers(),
    "stacks": st.integers(-5, 3000),
    "ante": st.integers(-1, 3),
    "bring_in": st.integers(-1, 6),
    "small_bet": st.integers(0, 12),
    "big_bet": st.integers(0, 24),
    "street_bets": st.one_of(st.none(), st.lists(st.integers(-1, 12), max_size=6)),
    "raise_cap": st.one_of(st.none(), st.integers(-1, 6)),
    "heads_up_uncapped": st.booleans(),
    "open_pair_big_bet": st.one_of(st.none(), st.booleans()),
    "bring_in_tie_break": st.sampled_from(["suit", "position", "seat"]),
    "later_street_tie_break": st.sampled_from(["suit", "position", "seat"]),
    "heads_up_tournament_uncapped": st.booleans(),
    "chip": st.integers(-1, 30),
    "rules": st.sampled_from(["house", "wsop_2022", "wsop_2023", "wsop_2024", "wsop_2025"]),
    "aivat": st.booleans(),
    "rank_by": st.sampled_from(["bb_per_100", "aivat_bb_per_100", "rating"]),
    "duplicate": st.booleans(),
    "records": st.booleans(),
    "engine": st.sampled_from(["auto", "scalar", "batch", "gpu"]),
    "decision_timeout": st.floats(-1, 10),
    "output": safe_output,
    "edge_bb_per_100": st.floats(),
}


def value_for(key: str) -> st.SearchStrategy:
    """A plausible value of ``key``, or anything at all (never a path string for ``output``)."""
    wild = anything.filter(lambda v: not isinstance(v, str)) if key == "output" else anything
    return st.one_of(plausible.get(key, anything), wild)


keys = st.one_of(st.sampled_from(FIELDS), st.text(max_size=10).filter(lambda k: k != "output"), scalars)


@st.composite
def mappings(draw: st.DrawFn) -> dict:
    """Random keys (known fields, unknown names, non-string keys) with random or plausible values."""
    chosen = draw(st.lists(keys, max_size=8, unique_by=repr))
    return {key: draw(value_for(key) if isinstance(key, str) else anything) for key in chosen}


@st.composite
def mutated(draw: st.DrawFn) -> dict:
    """A valid small config with one to three fields replaced, added or removed."""
    data = dict(VALID)
    for _ in range(draw(st.integers(1, 3))):
        key = draw(st.sampled_from(FIELDS))
        if draw(st.booleans()) and key in data:
            del data[key]
        else:
            data[key] = draw(value_for(key))
    return data


def _dump(data: object) -> str:
    try:
        return yaml.safe_dump(data, allow_unicode=True)
    except (yaml.YAMLError, ValueError, TypeError):
        assume(False)
        raise


def _listing(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() if p.is_file() else b"/" for p in sorted(folder.rglob("*"))}


def _stub_blocks(config, tasks, modules=()):
    """Each block's result as a real block gives it, every sum zero (with ``aivat``, the AIVAT and policy-fit sums
    too: a stub without them failed the summary whenever hypothesis drew ``aivat: true``)."""
    for task in tasks:
        seats = len(task.lineup)
        zeros = [0.0] * seats
        result = {"task_id": task.task_id, "config": config.config_id, "lineup": list(task.lineup),
                  "block": task.block, "deals": task.deals, "seed": task.seed,
                  "hands": task.deals * (seats if config.duplicate else 1),
                  "deal_sum": zeros, "deal_sumsq": zeros, "hand_sum": zeros, "hand_sumsq": zeros}
        if config.aivat:
            result.update({f"aivat_{name}": zeros for name in ("deal_sum", "deal_sumsq", "hand_sum", "hand_sumsq")})
            result.update(FitSums(seats).fields())
        yield result


@pytest.fixture
def check(monkeypatch, capsys):
    """Run ``razz tournament --config`` on some YAML text in a fresh folder and assert the outcome is clean."""
    monkeypatch.setattr(runner, "run_blocks", _stub_blocks)

    def run(text: str | bytes) -> None:
        with tempfile.TemporaryDirectory() as folder:
            root = Path(folder)
            path = root / "fuzz.yaml"
            path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8", "surrogatepass"))
            try:
                loaded = TournamentConfig.from_yaml(path)
            except ConfigError:
                loaded = None
            if loaded is not None:  # never let a fuzzed config write outside its folder
                assume(root.resolve() in (root / loaded.output).resolve().parents)
            monkeypatch.chdir(root)
            before = _listing(root)
            code = main(["tournament", "--config", str(path), "--quiet", "--no-plots"])
            out, err = capsys.readouterr()
            if code == 2:
                assert err.startswith("razz tournament: ") and err.count("\n") == 1, err
                assert "Traceback" not in err
                assert _listing(root) == before, "a refused config must write nothing"
                event("clean error")
            else:
                assert code == 0 and loaded is not None, (code, err)
                assert (root / loaded.output / "summary.json").exists()
                event("valid run")
            monkeypatch.chdir(Path(__file__).parent)

    return run


@FUZZ
@given(text=st.one_of(st.text(max_size=80), st.binary(max_size=80).map(bytes)))
def test_garbage_text(check, text):
    check(text)


@FUZZ
@given(data=st.one_of(mappings(), anything))
def test_random_fields_types_and_nesting(check, data):
    check(_dump(data))


@FUZZ
@given(data=mutated())
@example(data={**VALID, "aivat": True})  # found by hypothesis: the stub then owes the AIVAT and policy-fit sums
def test_a_valid_config_with_fields_changed(check, data):
    check(_dump(data))


@FUZZ
@given(data=mutated(), cut=st.integers(0, 200), junk=st.sampled_from(["", ":", "\t", "- ", "{", "]", "&a *b", "!!x"]))
def test_a_valid_config_with_broken_syntax(check, data, cut, junk):
    text = _dump(data)
    cut = min(cut, len(text))
    check(text[:cut] + junk + text[cut:])


@pytest.mark.parametrize("text", [b"\xff\xfe\x00garbage", b"agents: [random\n", b"agents: 5\n",
                                  b"deals: .nan\nagents: [random, calling_station]\n"])
def test_the_console_command_gives_one_line_and_exit_2(tmp_path, text):
    path = tmp_path / "fuzz.yaml"
    path.write_bytes(text)
    result = subprocess.run([sys.executable, "-m", "razz_env.cli", "tournament", "--config", str(path), "--quiet"],
                            capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert result.returncode == 2 and result.stderr.count("\n") == 1, result.stderr
    assert result.stderr.startswith("razz tournament: ") and "Traceback" not in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fuzz.yaml"]


def test_plausible_values_cover_every_field():
    assert set(plausible) == set(FIELDS)
