"""Fuzzing hand records through ``razz replay --check``: every input is a valid result or clean per-line messages.

Valid records (from the repository's vectors, and seeded MiniRazz hands) are mutated — wrong types in every
field, fields dropped or added, another variant named, random JSON, random bytes, other encodings, deep
nesting, huge numbers — and written to a file that ``razz replay --check`` reads. Whatever the input, the
command must not raise, must print its summary line first, must print one ``file:line: field: problem``
line per failing record, and must exit 1 exactly when
some line fails (0 when every line replays to its payoffs).

``RAZZ_FUZZ_EXAMPLES=5000 pytest tests/engine/test_record_fuzz.py -n 0 -s`` runs a bigger batch and prints the
figures per category (inputs, valid results, clean errors).
"""

from __future__ import annotations

import atexit
import contextlib
import gzip
import io
import json
import os
import random
import re
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from razz_env.cli import main
from razz_env.engine import VARIANTS, HandConfig, HandState
from razz_env.engine.config import max_seats
from razz_env.engine.record import replay_record, to_record

VECTORS = Path(__file__).resolve().parents[1] / "data" / "vectors"


def _minirazz_records() -> list[dict]:
    """Records of seeded MiniRazz hands played by random legal choices, at two seats and the most each deck deals."""
    records = []
    for name in sorted(VARIANTS):
        if not name.startswith("minirazz"):
            continue
        for seats in sorted({2, max_seats(VARIANTS[name])}):
            for seed in range(3):
                choose = random.Random(seed).choice
                hand = HandState(HandConfig.create(name, num_seats=seats, stacks=12), seed=seed)
                while not hand.is_over:
                    hand.act(choose(hand.legal_actions()))
                records.append(to_record(hand))
    return records


RECORDS = [json.loads(line) for path in sorted(VECTORS.glob("*.jsonl"))
           for line in path.read_text(encoding="utf-8").splitlines()[:15]] + _minirazz_records()
EXAMPLES = int(os.environ.get("RAZZ_FUZZ_EXAMPLES", "40"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[
    HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example])
SUMMARY = re.compile(r"^(\d+) hands, (\d+) mismatches, (\d+) illegal, (\d+) invalid$")
FIGURES: Counter = Counter()

if os.environ.get("RAZZ_FUZZ_EXAMPLES"):
    atexit.register(lambda: print("\nfuzz figures:", dict(sorted(FIGURES.items()))))

json_scalars = (st.none() | st.booleans() | st.integers() | st.integers(-(10**300), 10**300)
                | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=12)
                | st.sampled_from(["As", "Kd", "7c", "bring_in", "raise", "razz", "stud8", "minirazz", "", "10s"]))
json_values = st.recursive(json_scalars, lambda inner: st.lists(inner, max_size=4)
                           | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=12)


