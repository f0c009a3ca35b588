"""``razz exploit --method exact``: an agent's exact exploitability in a MiniRazz game, as a report.

Unlike the lower bounds of :mod:`razz_env.exploit.bound` (a best response plays the agent
and its win rate has a confidence interval), the figure here is exact: the agent's stated policy
is read into the solved game's tree once per information set
(:func:`~razz_env.solve.agent.policy_from_agent`) and both seats' best responses are computed.
``exploit.json`` and ``exploit.csv`` carry the same names and units (bb/100) as the other methods,
with mbb/hand beside them.
"""

from __future__ import annotations

import csv
import json
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from razz_env.engine.errors import ConfigError, labelled
from razz_env.solve.agent import policy_from_agent
from razz_env.solve.best_response import exploitability
from razz_env.solve.game import build_game

REPORT_FILES = ("exploit.json", "exploit.csv")


@dataclass(frozen=True)
class ExactExploitability:
    """One agent measured exactly: NashConv/2 in mbb/hand and bb/100, each seat's best response, the timing."""

    agent: str
    method: str
    variant: str
    exploitability_mbb: float
    bb_per_100: float
    best_response_chips: tuple[float, float]
    value_chips_seat0: float
    information_sets: int
    query_seconds: float
    best_response_seconds: float


def check_folder(output: str | Path, fresh: bool) -> Path:
    """The report folder (made when the report is written); ``ConfigError`` if it holds one (unless ``fresh``)."""
    folder = Path(output)
    if folder.exists() and not folder.is_dir():
        raise ConfigError(f"--output: {folder} is a file, not a folder")
    earlier = [name for name in REPORT_FILES if (folder / name).exists()]
    if earlier and not fresh:
        raise ConfigError(f"--output: {folder} already holds a report ({', '.join(earlier)}); "
                          "pass --fresh to replace it or choose another --output")
    return folder


def measure_exactly(agent: Any, label: str, variant: str) -> ExactExploitability:
    """Read ``agent``'s policy into ``variant``'s tree and compute its exploitability.

    ``ConfigError`` naming the information set when the agent states no distribution there (a row summing to 2, NaN)."""
    game = build_game(variant)
    began = time.perf_counter()
    with labelled("agent", ValueError):
        policy = policy_from_agent(game, agent)
    queried = time.perf_counter()
    measured = exploitability(game, policy)
    done = time.perf_counter()
    return ExactExploitability(
        agent=label, method="exact", variant=variant, exploitability_mbb=measured.mbb,
        bb_per_100=measured.mbb / 10, best_response_chips=measured.best_response,
        value_chips_seat0=measured.value, information_sets=game.num_infosets,
        query_seconds=round(queried - began, 2), best_response_seconds=round(done - queried, 2))


def write_report(result: ExactExploitability, folder: Path) -> list[Path]:
    """``exploit.json`` and ``exploit.csv`` (one row), in ``folder`` (made if missing)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise ConfigError(f"--output: cannot write in {folder}: {err.strerror or err}") from None
    row = asdict(result)
    row["best_response_chips"] = list(result.best_response_chips)
    path = folder / "exploit.json"
    path.write_text(json.dumps({**row, "lower_bound_on_exploitability": False}, indent=2) + "\n", encoding="utf-8")
    written = [path]
    path = folder / "exploit.csv"
    flat = {**row, "best_response_chips": " ".join(f"{v:.6g}" for v in result.best_response_chips)}
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(flat))
        writer.writeheader()
        writer.writerow(flat)
    written.append(path)
    return written


def format_result(result: ExactExploitability) -> str:
    """The figure in one line."""
    return (f"razz exploit: exact exploitability of {result.agent} in {result.variant} (heads-up): "
            f"{result.exploitability_mbb:.4g} mbb/hand = {result.bb_per_100:.4g} bb/100 "
            f"(best responses {result.best_response_chips[0]:+.4f} / {result.best_response_chips[1]:+.4f} chips a "
            f"hand in seat 0 / 1; {result.information_sets:,} information sets asked in {result.query_seconds:.1f} s)")
