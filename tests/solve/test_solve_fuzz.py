"""Fuzzing the solver's inputs: every input is a valid result or a clean, one-line error.

Three categories:

* tables: random stakes, caps, stacks and seat counts for ``minirazz_tiny``; each either builds a tree
  that agrees with the engine along random paths, or is refused with a ``ConfigError`` (by the engine's
  ``HandConfig`` or by the solver);
* policy files: a saved policy damaged in every way (random bytes, truncation, other arrays, header fields
  replaced by random JSON, probabilities replaced with their checksum updated); ``TabularPolicy.load``
  returns the policy or raises ``ConfigError``, nothing else;
* agent policies: an agent answering random rows (negative, NaN, off the legal ids, unnormalised, or
  proper distributions); ``policy_from_agent`` returns a valid policy or raises ``ValueError`` naming
  the agent and the information set.

``RAZZ_FUZZ_EXAMPLES=2000 pytest tests/solve/test_solve_fuzz.py -n 0 -s`` runs a bigger batch (half as many agent
policies) and prints the figures per category (inputs, valid results, clean errors).
"""

from __future__ import annotations

import atexit
import hashlib
import io
import json
import os
import random
import zipfile
from collections import Counter

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_solve_engine_walk import walk  # the sibling module, on pytest's path

from razz_env.encoding.interface import Declaration
from razz_env.engine.config import HandConfig
from razz_env.engine.errors import ConfigError
from razz_env.solve.agent import policy_from_agent
from razz_env.solve.cfr import CFRPlus
from razz_env.solve.game import build_game
from razz_env.solve.policy import TabularPolicy

