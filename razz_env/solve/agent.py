"""Tabular policies and agents, both ways: any agent's policy read into the tree, a tabular policy seated as an agent.

:func:`policy_from_agent` asks an agent for its policy once per information set, in batches
(:func:`razz_env.encoding.interface.action_probabilities`): for each public decision node it replays the
betting on an engine hand dealt cards consistent with the node, and for each holding of the
actor it shows the agent that hand with the actor's down cards set to the holding, through
the same :class:`~razz_env.encoding.interface.Observer` a tournament uses. The result is a
:class:`~razz_env.solve.policy.TabularPolicy`, so :func:`~razz_env.solve.best_response.exploitability`
measures the agent exactly.

In the rank game the hands are dealt with canonical suits (the lowest free suit for each
down card); an agent whose play depends on suits beyond what the rules read (card removal
and tie-breaks) is measured at those suits. ``check_suits`` asks it again on a sample of
information sets with the other suits and warns when its answers differ.

:class:`TabularPolicyAgent` plays a tabular policy at a table: it keys its view
(:func:`razz_env.solve.keys.view_key`) and draws from the policy there; in batch it keys every view at once
(:func:`razz_env.solve.keys.view_keys`) and draws what its calls one by one would.
"""

from __future__ import annotations

import copy
import random
import warnings
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

from razz_env.encoding.actions import NUM_ACTIONS, to_engine
from razz_env.encoding.interface import (
    Declaration,
    Observation,
    ObservationBatch,
    Observer,
    action_probabilities,
    observe,
    seating_problem,
)
from razz_env.engine.state import HandState
from razz_env.solve.game import Game
from razz_env.solve.keys import view_key, view_keys
from razz_env.solve.policy import TabularPolicy

LETTER_IDS = {"f": 0, "k": 1, "c": 1, "r": 2, "b": 3, "B": 4}
"""Action id of each key letter (:mod:`razz_env.solve.keys`)."""
TOLERANCE = 1e-6
"""How far an agent's probabilities may stray: off the legal ids, and from summing to 1."""


def replay(game: Game, decision: int, private: int) -> HandState:
    """An engine hand at information set (``decision``, ``private``): its cards dealt, its betting replayed."""
    hand = HandState(game.config, cards=game.hand_cards(decision, private))
    for letter in game.public[decision].actions.replace("/", ""):
        hand.act(to_engine(LETTER_IDS[letter], hand.legal_actions()))
    return hand


def hands_at(game: Game, decision: int, swap_suits: bool = False) -> Iterator[tuple[int, HandState]]:
    """``(holding, hand)`` for every holding the actor of ``decision`` can have: one replay, then the
    actor's (and if need be the opponent's) down cards set on a copy of it.

    ``swap_suits``: the actor's down cards take the highest free suits instead of the lowest.
    """
    seat = int(game.decision_player[decision])
    holdings = np.flatnonzero(game.possible[decision])
    base = replay(game, decision, int(holdings[0]))
    count = game.variant.streets[0].down
    boards = game.board_cards(decision)
    for private in holdings.tolist():
        downs = game.down_cards(decision, private, boards)
        if swap_suits:
            downs[seat] = _swapped(game, downs, boards, seat)
        hand = copy.copy(base)
        hand.cards = [downs[who] + base.cards[who][count:] for who in (0, 1)]
        yield private, hand


def _swapped(game: Game, downs: list[list[int]], boards: list[list[int]], seat: int) -> list[int]:
    """The actor's down cards in the highest suits left free by every other card."""
    used = {c for board in boards for c in board} | set(downs[1 - seat])
    out = []
    for card in downs[seat]:
        choice = [c for c in game.token_cards(game.model.token(card)) if c not in used][-1]
        used.add(choice)
        out.append(choice)
    return out


