"""razz-env: seven-card stud (Razz first) for reinforcement learning.

``import razz_env`` loads only the engine. The PettingZoo environment (``razz_env.env()``,
``razz_env.raw_env``, the versioned module ``razz_env.razz_v0``) and the Gymnasium single-agent
view (``razz_env.SingleAgentEnv``) are imported on first use, so the engine works without
gymnasium, pettingzoo or torch installed. The Gymnasium ids (``razz_env/Razz-v0`` ..., see
:mod:`razz_env.envs.registration`) are registered by ``import razz_env`` when gymnasium is
already imported, and whenever the environments are.
"""

from __future__ import annotations

import importlib
import sys
from typing import Any

from razz_env.engine import (
    Action,
    ConfigError,
    HandConfig,
    HandState,
    IllegalActionError,
    Rules,
    SeatView,
    Stakes,
    Table,
)
from razz_env.engine.lazy import lazy_exports

__version__ = "0.1.0"

_LAZY = {
    "raw_env": "razz_env.envs.razz_v0",
    "SingleAgentEnv": "razz_env.envs.single_agent",
}
_LAZY_MODULES = {"razz_v0": "razz_env.envs.razz_v0"}

__all__ = [
    "Action", "ConfigError", "HandConfig", "HandState", "IllegalActionError", "Rules", "SeatView", "Stakes",
    "SingleAgentEnv", "Table", "env", "raw_env", "razz_v0",
]

def env(**kwargs: Any) -> Any:
    """The PettingZoo AEC environment, ``razz_v0.env(**kwargs)`` (options: :mod:`razz_env.envs.razz_v0`)."""
    from razz_env.envs.razz_v0 import env as make_env

    return make_env(**kwargs)


if "gymnasium" in sys.modules:  # cheap once gymnasium is loaded; razz_env never loads it itself
    importlib.import_module("razz_env.envs.registration")


__getattr__, __dir__ = lazy_exports(__name__, _LAZY, _LAZY_MODULES)
