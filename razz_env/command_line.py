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
import json
import textwrap
import types
import typing
from collections.abc import Sequence
from typing import Any, TypeVar

from razz_env.engine.errors import ConfigError

T = TypeVar("T")


def field_docs(cls: type) -> dict[str, str]:
    """Each field's docstring (the string literal below it in the class body)."""
    body = ast.parse(textwrap.dedent(inspect.getsource(cls))).body[0].body
    return {a.target.id: b.value.value for a, b in zip(body, body[1:]) if isinstance(a, ast.AnnAssign)
            and isinstance(b, ast.Expr) and isinstance(b.value, ast.Constant)}


def add_fields(parser: argparse.ArgumentParser, cls: type) -> None:
    """One ``--flag`` per field of ``cls``, of its type, with its default and its docstring: a tuple field takes
    several values, a boolean pairs with ``--no-``, ``X | None`` takes an X, a field whose metadata names
    ``choices`` takes one of them (and ``metavar`` is shown so), and one whose metadata says ``positional`` is given
    without a flag."""
    docs = field_docs(cls)
    hints = typing.get_type_hints(cls)
    for item in dataclasses.fields(cls):
        kind, default = hints[item.name], item.default
        if isinstance(kind, types.UnionType):  # ``str | None``: the flag takes a str
            kind = next(arg for arg in typing.get_args(kind) if arg is not type(None))
        options: dict[str, Any] = {"help": f"{docs.get(item.name, '')} (default: {default})"}
        if default is dataclasses.MISSING:
            options = {"help": docs.get(item.name), "required": True}
        if kind is bool:
            options["action"] = argparse.BooleanOptionalAction
        elif typing.get_origin(kind) is tuple:
            options.update(nargs="+", type=typing.get_args(kind)[0])
        else:
            options["type"] = kind
        options.update({key: item.metadata[key] for key in ("choices", "metavar") if key in item.metadata})
        if item.metadata.get("positional"):
            options.pop("required", None)
            parser.add_argument(item.name, **options)
        else:
            parser.add_argument("--" + item.name.replace("_", "-"), default=default, **options)


def parser_for(cls: type, description: str | None, prog: str | None = None) -> argparse.ArgumentParser:
    """The parser of ``cls``'s fields; ``--help`` shows ``description`` and every field."""
    parser = argparse.ArgumentParser(prog=prog, description=description,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    add_fields(parser, cls)
    return parser


def parse_args(cls: type[T], description: str | None, argv: Sequence[str] | None = None,
               prog: str | None = None) -> T:
    """``cls`` from the command line (``argv``, default ``sys.argv[1:]``); a bad value exits 2 with argparse's
    message."""
    return args_from(cls, parser_for(cls, description, prog).parse_args(argv))


def args_from(cls: type[T], namespace: argparse.Namespace) -> T:
    """``cls`` from what :func:`parser_for`'s parser read (a field of several values as a tuple)."""
    return cls(**{name: tuple(v) if isinstance(v, list) else v for name, v in vars(namespace).items()})


def agent_spec_argument(flag: str, text: str) -> str | dict:
    """An agent spec given on the command line: a name, ``module:Class``, or a mapping such as
    ``'{"type": "mybots:MyBot", "aggression": 2}'`` (JSON or YAML flow style) for one with options."""
    if not text.lstrip().startswith("{"):
        return text
    example = '\'{"type": "mybots:MyBot", "aggression": 2}\''
    try:
        import yaml
    except ImportError:
        yaml = None
    try:
        data = yaml.safe_load(text) if yaml is not None else json.loads(text)
    except Exception as err:  # noqa: BLE001 - any parse error is the user's text, reported in one line
        raise ConfigError(f"{flag}: {text!r} is not a mapping like {example}: {' '.join(str(err).split())}") from None
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise ConfigError(f"{flag}: {text!r} needs a 'type' naming the agent, like {example}")
    return data