def policy_from_agent(game: Game, agent: Any, *, batch_size: int = 4096, check_suits: int = 256,
                      seed: int = 0) -> TabularPolicy:
    """The policy ``agent`` states (``action_probabilities``) at every information set of ``game``.

    Queried once per information set, ``batch_size`` observations at a time. ``ValueError`` when the
    agent declares it cannot play this table (its declaration), or naming the agent and
    the information set when it puts probability on an illegal id or its row does not sum to 1.
    ``check_suits``: how many public decision nodes to ask again with the actor's down cards in other
    suits (rank game only; 0 skips it); a different answer is warned about.
    """
    name = agent.name
    problem = seating_problem(agent, game.variant.name, 2)
    if problem:
        raise ValueError(problem)
    observer = Observer(agent, game.config)
    table = np.empty((game.num_infosets, NUM_ACTIONS))
    pending: list[Observation] = []
    where: list[tuple[int, int]] = []

    def flush() -> None:
        decisions, privates = np.array(where).T
        table[game.infoset[decisions, privates]] = _checked(game, name, decisions, privates,
                                                            action_probabilities(agent, pending))
        pending.clear()
        where.clear()

    for decision in range(len(game.decision_nodes)):
        seat = int(game.decision_player[decision])
        for private, hand in hands_at(game, decision):
            pending.append(observer(hand, seat))
            where.append((decision, private))
        if len(pending) >= batch_size:
            flush()
    if pending:
        flush()
    policy = TabularPolicy.from_table(game, table, method=f"agent {name}")
    if check_suits and not game.suited:
        _check_suits(game, agent, observer, policy, check_suits, seed, name)
    return policy


