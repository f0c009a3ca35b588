"""Round-robin and table tournaments: checks, worker processes, resumable results, standings.

Everything a run needs is checked before the first block: the configuration, every agent
(built once here, seated with :func:`~razz_env.encoding.interface.seating_problem`) and the results
folder (:class:`~razz_env.evaluate.results.ResultsFolder`: one configuration per folder,
locked while a run uses it). Work is split into :class:`~razz_env.evaluate.tasks.Task`
blocks whose seeds depend only on the tournament seed and the block number, so every
pairing faces the same deals, results do not depend on the number of workers, and a
longer run (more ``deals``) reuses the blocks of a shorter one. Each finished block is
appended to ``matches.jsonl`` at once; a rerun skips the blocks already there (failed
ones are played again), so an interrupted tournament resumes without losing or
double-counting a block.
"""

from __future__ import annotations

import json
import logging
import os
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from razz_env.agents.sandbox import sandbox_problem
from razz_env.engine.errors import ConfigError
from razz_env.evaluate.block_sums import Sums
from razz_env.evaluate.blocks import batch_problem
from razz_env.evaluate.config import TournamentConfig, agent_label
from razz_env.evaluate.policy_fit import Fit, Verdict, verdict
from razz_env.evaluate.progress import progress_bar
from razz_env.evaluate.ray_backend import RayBlocks, check_backend
from razz_env.evaluate.results import RESULTS_FILE, ResultsFolder, block_key, hand_file
from razz_env.evaluate.stats import WinRate, sd_ratio
from razz_env.evaluate.tasks import Task, build_agent, build_tasks
from razz_env.evaluate.workers import BlockError, WorkerStartError, run_blocks

__all__ = ["RESULTS_FILE", "BlockError", "TournamentResult", "agent_label", "build_tasks", "check_agents",
           "load_results", "run_tournament", "summarise"]

log = logging.getLogger(__name__)


def check_agents(config: TournamentConfig) -> list[str]:
    """Build every agent once, here, and check it can sit at the tournament's tables.

    Raises :class:`ConfigError` naming the agent (unknown name, bad options, an agent that
    declares it cannot play this variant or seat count) or, with ``engine: batch``, the first
    lineup the batched engine cannot play. Returns the modules that register the agents, for
    worker processes to import.
    """
    from razz_env.agents.registry import get_factory
    from razz_env.encoding.interface import Observer, seating_problem

    hand_config = config.hand_config()
    modules: list[str] = []
    agents = []
    for index, (spec, label) in enumerate(zip(config.agents, config.labels)):
        where = f"agents[{index}] ({label})"
        try:
            agent = build_agent(spec, seed=0, hidden=(config.output,))
            Observer(agent, hand_config)
        except Exception as err:  # noqa: BLE001 - whatever an agent's constructor raises is a config problem
            raise ConfigError(f"{where}: {' '.join(str(err).split()) or type(err).__name__}") from None
        problem = seating_problem(agent, config.variant, config.seats)
        if problem is not None:
            raise ConfigError(f"{where}: {problem}")
        agents.append(agent)
        module = (get_factory(spec if isinstance(spec, str) else spec["type"]) if isinstance(spec, (str, Mapping))
                  else type(spec)).__module__
        if module != "__main__" and module not in modules:
            modules.append(module)
    if config.engine == "batch":
        _check_batch(config, agents)
    _warn_without_sandbox(config)
    return modules


def _warn_without_sandbox(config: TournamentConfig) -> None:
    """Say once, before any block, when isolated agents or bots (``cmd:``) will run without their namespaces."""
    from razz_env.agents.registry import is_command

    def sandboxed(spec: Any) -> bool:
        if isinstance(spec, str):
            return is_command(spec)
        return isinstance(spec, Mapping) and (bool(spec.get("isolated")) or is_command(spec["type"]))

    if any(sandboxed(spec) for spec in config.agents):
        problem = sandbox_problem()
        if problem is not None:
            log.warning("isolated agents run without their sandbox here (%s): each still never holds a hand and "
                        "cannot read this user's processes' memory, but it can signal them, write where you can, "
                        "and its own children may outlive it (docs/evaluation.md, Trusted and isolated agents)",
                        problem)


def _check_batch(config: TournamentConfig, agents: list[Any]) -> None:
    """``engine: batch``: every lineup must be playable on the batched engine, or :class:`ConfigError` names one."""
    hand_config = config.hand_config()
    for lineup in config.lineups():
        problem = batch_problem([agents[index] for index in lineup], hand_config)
        if problem is not None:
            names = " vs ".join(config.labels[index] for index in lineup)
            raise ConfigError(f"engine: batch cannot play {names}: {problem}; use engine 'auto' (the batched engine "
                              f"where it can play the lineup, the scalar one elsewhere) or 'scalar'")


def load_results(config: TournamentConfig) -> dict[str, dict[str, Any]]:
    """The latest result of each block in the config's output folder, by task id (checked line by line)."""
    return {key[0]: result for key, result in ResultsFolder(config, config.output).check().items()}


