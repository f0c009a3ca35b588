"""Every shared test vector (``shared/vectors/*.jsonl``) replays legally through our engine with its payoffs.

The vectors live beside the repository (``../shared/vectors``) or in a ``shared/`` folder inside it;
where neither exists (a bare checkout) the module is skipped.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from razz_env.engine.record import read_records, replay_record

ROOT = Path(__file__).resolve().parents[2]
VECTORS = next((p for p in (ROOT / "shared" / "vectors", ROOT.parent / "shared" / "vectors") if p.is_dir()), None)
if VECTORS is None:
    pytest.skip("no shared/vectors folder beside or inside the repository", allow_module_level=True)
FILES = sorted(VECTORS.glob("*.jsonl"))


def test_vectors_are_present() -> None:
    names = {path.name for path in FILES}
    assert {"razz.jsonl", "stud.jsonl", "stud8.jsonl", "action_razz.jsonl", "razz_ties.jsonl"} <= names, names


@pytest.mark.parametrize("path", FILES, ids=[path.stem for path in FILES])
def test_vector_file_replays(path: Path) -> None:
    failures = []
    count = 0
    for line, record in read_records(path):
        result = replay_record(record) if isinstance(record, dict) else None
        count += 1
        if result is None or not result.ok:
            failures.append(f"line {line}: {result.status + ': ' + result.message if result else record}")
    assert count > 0, f"{path.name} holds no records"
    assert not failures, f"{path.name}: {len(failures)} of {count} records fail:\n" + "\n".join(failures[:20])
