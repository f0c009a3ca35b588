"""Typed command lines: a frozen dataclass whose typed fields, each with a docstring below it, are its ``--flags``.

The one command-line style of the project: a study's ``Args`` and a ``razz`` command's (``razz ppo``
reads :class:`razz_env.train.batch_ppo.Args`) are declared beside the code that runs them and read here
(``tests/test_command_line.py`` shows one).
"""

from __future__ import annotations

import argparse
import ast
import dataclasses
import inspect
import os
import re
import sys
import textwrap
import types
import typing
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn, TypeVar

from razz_env.engine.checks import check_fields, limits_text
from razz_env.engine.errors import ConfigError
from razz_env.engine.settings import flag_name

T = TypeVar("T")


def field_docs(cls: type) -> dict[str, str]:
    """Each field's docstring (the string literal below it in the class body, an inherited field's in its base's)."""
    docs: dict[str, str] = {}
    for owner in reversed([c for c in cls.__mro__ if dataclasses.is_dataclass(c)]):
        body = ast.parse(textwrap.dedent(inspect.getsource(owner))).body[0].body
        docs.update({a.target.id: b.value.value for a, b in zip(body, body[1:]) if isinstance(a, ast.AnnAssign)
                     and isinstance(b, ast.Expr) and isinstance(b.value, ast.Constant)})
    return docs


def add_fields(parser: argparse.ArgumentParser, cls: type) -> None:
    """One ``--flag`` per field of ``cls``, of its type, with its default and its docstring: a tuple field takes
    several values (a repeated flag adds to them), a boolean pairs with ``--no-``, ``X | None`` takes an X, a field
    whose metadata names ``choices`` takes one of them (and ``metavar`` is shown so), a range declared with
    :func:`~razz_env.engine.checks.limited` is shown in its help, and one whose metadata says
    ``positional`` is given without a flag. A flag not given is left out of the namespace's values
    (:func:`args_from` then keeps the field's default)."""
    docs = field_docs(cls)
    hints = typing.get_type_hints(cls)
    for item in dataclasses.fields(cls):
        kind, default, required = hints[item.name], item.default, item.default is dataclasses.MISSING
        if isinstance(kind, types.UnionType):  # ``str | None``: the flag takes a str
            kind = next(arg for arg in typing.get_args(kind) if arg is not type(None))
        several = typing.get_origin(kind) is tuple
        notes = [note for note in (limits_text(kind, item.metadata), None if required else f"default: {default}")
                 if note]
        options: dict[str, Any] = {"help": docs.get(item.name, "") + (f" ({'; '.join(notes)})" if notes else "")}
        if kind is bool:
            options["action"] = argparse.BooleanOptionalAction
        else:
            options["type"] = typing.get_args(kind)[0] if several else kind
        options.update({key: item.metadata[key] for key in ("choices", "metavar") if key in item.metadata})
        if item.metadata.get("positional"):
            options["nargs"] = ("+" if required else "*") if several else (None if required else "?")
            parser.add_argument(item.name, **options)
        else:
            options.update(dict(nargs="+", action="extend") if several else {})
            parser.add_argument("--" + item.name.replace("_", "-"), required=required, **options)


def plain(text: str) -> str:
    """A docstring as a terminal shows it: dedented, without reStructuredText's markup.

    >>> plain("Run :func:`~razz_env.play.run` (``razz play``).")
    'Run razz_env.play.run (razz play).'
    """
    return re.sub(r":\w+:`~?([^`]+)`", r"\1", inspect.cleandoc(text)).replace("``", "")


def parser_for(cls: type, description: str | None, prog: str | None = None) -> argparse.ArgumentParser:
    """The parser of ``cls``'s fields; ``--help`` shows ``description`` and every field."""
    parser = argparse.ArgumentParser(prog=prog, description=description and plain(description),
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    add_fields(parser, cls)
    return parser


def parse_args(cls: type[T], description: str | None, argv: Sequence[str] | None = None,
               prog: str | None = None) -> T:
    """``cls`` from the command line (``argv``, default ``sys.argv[1:]``); a bad value exits 2 with argparse's
    message."""
    return args_from(cls, parser_for(cls, description, prog).parse_args(argv))


def run_script(main: Callable[[T], int | None], cls: type[T], description: str | None) -> NoReturn:
    """A script's entry point: ``cls`` from its command line, its fields' declared limits checked, then ``main``,
    whose status (None: 0) is the exit status; a :class:`ConfigError` is one line named after the script, exit
    status 2; Ctrl-C one line (what the script saved, where it says), exit status 130."""
    try:
        args = parse_args(cls, description)
        check_fields(args, flag_name)
        status = main(args)
    except ConfigError as err:
        print(f"{Path(inspect.getfile(main)).stem}: {err}", file=sys.stderr)
        sys.exit(2)
    except BrokenPipeError:
        sys.exit(reader_gone())
    except KeyboardInterrupt as err:
        print(f"{Path(inspect.getfile(main)).stem}: {str(err) or 'interrupted'}", file=sys.stderr)
        sys.exit(130)
    sys.exit(status or 0)


def reader_gone() -> int:
    """The exit status after stdout's reader went away (``... | head``): quiet, as a shell tool is, with stdout
    pointed at the null device so that Python's flush at exit raises nothing more (the ``signal`` module's advice)."""
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 1


def args_from(cls: type[T], namespace: argparse.Namespace) -> T:
    """``cls`` from what :func:`parser_for`'s parser read (a field of several values as a tuple; a field not given
    keeps its default)."""
    return cls(**{name: tuple(v) if isinstance(v, list) else v for name, v in vars(namespace).items()
                  if v is not None})