def run_tournament(
    config: TournamentConfig,
    fresh: bool = False,
    progress: bool = True,
    on_result: Callable[[dict[str, Any]], None] | None = None,
    backend: str = "local",
    address: str | None = None,
    reports: Callable[[TournamentResult], object] | None = None,
    report_files: Sequence[str] = (),
) -> TournamentResult:
    """Check everything, play every unfinished block (in worker processes) and summarise all results.

    ``fresh`` discards the folder's earlier results first (and its reports: the tournament's and
    ``report_files``), once the folder is locked. ``reports`` is called with the result while the folder is
    still locked, so the reports written there are of these results, never of another run's. ``backend``
    ``"ray"`` plays the blocks on a Ray cluster (a local one of ``config.workers`` CPUs, or the one at ``address``); the
    results are the same. Raises :class:`ConfigError` before any block for a bad agent, folder
    or backend, :class:`BlockError` if a block cannot be played.
    """
    check_backend(backend, address)
    modules = check_agents(config)
    folder = ResultsFolder(config, config.output, report_files)
    if not fresh:
        folder.check()
    tasks = build_tasks(config)
    ray_blocks = RayBlocks(config, address) if backend == "ray" else None
    try:
        return _play(config, folder, tasks, modules, fresh, progress, on_result, ray_blocks, reports)
    finally:
        if ray_blocks is not None:
            ray_blocks.close()


def _play(config: TournamentConfig, folder: ResultsFolder, tasks: list[Task], modules: list[str], fresh: bool,
          progress: bool, on_result: Callable[[dict[str, Any]], None] | None,
          ray_blocks: RayBlocks | None,
          reports: Callable[[TournamentResult], object] | None) -> TournamentResult:
    """Play the blocks not yet in ``folder`` (locked while this runs), summarise every result and report it."""
    with folder.open(fresh) as done:
        finished = [t for t in tasks if block_key(t) in done and "error" not in done[block_key(t)]]
        pending = [t for t in tasks if block_key(t) not in done or "error" in done[block_key(t)]]
        _note_records(config, folder, finished, bool(pending))
        bar = progress_bar(len(tasks), len(tasks) - len(pending), "block", "tournament") if progress else None
        if bar is not None and pending:
            bar.write(f"playing {len(pending)} block(s) in worker processes: each builds its agents (loading trained "
                      "models) before its first block, so the first blocks take the longest", file=sys.stderr)
        try:
            blocks = run_blocks(config, pending, modules) if ray_blocks is None else ray_blocks.run(pending, modules)
            for result in _resumable(blocks, folder):
                _keep_records(folder, result, result.pop("records", None))
                folder.append(result)
                done[block_key(result)] = result
                if on_result is not None:
                    on_result(result)
                if bar is not None:
                    bar.update(1)
                    if "error" in result:
                        bar.write(f"agent {config.labels[result['error']['agent']]} failed in block "
                                  f"{result['task_id']}: {result['error']['kind']}: {result['error']['message']}")
        finally:
            if bar is not None:
                bar.close()
        result = summarise(config, [done[block_key(t)] for t in tasks if block_key(t) in done])
        if reports is not None:
            reports(result)
    return result


def _note_records(config: TournamentConfig, folder: ResultsFolder, finished: list[Task], playing: bool) -> None:
    """Warn when hand records will cover only part of the tournament (a resume that changed ``records``)."""
    if config.records:
        missing = [t for t in finished if not (folder.hands / hand_file(t.task_id, ".jsonl")).exists()]
        if missing:
            log.warning("%d of the %d blocks played earlier have no hand records (played without --records); "
                        "use --fresh to record every block", len(missing), len(finished))
    elif playing and any((folder.hands / hand_file(t.task_id, ".jsonl")).exists() for t in finished):
        log.warning("blocks played earlier have hand records in %s but the blocks played now will have none "
                    "(add --records to keep recording)", folder.hands)


def _resumable(blocks: Iterator[dict[str, Any]], folder: ResultsFolder) -> Iterator[dict[str, Any]]:
    """``blocks``, a :class:`BlockError` saying that the finished blocks are kept in ``folder`` (a worker that
    cannot start has finished none: it says what to fix instead)."""
    try:
        yield from blocks
    except WorkerStartError:
        raise
    except BlockError as err:
        raise BlockError(f"{err}. Finished blocks are saved in {folder.path}: rerun to resume") from err


def _keep_records(folder: ResultsFolder, result: dict[str, Any], records: list[dict[str, Any]] | None) -> None:
    """Write a block's hand records, or remove stale ones of its task when it was played without them."""
    paths = [folder.hands / hand_file(result["task_id"], suffix) for suffix in (".jsonl", ".phhs")]
    if records is None:
        for path in paths:
            path.unlink(missing_ok=True)
        return
    _write_records(folder.hands, result["task_id"], records)


