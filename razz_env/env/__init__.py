"""RL environments: the PettingZoo AEC game (:mod:`razz_env.env.aec`) and a Gymnasium single-seat view.

``razz_env.env`` names both this package and the ``env()`` constructor that
``razz_env`` exports lazily; importing a submodule binds the package to that name,
so the package itself is callable: ``razz_env.env(**kwargs)`` is always
:func:`razz_env.env.aec.env`.
"""

from __future__ import annotations

import importlib
import sys
import types
from typing import Any

_LAZY = {"env": "razz_env.env.aec", "raw_env": "razz_env.env.aec", "SingleAgentEnv": "razz_env.env.single_agent"}

__all__ = ["SingleAgentEnv", "env", "raw_env"]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'razz_env.env' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)


class _CallablePackage(types.ModuleType):
    """This package, callable as the PettingZoo ``env()`` constructor."""

    def __call__(self, **kwargs: Any) -> Any:
        """``razz_env.env.aec.env(**kwargs)``: the wrapped AEC environment."""
        return importlib.import_module("razz_env.env.aec").env(**kwargs)


sys.modules[__name__].__class__ = _CallablePackage
