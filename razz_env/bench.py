"""Measure an agent against its game's reference field and bound its exploitability, in one report (``razz bench``).

The field is the game's default lineup (baselines, hand-crafted players, Monte Carlo, zoo agents, the exploiters:
:data:`razz_env.evaluate.config.DEFAULT_LINEUPS`) without the agent. Each member plays the agent heads-up over the
same duplicate deals (:func:`razz_env.evaluate.match`), scored raw and with AIVAT. The bound is a best response's
win rate (:func:`razz_env.exploit.exploitability`): a local best response when the agent states its policy, else a
learned one (the train extra). The report is bench.json and bench.html (:mod:`razz_env.bench_report`), with every
figure's 95% CI and the command that reproduces it. See docs/bench.md.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from razz_env.encoding.agent_specs import agent_spec_from_text
from razz_env.engine.checks import limited
from razz_env.engine.errors import ConfigError, missing_extra, shown
from razz_env.engine.settings import as_flags
from razz_env.evaluate.config import DEFAULT_LINEUPS, AgentSpec, agent_label

BEST_RESPONSES = ("auto", "lbr", "rl", "none")
BOUND_FOLDER = "bound"
"""The best response's results folder inside the bench's (a tournament's folder: results, stamp, training)."""


@dataclass(frozen=True, kw_only=True)
class Args:
    """``razz bench``'s settings (its flags; :func:`run`)."""

    agent: str = field(metadata={"positional": True, "metavar": "AGENT"})
    """the agent to measure: a name (razz agents lists them), module:Class, a model file, or a mapping with
    options"""
    variant: str | None = None
    """the game: razz, action_razz, stud or stud8 (default: the agent's, when it declares one of them, else razz)"""
    hands: int = limited(2000, minimum=2)
    """hands per pairing, an even number: each duplicate deal is played twice, seats swapped"""
    seed: int = limited(0, minimum=0)
    """seed of the deals (every pairing plays the same ones) and of the best response"""
    workers: int = limited(2, minimum=1)
    """worker processes"""
    output: str | None = None
    """report folder (default results/bench/<agent>)"""
    best_response: str = limited("auto", choices=BEST_RESPONSES)
    """the exploitability bound: lbr (needs the agent's stated policy), rl (a learned best response, needs the train
    extra), auto (lbr when the agent states its policy, else rl) or none"""
    lbr_deals: int = limited(500, minimum=1)
    """duplicate deals the local best response plays"""
    rl_steps: int = limited(50_000, minimum=1)
    """training steps of the learned best response (it then plays --hands hands on fresh deals)"""
    quiet: bool = False
    """no line per pairing while it plays"""


@dataclass(frozen=True)
class Plan:
    """A checked bench, nothing played yet: the agent, its game, the field it meets, the bound's method and the
    report's folder."""

    agent: AgentSpec
    label: str
    variant: str
    table: dict[str, Any]
    field: tuple[AgentSpec, ...]
    bound: str
    output: Path


@dataclass(frozen=True)
class BenchResult:
    """What a bench measured: each field pairing (:class:`~razz_env.evaluate.api.MatchResult`, the agent first) with
    its seconds, the bound (an :class:`~razz_env.exploit.api.ExploitResult`; None with ``--best-response none``)
    and the whole run's seconds."""

    plan: Plan
    args: Args
    pairings: tuple[Any, ...]
    pairing_seconds: tuple[float, ...]
    bound: Any
    seconds: float


def reference_field(agent: AgentSpec, variant: str) -> tuple[AgentSpec, ...]:
    """``variant``'s default lineup without ``agent`` (a member named as its label or, for a mapping, its type).

    >>> field = reference_field("mccfr_action_razz", "action_razz")
    >>> field[:4], len(field), "mccfr_action_razz" in field
    (('random', 'calling_station', 'razz_heuristic', 'monte_carlo'), 9, False)
    """
    names = {agent_label(agent)} | ({agent.get("type")} if isinstance(agent, Mapping) else set())
    return tuple(member for member in DEFAULT_LINEUPS[variant] if agent_label(member) not in names)


def default_variant(plays: tuple[str, ...] | None) -> str:
    """The game of an agent that declares it plays ``plays`` (None: every game): its one seven-card game, else razz.

    >>> default_variant(("stud",)), default_variant(("razz", "stud")), default_variant(None)
    ('stud', 'razz', 'razz')
    """
    games = [variant for variant in plays or () if variant in DEFAULT_LINEUPS]
    return games[0] if len(games) == 1 else "razz"


def plan(args: Args) -> Plan:
    """Check ``args`` before anything is played or written: the agent builds, plays the variant heads-up and (for
    LBR) states its policy; the field builds; the output is not a file. Raises :class:`ConfigError` naming the
    setting (``AGENT``: the agent)."""
    from razz_env.encoding.interface import declaration_of, seating_problem
    from razz_env.evaluate.tasks import build_agent

    if args.hands % 2:
        raise ConfigError(f"hands: duplicate dealing plays each deal twice, seats swapped; give an even number, got "
                          f"{args.hands}")
    agent = agent_spec_from_text("AGENT", args.agent)
    label = agent_label(agent)
    try:
        built = build_agent(agent, seed=0)
        declared = declaration_of(built)
    except Exception as err:  # noqa: BLE001 - whatever building the agent raises is a problem with its spec
        raise ConfigError(f"AGENT: {' '.join(str(err).split()) or type(err).__name__}") from None
    output = Path(args.output or default_output(label))
    if output.exists() and not output.is_dir():
        raise ConfigError(f"output: {output} is a file; expected a folder for the report")
    variant = args.variant or default_variant(declared.variants)
    if variant not in DEFAULT_LINEUPS:
        raise ConfigError(f"variant: {shown(variant)} has no reference field; one of {', '.join(DEFAULT_LINEUPS)}")
    problem = seating_problem(built, variant, 2)
    if problem is not None:
        raise ConfigError(f"variant: {problem}")
    method = bound_method(args.best_response, declared.states_policy, label)
    members = reference_field(agent, variant)
    for member in members:
        try:
            build_agent(member, seed=0)
        except Exception as err:  # noqa: BLE001 - a member that cannot be built (a missing extra) stops the bench
            raise ConfigError(f"the {variant} field's {agent_label(member)}: "
                              f"{' '.join(str(err).split()) or type(err).__name__}") from None
    return Plan(agent, label, variant, field_table(variant), members, method, output)


def field_table(variant: str) -> dict[str, Any]:
    """The heads-up table the field plays at: the variant's default tournament's (``razz tournament --variant V``,
    whose lineup the field is), so a zoo agent meets it at the stacks it was made for.

    >>> field_table("stud8")
    {'variant': 'stud8', 'stacks': 1000}
    """
    from razz_env.evaluate.config import TournamentConfig

    return {"variant": variant, "stacks": TournamentConfig.from_dict({"variant": variant}).stacks}


def bound_method(asked: str, states_policy: bool, label: str) -> str:
    """The best response that bounds the agent's exploitability: ``asked``, with ``auto`` resolved (LBR when the
    agent states its policy, else a learned one). Raises :class:`ConfigError` for LBR without a stated policy and
    for a learned best response without the train extra."""
    method = ("lbr" if states_policy else "rl") if asked == "auto" else asked
    if method == "lbr" and not states_policy:
        raise ConfigError(f"best_response: {label!r} states no policy (no action_probabilities), which a local best "
                          f"response needs; use --best-response rl (a learned best response) or none")
    if method == "rl":
        from importlib.util import find_spec

        if find_spec("sb3_contrib") is None:
            missing = missing_extra(ModuleNotFoundError(name="sb3_contrib"))
            raise ConfigError(f"best_response: the learned best response (rl) {str(missing).removeprefix('this ')}; "
                              f"or give --best-response none")
    return method


def default_output(label: str) -> str:
    """``results/bench/<agent>``."""
    from razz_env.exploit.bound import plain_name

    return f"results/bench/{plain_name(label)}"


def measure(bench: Plan, args: Args, shown_pairing: Callable[[Any, float], object] | None = None) -> BenchResult:
    """Play the agent against each member of the field, then the bound's best response against it (in
    ``<output>/bound``, fresh); ``shown_pairing`` is called with each pairing's result and seconds."""
    from razz_env.evaluate import match

    began = time.perf_counter()
    pairings, seconds = [], []
    for member in bench.field:
        started = time.perf_counter()
        pairings.append(match(bench.agent, member, deals=args.hands // 2, table=bench.table,
                              seed=args.seed, workers=args.workers, aivat=True))
        seconds.append(time.perf_counter() - started)
        if shown_pairing is not None:
            shown_pairing(pairings[-1], seconds[-1])
    bound = None
    if bench.bound != "none":
        from razz_env.exploit import exploitability

        deals = args.lbr_deals if bench.bound == "lbr" else args.hands // 2
        bound = exploitability(bench.agent, bench.bound, deals=deals, seed=args.seed, variant=bench.variant,
                               steps=args.rl_steps if bench.bound == "rl" else None, workers=args.workers,
                               output=str(bench.output / BOUND_FOLDER),
                               fresh=True, aivat=True)
    return BenchResult(bench, args, tuple(pairings), tuple(seconds), bound, time.perf_counter() - began)


def run(args: Args) -> int:
    """``razz bench``: the field's figures and the bound, the terminal summary, bench.json and bench.html; exit 1
    when an agent failed or the report cannot be written, 130 when interrupted (nothing is reported)."""
    from razz_env.bench_report import format_summary, write_bench
    from razz_env.evaluate.workers import BlockError
    from razz_env.train.trainer import TrainingInterrupted

    try:
        bench = plan(args)
    except ConfigError as err:
        raise as_flags(err, Args) from None
    output = bench.output

    def pairing_line(result: Any, seconds: float) -> None:
        if not args.quiet:
            print(f"{result} ({seconds:.0f} s)", flush=True)

    try:
        result = measure(bench, args, pairing_line)
        paths = write_bench(result, output)
    except (BlockError, OSError) as err:
        problem = "" if isinstance(err, BlockError) else f"cannot write the report in {output}: "
        print(f"razz bench: {problem}{err}", file=sys.stderr)
        return 1
    except (KeyboardInterrupt, TrainingInterrupted):
        print("razz bench: interrupted; no report written: rerun the command", file=sys.stderr)
        return 130
    print(format_summary(result))
    print(f"\nwrote {', '.join(str(p) for p in paths)}")
    return 0
