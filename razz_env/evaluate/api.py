"""The front door of evaluation: :func:`match` (two agents, heads-up, duplicate) and :func:`tournament`.

Both run on the tournament harness: :func:`match` is the pairing of a two-agent round robin, played
block by block (:mod:`razz_env.evaluate.blocks`) in this process or in worker processes, with no
results folder; its figures equal those of the same pairing in ``razz tournament`` (same deals, seed
and table). Agents are given as :func:`razz_env.agents.registry.make_agent` takes them: a name,
``module:Class``, a model file (``.zip``, ``.npz``), a mapping with options, or an instance.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from razz_env.engine.errors import ConfigError, labelled, shown
from razz_env.engine.table import TABLE_KEYS, Table
from razz_env.evaluate.block_sums import Sums
from razz_env.evaluate.config import AgentSpec, TournamentConfig
from razz_env.evaluate.policy_fit import Fit, verdict
from razz_env.evaluate.runner import TournamentResult, check_agents, fit_fields, run_tournament
from razz_env.evaluate.stats import sd_ratio
from razz_env.evaluate.tasks import build_tasks
from razz_env.evaluate.workers import BlockError, run_blocks


def _table_settings(table: Table | Mapping[str, Any] | None) -> dict[str, Any]:
    """The tournament settings of ``table``: a :class:`Table` or a mapping of its keys, heads-up (None: razz at
    the variant's stakes, stacks of 1000)."""
    if table is None:
        return {}
    if not isinstance(table, Table):
        if not isinstance(table, Mapping):
            raise ConfigError(f"table: expected a Table or a mapping of {', '.join(TABLE_KEYS)}, got {shown(table)}")
        table = Table.from_mapping({"num_seats": 2, **table}, "table")
    if table.num_seats != 2:
        raise ConfigError(f"table: a match is heads-up (num_seats 2), got num_seats {table.num_seats}")
    return {key: value for key, value in table.to_dict().items() if key != "num_seats"}


@dataclass(frozen=True)
class BlockRow:
    """One block of a match: agent A's win rate over its deals (bb/100) and the time it took."""

    block: int
    deals: int
    hands: int
    bb_per_100: float
    seconds: float = field(compare=False)


@dataclass(frozen=True)
class MatchResult:
    """Agent A's win rate against agent B in big bets per 100 hands, with its 95% CI (duplicate: per deal).

    ``big_bets`` and ``chips`` are A's total winnings over all ``hands``; ``blocks`` the per-block rows;
    ``config`` the two-agent tournament that reproduces it (``razz tournament`` gives the same figures). With AIVAT,
    ``aivat_bb_per_100`` and its CI are the same hands' AIVAT figure, ``sd_ratio`` raw SD / AIVAT SD (per deal):
    the factor the CI narrows by (None without AIVAT), ``aivat_reliable`` whether both agents play the policies they
    state (:mod:`razz_env.evaluate.policy_fit`: when one does not, ``aivat_misstated_by`` names it and ``str`` says
    the AIVAT figure is unreliable) and ``aivat_policy_fit_p`` the smaller fit bound (None: neither states a
    policy that varies).
    Results compare equal when their figures are (not their timings, workers or time limits).
    """

    agents: tuple[str, str]
    variant: str
    deals: int
    hands: int
    seed: int
    duplicate: bool
    bb_per_100: float
    ci95_low: float
    ci95_high: float
    big_bets: float
    chips: int
    blocks: tuple[BlockRow, ...]
    config: TournamentConfig = field(compare=False)
    aivat_bb_per_100: float | None = None
    aivat_ci95_low: float | None = None
    aivat_ci95_high: float | None = None
    sd_ratio: float | None = None
    aivat_reliable: bool | None = None
    aivat_policy_fit_p: float | None = None
    aivat_misstated_by: str | None = None
    aivat_fit_note: str | None = field(default=None, compare=False)

    def __str__(self) -> str:
        dealt = f"{self.deals} duplicate deals" if self.duplicate else f"{self.deals} deals"
        text = (f"{self.agents[0]} vs {self.agents[1]} ({self.variant}): {self.bb_per_100:+.2f} bb/100, 95% CI "
                f"[{self.ci95_low:.2f}, {self.ci95_high:.2f}] over {self.hands} hands ({dealt}, seed {self.seed})")
        if self.aivat_bb_per_100 is None:
            return text
        ratio = "n/a" if self.sd_ratio is None else f"{self.sd_ratio:.2f}"
        text = (f"{text}; AIVAT {self.aivat_bb_per_100:+.2f} bb/100, 95% CI [{self.aivat_ci95_low:.2f}, "
                f"{self.aivat_ci95_high:.2f}] (raw SD / AIVAT SD {ratio})")
        return text if self.aivat_reliable else f"{text}; AIVAT UNRELIABLE: {self.aivat_fit_note}"


def match(agent_a: AgentSpec, agent_b: AgentSpec, *, deals: int, table: Table | Mapping[str, Any] | None = None,
          seed: int = 0, duplicate: bool = True, workers: int = 1, block_deals: int = 250, engine: str = "auto",
          decision_timeout: float = 2.0, aivat: bool = False) -> MatchResult:
    """Play ``agent_a`` against ``agent_b`` heads-up over ``deals`` deals (each replayed with seats swapped when
    ``duplicate``) and return A's win rate.

    ``table``: a heads-up :class:`~razz_env.engine.table.Table`, or a mapping of its keys (``variant``,
    ``stacks``, ``ante``, ``bring_in``, ``small_bet``, ``big_bet``, ``raise_cap`` ...), whose left-out keys are
    :class:`~razz_env.engine.table.Table`'s defaults (stacks 200); without ``table``, razz at a tournament's default
    table (stacks 1000), where the zoo's trained agents sit. Blocks play in ``workers``
    worker processes, which keep the time limit (an agent instance must pickle, except with ``workers=1``, where
    one that does not plays in this process, unwatched). ``aivat`` scores the same hands with AIVAT too
    (:mod:`razz_env.evaluate.aivat`). Bad input raises :class:`ConfigError`; a broken agent :class:`BlockError`.

    >>> result = match("razz_heuristic", "calling_station", deals=20)
    >>> result.hands, result.agents
    (40, ('razz_heuristic', 'calling_station'))
    """
    config = TournamentConfig(name="match", agents=(agent_a, agent_b), deals=deals, duplicate=duplicate, seed=seed,
                              workers=workers, block_deals=block_deals, engine=engine,
                              decision_timeout=decision_timeout, aivat=aivat, **_table_settings(table))
    modules = check_agents(config)
    results = sorted(run_blocks(config, build_tasks(config), modules), key=lambda result: result["block"])
    for result in results:
        if "error" in result:
            error = result["error"]
            raise BlockError(f"block {result['block']}: agent {config.labels[error['agent']]} failed: "
                             f"{error['kind']}: {error['message']}")
    first = Sums.total(results, 0)
    rate = first.per_deal
    big_bets = first.hand_sum
    rows = tuple(BlockRow(r["block"], r["deals"], r["hands"], 100.0 * r["deal_sum"][0] / r["deals"], r["seconds"])
                 for r in results)
    corrected: dict[str, Any] = {}
    if aivat:
        fixed = first.aivat_per_deal
        fits = [Fit.empty(), Fit.empty()]
        for r in results:
            fits = [fit.plus(r, position) for position, fit in enumerate(fits)]
        fit = verdict(enumerate(fits))
        corrected = {"aivat_bb_per_100": fixed.mean_bb100, "aivat_ci95_low": fixed.low,
                     "aivat_ci95_high": fixed.high, "sd_ratio": sd_ratio(rate, fixed),
                     **fit_fields(fit, config.labels), "aivat_fit_note": fit.why(config.labels) or None}
    return MatchResult(agents=(config.labels[0], config.labels[1]), variant=config.variant, deals=config.deals,
                       hands=first.hands, seed=config.seed, duplicate=config.duplicate,
                       bb_per_100=rate.mean_bb100, ci95_low=rate.low, ci95_high=rate.high, big_bets=big_bets,
                       chips=round(big_bets * config.hand_config().big_bet), blocks=rows, config=config, **corrected)


def tournament(config: TournamentConfig | Mapping[str, Any] | str | os.PathLike[str], *, fresh: bool = False,
               progress: bool = False, backend: str = "local", address: str | None = None,
               reports: Callable[[TournamentResult], object] | None = None, **overrides: Any) -> TournamentResult:
    """Run the tournament ``config`` (a :class:`TournamentConfig`, a mapping of its settings or a YAML file),
    resuming its results folder unless ``fresh``; ``overrides`` replace settings (``None``: keep).
    ``reports`` is called with the result while the results folder is still locked (write reports there).

    ``backend``: ``"local"`` worker processes or ``"ray"`` (at ``address``). ``print(result)`` shows the standings;
    :func:`razz_env.evaluate.report.write_reports` writes the report files ``razz tournament`` writes.
    """
    given = {key: value for key, value in overrides.items() if value is not None}
    if isinstance(config, TournamentConfig):
        with labelled("tournament", TypeError):
            config = dataclasses.replace(config, **given)
    elif isinstance(config, Mapping):
        config = TournamentConfig.from_dict(config, **given)
    elif isinstance(config, (str, os.PathLike)):
        config = TournamentConfig.from_yaml(Path(config), **given)
    else:
        raise ConfigError(f"tournament: expected a TournamentConfig, a mapping of settings or a YAML file, got "
                          f"{shown(config)}")
    return run_tournament(config, fresh=fresh, progress=progress, backend=backend, address=address, reports=reports)
