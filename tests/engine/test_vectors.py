"""The repository's test vectors (``tests/data/vectors/*.jsonl``) replay legally through our engine with their payoffs.

``scripts/make_vectors.py`` made them: random hands played through PokerKit 0.7.7 and this engine in
step, kept only where both agree at every decision and on every payoff (known rule differences left
out). The files are part of the repository, so these tests never skip.
"""

from __future__ import annotations

import json
import runpy
from collections import Counter
from pathlib import Path

import pytest

from razz_env.engine.record import hand_from_record, read_records, replay_record

ROOT = Path(__file__).resolve().parents[2]
VECTORS = ROOT / "tests" / "data" / "vectors"
EXPECTED = {"razz": 300, "action_razz": 200, "stud": 200, "stud8": 200}


def test_every_variant_has_its_vector_file() -> None:
    assert sorted(path.stem for path in VECTORS.glob("*.jsonl")) == sorted(EXPECTED)
    assert sum(path.stat().st_size for path in VECTORS.glob("*.jsonl")) < 1_000_000


@pytest.mark.parametrize("variant", sorted(EXPECTED))
def test_vector_file_replays(variant: str) -> None:
    path = VECTORS / f"{variant}.jsonl"
    failures = []
    count = 0
    for line, record in read_records(path):
        count += 1
        result = replay_record(record) if isinstance(record, dict) else None
        if result is None or not result.ok or record.get("variant") != variant:
            failures.append(f"line {line}: {result.status + ': ' + result.message if result else record}")
    assert count == EXPECTED[variant]
    assert not failures, f"{path.name}: {len(failures)} of {count} records fail:\n" + "\n".join(failures[:20])


def test_the_vectors_cover_the_hard_cases() -> None:
    """Side pots, split pots, the community card, all-ins, 2 to 8 seats, and Action Razz faces beating butts."""
    covered: Counter = Counter()
    for path in VECTORS.glob("*.jsonl"):
        for line in path.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            hand = hand_from_record(record)
            live = [s for s in range(hand.num_seats) if not hand.folded[s]]
            covered[f"{len(record['stacks'])} seats"] += 1
            covered["showdown"] += len(live) > 1
            covered["side pot"] += len(hand.pots) > 1
            covered["split pot"] += any(len(w) > 1 for pot in hand.pots for w in pot.winners.values())
            covered["community card"] += hand.community is not None
            covered["all-in"] += any(hand.contributed[s] == hand.config.stacks[s] for s in live)
            if record["variant"] == "action_razz":
                as_razz = replay_record({**record, "variant": "razz"})
                covered["face beats a better butt"] += as_razz.payoffs != tuple(record["payoffs"])
    for seats in range(2, 9):
        assert covered[f"{seats} seats"] >= 10, covered
    for case in ("showdown", "side pot", "split pot", "community card", "all-in", "face beats a better butt"):
        assert covered[case] >= 3, (case, covered)


@pytest.mark.slow
def test_make_vectors_reproduces_the_committed_files() -> None:
    pytest.importorskip("pokerkit")
    script = runpy.run_path(str(ROOT / "scripts" / "make_vectors.py"))
    assert script["main"](["--check"]) == 0
