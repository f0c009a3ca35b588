"""Whether an agent plays the policy it states: the check behind every AIVAT figure.

AIVAT's decision corrections (:mod:`razz_env.evaluate.aivat`) have mean zero only when each action is drawn
from the policy the agent stated for that decision; an agent whose ``action_probabilities`` misstate its play
(by design or by a bug) shifts its AIVAT figure, and its opponents', by any amount. So every agent whose
stated policy can vary is checked on the decisions it played, per lineup (its tables in one pairing):

for each action id ``a``, ``taken_a`` (how often it took ``a``), ``expected_a`` (the sum of its stated
probabilities of ``a``) and ``variance_a`` (the sum of ``p_a (1 - p_a)``). Under the stated policy
``taken_a - expected_a`` is a martingale with steps in [-1, 1] and predictable variance ``variance_a``, so
Freedman's inequality bounds ``P(|taken_a - expected_a| >= t while variance_a <= v)`` by
``2 exp(-t^2 / (2 (v + t / 3)))`` at any number of decisions. With ``v = 2^k`` the smallest power of two at
least ``max(variance_a, 1)``, a weight ``(k + 1)(k + 2)`` spreads the chance over every ``k``, and a factor 5
over the ids:

    fit_p = min(1, 5 * min over a of 2 (k + 1)(k + 2) exp(-t_a^2 / (2 (2^k + t_a / 3))))

is an upper bound on the chance that an agent playing its stated policy deviates this far, whatever the
number of decisions, blocks or looks. The rule, fixed before any figure was measured: a figure is unreliable
when an agent at its tables has ``fit_p`` below :data:`FIT_ALPHA` (1e-6) there. An action with stated
probability 0 is not a statistic but a failure: its block fails as ``policy`` (``act must draw from it``).

Blocks carry the sums (:data:`FIT_FIELDS`, one entry per lineup position; ``math.fsum`` per block, so the
scalar and batched engines give the same numbers whatever the order of decisions) and the summaries add them.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from razz_env.encoding.actions import ACTION_NAMES, NUM_ACTIONS

FIT_ALPHA = 1e-6
"""A figure is unreliable when an agent at its tables has a fit bound below this."""
FIT_FIELDS = ("fit_decisions", "fit_taken", "fit_expected", "fit_variance")
"""The sums a block of an AIVAT tournament carries per lineup position: decisions with a stated policy that can
vary, and per action id how often it was taken, its stated probabilities' sum and their ``p (1 - p)``'s sum."""
POLICY_FIT_STAMP = {"name": "freedman_per_action_id", "version": 1, "alpha": FIT_ALPHA}
"""The check's name, version and threshold, part of an AIVAT tournament's identity."""


class FitSums:
    """The decisions of one block's agents with a stated policy, by lineup position, summed when asked."""

    def __init__(self, positions: int) -> None:
        self._policies: list[list[np.ndarray]] = [[] for _ in range(positions)]
        self._taken: list[list[np.ndarray]] = [[] for _ in range(positions)]

    def add(self, position: int, policies: np.ndarray, taken: np.ndarray) -> None:
        """The stated policies (N, 5) of ``position``'s decisions and the ids it took (N,)."""
        self._policies[position].append(np.asarray(policies, dtype=np.float64).reshape(-1, NUM_ACTIONS))
        self._taken[position].append(np.asarray(taken, dtype=np.int64).reshape(-1))

    def fields(self) -> dict[str, list[Any]]:
        """:data:`FIT_FIELDS`, one entry per position (exact sums: independent of the order of decisions)."""
        out: dict[str, list[Any]] = {name: [] for name in FIT_FIELDS}
        for policies, taken in zip(self._policies, self._taken):
            p = np.concatenate(policies) if policies else np.zeros((0, NUM_ACTIONS))
            ids = np.concatenate(taken) if taken else np.zeros(0, dtype=np.int64)
            out["fit_decisions"].append(len(ids))
            out["fit_taken"].append(np.bincount(ids, minlength=NUM_ACTIONS).tolist())
            out["fit_expected"].append([math.fsum(p[:, a].tolist()) for a in range(NUM_ACTIONS)])
            out["fit_variance"].append([math.fsum((p[:, a] * (1.0 - p[:, a])).tolist()) for a in range(NUM_ACTIONS)])
        return out


