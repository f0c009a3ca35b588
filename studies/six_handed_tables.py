"""One razz agent at six-handed tables of baselines and exploiters, seats rotated through all six positions.

Each table is a ``razz tournament`` of ``format: table`` with duplicate dealing: every deal is played once per
rotation of the seats, so each agent plays every deal from every position. Two tables seat the four baselines
and the five exploiters between them, the hand-crafted player at both:

* ``a``: calling_station, razz_heuristic, rock, tag, board_bully;
* ``b``: random, maniac, check_raiser, razz_heuristic, monte_carlo.

The agent's row of each table's ``standings.csv`` (bb/100 against the field, 95% CI, hands) is gathered into
``results.csv`` in the output folder. The agent is a registered name or a run folder's model, loaded by the
SHA-256 its ``hashes.json`` recorded. ``docs/zoo/ppo_razz_multiway.md`` gives the figures it measured.

    python studies/six_handed_tables.py --run runs/ppo_razz_multiway3 --deals 4000 --seed 80002 \\
        --out runs/accept/ppo_razz_multiway
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

from razz_env.acceptance import agent_under_test, play_tournament, write_results
from razz_env.command_line import run_script
from razz_env.engine.errors import ConfigError
from razz_env.evaluate.runner import agent_label
from razz_env.train.config import check_agent_spec

SEATS = 6
TABLES = {
    "a": ("calling_station", "razz_heuristic", "rock", "tag", "board_bully"),
    "b": ("random", "maniac", "check_raiser", "razz_heuristic", "monte_carlo"),
}


@dataclass
class Args:
    """Who is evaluated, at which tables, on how many deals, where."""

    out: Path
    """results folder (one tournament per table)"""
    agent: str | None = None
    """a registered agent name, e.g. ppo_razz (or give --run)"""
    run: Path | None = None
    """a razz train run folder whose model is evaluated (or give --agent)"""
    model: str = "final.zip"
    """with --run: the model file, by its key in the run's hashes.json"""
    tables: tuple[str, ...] = tuple(TABLES)
    """the tables played, of a and b"""
    deals: int = 2000
    """deals per table (each played six times, once per rotation)"""
    seed: int = 70002
    """tournament seed: the same deals at every table"""


def main(args: Args) -> int:
    """Play every table; 0, or the exit status of the first tournament that failed (it said why on stderr)."""
    unknown = [name for name in args.tables if name not in TABLES]
    if unknown:
        raise ConfigError(f"--tables: unknown table {unknown[0]!r}; the tables are {', '.join(TABLES)}")
    agent = agent_under_test(args.agent, args.run, args.model, args.deals, SEATS)
    check_agent_spec("--agent", agent, "razz", SEATS)
    label = agent_label(agent)
    args.out.mkdir(parents=True, exist_ok=True)
    rows = []
    for name in args.tables:
        status, seconds = play_tournament({"name": f"table_{name}", "format": "table", "variant": "razz",
                                "agents": [agent, *TABLES[name]], "deals": args.deals, "block_deals": 250,
                                "duplicate": True, "seed": args.seed, "workers": 1}, args.out / f"table_{name}")
        if status:
            return status
        with open(args.out / f"table_{name}" / "standings.csv", newline="", encoding="utf-8") as handle:
            standing = next(row for row in csv.DictReader(handle) if row["agent"] == label)
        rate, half = float(standing["bb_per_100"]), float(standing["ci95"])
        rows.append({"table": name, "opponents": " ".join(TABLES[name]), "agent": label, "bb_per_100": round(rate, 2),
                     "ci95_low": round(rate - half, 2), "ci95_high": round(rate + half, 2),
                     "hands": standing["hands"], "seconds": round(seconds, 1)})
        print(f"table {name}  {rate:>8.1f} [{rate - half:.1f}, {rate + half:.1f}]  {standing['hands']} hands  "
              f"{seconds:.0f} s", flush=True)
    write_results(rows, args.out)
    return 0


if __name__ == "__main__":
    run_script(main, Args, __doc__)
