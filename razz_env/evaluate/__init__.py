"""Evaluation: matches and tournaments between agents, duplicate-dealt, with confidence intervals.

``match(agent_a, agent_b, deals=...)`` plays two agents heads-up; ``tournament(config)`` runs a round
robin or a table from a :class:`TournamentConfig`, a mapping or a YAML file (``razz tournament``).
They are imported on first use, so ``import razz_env.evaluate`` stays light.
"""

from __future__ import annotations

import importlib
from typing import Any

_LAZY = {
    "match": "razz_env.evaluate.api",
    "tournament": "razz_env.evaluate.api",
    "MatchResult": "razz_env.evaluate.api",
    "BlockRow": "razz_env.evaluate.api",
    "TournamentResult": "razz_env.evaluate.runner",
    "TournamentConfig": "razz_env.evaluate.config",
    "BlockError": "razz_env.evaluate.workers",
}

__all__ = sorted(_LAZY)


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(_LAZY[name]), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))