@dataclass(frozen=True)
class Fit:
    """One agent's decisions in one lineup, summed over blocks: how far its play strays from its stated policy."""

    decisions: int
    taken: tuple[int, ...]
    expected: tuple[float, ...]
    variance: tuple[float, ...]

    @classmethod
    def empty(cls) -> Fit:
        """No decision checked yet."""
        return cls(0, (0,) * NUM_ACTIONS, (0.0,) * NUM_ACTIONS, (0.0,) * NUM_ACTIONS)

    def plus(self, result: Mapping[str, Any], position: int) -> Fit:
        """This fit and the sums of a block ``result`` at lineup ``position``."""
        return Fit(self.decisions + int(result["fit_decisions"][position]),
                   tuple(a + int(b) for a, b in zip(self.taken, result["fit_taken"][position])),
                   tuple(a + float(b) for a, b in zip(self.expected, result["fit_expected"][position])),
                   tuple(a + float(b) for a, b in zip(self.variance, result["fit_variance"][position])))

    def _bounds(self) -> list[float]:
        """Per action id, the natural log of the Freedman bound of its deviation (the module docstring's, before
        the factor 5 and the cap at 1)."""
        bounds = []
        for taken, expected, variance in zip(self.taken, self.expected, self.variance):
            t = abs(taken - expected)
            k = max(0, math.ceil(math.log2(max(variance, 1.0))))
            bounds.append(math.log(2 * (k + 1) * (k + 2)) - t * t / (2 * (2.0 ** k + t / 3)))
        return bounds

    @property
    def log10_p(self) -> float:
        """The base-10 log of :attr:`p`, which may be too small for a float."""
        return min(0.0, (math.log(NUM_ACTIONS) + min(self._bounds())) / math.log(10))

    @property
    def p(self) -> float:
        """An upper bound on the chance that an agent drawing its actions from its stated policy strays this far
        (0.0 below the smallest float: see :attr:`log10_p`)."""
        return 10.0 ** self.log10_p

    @property
    def fails(self) -> bool:
        """Whether the bound is below :data:`FIT_ALPHA`: the actions taken do not fit the stated policy."""
        return self.log10_p < math.log10(FIT_ALPHA)

    def worst(self) -> str:
        """The action id that strays furthest, in words: ``took raise 812 times where its stated policy gives
        270.7``."""
        bounds = self._bounds()
        a = min(range(NUM_ACTIONS), key=lambda i: (bounds[i], -abs(self.taken[i] - self.expected[i])))
        return (f"took {ACTION_NAMES[a]} {self.taken[a]} times in {self.decisions} decisions where its stated "
                f"policy gives {self.expected[a]:.1f}")


@dataclass(frozen=True)
class Verdict:
    """Whether an AIVAT figure can be trusted: the smallest fit bound (``p``) among the agents at its tables, and
    who has it (``agent``, an index into the tournament's agents; None when no agent's stated policy varied)."""

    log10_p: float
    agent: int | None
    decisions: int
    worst: str = ""

    @property
    def p(self) -> float:
        """The smallest fit bound (0.0 below the smallest float)."""
        return 10.0 ** self.log10_p

    @property
    def unreliable(self) -> bool:
        """An agent at the figure's tables plays unlike the policy it states (``p`` below :data:`FIT_ALPHA`)."""
        return self.log10_p < math.log10(FIT_ALPHA)

    def shown_p(self) -> str:
        """The bound for people: ``3.2e-08``, or ``1e-412`` past the floats."""
        return f"{self.p:.2g}" if self.p > 0 else f"1e{math.floor(self.log10_p)}"

    def why(self, labels: Sequence[str]) -> str:
        """One line: which agent misstates its policy and how far (empty when the figure is reliable)."""
        if not self.unreliable or self.agent is None:
            return ""
        return (f"{labels[self.agent]}'s actions do not fit its stated policy (fit p <= {self.shown_p()}: it "
                f"{self.worst})")


def verdict(fits: Iterable[tuple[int, Fit]]) -> Verdict:
    """The verdict of a figure from the fits (agent index, its fit in one lineup) of the agents at its tables."""
    tested = [(fit.log10_p, agent, fit) for agent, fit in fits if fit.decisions]
    if not tested:
        return Verdict(0.0, None, 0)
    log10_p, agent, fit = min(tested, key=lambda entry: entry[:2])
    return Verdict(log10_p, agent, fit.decisions, fit.worst())
