"""Reading YAML settings into frozen dataclasses, with errors that name the offending key."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from pathlib import Path
from typing import Any

from razz_env.engine.errors import ConfigError


def checked_fields(cls: type, data: Mapping[str, Any], label: str) -> dict[str, Any]:
    """``data`` as a dict after refusing keys that are not fields of ``cls`` (named in the error)."""
    if not isinstance(data, Mapping):
        raise ConfigError(f"{label}: expected a mapping, got {data!r}")
    known = {f.name for f in fields(cls)}
    unknown = sorted(set(data) - known)
    if unknown:
        raise ConfigError(f"{label}: unknown key(s) {unknown}; known: {sorted(known)}")
    return dict(data)


def require_positive_ints(settings: object, names: tuple[str, ...]) -> None:
    """Refuse any of ``names`` on ``settings`` that is not a positive integer, naming it."""
    for name in names:
        value = getattr(settings, name)
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ConfigError(f"{name}: expected a positive integer, got {value!r}")


def with_overrides(data: Mapping[str, Any], overrides: Mapping[str, Any]) -> dict[str, Any]:
    """``data`` updated with the overrides that are set (``None`` means not given)."""
    return {**data, **{k: v for k, v in overrides.items() if v is not None}}


def read_yaml(path: str | Path, output_root: str) -> dict[str, Any]:
    """A YAML mapping, with ``name`` defaulting to the file name and ``output`` to ``<output_root>/<name>``."""
    import yaml

    with open(path, encoding="utf-8") as handle:
        data = yaml.safe_load(handle) or {}
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: expected a mapping of settings")
    data.setdefault("name", Path(path).stem)
    data.setdefault("output", f"{output_root}/{data['name']}")
    return data