def paths(value: Any, prefix: tuple = ()) -> list[tuple]:
    """Every place in a JSON value that a mutation can replace: each key and each list item, at any depth."""
    found = [prefix] if prefix else []
    if isinstance(value, dict):
        for key, item in value.items():
            found += paths(item, prefix + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += paths(item, prefix + (index,))
    return found


def replaced(record: dict, path: tuple, value: Any) -> dict:
    out = json.loads(json.dumps(record))
    target = out
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return out


def run_replay(data: bytes, category: str) -> None:
    """Replay ``data`` as a file with ``razz replay --check`` and check the output contract."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "fuzz.jsonl"
        path.write_bytes(data)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            code = main(["replay", str(path), "--check"])
    lines = out.getvalue().splitlines()
    summary = SUMMARY.match(lines[0])
    assert summary, lines[:2]
    hands, mismatches, illegal, invalid = map(int, summary.groups())
    failures = lines[1:]
    assert len(failures) == mismatches + illegal + invalid
    for failure in failures:
        assert re.match(rf"^  {re.escape(str(path))}:\d+: \S.*: \S", failure), failure
    assert code == (1 if failures else 0)
    FIGURES[f"{category}: inputs"] += 1
    FIGURES[f"{category}: {'clean error' if failures else 'valid result'}"] += 1
    FIGURES[f"{category}: lines"] += hands


def record_line(record: Any) -> bytes:
    return json.dumps(record, separators=(",", ":")).encode()


@FUZZ
@given(st.sampled_from(RECORDS), st.data())
def test_a_field_replaced_by_any_json_value(record: dict, data: st.DataObject) -> None:
    path = data.draw(st.sampled_from(paths(record)))
    mutated = replaced(record, path, data.draw(json_values))
    result = replay_record(mutated)
    assert result.status in ("ok", "mismatch", "illegal", "invalid") and (result.ok or result.message)
    run_replay(record_line(mutated) + b"\n", "field replaced")


@FUZZ
@given(st.sampled_from(RECORDS), st.data())
def test_fields_dropped_or_added(record: dict, data: st.DataObject) -> None:
    mutated = dict(record)
    for key in data.draw(st.lists(st.sampled_from(sorted(record)), max_size=3)):
        mutated.pop(key, None)
    mutated.update(data.draw(st.dictionaries(st.sampled_from(["players", "rules", "seed", "community", ""]),
                                             json_values, max_size=2)))
    run_replay(record_line(mutated) + b"\n", "fields dropped or added")


@FUZZ
@given(st.sampled_from(RECORDS), st.sampled_from(sorted(VARIANTS)))
def test_another_variant_named(record: dict, variant: str) -> None:
    """A record read as another game: MiniRazz cards in a razz record, seven-card deals in MiniRazz..."""
    mutated = {**record, "variant": variant}
    result = replay_record(mutated)
    assert result.ok or result.message
    run_replay(record_line(mutated) + b"\n", "another variant")


@FUZZ
@given(json_values)
def test_random_json(value: Any) -> None:
    run_replay(record_line(value) + b"\n", "random JSON")


@FUZZ
@given(st.binary(max_size=300))
def test_random_bytes(data: bytes) -> None:
    run_replay(data, "random bytes")


@FUZZ
@given(st.lists(st.sampled_from(RECORDS), min_size=1, max_size=3),
       st.sampled_from(["utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-8-sig", "gzip", "latin-1 name", "cp1252"]))
def test_other_encodings(records: list[dict], encoding: str) -> None:
    named = [{**r, "players": ["Zoë"] * len(r["stacks"])} for r in records]
    text = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in named)
    if encoding == "gzip":
        data = gzip.compress(text.encode())
    elif encoding == "latin-1 name":
        data = text.encode("latin-1")
    else:
        data = text.encode(encoding)
    run_replay(data, "encodings")


@FUZZ
@given(st.integers(1, 200_000), st.sampled_from(["[", "{\"a\":"]), st.booleans())
def test_deep_nesting(depth: int, opener: str, inside_a_record: bool) -> None:
    closer = "]" if opener == "[" else "}"
    nested = opener * depth + "1" + closer * depth
    if inside_a_record:
        text = json.dumps({**RECORDS[0], "stacks": "@"}).replace('"@"', nested)
    else:
        text = nested
    run_replay(text.encode() + b"\n", "deep nesting")


@FUZZ
@given(st.sampled_from(RECORDS), st.data(),
       st.sampled_from(["digits", "exponent", "constant", "negative"]), st.integers(1, 9000))
def test_huge_numbers(record: dict, data: st.DataObject, kind: str, size: int) -> None:
    numeric = [p for p in paths(record) if isinstance(_at(record, p), int)]
    path = data.draw(st.sampled_from(numeric))
    token = {"digits": "9" * size, "exponent": f"1e{size}", "constant": data.draw(
        st.sampled_from(["NaN", "Infinity", "-Infinity"])), "negative": "-" + "9" * size}[kind]
    text = json.dumps(replaced(record, path, "@@")).replace('"@@"', token)
    run_replay(text.encode() + b"\n", "huge numbers")


def _at(record: Any, path: tuple) -> Any:
    for key in path:
        record = record[key]
    return record


@FUZZ
@given(st.lists(st.one_of(st.sampled_from(RECORDS).map(record_line), st.binary(max_size=40),
                          json_values.map(record_line)), min_size=1, max_size=6))
def test_good_and_bad_lines_mixed(lines: list[bytes]) -> None:
    run_replay(b"\n".join(line.replace(b"\n", b" ") for line in lines) + b"\n", "mixed lines")