EXAMPLES = int(os.environ.get("RAZZ_FUZZ_EXAMPLES", "25"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[
    HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.function_scoped_fixture])
FIGURES: Counter = Counter()

if os.environ.get("RAZZ_FUZZ_EXAMPLES"):
    atexit.register(lambda: print("\nfuzz figures:", dict(sorted(FIGURES.items()))))

json_scalars = (st.none() | st.booleans() | st.integers(-(10**20), 10**20) | st.floats(allow_nan=True)
                | st.text(max_size=10) | st.sampled_from(["minirazz_tiny", "minirazz_small", "razz", "stud", "x"]))
json_values = st.recursive(json_scalars, lambda inner: st.lists(inner, max_size=3)
                           | st.dictionaries(st.text(max_size=8), inner, max_size=3), max_leaves=8)


@FUZZ
@given(ante=st.integers(0, 3), bring_in=st.integers(1, 4), small=st.integers(1, 6), big=st.integers(1, 10),
       cap=st.sampled_from([None, 1, 2, 2, 3]), seats=st.sampled_from([2, 2, 2, 3]),
       stacks=st.lists(st.sampled_from([200, 200, 13, 12, 1]) | st.integers(1, 60), min_size=3, max_size=3),
       uncapped=st.sampled_from([False, False, False, True]), seed=st.integers(0, 2**16))
def test_random_tables_build_a_faithful_tree_or_are_refused(ante, bring_in, small, big, cap, seats, stacks, uncapped,
                                                            seed):
    FIGURES["tables"] += 1
    try:
        config = HandConfig.create("minirazz_tiny", stacks=stacks[:seats], ante=ante, bring_in=bring_in,
                                   small_bet=small, big_bet=big, raise_cap=cap, heads_up_uncapped=uncapped)
        game = build_game(config)
    except ConfigError as err:
        assert "\n" not in str(err) and str(err)
        FIGURES["tables: clean errors"] += 1
        return
    walk(game, 30, seed)
    FIGURES["tables: valid"] += 1


class Saved:
    """A saved tiny policy: its game, file bytes, header and probabilities (a short repr for hypothesis)."""

    def __init__(self, tmp_path_factory) -> None:
        self.game = build_game("minirazz_tiny")
        solver = CFRPlus(self.game)
        solver.run(iterations=5, check_every=5)
        path = solver.average_policy().save(tmp_path_factory.mktemp("policy") / "tiny.npz")
        self.content = path.read_bytes()
        with np.load(path) as data:
            self.header, self.table = json.loads(bytes(data["header"])), np.array(data["probabilities"])

    def __repr__(self) -> str:
        return "Saved(minirazz_tiny)"


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    return Saved(tmp_path_factory)


def npz(arrays: dict[str, np.ndarray]) -> bytes:
    out = io.BytesIO()
    np.savez(out, **arrays)
    return out.getvalue()


def header_array(header: object) -> np.ndarray:
    return np.frombuffer(json.dumps(header).encode(), dtype=np.uint8)


@FUZZ
@given(data=st.data())
def test_damaged_policy_files_load_or_are_refused_cleanly(tmp_path_factory, saved, data):
    game, original, header, table = saved.game, saved.content, saved.header, saved.table
    kind = data.draw(st.sampled_from(["bytes", "truncate", "flip", "arrays", "header", "table", "zip"]))
    if kind == "bytes":
        content = data.draw(st.binary(max_size=200))
    elif kind == "truncate":
        content = original[:data.draw(st.integers(0, len(original) - 1))]
    elif kind == "flip":
        at = data.draw(st.integers(0, len(original) - 1))
        content = original[:at] + bytes([original[at] ^ data.draw(st.integers(1, 255))]) + original[at + 1:]
    elif kind == "arrays":
        names = data.draw(st.lists(st.sampled_from(["header", "probabilities", "other"]), max_size=3, unique=True))
        content = npz({name: np.array(data.draw(st.lists(st.integers(0, 255), max_size=5)), dtype=np.uint8)
                       for name in names})
    elif kind == "header":
        changed = dict(header)
        changed[data.draw(st.sampled_from([*header, "extra"]))] = data.draw(json_values)
        content = npz({"header": header_array(changed), "probabilities": table})
    elif kind == "table":
        rows = data.draw(st.sampled_from([table.shape[0], table.shape[0] - 1, 3]))
        values = data.draw(st.sampled_from(["copy", "noise", "nan", "negative"]))
        new = np.resize(table, (rows, 5)).copy()
        if values == "noise":
            new += data.draw(st.floats(-1e-3, 1e-3))
        elif values == "nan":
            new[0, 2] = np.nan
        elif values == "negative":
            new[0] = [0, 0, -0.5, 1.5, 0]
        changed = dict(header, sha256=hashlib.sha256(np.ascontiguousarray(new).tobytes()).hexdigest())
        content = npz({"header": header_array(changed), "probabilities": new})
    else:
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w") as archive:
            archive.writestr(data.draw(st.sampled_from(["header.npy", "probabilities.npy", "x.txt"])),
                             data.draw(st.binary(max_size=100)))
        content = out.getvalue()
    path = tmp_path_factory.mktemp("fuzz") / "policy.npz"
    path.write_bytes(content)
    given_game = data.draw(st.sampled_from([game, None]))
    FIGURES["policy files"] += 1
    try:
        policy = TabularPolicy.load(path, given_game)
    except ConfigError as err:
        assert "\n" not in str(err) and str(path) in str(err)
        FIGURES["policy files: clean errors"] += 1
        return
    policy.validate(tolerance=1e-6)
    FIGURES["policy files: valid"] += 1


class Fuzzed:
    """Answers every observation with a row drawn by ``draw``."""

    name = "fuzzed"
    declaration = Declaration(observes=(), states_policy=True)

    def __init__(self, draw) -> None:
        self.draw = draw

    def action_probabilities(self, observation):
        return self.draw(observation.action_mask)


@pytest.fixture(scope="module")
def tiny():
    return build_game("minirazz_tiny")


@settings(FUZZ, max_examples=max(EXAMPLES // 2, 1))  # each example reads a whole policy from the agent
@given(style=st.sampled_from(["proper", "negative", "nan", "illegal", "unnormalised", "tiny noise"]),
       seed=st.integers(0, 2**16), at=st.integers(0, 6107))
def test_agent_rows_are_a_policy_or_a_clean_error(tiny, style, seed, at):
    rng = random.Random(seed)
    count = [0]

    def draw(mask: np.ndarray) -> np.ndarray:
        count[0] += 1
        row = np.array([rng.random() for _ in range(5)]) * mask
        row /= row.sum()
        if count[0] == at + 1:
            if style == "negative":
                row[int(np.flatnonzero(mask)[0])] -= 0.5
            elif style == "nan":
                row[0] = np.nan
            elif style == "illegal":
                row[int(np.flatnonzero(mask == 0)[0])] += 0.1
            elif style == "unnormalised":
                row *= 1.5
            elif style == "tiny noise":
                row += 1e-9
        return row

    FIGURES["agent rows"] += 1
    try:
        policy = policy_from_agent(tiny, Fuzzed(draw), check_suits=0)
    except ValueError as err:
        assert "agent 'fuzzed' at 's" in str(err) and "\n" not in str(err)
        FIGURES["agent rows: clean errors"] += 1
        return
    policy.validate()
    FIGURES["agent rows: valid"] += 1
