"""Training SB3 agents on the single-agent view: ``train(TrainConfig.from_yaml(path))`` is ``razz train``.

Imported on first use, so ``import razz_env.train`` needs no torch.
"""

from __future__ import annotations

from razz_env.engine.lazy import lazy_exports

_LAZY = {"train": "razz_env.train.trainer", "TrainConfig": "razz_env.train.config",
         "TrainingInterrupted": "razz_env.train.trainer"}

__all__ = sorted(_LAZY)


__getattr__, __dir__ = lazy_exports(__name__, _LAZY)
