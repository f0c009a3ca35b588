"""Replay hand records (``docs/hand-records.md``, one JSON object per line) or PHH files (``.phh`` one hand,
``.phhs`` numbered sections; razz, stud and stud8: FR, F7S, F7S/8) and check their payoffs (``razz replay``).

Prints 'N hands, M mismatches, K illegal, E invalid' (illegal: an illegal action; invalid: a line, file or field
that is not a hand record), then one 'file:line: field: problem' line per failing record. Exit status: 0; with
--check, 1 if any record failed; 2 if a file is missing, a directory or unreadable (nothing is replayed).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from razz_env.engine.checks import limited
from razz_env.engine.errors import ConfigError, IllegalActionError
from razz_env.engine.phh import read_phh
from razz_env.engine.record import read_records, replay_record, unreadable_file


@dataclass(frozen=True)
class Args:
    """``razz replay``'s settings (its arguments; :func:`run`)."""

    files: tuple[str, ...] = field(metadata={"positional": True})
    """hand-record files (JSON lines), or PHH files (.phh, .phhs)"""
    check: bool = False
    """exit 1 on any mismatch, illegal or invalid record"""
    explain: int | None = limited(None, minimum=0, metavar="N")
    """print only the first N failures (default: all)"""


def replay_items(path: str) -> Iterator[tuple[object, object]]:
    """``(place, record or error)`` for each hand of a hand-record file (JSONL) or a PHH file (.phh, .phhs)."""
    if str(path).lower().endswith((".phh", ".phhs")):
        for label, record in read_phh(path):
            yield (f"[{label}]" if label else "hand"), record
    else:
        yield from read_records(path)


def replay_files(files: tuple[str, ...]) -> tuple[int, dict[str, int], list[str]]:
    """Every hand of ``files`` replayed: the hands, the failures by kind, and a 'file:line: problem' line each."""
    counts = {"mismatch": 0, "illegal": 0, "invalid": 0}
    hands = 0
    failures: list[str] = []
    for path in files:
        for line, record in replay_items(path):
            hands += 1
            if isinstance(record, Exception):  # not a hand: bad bytes, JSON or TOML, or an illegal PHH decision
                counts["illegal" if isinstance(record, IllegalActionError) else "invalid"] += 1
                failures.append(f"{path}:{line}: {record}")
                continue
            result = replay_record(record)
            if not result.ok:
                counts[result.status] += 1
                failures.append(f"{path}:{line}: {result.message}")
    return hands, counts, failures


def run(args: Args) -> int:
    """``razz replay``: the counts, then the failures (the first ``--explain`` of them)."""
    problems = [f"{path}: {problem}" for path in args.files if (problem := unreadable_file(path))]
    if problems:
        raise ConfigError("; ".join(problems))
    hands, counts, failures = replay_files(args.files)
    print(f"{hands} hands, {counts['mismatch']} mismatches, {counts['illegal']} illegal, {counts['invalid']} invalid")
    listed = failures if args.explain is None else failures[: args.explain]
    for failure in listed:
        print("  " + failure)
    if len(failures) > len(listed):
        print(f"  ... and {len(failures) - len(listed)} more")
    return 1 if args.check and failures else 0
