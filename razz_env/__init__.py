"""razz-env: seven-card stud (Razz first) for reinforcement learning.

``import razz_env`` loads only the engine. The PettingZoo environment
(``razz_env.env``, ``razz_env.raw_env``) and the Gymnasium single-agent view
(``razz_env.SingleAgentEnv``) are imported on first use, so the engine works
without gymnasium, pettingzoo or torch installed.
"""

from __future__ import annotations

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
)

__version__ = "0.1.0"

_LAZY = {
    "env": "razz_env.env.aec",
    "raw_env": "razz_env.env.aec",
    "SingleAgentEnv": "razz_env.env.single_agent",
}

__all__ = [
    "Action", "ConfigError", "HandConfig", "HandState", "IllegalActionError", "Rules", "SeatView", "Stakes",
    "SingleAgentEnv", "env", "raw_env",
]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'razz_env' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)