def _checked(game: Game, name: str, decisions: np.ndarray, privates: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """``rows`` cleaned (exact zeros off the legal ids, summing to 1), or ``ValueError`` naming the first bad one."""
    legal = game.legal[decisions]
    bad = (~np.isfinite(rows).all(axis=1) | (rows < -TOLERANCE).any(axis=1)
           | (np.abs(np.where(legal, 0.0, rows)) > TOLERANCE).any(axis=1) | (np.abs(rows.sum(axis=1) - 1) > TOLERANCE))
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        row = rows[i]
        if not np.isfinite(row).all():
            what = "hold a number that is not finite"
        elif (row < -TOLERANCE).any():
            what = "hold a negative number"
        elif (np.abs(np.where(legal[i], 0.0, row)) > TOLERANCE).any():
            what = "put weight on an illegal id"
        else:
            what = f"sum to {row.sum():.6g}, not 1"
        raise ValueError(f"agent {name!r} at {game.infoset_key(int(decisions[i]), int(privates[i]))!r}: probabilities "
                         f"{np.round(row, 6).tolist()} {what}; a policy is a distribution over the legal ids "
                         f"{np.flatnonzero(legal[i]).tolist()}")
    rows = np.where(legal, np.maximum(rows, 0.0), 0.0)
    return rows / rows.sum(axis=1, keepdims=True)


def _check_suits(game: Game, agent: Any, observer: Observer, policy: TabularPolicy, count: int, seed: int,
                 name: str) -> None:
    """Ask again on ``count`` sampled decisions with the actor's down cards in other suits; warn on a difference."""
    rng = np.random.default_rng(seed)
    decisions = rng.choice(len(game.decision_nodes), size=min(count, len(game.decision_nodes)), replace=False)
    observations, where = [], []
    for decision in sorted(decisions.tolist()):
        seat = int(game.decision_player[decision])
        for private, hand in hands_at(game, decision, swap_suits=True):
            observations.append(observer(hand, seat))
            where.append(game.infoset[decision, private])
    again = action_probabilities(agent, observations)
    table = policy.table()
    worst = float(np.abs(again - table[where]).max(initial=0.0))
    if worst > TOLERANCE:
        warnings.warn(f"agent {name!r} plays differently when its down cards change suit (by up to {worst:.3g}); "
                      f"the rank game of {game.variant.name} measures it at one choice of suits", stacklevel=3)


def infoset_vectors(game: Game, encoding: str = "flat") -> tuple[np.ndarray, np.ndarray]:
    """The ``encoding`` vector (float32, (information sets, width)) and legal mask (bool, (information sets, 5)) of
    every information set of ``game``, in its information-set order: what a network reads there at a table.

    A network's policy over the whole tree is then one forward pass over these rows (the agent interface asks
    the same observations, one hand each, in :func:`policy_from_agent`)."""
    from razz_env.encoding import make_encoder

    encoder = make_encoder(encoding, game.config)
    vectors = np.empty((game.num_infosets, encoder.size), dtype=np.float32)
    masks = np.empty((game.num_infosets, NUM_ACTIONS), dtype=bool)
    for decision in range(len(game.decision_nodes)):
        seat = int(game.decision_player[decision])
        for private, hand in hands_at(game, decision):
            seen = observe(hand, seat, view=False, encoder=encoder)
            index = game.infoset[decision, private]
            vectors[index] = seen.vector
            masks[index] = np.asarray(seen.action_mask) != 0
    return vectors, masks


class TabularPolicyAgent:
    """Plays a :class:`TabularPolicy`: draws from its probabilities at the information set of each view.

    In batch (:meth:`act_batch`) it draws from its generator exactly what :meth:`act` would on the same
    observations in order, so the ids and the generator's state after are the same (a batch that raises
    draws nothing).
    """

    @staticmethod
    def declare(variant: str) -> Declaration:
        """The declaration of a policy solved for heads-up ``variant``: it reads the view, states its policy and
        acts in batch."""
        return Declaration(variants=(variant,), seat_counts=(2,), states_policy=True, acts_in_batch=True)

    def __init__(self, policy: TabularPolicy, seed: int | None = None, name: str | None = None) -> None:
        self.policy = policy
        game = policy.game
        self.declaration = self.declare(game.variant.name)
        self.name = name or f"tabular_{game.variant.name}"
        self.rng = random.Random(seed)

    def reset(self, seat: int, num_seats: int, variant: str) -> None:
        """Refuse a table this policy was not solved for."""
        if seating_problem(self, variant, num_seats) is not None:
            raise ValueError(f"agent {self.name!r} plays {self.policy.game.variant.name} heads-up; "
                             f"it cannot play {variant} with {num_seats} seats")

    def action_probabilities(self, observation: Observation) -> np.ndarray:
        """The policy's probabilities at the information set of ``observation``."""
        game = self.policy.game
        view = observation.view
        key = view_key(game.model, view)
        index = game.infoset_index(key)
        decision = game.infoset_decision[index]
        if game.decision_pot[decision] != view.pot:
            raise self._other_stakes(key, view.pot, int(decision))
        return self.policy.array[decision, :, game.infoset_private[index]].copy()

    def action_probabilities_batch(self, observations: Sequence[Observation]) -> np.ndarray:
        """The policy's probabilities at the information set of each observation, (N, 5)."""
        observations = ObservationBatch.of(observations)
        if not len(observations):
            return np.zeros((0, NUM_ACTIONS))
        views = observations.views
        if views is None:
            raise AttributeError(f"agent {self.name!r} reads views, and these observations carry none")
        game = self.policy.game
        keys = view_keys(game.model, views)
        index = np.array([game.infoset_index(key) for key in keys], dtype=np.int64)
        decisions = game.infoset_decision[index]
        other = np.flatnonzero(game.decision_pot[decisions] != views.pot)
        if len(other):
            row = int(other[0])
            raise self._other_stakes(keys[row], int(views.pot[row]), int(decisions[row]))
        return self.policy.array[decisions, :, game.infoset_private[index]]

    def act(self, observation: Observation) -> int:
        """An action id drawn from the policy here."""
        probabilities = self.action_probabilities(observation)
        return self.rng.choices(range(NUM_ACTIONS), weights=probabilities.tolist())[0]

    def act_batch(self, observations: Sequence[Observation]) -> list[int]:
        """An action id drawn at each observation: the ids :meth:`act` draws on them in order, one draw each."""
        probabilities = self.action_probabilities_batch(observations)
        cumulative = np.cumsum(probabilities, axis=1)  # random.choices' running sums, added in the same order
        drawn = np.array([self.rng.random() for _ in range(len(cumulative))]) * cumulative[:, -1]
        return (cumulative[:, :-1] <= drawn[:, None]).sum(axis=1).tolist()  # its bisect over the first four

    def _other_stakes(self, key: str, pot: int, decision: int) -> ValueError:
        """The error for a view whose pot is not the tree's at its information set."""
        game = self.policy.game
        return ValueError(f"agent {self.name!r}: the pot is {pot} at {key!r} but {game.describe()} has "
                          f"{int(game.decision_pot[decision])} there: the table plays other stakes")

    def __repr__(self) -> str:
        return f"TabularPolicyAgent(name={self.name!r}, game={self.policy.game.describe()!r})"
