"""Make the test vectors in ``tests/data/vectors/``: random hands that PokerKit 0.7.7 and our engine agree on.

Each hand is played with random legal decisions through our engine and, in step, through PokerKit
(``FixedLimitRazz``, ``FixedLimitSevenCardStud``, ``FixedLimitSevenCardStudHighLowSplitEightOrBetter``;
Action Razz is PokerKit's razz with a hand type that ranks a seven-card hand holding a J, Q or K above
every hand without one). At every decision both must agree on the seat to act, the kinds of decision
open to it, every stack and every bet; at the end, on every payoff. Hands that reach a situation where
PokerKit knowingly plays by other rules (``docs/rules.md``, "Known differences from PokerKit") are
discarded: board ties broken by suit, short all-in bets and raises, a community card after folds, odd
chips, stud8 pots without a qualifying low. Folds with nothing to call and the stud open-pair big bet are
never chosen. Every kept hand is written as a hand record (``docs/hand-records.md``), one per line.
The first hands of each variant, with player names added, are also the documentation's sample file
``docs/examples/hands.jsonl``.

Seeded, so the output is the same on every run: ``python scripts/make_vectors.py`` rewrites the files;
``--check`` regenerates them in memory and exits 1 if a committed file differs.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType

from razz_env.engine.record import to_record
from razz_env.engine.state import HandState

ROOT = Path(__file__).resolve().parent.parent


def load_oracle() -> ModuleType:
    """``tests/engine/pokerkit_oracle.py`` (the oracle the differential test uses), loaded by its path."""
    spec = importlib.util.spec_from_file_location("pokerkit_oracle", ROOT / "tests" / "engine" / "pokerkit_oracle.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


ORACLE = load_oracle()
OUTPUT = ROOT / "tests" / "data" / "vectors"
EXAMPLES = ROOT / "docs" / "examples" / "hands.jsonl"
HANDS = {"razz": 300, "action_razz": 200, "stud": 200, "stud8": 200}
EXAMPLE_HANDS = 8  # per variant
NAMES = ("alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi")


def make(variant: str, count: int) -> tuple[list[HandState], Counter]:
    """``count`` agreed hands, and the discards by reason."""
    hands: list[HandState] = []
    skipped: Counter = Counter()
    attempt = 0
    while len(hands) < count:
        try:
            hands.append(ORACLE.play_hand(variant, f"vectors-{variant}-{attempt}"))
        except ORACLE.Skip as skip:
            skipped[skip.args[0]] += 1
        attempt += 1
    return hands, skipped


def jsonl(hands: list[HandState], named: bool = False) -> str:
    """The hands as JSONL hand records, with player names when ``named``."""
    records = (to_record(hand, players=NAMES[:hand.num_seats] if named else None) for hand in hands)
    return "".join(json.dumps(record, separators=(",", ":")) + "\n" for record in records)


def main(argv: list[str] | None = None) -> int:
    """Write (or with ``--check`` compare) every vector file and the sample file."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with the committed files, write nothing")
    args = parser.parse_args(argv)
    files: dict[Path, str] = {}
    examples = []
    for variant, count in HANDS.items():
        hands, skipped = make(variant, count)
        path = OUTPUT / f"{variant}.jsonl"
        files[path] = jsonl(hands)
        examples += hands[:EXAMPLE_HANDS]
        print(f"{path.name}: {count} hands kept, {skipped.total()} discarded {dict(sorted(skipped.items()))}")
    files[EXAMPLES] = jsonl(examples, named=True)
    if args.check:
        stale = [str(path.relative_to(ROOT)) for path, text in files.items()
                 if not path.exists() or path.read_text(encoding="utf-8") != text]
        if stale:
            print(f"out of date: {', '.join(stale)} (run python scripts/make_vectors.py)", file=sys.stderr)
            return 1
        return 0
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