def _write_records(folder: Path, task_id: str, records: list[dict[str, Any]]) -> None:
    """Hand records (JSONL, players named) and PHH of the hands PokerKit can express, each file written whole."""
    from razz_env.engine.phh import PHH_VARIANTS, to_phh, write_phh
    from razz_env.engine.record import hand_from_record

    folder.mkdir(exist_ok=True)
    path = folder / hand_file(task_id, ".jsonl")
    partial = path.with_name(path.name + ".tmp")
    partial.write_text("".join(json.dumps(record, separators=(",", ":")) + "\n" for record in records),
                       encoding="utf-8")
    os.replace(partial, path)
    if records and records[0]["variant"] in PHH_VARIANTS:
        hands, players = [], []
        for record in records:
            hand = hand_from_record(record)
            try:
                to_phh(hand)
            except ValueError:
                continue
            hands.append(hand)
            players.append(record["players"])
        path = folder / hand_file(task_id, ".phhs")
        partial = path.with_name(path.name + ".tmp")
        write_phh(partial, hands, players)
        os.replace(partial, path)


@dataclass
class PairingResult:
    """One pairing (or one table seat of a table tournament): the row agent's win rate, and with AIVAT the same
    from the corrected payoffs (``aivat``, per deal as ``duplicate``) and whether the agents at its tables play the
    policies they state (``fit``: :mod:`razz_env.evaluate.policy_fit`; unreliable when one does not)."""

    agent: int
    opponent: int | None
    duplicate: WinRate
    plain: WinRate
    hands: int
    aivat: WinRate | None = None
    fit: Verdict | None = None

    @property
    def sd_ratio(self) -> float | None:
        """Raw SD over AIVAT SD per sample (deal): the factor the CI narrows by; its square, the hands saved. None
        without AIVAT, or when the AIVAT figure does not vary (then it has no ratio)."""
        return None if self.aivat is None else sd_ratio(self.duplicate, self.aivat)


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

    def __str__(self) -> str:
        from razz_env.evaluate.report import format_terminal

        return format_terminal(self)


def fit_fields(fit: Verdict | None, labels: Sequence[str]) -> dict[str, Any]:
    """The policy-fit columns beside an AIVAT figure: ``aivat_reliable``, the smallest fit bound among the agents
    at its tables (``aivat_policy_fit_p``; None when no agent there states a policy that varies) and who has it
    when it fails (``aivat_misstated_by``)."""
    if fit is None or fit.agent is None:
        return {"aivat_reliable": True, "aivat_policy_fit_p": None, "aivat_misstated_by": None}
    return {"aivat_reliable": not fit.unreliable, "aivat_policy_fit_p": float(f"{fit.p:.3g}"),
            "aivat_misstated_by": labels[fit.agent] if fit.unreliable else None}


def summarise(config: TournamentConfig, results: list[dict[str, Any]]) -> TournamentResult:
    """Combine block results (in task order) into pairings, standings and ratings."""
    from razz_env.evaluate.ratings import rate

    labels = config.labels
    summary = TournamentResult(config, labels, blocks_done=len(results), blocks_total=len(build_tasks(config)))
    sums: dict[tuple[int, int | None], Sums] = {}
    fits: dict[tuple[tuple[int, ...], int], Fit] = {}
    ok_results = []
    for result in results:
        if "error" in result:
            summary.failures.append(result)
            continue
        ok_results.append(result)
        lineup = result["lineup"]
        for position, agent in enumerate(lineup):
            if config.aivat:
                key = (tuple(lineup), agent)
                fits[key] = fits.get(key, Fit.empty()).plus(result, position)
            seated = Sums.of(result, position)
            if config.format == "round_robin":
                opponent = lineup[1 - position]
                sums[agent, opponent] = sums.get((agent, opponent), Sums()) + seated
            sums[agent, None] = sums.get((agent, None), Sums()) + seated
    for (agent, opponent), total in sorted(
            sums.items(), key=lambda item: (item[0][0], -1 if item[0][1] is None else item[0][1])):
        corrected = total.aivat_per_deal if config.aivat else None
        fit = verdict([(seated, fit) for (lineup, seated), fit in fits.items()
                       if agent in lineup and (opponent is None or opponent in lineup)]) if config.aivat else None
        summary.pairings.append(PairingResult(agent, opponent, total.per_deal, total.per_hand, total.hands, corrected,
                                              fit))
    ratings = rate(len(config.agents), ok_results)
    overall = {p.agent: p for p in summary.pairings if p.opponent is None}
    for agent, label in enumerate(labels):
        pairing = overall.get(agent)
        mu, sigma = ratings[agent]
        row = {
            "agent": label,
            "bb_per_100": pairing.duplicate.mean_bb100 if pairing else float("nan"),
            "ci95": pairing.duplicate.half_width if pairing else float("nan"),
        }
        if config.aivat:
            row["aivat_bb_per_100"] = pairing.aivat.mean_bb100 if pairing else float("nan")
            row["aivat_ci95"] = pairing.aivat.half_width if pairing else float("nan")
            row.update(fit_fields(pairing.fit if pairing else None, labels))
        summary.standings.append({**row, "hands": pairing.hands if pairing else 0,
                                  "rating_mu": mu, "rating_sigma": sigma, "rating": mu - 3 * sigma})
    summary.standings.sort(key=lambda row: row["rating"], reverse=True)
    return summary
