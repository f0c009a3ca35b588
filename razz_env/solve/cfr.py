"""CFR+ and discounted CFR over the flattened tree, vectorised with numpy, alternating updates.

Each iteration updates seat 0 then seat 1: a reach sweep for the opponent, a value sweep
for the updating seat, instantaneous regrets at its nodes (one slot per node and action, so
a plain fancy-index add), regret matching, and the average policy weighted by the seat's own
reach. :class:`CFRPlus` floors regrets at zero and weights the average linearly (Tammelin
2014); :class:`DiscountedCFR` discounts positive and negative regrets and the average
(Brown & Sandholm 2019, alpha 1.5, beta 0, gamma 2). ``docs/solving.md`` compares them.

>>> from razz_env.solve.game import build_game
>>> solver = CFRPlus(build_game("minirazz_tiny"))
>>> history = solver.run(iterations=50)
>>> history[-1].iteration, history[-1].mbb < 60
(50, True)
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import NamedTuple

import numpy as np

from razz_env.encoding.actions import NUM_ACTIONS
from razz_env.engine.checks import as_int
from razz_env.engine.errors import ConfigError
from razz_env.solve.best_response import Exploitability, exploitability
from razz_env.solve.game import Game
from razz_env.solve.policy import TabularPolicy
from razz_env.solve.sweep import Sweeper, uniform_policy


class Checkpoint(NamedTuple):
    """One measurement of a run: iterations done, seconds spent iterating, the average policy's exploitability."""

    iteration: int
    seconds: float
    mbb: float


