"""Reading settings into frozen dataclasses: YAML files with errors that name the offending key, and an error about
a field written as the flag that sets it (a command line's typed ``Args`` are read by :mod:`razz_env.command_line`)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import fields
from functools import cache
from pathlib import Path
from typing import Any

from razz_env.engine.errors import ConfigError, shown


def checked_fields(cls: type, data: Mapping[str, Any], label: str) -> dict[str, Any]:
    """``data`` as a dict after refusing keys that are not fields of ``cls`` (named in the error)."""
    if not isinstance(data, Mapping):
        raise ConfigError(f"{label}: expected a mapping, got {data!r}")
    known = {f.name for f in fields(cls)}
    unknown = sorted(set(data) - known)
    if unknown:
        raise ConfigError(f"{label}: unknown key(s) {unknown}; known: {sorted(known)}")
    return dict(data)


def flag_name(name: str) -> str:
    """The command-line flag that sets the field ``name`` (:mod:`razz_env.command_line`'s spelling).

    >>> flag_name("max_steps")
    '--max-steps'
    """
    return "--" + name.replace("_", "-")


def as_flags(err: ConfigError, cls: type) -> ConfigError:
    """``err`` with the names of ``cls``'s fields it opens with written as the flags that set them: an API's
    ``deals, steps: ...`` read by a command whose every setting is a flag says ``--deals, --steps: ...``.

    >>> from dataclasses import dataclass
    >>> @dataclass
    ... class Settings:
    ...     max_steps: int = 1
    >>> as_flags(ConfigError("max_steps: must be at least 1, got 0"), Settings)
    ConfigError('--max-steps: must be at least 1, got 0')
    """
    names, colon, rest = str(err).partition(": ")
    fields = {item.name for item in dataclasses.fields(cls)}
    if not colon or not set(names.split(", ")) <= fields:
        return err
    return ConfigError(", ".join(flag_name(name) for name in names.split(", ")) + ": " + rest)


def with_overrides(data: Mapping[str, Any], overrides: Mapping[str, Any]) -> dict[str, Any]:
    """``data`` updated with the overrides that are set (``None`` means not given)."""
    return {**data, **{k: v for k, v in overrides.items() if v is not None}}


def read_settings_file(path: str | Path, kind: str, example: str) -> dict[str, Any]:
    """The mapping of ``kind`` settings in a YAML file; a missing, unreadable, empty or malformed file
    (a key given twice included) is one :class:`ConfigError` naming the file and, for YAML, the place."""
    import yaml

    text_path = str(path)
    path = text_path if text_path.isprintable() else repr(text_path)  # one line, whatever the name holds
    try:
        text = Path(text_path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise ConfigError(f"{path}: is a folder, expected a YAML file") from None
    except UnicodeDecodeError as err:
        raise ConfigError(f"{path}: not UTF-8 text ({err.reason} at byte {err.start})") from None
    except OSError as err:
        raise ConfigError(f"{path}: cannot be read ({err.strerror or err})") from None
    try:
        data = yaml.load(text, Loader=_strict_loader())  # a SafeLoader subclass
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
        raise ConfigError(f"{path}: not valid YAML{where}: {' '.join(str(err.problem or err).split())}") from None
    except (yaml.YAMLError, ValueError, OverflowError, RecursionError) as err:
        raise ConfigError(f"{path}: not valid YAML: {' '.join(str(err).split()) or type(err).__name__}") from None
    if data is None:
        raise ConfigError(f"{path}: empty; expected a mapping of {kind} settings (see {example})")
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: expected a mapping of {kind} settings, got {type(data).__name__} {shown(data)}")
    return data


@cache
def _strict_loader() -> type:
    import yaml

    class StrictLoader(yaml.SafeLoader):
        """Safe YAML that refuses a key given twice (PyYAML silently keeps the last one)."""

        def construct_mapping(self, node: Any, deep: bool = False) -> dict[Any, Any]:
            seen = set()
            for key_node, _ in node.value:
                if isinstance(key_node, yaml.ScalarNode) and key_node.tag != "tag:yaml.org,2002:merge":
                    if key_node.value in seen:
                        raise yaml.constructor.ConstructorError(
                            None, None, f"key {key_node.value!r} is given twice", key_node.start_mark)
                    seen.add(key_node.value)
            return super().construct_mapping(node, deep)

    return StrictLoader
