"""The ``razz`` command: ``demo``, ``replay``, ``show``, ``tournament``, ``equity``, ``play``, ``train``, ``ppo``,
``exploit``, ``agents``, ``zoo``.

Each subcommand imports what it needs when it runs, so ``razz replay`` works
with the core install alone. A typed command (:data:`TYPED_COMMANDS`) is a module's ``Args`` dataclass and its
``run(args)``, read by :mod:`razz_env.command_line` when the command runs.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from razz_env.command_line import agent_spec_argument
from razz_env.engine.errors import ConfigError, IllegalActionError, missing_extra

DEMO_SEATS = 4
TYPED_COMMANDS = {
    "play": ("razz_env.play", "play at the terminal against agents"),
    "show": ("razz_env.show", "hand records as a replay page (HTML) or one picture per street (PNG)"),
    "equity": ("razz_env.engine.equity", "each player's share of the pot at showdown, exact where the count allows"),
    "ppo": ("razz_env.train.batch_ppo", "self-play PPO on the batched engine, on the CPU or a GPU (needs the train "
                                        "extra)"),
    "solve": ("razz_env.solve.run", "solve a MiniRazz game with CFR+: the average policy, its exploitability and "
                                    "convergence"),
}
"""Commands declared as ``Args`` beside their code: the module that holds ``Args`` and ``run``, and the help line."""


def _cmd_demo(args: argparse.Namespace) -> int:
    import random

    from razz_env.engine.actions import Action
    from razz_env.engine.config import MIN_SEATS, HandConfig, max_seats
    from razz_env.engine.record import to_record
    from razz_env.engine.state import HandState
    from razz_env.engine.text import render_hand
    from razz_env.engine.variants import get_variant

    most = max_seats(get_variant(args.variant))
    seats = min(DEMO_SEATS, most) if args.seats is None else args.seats
    if not MIN_SEATS <= seats <= most:
        raise ConfigError(f"--seats: {args.variant} seats {MIN_SEATS} to {most}, got {seats}")
    config = HandConfig.create(args.variant, num_seats=seats, rules=args.rules)
    hand = HandState(config, seed=args.seed)
    chooser = random.Random(args.seed)
    while not hand.is_over:
        legal = hand.legal_actions()
        if Action.CHECK in legal:
            legal = tuple(a for a in legal if a is not Action.FOLD)
        hand.act(chooser.choice(legal))
    print(render_hand(hand, viewer=None))
    if args.record:
        print(json.dumps(to_record(hand)))
    return 0


def _replay_items(path: str) -> Iterator[tuple[object, object]]:
    """``(place, record or error)`` for each hand of a hand-record file (JSONL) or a PHH file (.phh, .phhs)."""
    from razz_env.engine.record import read_records

    if str(path).lower().endswith((".phh", ".phhs")):
        from razz_env.engine.phh import read_phh

        for label, record in read_phh(path):
            yield (f"[{label}]" if label else "hand"), record
    else:
        yield from read_records(path)


def _cmd_replay(args: argparse.Namespace) -> int:
    from razz_env.engine.record import replay_record, unreadable_file

    if args.explain is not None and args.explain < 0:
        raise ConfigError(f"--explain: expected how many failures to print (0 or more), got {args.explain}")
    problems = [f"{path}: {problem}" for path in args.files if (problem := unreadable_file(path))]
    if problems:
        raise ConfigError("; ".join(problems))
    counts = {"mismatch": 0, "illegal": 0, "invalid": 0}
    hands = 0
    failures: list[str] = []
    for path in args.files:
        for line, record in _replay_items(path):
            hands += 1
            if isinstance(record, Exception):  # not a hand: bad bytes, JSON or TOML, or an illegal PHH decision
                counts["illegal" if isinstance(record, IllegalActionError) else "invalid"] += 1
                failures.append(f"{path}:{line}: {record}")
                continue
            result = replay_record(record)
            if not result.ok:
                counts[result.status] += 1
                failures.append(f"{path}:{line}: {result.message}")
    print(f"{hands} hands, {counts['mismatch']} mismatches, {counts['illegal']} illegal, {counts['invalid']} invalid")
    listed = failures if args.explain is None else failures[: args.explain]
    for failure in listed:
        print("  " + failure)
    if len(failures) > len(listed):
        print(f"  ... and {len(failures) - len(listed)} more")
    if args.check and failures:
        return 1
    return 0


def _cmd_tournament(args: argparse.Namespace) -> int:
    import logging

    from razz_env.evaluate import BlockError, TournamentConfig, tournament
    from razz_env.evaluate.report import write_reports

    overrides = {"workers": args.workers, "deals": args.deals, "output": args.output, "seed": args.seed,
                 "records": True if args.records else None, "engine": args.engine,
                 "aivat": True if args.aivat else None, "rank_by": args.rank_by}
    if args.config:
        config = TournamentConfig.from_yaml(args.config, **overrides)
    else:
        config = TournamentConfig.from_dict({}, **overrides)
    warning_lines = logging.StreamHandler(sys.stderr)
    warning_lines.setFormatter(logging.Formatter("razz tournament: warning: %(message)s"))
    logger = logging.getLogger("razz_env.evaluate")
    logger.addHandler(warning_lines)
    paths: list[Path] = []

    def report(result: object) -> None:
        print(result)
        paths.extend(write_reports(result, config.output, plots=not args.no_plots))

    try:
        result = tournament(config, fresh=args.fresh, progress=not args.quiet, backend=args.backend,
                            address=args.address, reports=report)
    except BlockError as err:
        print(f"razz tournament: {err}", file=sys.stderr)
        return 1
    except OSError as err:
        print(f"razz tournament: cannot write the results in {config.output}: {err}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"razz tournament: interrupted; finished blocks are saved in {config.output}: rerun the same command "
              f"to resume", file=sys.stderr)
        return 130
    finally:
        logger.removeHandler(warning_lines)
    print(f"\nwrote {', '.join(str(p) for p in paths)}")
    return 1 if result.failures else 0


def _check_train_flags(args: argparse.Namespace) -> None:
    import math

    for flag, value in (("--steps", args.steps), ("--n-envs", args.n_envs)):
        if value is not None and value < 1:
            raise ConfigError(f"{flag}: expected a positive integer, got {value}")
    if args.max_minutes is not None and not (math.isfinite(args.max_minutes) and args.max_minutes > 0):
        raise ConfigError(f"--max-minutes: expected a positive number of minutes, got {args.max_minutes}")
    if args.seed is not None and not 0 <= args.seed < 2**32:
        raise ConfigError(f"--seed: expected an integer from 0 to {2**32 - 1}, got {args.seed}")


def _cmd_train(args: argparse.Namespace) -> int:
    from razz_env.train.config import TrainConfig
    from razz_env.train.trainer import TrainingInterrupted, summary_line, train

    def notify(message: str) -> None:
        print(f"razz train: {message}", file=sys.stderr)

    _check_train_flags(args)
    overrides = {"total_timesteps": args.steps, "output": args.output, "seed": args.seed, "n_envs": args.n_envs,
                 "vec_env": args.vec_env, "max_minutes": args.max_minutes}
    config = TrainConfig.from_yaml(args.config, **overrides)
    try:
        summary = train(config, resume=args.resume, fresh=args.fresh, progress=not args.quiet,
                        dry_run=args.dry_run, notify=notify)
    except TrainingInterrupted as err:
        notify(str(err))
        return 130
    except KeyboardInterrupt:
        notify("interrupted outside the training loop; no checkpoint was saved now")
        return 130
    print(json.dumps(summary, indent=2) if args.dry_run else summary_line(summary, config.output))
    return 0


def _backend_arguments(parser: argparse.ArgumentParser) -> None:
    """``--backend`` and ``--address``: where the blocks run (see docs/scaling.md)."""
    parser.add_argument("--backend", default="local", choices=["local", "ray"],
                        help="local worker processes (default) or Ray actors (pip install 'razz-env[ray]')")
    parser.add_argument("--address", help="with --backend ray: the cluster to join ('auto', 'ray://host:10001'); "
                                          "default a local one of --workers CPUs")


def _cmd_exploit(args: argparse.Namespace) -> int:
    from razz_env.evaluate.report import write_reports
    from razz_env.evaluate.runner import BlockError
    from razz_env.exploit import exploitability
    from razz_env.exploit.bound import default_output, format_exploit, write_exploit_reports
    from razz_env.train.trainer import TrainingInterrupted

    if args.method == "exact":
        return _exploit_exactly(args)
    if args.deals is None:
        raise ConfigError(f"--deals: --method {args.method} plays the agent; give the duplicate deals to play")
    for flag, value, low in (("--deals", args.deals, 1), ("--workers", args.workers, 1), ("--seed", args.seed, 0),
                             ("--steps", args.steps, 1)):
        if value is not None and value < low:
            raise ConfigError(f"{flag}: expected an integer of at least {low}, got {value}")
    if args.method == "rl" and args.steps is None:
        raise ConfigError("--steps: --method rl trains a best response first; give its training steps")
    if args.method == "lbr" and args.steps is not None:
        raise ConfigError("--steps: only --method rl trains; --method lbr takes no --steps")
    if args.method == "rl" and args.suit_blind:
        raise ConfigError("--suit-blind: an option of --method lbr")
    agent = agent_spec_argument("--agent", args.agent)
    output = args.output or default_output(agent, args.method)
    paths: list[Path] = []

    def report(measured: object) -> None:
        print(format_exploit(measured.detail))
        paths.extend(write_reports(measured.detail.tournament, output, plots=not args.no_plots))
        paths.extend(write_exploit_reports(measured.detail, output, plots=not args.no_plots))

    try:
        result = exploitability(agent, args.method, deals=args.deals, seed=args.seed, output=output,
                                workers=args.workers, variant=args.variant, steps=args.steps, fresh=args.fresh,
                                progress=not args.quiet, suit_blind=args.suit_blind, backend=args.backend,
                                address=args.address, reports=report, aivat=args.aivat)
    except BlockError as err:
        print(f"razz exploit: {err}", file=sys.stderr)
        return 1
    except OSError as err:
        print(f"razz exploit: cannot write the results in {output}: {err}", file=sys.stderr)
        return 1
    except (KeyboardInterrupt, TrainingInterrupted):
        print(f"razz exploit: interrupted; what is finished is saved in {output}: rerun the same command to resume",
              file=sys.stderr)
        return 130
    print(f"\nwrote {', '.join(str(p) for p in paths)}")
    return 1 if result.detail.tournament.failures or not result.valid else 0


def _exploit_exactly(args: argparse.Namespace) -> int:
    """``razz exploit --method exact``: the flags it refuses, then :func:`razz_env.exploit.exploitability`."""
    from razz_env.exploit import exploitability
    from razz_env.exploit.bound import default_output
    from razz_env.solve.measure import REPORT_FILES, format_result

    given = [flag for flag, value in (("--deals", args.deals), ("--steps", args.steps),
                                      ("--suit-blind", args.suit_blind), ("--address", args.address),
                                      ("--aivat", args.aivat)) if value]
    if args.backend != "local":
        given.append("--backend")
    if given:
        raise ConfigError(f"{', '.join(given)}: --method exact plays no hands; it reads the agent's policy into the "
                          "solved game's tree")
    agent = agent_spec_argument("--agent", args.agent)
    output = args.output or default_output(agent, "exact")
    try:
        result = exploitability(agent, "exact", variant=args.variant, output=output, fresh=args.fresh)
    except KeyboardInterrupt:
        print("razz exploit: interrupted before the exact figure was computed; rerun the command to measure it",
              file=sys.stderr)
        return 130
    print(format_result(result.detail))
    print(f"\nwrote {', '.join(str(Path(output) / name) for name in REPORT_FILES)}")
    return 0


def _cmd_agents(args: argparse.Namespace) -> int:
    from dataclasses import asdict

    from razz_env.agents.registry import AgentSpecError, available_agents, describe_agent
    from razz_env.engine.config import MAX_SEATS, MIN_SEATS

    try:
        infos = [describe_agent(name) for name in (args.names or available_agents())]
    except AgentSpecError as err:
        raise ConfigError(str(err)) from None
    if args.json:
        print(json.dumps([asdict(info) for info in infos], indent=2))
        return 0
    rows = [("agent", "variants", "seats", "idea")]
    for info in infos:
        if not info.tables_known:
            variants = seats = "as its spec says"
        else:
            variants = ", ".join(info.variants) if info.variants is not None else "all"
            seats = "/".join(map(str, info.seat_counts)) if info.seat_counts is not None else f"{MIN_SEATS}-{MAX_SEATS}"
        rows.append((info.name, variants, seats, info.idea))
    widths = [max(len(row[i]) for row in rows) for i in range(3)]
    for row in rows:
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths)) + "  " + row[3])
    return 0


def _inputs(given: list[str]) -> dict:
    """``--input REF=PATH`` flags as a mapping of stage file (or recipe) to the file given for it."""
    inputs = {}
    for text in given:
        key, sign, path = text.partition("=")
        if not sign or not key or not path:
            raise ConfigError(f"--input {text!r}: expected STAGE/FILE=PATH or RECIPE=PATH")
        inputs[key.removeprefix("@")] = Path(path)
    return inputs


def _cmd_zoo(args: argparse.Namespace) -> int:
    from razz_env import recipes

    if args.zoo_command == "list":
        for name in recipes.recipe_names():
            recipe = recipes.load_recipe(name)
            planned = recipes.plan(recipe)
            minutes = sum(item.minutes or 0.0 for item in planned)
            base = f" from {recipe.base.name}," if recipe.base else ""
            print(f"{name}: {name}{recipes.SUFFIX},{base} {len(recipe.stages)} stage(s) "
                  f"({', '.join(s.name for s in recipe.stages)}), ~{minutes:.0f} CPU min in all")
        return 0
    recipe = recipes.load_recipe(args.name)
    if args.dry_run:
        print("\n".join(recipes.describe_plan(recipe, recipes.plan(recipe, args.output, args.stage))))
        return 0
    if args.eval_deals is not None and args.eval_deals < 0:
        raise ConfigError(f"--eval-deals: expected 0 (no evaluation) or more deals, got {args.eval_deals}")
    run, verdict = recipes.reproduce(recipe, args.output, args.stage, _inputs(args.input), args.eval_deals,
                                     progress=not args.quiet)
    for note in run.notes:
        print(f"note: {note}")
    if verdict is None:
        print(f"stage {args.stage} done in {run.stage_folder(args.stage)}")
        return 0
    print("\n".join(verdict.lines()))
    if args.install:
        if not verdict.within:
            raise ConfigError(f"--install: {verdict.product} is not the shipped model and not every figure lies "
                              f"within its recorded CI; not installing it")
        recipes.install(recipe, verdict.product)
        print(f"installed {verdict.product} as {recipe.name} in {recipe.folder}")
    return 0 if verdict.within else 1


def _version() -> str:
    """The installed package's version (the source tree's when it is not installed)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("razz-env")
    except PackageNotFoundError:
        from razz_env import __version__

        return __version__


