"""The ``razz`` command: one subcommand per task, each declared beside its code.

A command is a module's typed settings class (a frozen dataclass whose fields are its flags, read by
:mod:`razz_env.command_line`) and a function of them; this module only lists the commands and dispatches. Each
command's module is imported when it runs, so ``razz replay`` works with the core install alone.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from typing import NamedTuple

from razz_env.engine.errors import ConfigError, missing_extra


class Command(NamedTuple):
    """A ``razz`` subcommand: the module that declares it, its one-line help, and the names of its settings class
    and of the function that runs them."""

    module: str
    help: str
    args: str = "Args"
    run: str = "run"

    def parser(self, prog: str) -> argparse.ArgumentParser:
        """Its parser (imports its module): the flags of its settings class; its description, the module's docstring
        (or the settings class's, in a module that declares several commands)."""
        from razz_env.command_line import parser_for

        module = importlib.import_module(self.module)
        settings = getattr(module, self.args)
        return parser_for(settings, module.__doc__ if self.args == "Args" else settings.__doc__, prog)

    def execute(self, prog: str, argv: Sequence[str]) -> int:
        """Read ``argv`` into its settings, check each against its declared type and limits (naming the flag), then
        run them."""
        from razz_env.command_line import args_from
        from razz_env.engine.checks import check_fields
        from razz_env.engine.settings import flag_name

        module = importlib.import_module(self.module)
        args = args_from(getattr(module, self.args), self.parser(prog).parse_args(argv))
        check_fields(args, flag_name)
        return getattr(module, self.run)(args)


class Group(NamedTuple):
    """A ``razz`` subcommand with subcommands of its own (``razz zoo list``)."""

    help: str
    commands: dict[str, Command]


COMMANDS: dict[str, Command | Group] = {
    "demo": Command("razz_env.engine.demo", "play one hand with random legal actions and print it"),
    "replay": Command("razz_env.engine.replay", "replay hand records (JSONL) or PHH hands (.phh, .phhs) and check "
                                                "their payoffs"),
    "show": Command("razz_env.show", "hand records as a replay page (HTML) or one picture per street (PNG)"),
    "tournament": Command("razz_env.evaluate.command", "round-robin tournament of agents (default: the shipped ones)"),
    "equity": Command("razz_env.engine.equity", "each player's share of the pot at showdown, exact where the count "
                                                "allows"),
    "play": Command("razz_env.play", "play at the terminal against agents"),
    "serve": Command("razz_env.serve.app", "a local web app: play any game against agents, watch them, replay hands "
                                           "(needs the serve extra)"),
    "train": Command("razz_env.train.command", "train an SB3 agent on the single-agent view (needs the train extra)"),
    "curves": Command("razz_env.train.curves", "a training run's learning curve, or a chain of runs' as one (PNG)"),
    "ppo": Command("razz_env.train.batch_ppo", "self-play PPO on the batched engine, on the CPU or a GPU (needs the "
                                               "train extra)"),
    "solve": Command("razz_env.solve.run", "solve a MiniRazz game with CFR+: the average policy, its exploitability "
                                           "and convergence"),
    "exploit": Command("razz_env.exploit.command", "a lower bound on an agent's exploitability: a best response "
                                                   "plays it heads-up"),
    "bench": Command("razz_env.bench", "measure an agent against its game's reference field and bound its "
                                       "exploitability: one report (HTML and JSON)"),
    "agents": Command("razz_env.agents.command", "list the agents: name, the variants and table sizes each plays, "
                                                 "its idea"),
    "zoo": Group("the shipped agents' recipes: list them, or reproduce one (needs the train extra)", {
        "list": Command("razz_env.recipes", "the agents with a recipe: stages and estimated CPU time", "ListArgs",
                        "run_list"),
        "reproduce": Command("razz_env.recipes", "run an agent's recipe and check the product against the manifest",
                             "ReproduceArgs", "run_reproduce")}),
}
"""Every ``razz`` subcommand."""


def package_version() -> str:
    """The installed package's version (the source tree's when it is not installed)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("razz-env")
    except PackageNotFoundError:
        from razz_env import __version__

        return __version__


def menu(prog: str, description: str, commands: dict[str, Command | Group]) -> argparse.ArgumentParser:
    """The parser that lists ``commands`` by name and help line (each one's flags are read by its
    :class:`Command`)."""
    parser = argparse.ArgumentParser(prog=prog, description=description)
    sub = parser.add_subparsers(dest="command", required=True)
    for name, command in commands.items():
        sub.add_parser(name, help=command.help, add_help=False)
    if prog == "razz":
        parser.add_argument("--version", action="version", version=f"razz {package_version()}",
                            help="print the installed razz-env version and exit")
    return parser


def find_command(words: Sequence[str]) -> tuple[str, Command, list[str]]:
    """The command ``words`` name, as ``razz`` and its subcommand words; the command; the words after it. Words that
    name none exit as argparse does (2 and the usage; 0 and the help for ``--help``)."""
    prog, found, words = "razz", Group("Seven-card stud (Razz first) for RL research.", COMMANDS), list(words)
    while isinstance(found, Group):
        if not words or words[0] not in found.commands:
            menu(prog, found.help, found.commands).parse_args(words[:1])  # exits: the usage, help or version
        prog, found, words = f"{prog} {words[0]}", found.commands[words[0]], words[1:]
    return prog, found, words


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``razz`` command."""
    prog, command, words = find_command(sys.argv[1:] if argv is None else argv)
    try:
        return int(command.execute(prog, words) or 0)
    except ConfigError as err:
        print(f"{prog}: {err}", file=sys.stderr)
        return 2
    except ModuleNotFoundError as err:
        extra = missing_extra(err)
        if extra is None:
            raise
        print(f"{prog}: {extra}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        from razz_env.command_line import reader_gone

        return reader_gone()


if __name__ == "__main__":
    sys.exit(main())