class CFRSolver:
    """Shared machinery: state arrays, the iteration loop and :meth:`run`; subclasses set the update rules."""

    method = ""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.sweeper = Sweeper(game)
        shape = (len(game.decision_nodes), NUM_ACTIONS, game.num_private)
        self.regret = np.zeros(shape)
        self.average = np.zeros(shape)
        self.policy = uniform_policy(game)
        self._legal = game.legal[:, :, None]
        self.iterations = 0
        self.seconds = 0.0
        self.history: list[Checkpoint] = []

    def accumulate(self, regret_rows: np.ndarray, slots: np.ndarray, regrets: np.ndarray) -> None:
        """Add instantaneous regrets to their slots."""
        regret_rows[slots] += regrets

    def average_weight(self, iteration: int) -> float:
        """Weight of this iteration's policy in the average."""
        return 1.0

    def discount(self, iteration: int, seat_nodes: np.ndarray) -> None:
        """Discount a seat's regrets and average after its update (DCFR); nothing by default."""

    def iterate(self) -> None:
        """One iteration: seat 0's update, then seat 1's against seat 0's new policy."""
        game, sweeper = self.game, self.sweeper
        t = self.iterations + 1
        regret_rows = self.regret.reshape(-1, game.num_private)
        reach = {1: sweeper.reach(1, self.policy)}
        for seat in (0, 1):
            other = 1 - seat
            if other not in reach:
                reach[other] = sweeper.reach(other, self.policy)
            own_reach = reach.get(seat)
            if own_reach is None:
                own_reach = reach[seat] = sweeper.reach(seat, self.policy)
            values = sweeper.values(seat, self.policy, reach[other])
            children = sweeper.own_children[seat]
            self.accumulate(regret_rows, sweeper.slot[children], values[children] - values[game.parent[children]])
            mine = sweeper.own_decisions[seat]
            weight = self.average_weight(t)
            self.average[mine] += weight * own_reach[game.decision_nodes[mine]][:, None, :] * self.policy[mine]
            self.discount(t, mine)
            self.policy[mine] = self.match(self.regret[mine], self._legal[mine])
            reach.pop(seat)
        self.iterations = t

    @staticmethod
    def match(regret: np.ndarray, legal: np.ndarray) -> np.ndarray:
        """Regret matching: positive regrets normalised over the legal actions, uniform when none is positive."""
        positive = np.where(legal, np.maximum(regret, 0.0), 0.0)
        total = positive.sum(axis=1, keepdims=True)
        uniform = legal / legal.sum(axis=1, keepdims=True)
        return np.where(total > 0, positive / np.where(total > 0, total, 1.0), uniform)

    def average_policy(self) -> TabularPolicy:
        """The average policy so far (uniform where a holding was never reached)."""
        total = self.average.sum(axis=1, keepdims=True)
        uniform = uniform_policy(self.game)
        array = np.where(total > 0, self.average / np.where(total > 0, total, 1.0), uniform)
        return TabularPolicy(self.game, array, iterations=self.iterations, method=self.method)

    def current_policy(self) -> TabularPolicy:
        """The policy of the last iteration (regret matching)."""
        return TabularPolicy(self.game, self.policy.copy(), iterations=self.iterations, method=self.method)

    def exploitability(self) -> Exploitability:
        """Exploitability of the average policy."""
        return exploitability(self.game, self.average_policy(), self.sweeper)

    def run(self, iterations: int | None = None, *, target_mbb: float | None = None, seconds: float | None = None,
            check_every: int = 10, callback: Callable[[Checkpoint], object] | None = None) -> list[Checkpoint]:
        """Iterate until ``iterations`` more are done, the average policy is below ``target_mbb``, or
        ``seconds`` more have passed (whichever comes first; at least one must be given).

        The exploitability is measured every ``check_every`` iterations and at the end (its time is
        not counted in ``seconds``); each measurement is appended to :attr:`history`, passed to
        ``callback``, and returned with the others of this run.
        """
        if iterations is None and target_mbb is None and seconds is None:
            raise ConfigError("solve: give iterations, target_mbb or seconds, or the run never ends")
        if iterations is not None:
            iterations = as_int("iterations", iterations, 1)
        check_every = as_int("check_every", check_every, 1)
        if target_mbb is not None and not target_mbb > 0:
            raise ConfigError(f"target_mbb: expected a positive number of mbb/hand, got {target_mbb!r}")
        if seconds is not None and not (seconds > 0 and math.isfinite(seconds)):
            raise ConfigError(f"seconds: expected a positive finite number, got {seconds!r}")
        start_iterations, start_seconds = self.iterations, self.seconds
        measured: list[Checkpoint] = []
        while True:
            began = time.perf_counter()
            self.iterate()
            self.seconds += time.perf_counter() - began
            done = self.iterations - start_iterations
            out_of_iterations = iterations is not None and done >= iterations
            out_of_time = seconds is not None and self.seconds - start_seconds >= seconds
            if done % check_every and not (out_of_iterations or out_of_time):
                continue
            point = Checkpoint(self.iterations, self.seconds, self.exploitability().mbb)
            measured.append(point)
            self.history.append(point)
            if callback is not None:
                callback(point)
            if out_of_iterations or out_of_time or (target_mbb is not None and point.mbb < target_mbb):
                return measured


class CFRPlus(CFRSolver):
    """CFR+: regrets floored at zero, the average weighted by the iteration number."""

    method = "cfr+"

    def accumulate(self, regret_rows: np.ndarray, slots: np.ndarray, regrets: np.ndarray) -> None:
        regret_rows[slots] = np.maximum(regret_rows[slots] + regrets, 0.0)

    def average_weight(self, iteration: int) -> float:
        return float(iteration)


class DiscountedCFR(CFRSolver):
    """Discounted CFR: after iteration t, positive regrets times t^a/(t^a+1), negative times t^b/(t^b+1),
    the average times (t/(t+1))^g."""

    method = "dcfr"

    def __init__(self, game: Game, alpha: float = 1.5, beta: float = 0.0, gamma: float = 2.0) -> None:
        super().__init__(game)
        self.alpha, self.beta, self.gamma = alpha, beta, gamma

    def discount(self, iteration: int, seat_nodes: np.ndarray) -> None:
        t = float(iteration)
        positive = t**self.alpha / (t**self.alpha + 1)
        negative = t**self.beta / (t**self.beta + 1)
        regret = self.regret[seat_nodes]
        self.regret[seat_nodes] = regret * np.where(regret > 0, positive, negative)
        self.average[seat_nodes] *= (t / (t + 1)) ** self.gamma


SOLVERS: dict[str, type[CFRSolver]] = {"cfr+": CFRPlus, "dcfr": DiscountedCFR}
"""The solvers by name (``razz solve --method``)."""
