"""The batched engine: thousands of stud hands in lockstep, exact against the scalar engine.

Needs numba (``pip install 'razz-env[batch]'``); ``import razz_env`` never imports this package.
See ``docs/batch.md``.
"""

from razz_env.batch.engine import BatchEngine, StepResult
from razz_env.batch.random_play import policy_state, random_legal_actions

__all__ = ["BatchEngine", "StepResult", "policy_state", "random_legal_actions"]
