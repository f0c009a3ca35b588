"""RL environments: the PettingZoo AEC game (:mod:`razz_env.env.razz_v0`) and a Gymnasium single-seat view.

Importing this package loads nothing heavy; ``env``, ``raw_env`` and ``SingleAgentEnv`` load their
modules (and so PettingZoo or Gymnasium) on first use.

The attribute ``razz_env.env`` is the constructor ``razz_env.env()``, a plain function, not this
package (both pickle by reference; see :mod:`razz_env`). Import the package's modules with ``from``:
``from razz_env.env import razz_v0`` or ``from razz_env.env.single_agent import SingleAgentEnv``.
``import razz_env.env.single_agent as m`` reads the attribute ``razz_env.env`` and so fails.
"""

from __future__ import annotations

import importlib
from typing import Any

_LAZY = {
    "env": "razz_env.env.razz_v0",
    "raw_env": "razz_env.env.razz_v0",
    "SingleAgentEnv": "razz_env.env.single_agent",
}

__all__ = ["SingleAgentEnv", "env", "raw_env"]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'razz_env.env' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
