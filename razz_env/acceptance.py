"""What the acceptance studies share (``studies/heads_up_field.py``, ``studies/six_handed_tables.py``): the agent
under test, a tournament configuration played by ``razz tournament`` in a process of its own, and the rows
gathered into ``results.csv``."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from razz_env.engine.errors import ConfigError


def agent_under_test(agent: str | None, run: Path | None, model: str, deals: int,
                     seats: int) -> str | dict[str, Any]:
    """The agent evaluated: a registered name (``agent``) or a run folder's ``model`` (``run``), exactly one of
    them; ``ConfigError`` for neither, both, or fewer than one deal."""
    from razz_env.train.runfolder import RunFolder

    if (agent is None) == (run is None):
        raise ConfigError("give exactly one of --agent (a registered name) and --run (a razz train run folder)")
    if deals < 1:
        raise ConfigError(f"--deals: expected a positive number of deals, got {deals}")
    return agent if agent else RunFolder(run).model_spec(model, num_seats=seats)


def play_tournament(config: dict[str, Any], folder: Path) -> tuple[int, float]:
    """Write ``config`` next to ``folder`` (``<folder>.yaml``) and play it with ``razz tournament`` into ``folder``,
    quietly and without plots: the exit status and the seconds it took."""
    import yaml

    config_path = folder.with_suffix(".yaml")
    config_path.write_text(yaml.safe_dump(config))
    started = time.perf_counter()
    command = [sys.executable, "-m", "razz_env.cli", "tournament", "--config", str(config_path),
               "--output", str(folder), "--no-plots", "--quiet"]
    done = subprocess.run(command, stdout=subprocess.DEVNULL)
    return done.returncode, time.perf_counter() - started


def write_results(rows: list[dict[str, Any]], out: Path) -> None:
    """``rows`` as ``results.csv`` in ``out``."""
    from razz_env.evaluate.report import write_csv

    write_csv(out / "results.csv", rows)
