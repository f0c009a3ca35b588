"""RL environments: the PettingZoo AEC game (:mod:`razz_env.envs.razz_v0`) and a Gymnasium single-seat view.

Importing this package loads nothing heavy; ``env``, ``raw_env``, ``SingleAgentEnv`` and ``make_env`` (Gymnasium's
``make`` with the ids registered: an ``env_fn`` for child processes) load their modules (and so PettingZoo or
Gymnasium) on first use.

The package is ``razz_env.envs``; ``razz_env.env()`` is the PettingZoo constructor (a function), so
``import razz_env.envs.single_agent as m`` and ``from razz_env.envs import razz_v0`` both work.
"""

from __future__ import annotations

from razz_env.engine.lazy import lazy_exports

_LAZY = {
    "env": "razz_env.envs.razz_v0",
    "raw_env": "razz_env.envs.razz_v0",
    "SingleAgentEnv": "razz_env.envs.single_agent",
    "make_env": "razz_env.envs.registration",
}

__all__ = ["SingleAgentEnv", "env", "make_env", "raw_env"]


__getattr__, __dir__ = lazy_exports(__name__, _LAZY)
