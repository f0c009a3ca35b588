"""Round-robin and table tournaments: tasks, worker processes, resumable results, standings.

Work is split into :class:`~razz_env.evaluation.match.Task` blocks whose seeds
depend only on the tournament seed and the block number, so every pairing
faces the same deals and results do not depend on the number of workers. Each
finished block is appended to ``matches.jsonl`` at once; a rerun with the same
configuration skips the blocks already there, so an interrupted tournament
resumes without losing or double-counting a block.
"""

from __future__ import annotations

import json
import multiprocessing
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path
from typing import Any

from razz_env.engine.errors import ConfigError
from razz_env.evaluation.config import TournamentConfig
from razz_env.evaluation.match import Task, run_task
from razz_env.evaluation.stats import WinRate, win_rate

RESULTS_FILE = "matches.jsonl"
CONFIG_FILE = "tournament.json"


def agent_label(spec: Any) -> str:
    """Display name of an agent spec: its ``label`` key, else its type (and options)."""
    if isinstance(spec, str):
        return spec
    if "label" in spec:
        return str(spec["label"])
    options = ",".join(f"{k}={v}" for k, v in sorted(spec.items()) if k not in ("type", "seed"))
    return f"{spec['type']}({options})" if options else str(spec["type"])


def build_tasks(config: TournamentConfig) -> list[Task]:
    """Every block of the tournament, in a fixed order."""
    blocks = -(-config.deals // config.block_deals)
    if config.format == "round_robin":
        lineups = list(combinations(range(len(config.agents)), 2))
    else:
        lineups = [tuple(range(len(config.agents)))]
    tasks = []
    for lineup in lineups:
        for block in range(blocks):
            deals = min(config.block_deals, config.deals - block * config.block_deals)
            lineup_id = "-".join(str(i) for i in lineup)
            tasks.append(Task(f"{lineup_id}/{block}", lineup, block, deals, f"{config.seed}/{block}"))
    return tasks


def _run_task_star(args: tuple[TournamentConfig, Task]) -> dict[str, Any]:
    return run_task(*args)


def _append(path: Path, result: dict[str, Any]) -> None:
    with open(path, "a", encoding="utf-8") as handle:
        handle.write(json.dumps(result, separators=(",", ":")) + "\n")
        handle.flush()
        os.fsync(handle.fileno())


def load_results(output: Path) -> dict[str, dict[str, Any]]:
    """Finished blocks by task id (a torn last line from a kill is ignored)."""
    path = output / RESULTS_FILE
    done: dict[str, dict[str, Any]] = {}
    if not path.exists():
        return done
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            try:
                result = json.loads(line)
            except json.JSONDecodeError:
                continue
            done[result["task_id"]] = result
    return done


def _prepare_output(config: TournamentConfig, output: Path, fresh: bool) -> None:
    output.mkdir(parents=True, exist_ok=True)
    stamp = output / CONFIG_FILE
    results = output / RESULTS_FILE
    if fresh:
        results.unlink(missing_ok=True)
    elif stamp.exists() and results.exists():
        saved = json.loads(stamp.read_text(encoding="utf-8"))
        if saved != config.fingerprint():
            raise ConfigError(f"{output}: holds results of a different configuration; use --fresh or another "
                              f"--output")
    stamp.write_text(json.dumps(config.fingerprint(), indent=2), encoding="utf-8")
    if results.exists():
        _drop_torn_tail(results)


def _drop_torn_tail(path: Path) -> None:
    """Cut a partial last line (a kill mid-write) so appends start on a fresh line."""
    data = path.read_bytes()
    if data and not data.endswith(b"\n"):
        path.write_bytes(data[: data.rfind(b"\n") + 1])


def run_tournament(
    config: TournamentConfig,
    fresh: bool = False,
    progress: bool = True,
    on_result: Callable[[dict[str, Any]], None] | None = None,
) -> TournamentResult:
    """Play every unfinished block (in worker processes) and summarise all results."""
    output = Path(config.output)
    _prepare_output(config, output, fresh)
    tasks = build_tasks(config)
    done = load_results(output)
    pending = [t for t in tasks if t.task_id not in done]
    bar = _progress_bar(len(tasks), len(tasks) - len(pending), progress)
    for result in _execute(config, pending):
        records = result.pop("records", None)
        if records is not None:
            _write_records(output, result["task_id"], records)
        _append(output / RESULTS_FILE, result)
        done[result["task_id"]] = result
        if on_result is not None:
            on_result(result)
        if bar is not None:
            bar.update(1)
            if "error" in result:
                bar.write(f"agent {agent_label(config.agents[result['error']['agent']])} failed in block "
                          f"{result['task_id']}: {result['error']['kind']}: {result['error']['message']}")
    if bar is not None:
        bar.close()
    return summarise(config, [done[t.task_id] for t in tasks if t.task_id in done])


def _execute(config: TournamentConfig, tasks: list[Task]) -> Iterator[dict[str, Any]]:
    if config.workers == 1 or len(tasks) <= 1:
        for task in tasks:
            yield run_task(config, task)
        return
    context = multiprocessing.get_context("spawn")
    with context.Pool(min(config.workers, len(tasks))) as pool:
        yield from pool.imap_unordered(_run_task_star, [(config, task) for task in tasks])


def _progress_bar(total: int, initial: int, enabled: bool) -> Any:
    if not enabled:
        return None
    from tqdm import tqdm

    return tqdm(total=total, initial=initial, unit="block", desc="tournament", dynamic_ncols=True)


def _write_records(output: Path, task_id: str, records: list[dict[str, Any]]) -> None:
    """Hand records (JSONL, with the lineup of each hand) and PHH of the hands PokerKit can express."""
    from razz_env.engine.phh import PHH_VARIANTS, to_phh, write_phh
    from razz_env.engine.record import hand_from_record

    folder = output / "hands"
    folder.mkdir(exist_ok=True)
    stem = task_id.replace("/", "_")
    with open(folder / f"{stem}.jsonl", "w", encoding="utf-8") as handle:
        for record in records:
            handle.write(json.dumps(record, separators=(",", ":")) + "\n")
    if records and records[0]["variant"] in PHH_VARIANTS:
        expressible = []
        for record in records:
            hand = hand_from_record({k: v for k, v in record.items() if k != "agents"})
            try:
                to_phh(hand)
            except ValueError:
                continue
            expressible.append(hand)
        write_phh(folder / f"{stem}.phhs", expressible)


@dataclass
class PairingResult:
    """One pairing (or one table seat of a table tournament): the row agent's win rate."""

    agent: int
    opponent: int | None
    duplicate: WinRate
    plain: WinRate
    hands: int


@dataclass
class TournamentResult:
    """Everything the reports need: pairings, per-agent standings, ratings and failures."""

    config: TournamentConfig
    labels: list[str]
    pairings: list[PairingResult] = field(default_factory=list)
    standings: list[dict[str, Any]] = field(default_factory=list)
    failures: list[dict[str, Any]] = field(default_factory=list)
    blocks_done: int = 0
    blocks_total: int = 0


def _accumulate(sums: dict[tuple[int, int | None], list[float]], key: tuple[int, int | None],
                result: dict[str, Any], position: int) -> None:
    entry = sums.setdefault(key, [0, 0.0, 0.0, 0, 0.0, 0.0])
    entry[0] += result["deals"]
    entry[1] += result["deal_sum"][position]
    entry[2] += result["deal_sumsq"][position]
    entry[3] += result["hands"]
    entry[4] += result["hand_sum"][position]
    entry[5] += result["hand_sumsq"][position]


def summarise(config: TournamentConfig, results: list[dict[str, Any]]) -> TournamentResult:
    """Combine block results (in task order) into pairings, standings and ratings."""
    from razz_env.evaluation.ratings import rate

    labels = [agent_label(spec) for spec in config.agents]
    summary = TournamentResult(config, labels, blocks_done=len(results), blocks_total=len(build_tasks(config)))
    sums: dict[tuple[int, int | None], list[float]] = {}
    ok_results = []
    for result in results:
        if "error" in result:
            summary.failures.append(result)
            continue
        ok_results.append(result)
        lineup = result["lineup"]
        for position, agent in enumerate(lineup):
            if config.format == "round_robin":
                opponent = lineup[1 - position]
                _accumulate(sums, (agent, opponent), result, position)
            _accumulate(sums, (agent, None), result, position)
    for (agent, opponent), (deals, dsum, dsq, hands, hsum, hsq) in sorted(
            sums.items(), key=lambda item: (item[0][0], -1 if item[0][1] is None else item[0][1])):
        summary.pairings.append(PairingResult(
            agent, opponent, win_rate(int(deals), dsum, dsq), win_rate(int(hands), hsum, hsq), int(hands)))
    ratings = rate(len(config.agents), ok_results)
    overall = {p.agent: p for p in summary.pairings if p.opponent is None}
    for agent, label in enumerate(labels):
        pairing = overall.get(agent)
        mu, sigma = ratings[agent]
        summary.standings.append({
            "agent": label,
            "bb_per_100": pairing.duplicate.mean_bb100 if pairing else float("nan"),
            "ci95": pairing.duplicate.half_width if pairing else float("nan"),
            "hands": pairing.hands if pairing else 0,
            "rating_mu": mu, "rating_sigma": sigma, "rating": mu - 3 * sigma,
        })
    summary.standings.sort(key=lambda row: row["rating"], reverse=True)
    return summary
