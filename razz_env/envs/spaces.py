"""The environments' action space: ``Discrete(5)`` whose ``sample()`` draws a legal id of the decision pending.

Random-action checkers (Gymnasium's and SB3's ``check_env``, RLlib's multi-agent env check) sample
from an environment's action space and step what they get; an environment with masks would refuse
most of those ids. :class:`LegalDiscrete` asks its environment for the decision pending (the mask and
the decision's number) and draws among the legal ids, returning a :class:`SampledAction` that
remembers which decision it was drawn for. A mask or probability given to ``sample`` is used as is.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from gymnasium import spaces

__all__ = ["LegalDiscrete", "PendingDecision", "SampledAction"]

PendingDecision = Callable[[], tuple[np.ndarray | None, int | None]]


class SampledAction(np.int64):
    """An id drawn by an environment's ``action_space.sample()``; ``decision`` is the decision it was drawn for.

    ``decision`` is ``None`` when no decision was pending (before the first ``reset``, once the hand is
    over). Arithmetic, ``int()`` and pickling give plain integers (and so drop the tag).
    """

    decision: int | None = None


class LegalDiscrete(spaces.Discrete):
    """``Discrete(n)`` whose ``sample()`` without a mask draws a legal id of the decision pending now.

    Pickled or copied alone it leaves the environment behind and samples as a plain ``Discrete``; an
    environment re-attaches its own (:meth:`attach`) when it is unpickled.
    """

    def __init__(self, n: int, pending: PendingDecision | None = None) -> None:
        super().__init__(n)
        self._pending = pending

    def attach(self, pending: PendingDecision) -> None:
        """Sample for the decisions ``pending()`` reports: ``(mask, decision number)``, or ``(None, None)``."""
        self._pending = pending

    def sample(self, mask: np.ndarray | None = None, probability: np.ndarray | None = None) -> np.int64:
        """A uniform legal id of the pending decision, as a :class:`SampledAction`, when no mask or probability
        is given (any id, tagged with no decision, when none is pending); otherwise ``Discrete.sample``."""
        if mask is not None or probability is not None or self._pending is None:
            return super().sample(mask=mask, probability=probability)
        legal, decision = self._pending()
        drawn = SampledAction(super().sample(mask=legal))
        drawn.decision = decision
        return drawn

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state["_pending"] = None
        return state
