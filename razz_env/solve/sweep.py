"""Vectorised passes over a :class:`~razz_env.solve.game.Game`: reach down the tree, values up it.

Every per-node quantity is an ``(nodes, P)`` array over one seat's holdings. Policies are
``(decisions, 5, P)`` arrays: the probability of each action id at each public decision
node for each holding of the seat acting there (rows of the other seat's nodes unused).
A pass runs level by level: children of one level are contiguous and grouped by parent in
parent order, so a reach is one gather per level and a value one ``np.add.reduceat``
(``np.maximum.reduceat`` for a best response).
"""

from __future__ import annotations

import numpy as np

from razz_env.encoding.actions import NUM_ACTIONS
from razz_env.solve.game import DECISION, Game


class Sweeper:
    """The index arrays of one game's passes, built once and shared by CFR and best response."""

    def __init__(self, game: Game) -> None:
        self.game = game
        starts = game.level_starts
        parent, kind, player = game.parent, game.kind, game.player
        self.levels: list[tuple[int, int, np.ndarray, np.ndarray, list[np.ndarray], list[np.ndarray]]] = []
        slot = np.full(game.num_nodes, -1, dtype=np.int64)
        has_parent = parent >= 0
        from_decision = has_parent & (kind[np.maximum(parent, 0)] == DECISION)
        slot[from_decision] = game.dindex[parent[from_decision]] * NUM_ACTIONS + game.action[from_decision]
        self.slot = slot
        for d in range(len(starts) - 2):
            lo, hi = int(starts[d + 1]), int(starts[d + 2])
            if lo == hi:
                continue
            par = parent[lo:hi]
            internal, first = np.unique(par, return_index=True)
            owners = player[par]
            own_rel = [np.flatnonzero((owners == seat) & (kind[par] == DECISION)) for seat in (0, 1)]
            own_slots = [slot[lo + rel] for rel in own_rel]
            self.levels.append((lo, hi, internal, first, own_rel, own_slots))
        self.own_children = [np.flatnonzero(from_decision & (player[np.maximum(parent, 0)] == seat)) for seat in (0, 1)]
        self.own_decisions = [np.flatnonzero(game.decision_player == seat) for seat in (0, 1)]
        self.terminals = game.terminal_nodes

    def rows(self, policy: np.ndarray) -> np.ndarray:
        """``policy`` as ``(decisions * 5, P)`` rows, one per (node, action) slot."""
        return policy.reshape(-1, policy.shape[-1])

    def reach(self, seat: int, policy: np.ndarray) -> np.ndarray:
        """Each node's probability that ``seat`` plays to it under ``policy``, per holding of ``seat``."""
        game = self.game
        rows = self.rows(policy)
        out = np.empty((game.num_nodes, game.num_private))
        out[0] = 1.0
        for lo, hi, _, _, own_rel, own_slots in self.levels:
            block = out[game.parent[lo:hi]]
            rel = own_rel[seat]
            if rel.size:
                block[rel] *= rows[own_slots[seat]]
            out[lo:hi] = block
        return out

    def terminal_values(self, seat: int, opponent_reach: np.ndarray) -> np.ndarray:
        """Counterfactual values of ``seat`` at the terminals: chance x the opponent's reach x payoff."""
        matrix = self.game.terminal_matrix
        other = opponent_reach[self.terminals]
        if seat == 0:
            return np.einsum("txy,ty->tx", matrix, other)
        return -np.einsum("txy,tx->ty", matrix, other)

    def values(self, seat: int, policy: np.ndarray, opponent_reach: np.ndarray, best: bool = False) -> np.ndarray:
        """Counterfactual values of ``seat`` at every node, per holding of ``seat``.

        ``seat`` plays ``policy`` at its nodes, or its best action there when ``best`` (per holding:
        each public node and holding is one of its information sets).
        """
        game = self.game
        rows = self.rows(policy)
        out = np.zeros((game.num_nodes, game.num_private))
        out[self.terminals] = self.terminal_values(seat, opponent_reach)
        for lo, hi, internal, first, own_rel, own_slots in reversed(self.levels):
            block = out[lo:hi]
            rel = own_rel[seat]
            if best:
                summed = np.add.reduceat(block, first, axis=0)
                if rel.size:
                    mine = game.player[internal] == seat
                    summed[mine] = np.maximum.reduceat(block, first, axis=0)[mine]
            else:
                if rel.size:
                    block = block.copy()
                    block[rel] *= rows[own_slots[seat]]
                summed = np.add.reduceat(block, first, axis=0)
            out[internal] = summed
        return out

    def root_value(self, seat: int, policy: np.ndarray, opponent_policy: np.ndarray, best: bool = False) -> float:
        """Expected chips of ``seat`` per hand: playing ``policy`` (or best responding) against ``opponent_policy``."""
        reach = self.reach(1 - seat, opponent_policy)
        return float(self.values(seat, policy, reach, best)[0].sum())


def uniform_policy(game: Game) -> np.ndarray:
    """Every legal action equally likely, as a ``(decisions, 5, P)`` array."""
    legal = game.legal.astype(np.float64)
    legal /= legal.sum(axis=1, keepdims=True)
    return np.repeat(legal[:, :, None], game.num_private, axis=2)
