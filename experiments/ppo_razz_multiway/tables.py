"""One razz agent at six-handed tables of baselines and exploiters, seats rotated through all six positions.

Each table is a ``razz tournament`` of ``format: table`` with duplicate dealing: every deal is played once per
rotation of the seats, so each agent plays every deal from every position. Two tables seat the four baselines
and the five exploiters between them, the hand-crafted player at both:

* ``a``: calling_station, razz_heuristic, rock, tag, board_bully (the first multi-way attempt's table);
* ``b``: random, maniac, check_raiser, razz_heuristic, monte_carlo.

The agent's row of each table's ``standings.csv`` (bb/100 against the field, 95% CI, hands) is gathered into
``results.csv`` in the output folder. The agent is a registered name or a run folder's model, loaded by the
SHA-256 its ``hashes.json`` recorded (as in ``experiments/ppo_razz_pool/evaluate.py``).

    python experiments/ppo_razz_multiway/tables.py --run runs/ppo_razz_multiway3 --deals 4000 --seed 80002 \\
        --out runs/accept/ppo_razz_multiway
"""

from __future__ import annotations

import csv
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make this checkout importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from experiments.ppo_razz_pool.evaluate import (  # noqa: E402
    AgentArgs,
    command_line,
    play,
    run_agent,
    run_command_line,
    write_results,
)
from razz_env.engine.errors import ConfigError  # noqa: E402
from razz_env.evaluate.runner import agent_label  # noqa: E402
from razz_env.train.config import check_agent_spec  # noqa: E402

SEATS = 6
TABLES = {
    "a": ("calling_station", "razz_heuristic", "rock", "tag", "board_bully"),
    "b": ("random", "maniac", "check_raiser", "razz_heuristic", "monte_carlo"),
}


@dataclass
class Args(AgentArgs):
    """:class:`AgentArgs` and the tables to play."""

    tables: list[str] = field(default_factory=lambda: list(TABLES))
    deals: int = 2000
    seed: int = 70002


def main(args: Args) -> int:
    """Play every table; 0, or the exit status of the first tournament that failed (it said why on stderr)."""
    unknown = [name for name in args.tables if name not in TABLES]
    if unknown:
        raise ValueError(f"--tables: unknown table {unknown[0]!r}; the tables are {', '.join(TABLES)}")
    agent: Any = args.agent if args.agent else run_agent(args.run, args.model, seats=SEATS)
    try:
        check_agent_spec("--agent", agent, "razz", SEATS)
    except ConfigError as err:
        raise ValueError(str(err)) from None
    label = agent_label(agent)
    args.out.mkdir(parents=True, exist_ok=True)
    rows = []
    for name in args.tables:
        status, seconds = play({"name": f"table_{name}", "format": "table", "variant": "razz",
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
    cli = command_line(__doc__, Args, "deals per table (each played six times)",
                       "results folder (one tournament per table)")
    cli.add_argument("--tables", nargs="+", default=list(TABLES), help=f"of {', '.join(TABLES)}")
    run_command_line(cli, Args, main)
