"""The agent zoo: baselines (random, calling station, a razz heuristic, Monte Carlo equity) and a registry.

Build any agent by name or YAML-style spec with :func:`make_agent`; add new ones with
:func:`register`. Every agent follows :class:`razz_env.encoding.interface.Agent`.
"""

from razz_env.agents.registry import available_agents, make_agent, register

__all__ = ["available_agents", "make_agent", "register"]
