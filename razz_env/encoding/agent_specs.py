"""Agents given as specs where an agent is seated below the agents layer (the environments, the batched vector env).

Users write an agent the same way everywhere: a name (``"razz_heuristic"``), a mapping with options
(``{"type": "monte_carlo", "samples": 64}``), ``"module:Class"``, a model file's path, or an instance. The registry
that turns a spec into an agent lives in the agents layer, above the environments, so they reach it through the
package's ``razz_env_agent_specs`` entry point (declared in ``pyproject.toml``) instead of an import that would run
up a layer; an instance needs no registry.

>>> make_agent_from_spec("calling_station").name
'calling_station'
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from importlib.metadata import entry_points
from typing import Any

from razz_env.engine.errors import ConfigError

ENTRY_POINT_GROUP = "razz_env_agent_specs"
"""The entry point group whose ``make_agent`` entry builds an agent from a spec (the agent registry's)."""


def is_agent_spec(value: Any) -> bool:
    """Whether ``value`` names an agent (a name, a path or a ``{"type": ...}`` mapping) rather than being one."""
    return isinstance(value, (str, Mapping))


def make_agent_from_spec(spec: Any, seed: int | None = None) -> Any:
    """The agent ``spec`` describes, built by the agent registry (``seed`` for agents that take one); an agent
    instance is returned as it is. A spec the registry refuses raises its error (a ``ValueError`` naming what is
    wrong and what is known)."""
    if not is_agent_spec(spec):
        return spec
    found = [entry for entry in entry_points(group=ENTRY_POINT_GROUP) if entry.name == "make_agent"]
    if not found:
        raise ConfigError(f"agent {spec!r}: agents by name need razz-env installed (pip install -e .), which "
                          f"declares the '{ENTRY_POINT_GROUP}' entry point; or pass an agent instance")
    return found[0].load()(spec, seed=seed)


def agent_spec_from_text(flag: str, text: str) -> str | dict:
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