def _rules_argument(parser: argparse.ArgumentParser) -> None:
    from razz_env.engine.presets import PRESETS

    parser.add_argument("--rules", default="house", choices=list(PRESETS),
                        help="the rule preset (docs/rules.md, Rule presets; default house)")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``razz`` command."""
    from razz_env.engine.variants import VARIANTS

    parser = argparse.ArgumentParser(prog="razz", description="Seven-card stud (Razz first) for RL research.")
    parser.add_argument("--version", action="version", version=f"razz {_version()}",
                        help="print the installed razz-env version and exit")
    sub = parser.add_subparsers(dest="command", required=True)

    demo = sub.add_parser("demo", help="play one hand with random legal actions and print it")
    demo.add_argument("--variant", default="razz", choices=list(VARIANTS),
                      help="the game (default razz)")
    demo.add_argument("--seats", type=int, help=f"players at the table, 2 to 8, as many as the variant's deck deals "
                                                f"(default {DEMO_SEATS}, or fewer when the deck deals fewer)")
    demo.add_argument("--seed", type=int, default=0, help="seed of the deal and the random actions (default 0)")
    _rules_argument(demo)
    demo.add_argument("--record", action="store_true", help="also print the hand record (JSON)")
    demo.set_defaults(func=_cmd_demo)

    replay = sub.add_parser(
        "replay", help="replay hand records (JSONL) or PHH hands (.phh, .phhs) and check their payoffs",
        description="Replay hand records (docs/hand-records.md), one JSON object per line, or PHH files "
                    "(.phh one hand, .phhs numbered sections; razz, stud and stud8: FR, F7S, F7S/8). Prints "
                    "'N hands, M mismatches, K illegal, E invalid' (illegal: an illegal action; invalid: a line, "
                    "file or field that is not a hand record), then one 'file:line: field: problem' line per "
                    "failing record. Exit status: 0; with --check, 1 if "
                    "any record failed; 2 if a file is missing, a directory or unreadable (nothing is replayed).")
    replay.add_argument("files", nargs="+", help="hand-record files (JSON lines), or PHH files (.phh, .phhs)")
    replay.add_argument("--check", action="store_true", help="exit 1 on any mismatch, illegal or invalid record")
    replay.add_argument("--explain", type=int, default=None, metavar="N",
                        help="print only the first N failures (default: all)")
    replay.set_defaults(func=_cmd_replay)


    tournament = sub.add_parser("tournament", help="round-robin tournament of agents (default: the shipped ones)")
    tournament.add_argument("--config", help="tournament YAML (default: the embedded default)")
    tournament.add_argument("--workers", type=int, help="worker processes")
    tournament.add_argument("--deals", type=int, help="deals per pairing (more than a finished run extends it)")
    tournament.add_argument("--seed", type=int, help="tournament seed: the deals of every block follow from it")
    tournament.add_argument("--output", help="results folder")
    tournament.add_argument("--fresh", action="store_true", help="discard earlier results instead of resuming")
    tournament.add_argument("--records", action="store_true", help="write hand records of every hand")
    tournament.add_argument("--engine", choices=["auto", "scalar", "batch"],
                            help="auto (default): the batched engine for lineups that can act in batch (needs "
                                 "numba), the scalar one elsewhere; same results either way")
    tournament.add_argument("--aivat", action="store_true",
                            help="also score every hand with AIVAT (config aivat: true): the figures beside the raw "
                                 "ones, with less variance")
    tournament.add_argument("--rank-by", dest="rank_by", choices=["bb_per_100", "aivat_bb_per_100"],
                            help="the standings' order: raw bb/100 (default) or the AIVAT figure (needs --aivat)")
    tournament.add_argument("--no-plots", action="store_true", help="skip the crosstable and CI plots (PNG)")
    tournament.add_argument("--quiet", action="store_true", help="no progress bar")
    _backend_arguments(tournament)
    tournament.set_defaults(func=_cmd_tournament)



    train = sub.add_parser("train", help="train an SB3 agent on the single-agent view (needs the train extra)")
    train.add_argument("--config", required=True, help="training YAML, e.g. configs/train_ppo_razz.yaml")
    train.add_argument("--steps", type=int, help="override total_timesteps")
    train.add_argument("--n-envs", type=int, dest="n_envs", help="override n_envs: environments stepped together")
    train.add_argument("--vec-env", choices=["auto", "dummy", "subproc", "batch"], dest="vec_env",
                       help="override vec_env: one process (dummy), one per environment (subproc), the tables "
                            "of the batched engine (batch; needs the batch extra) or batch when the pool allows (auto)")
    train.add_argument("--max-minutes", type=float, dest="max_minutes", help="stop after this wall-clock time")
    train.add_argument("--seed", type=int, help="override seed (0 to 2**32 - 1)")
    train.add_argument("--output", help="run folder (default runs/<config name>)")
    train.add_argument("--resume", action="store_true",
                       help="continue the run in the folder from its newest checkpoint that verifies and loads")
    train.add_argument("--fresh", action="store_true",
                       help="delete the earlier run in the folder first (says what it deletes)")
    train.add_argument("--dry-run", action="store_true", dest="dry_run",
                       help="check the config, the run folder and the model settings, then stop")
    train.add_argument("--quiet", action="store_true", help="no progress bar")
    train.set_defaults(func=_cmd_train)

    for name, (_, help_line) in TYPED_COMMANDS.items():
        sub.add_parser(name, help=help_line, add_help=False)  # its flags are its Args', read by _run_typed

    exploit = sub.add_parser(
        "exploit", help="a lower bound on an agent's exploitability: a best response plays it heads-up",
        description="Play a best response against an agent, heads-up, in duplicate, through the tournament harness "
                    "(results folder, resume, --deals to extend, workers), and report its win rate in bb/100 with "
                    "the 95% CI: a lower bound on the agent's exploitability. --method lbr (default): local best "
                    "response, which needs the agent's stated policy (action_probabilities). --method rl: train a "
                    "MaskablePPO best response for --steps, then measure it on fresh deals. See "
                    "docs/exploitability.md.")
    exploit.add_argument("--agent", required=True,
                         help="the agent to measure: a name (razz agents lists them), module:Class, or a mapping "
                              "with options")
    exploit.add_argument("--method", default="lbr", choices=["lbr", "rl", "exact"],
                         help="the best response (default lbr); exact: the solver's exact figure (MiniRazz games)")
    exploit.add_argument("--deals", type=int,
                         help="lbr and rl: duplicate deals to play (2 hands each); more than a finished run extends it")
    exploit.add_argument("--steps", type=int, help="training steps of the rl best response (--method rl only)")
    exploit.add_argument("--variant", default="razz", choices=list(VARIANTS),
                         help="the game (default razz)")
    exploit.add_argument("--suit-blind", action="store_true", dest="suit_blind",
                         help="lbr in razz or action_razz: ask the agent once per rank multiset of down cards "
                              "(exact for an agent that ignores suits, an approximation otherwise; much faster)")
    exploit.add_argument("--seed", type=int, default=0, help="seed of the deals (and of the rl training)")
    exploit.add_argument("--output", help="results folder (default results/exploit/<agent>-<method>)")
    exploit.add_argument("--workers", type=int, default=1, help="worker processes (default 1)")
    exploit.add_argument("--fresh", action="store_true", help="discard earlier results (and training) in the folder")
    exploit.add_argument("--no-plots", action="store_true", dest="no_plots", help="skip the PNG plots")
    exploit.add_argument("--aivat", action="store_true",
                         help="also score the hands with AIVAT (lbr, rl): the same figure with less variance")
    exploit.add_argument("--quiet", action="store_true", help="no progress bar")
    _backend_arguments(exploit)
    exploit.set_defaults(func=_cmd_exploit)


    agents = sub.add_parser(
        "agents", help="list the agents: name, the variants and table sizes each plays, its idea",
        description="List every registered agent (or the ones named) with the variants and seat counts it declares "
                    "it can play (rule agents play all) and its idea in one line. A module:Class reference to your "
                    "own code is described the same way.")
    agents.add_argument("names", nargs="*", help="agents to describe (default: every registered one)")
    agents.add_argument("--json", action="store_true", help="print a JSON list instead of a table")
    agents.set_defaults(func=_cmd_agents)

    zoo = sub.add_parser("zoo", help="the shipped agents' recipes: list them, or reproduce one (needs the train extra)",
                         description="Every shipped trained agent has a recipe beside its model "
                                     "(razz_env/agents/zoo/NAME.recipe.yaml): its training stages in order.")
    zoo_sub = zoo.add_subparsers(dest="zoo_command", required=True)
    zoo_sub.add_parser("list", help="the agents with a recipe: stages and estimated CPU time")
    reproduce = zoo_sub.add_parser(
        "reproduce", help="run an agent's recipe and check the product against the manifest",
        description="Run the recipe's stages in order into OUTPUT/<recipe>/<stage>/ (finished stages are kept, an "
                    "interrupted one resumes), then check the product against the manifest: its SHA-256, its "
                    "weights against the shipped file's, and its figures against the recorded 95%% CIs. Exit 1 when "
                    "the product is neither the shipped model nor within every CI.")
    reproduce.add_argument("name", help="a shipped agent with a recipe (razz zoo list)")
    reproduce.add_argument("--output", default="runs/zoo", help="root of the run folders (default runs/zoo)")
    reproduce.add_argument("--dry-run", action="store_true", dest="dry_run",
                           help="print the stages, their warm starts, commands and estimated CPU time; run nothing")
    reproduce.add_argument("--stage", help="run this stage only (its inputs made before, or given by --input)")
    reproduce.add_argument("--input", action="append", default=[], metavar="REF=PATH",
                           help="use PATH as an earlier stage's file (STAGE/FILE) or a recipe's product (RECIPE); it "
                                "must have the SHA-256 the recipe recorded (repeatable)")
    reproduce.add_argument("--eval-deals", type=int, dest="eval_deals",
                           help="deals per final_eval opponent when the product is not the shipped model (default: "
                                "the recorded hands' worth; 0: no evaluation)")
    reproduce.add_argument("--install", action="store_true",
                           help="put the product into the zoo when it is the shipped model or within every CI")
    reproduce.add_argument("--quiet", action="store_true", help="no progress bars")
    zoo.set_defaults(func=_cmd_zoo)
    return parser


def _typed_module(command: str) -> Any:
    import importlib

    return importlib.import_module(TYPED_COMMANDS[command][0])


def typed_parser(command: str) -> argparse.ArgumentParser:
    """The full parser of a typed command (imports its module)."""
    from razz_env.command_line import parser_for

    module = _typed_module(command)
    return parser_for(module.Args, module.__doc__, prog=f"razz {command}")


def _run_typed(command: str, argv: Sequence[str]) -> int:
    """A typed command: its module's ``Args`` from ``argv`` (read by :func:`typed_parser`), then its ``run``."""
    from razz_env.command_line import args_from

    module = _typed_module(command)
    return module.run(args_from(module.Args, typed_parser(command).parse_args(argv)))


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``razz`` command."""
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv and argv[0] in TYPED_COMMANDS:
        command, run = argv[0], lambda: _run_typed(argv[0], argv[1:])
    else:
        args = build_parser().parse_args(argv)
        command, run = args.command, lambda: args.func(args)
    try:
        return int(run() or 0)
    except ConfigError as err:
        print(f"razz {command}: {err}", file=sys.stderr)
        return 2
    except ModuleNotFoundError as err:
        extra = missing_extra(err)
        if extra is None:
            raise
        print(f"razz {command}: {extra}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
