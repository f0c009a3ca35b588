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
