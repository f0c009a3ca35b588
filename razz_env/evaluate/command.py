"""Run a round-robin tournament of agents, duplicate-dealt, and write its report (``razz tournament``).

With no --config, the shipped agents' round robin. An interrupted or finished run resumes from its results folder;
more --deals than a finished run played extends it.
"""

from __future__ import annotations

import logging
import sys
from dataclasses import dataclass
from pathlib import Path

from razz_env.engine.checks import limited
from razz_env.engine.errors import ConfigError
from razz_env.evaluate.config import DEFAULT_LINEUPS, ENGINES, RANKINGS, TournamentConfig
from razz_env.evaluate.ray_backend import BACKENDS


@dataclass(frozen=True)
class Backend:
    """Where the blocks run (docs/scaling.md): the flags of every command that plays blocks."""

    backend: str = limited("local", choices=BACKENDS)
    """local worker processes, or Ray actors (pip install 'razz-env[ray]')"""
    address: str | None = None
    """with --backend ray: the cluster to join ('auto', 'ray://host:10001'); default a local one of --workers CPUs"""


@dataclass(frozen=True)
class Args(Backend):
    """``razz tournament``'s settings (its flags; :func:`run`); a flag given replaces the config's setting."""

    config: str | None = None
    """tournament YAML (default: the embedded default, the shipped agents' round robin)"""
    variant: str | None = limited(None, choices=tuple(DEFAULT_LINEUPS))
    """without --config: the round robin of this variant's default lineup (results/default_<variant>)"""
    workers: int | None = None
    """worker processes"""
    deals: int | None = None
    """deals per pairing (more than a finished run extends it)"""
    seed: int | None = None
    """tournament seed: the deals of every block follow from it"""
    output: str | None = None
    """results folder"""
    fresh: bool = False
    """discard earlier results instead of resuming"""
    records: bool | None = None
    """write hand records of every hand"""
    engine: str | None = limited(None, choices=ENGINES)
    """auto (the config's default): the batched engine for lineups that can act in batch (needs numba), the scalar
    one elsewhere; same results either way"""
    aivat: bool | None = None
    """also score every hand with AIVAT (config aivat: true): the figures beside the raw ones, with less variance"""
    rank_by: str | None = limited(None, choices=RANKINGS)
    """the standings' order: raw bb/100 (the config's default) or the AIVAT figure (needs --aivat)"""
    plots: bool = True
    """draw the crosstable and CI plots (PNG)"""
    quiet: bool = False
    """no progress bar"""


def run(args: Args) -> int:
    """``razz tournament``: the standings, the report files; exit 1 when a block failed or the results cannot be
    written, 130 when interrupted (finished blocks are kept)."""
    from razz_env.evaluate.api import tournament
    from razz_env.evaluate.report import write_reports
    from razz_env.evaluate.workers import BlockError

    overrides = {"workers": args.workers, "deals": args.deals, "output": args.output, "seed": args.seed,
                 "records": args.records, "engine": args.engine, "aivat": args.aivat, "rank_by": args.rank_by}
    if args.config:
        if args.variant:
            raise ConfigError("--variant: picks a variant's default lineup; with --config the file says the variant")
        config = TournamentConfig.from_yaml(args.config, **overrides)
    elif args.variant in (None, "razz"):
        config = TournamentConfig.from_dict({}, **overrides)
    else:
        name = f"default_{args.variant}"
        config = TournamentConfig.from_dict({"variant": args.variant, "name": name, "output": f"results/{name}"},
                                            **overrides)
    warning_lines = logging.StreamHandler(sys.stderr)
    warning_lines.setFormatter(logging.Formatter("razz tournament: warning: %(message)s"))
    logger = logging.getLogger("razz_env.evaluate")
    logger.addHandler(warning_lines)
    paths: list[Path] = []

    def report(result: object) -> None:
        print(result)
        paths.extend(write_reports(result, config.output, plots=args.plots))

    try:
        result = tournament(config, fresh=args.fresh, progress=not args.quiet, backend=args.backend,
                            address=args.address, reports=report)
    except (BlockError, OSError) as err:
        problem = "" if isinstance(err, BlockError) else f"cannot write the results in {config.output}: "
        print(f"razz tournament: {problem}{err}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"razz tournament: interrupted; finished blocks are saved in {config.output}: rerun the same command "
              f"to resume", file=sys.stderr)
        return 130
    finally:
        logger.removeHandler(warning_lines)
    print(f"\nwrote {', '.join(str(p) for p in paths)}")
    return 1 if result.failures else 0
