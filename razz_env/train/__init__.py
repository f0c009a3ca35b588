"""Training SB3 agents on the single-agent view: ``train(TrainConfig.from_yaml(path))`` is ``razz train``.

Imported on first use, so ``import razz_env.train`` needs no torch.
"""

from __future__ import annotations

import importlib
from typing import Any

_LAZY = {"train": "razz_env.train.trainer", "TrainConfig": "razz_env.train.config",
         "TrainingInterrupted": "razz_env.train.trainer"}

__all__ = sorted(_LAZY)


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(_LAZY[name]), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))
