"""Trained Stable-Baselines3 policies as agents, with masking for every algorithm.

One adapter serves all algorithms: the policy's per-action scores (logits for
PPO/A2C/MaskablePPO, Q-values for DQN, mean quantiles for QR-DQN) are computed
for a whole batch of observations in one forward pass, illegal ids are set to
``-inf``, and the best legal id is taken. So a trained agent never sends an
illegal action, whichever algorithm trained it.

Its stated policy (``action_probabilities``) is the distribution ``act`` uses:

* ``deterministic=True`` (the zoo's default): the one-hot of the masked argmax;
* ``deterministic=False``, policy-gradient models (MaskablePPO, PPO, A2C): the softmax of
  the masked logits, which ``act`` samples (float64, from the agent's seeded generator);
* the DQN family (DQN, QR-DQN): the greedy one-hot whatever the flag. A value-based agent
  has no stochastic policy (a softmax of Q-values is not one), so it is never sampled.

During training, algorithms
without native masking play through ``SingleAgentEnv(illegal_action="check_fold")``,
which plays the passive action (check, else fold) for an illegal choice.

Trust boundary: SB3 archives can carry pickled Python objects. Load only files you
trust. :func:`read_verified` reads a file once and checks its SHA-256, and
:func:`load_model` loads exactly those bytes from memory, so the file cannot be
swapped between the check and the load; the shipped zoo (:mod:`razz_env.agents.sb3_zoo`)
and the run folders of ``razz train`` load through them.

A trained policy only knows the table it was trained at: an agent given ``variants``
and ``seat_counts`` declares them in its :class:`~razz_env.encoding.interface.Declaration`
(:func:`razz_env.encoding.interface.seating_problem` reads them) and refuses, in :meth:`SB3Agent.reset`,
to be seated anywhere else. A policy trained on a padded encoding (``"flat8"``, ``"ranks8"``) reads every
table size of its variant alike, so it declares them all (:func:`trained_seat_counts`).
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import io
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from razz_env.agents.torch_policy import VectorPolicy, as_probabilities, varied_scores
from razz_env.encoding.actions import NUM_ACTIONS
from razz_env.encoding.interface import Declaration, Observation, ObservationBatch
from razz_env.engine.checks import as_flag
from razz_env.engine.errors import missing_extra

ALGORITHMS = ("maskable_ppo", "ppo", "a2c", "dqn", "qrdqn")


def _one_torch_thread_after_fork() -> None:
    """In a forked child, run torch on one thread: the parent's intra-op thread pool does not survive a fork, and
    a child that enters it (a zoo model's forward pass in a ``fork`` vector env's worker) deadlocks."""
    torch = sys.modules.get("torch")
    if torch is not None:
        torch.set_num_threads(1)


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_one_torch_thread_after_fork)


def algorithm_class(name: str) -> Any:
    """The SB3 / sb3-contrib class for an algorithm name in :data:`ALGORITHMS`."""
    if name in ("maskable_ppo", "qrdqn"):
        import sb3_contrib

        return getattr(sb3_contrib, {"maskable_ppo": "MaskablePPO", "qrdqn": "QRDQN"}[name])
    if name in ("ppo", "a2c", "dqn"):
        import stable_baselines3

        return getattr(stable_baselines3, name.upper())
    raise ValueError(f"algorithm: unknown {name!r}; known: {', '.join(ALGORITHMS)}")


def trained_seat_counts(encoding: str, variant: str, num_players: int) -> tuple[int, ...]:
    """The table sizes a policy trained at ``num_players`` seats of ``variant`` with ``encoding`` can play: with a
    padded encoding (one layout for every size) every size the variant deals, else ``num_players`` only."""
    from razz_env.encoding import is_padded
    from razz_env.engine.config import MIN_SEATS, max_seats
    from razz_env.engine.variants import get_variant

    if not is_padded(encoding):
        return (num_players,)
    return tuple(range(MIN_SEATS, max_seats(get_variant(variant)) + 1))


class UntrustedModelError(RuntimeError):
    """A model file whose SHA-256 is not the recorded one (or none is recorded): it is not loaded."""


def read_verified(path: str | Path, sha256: str | None) -> bytes:
    """The bytes of ``path``, read once, after checking their SHA-256 against ``sha256``."""
    path = Path(path)
    if sha256 is None:
        raise UntrustedModelError(f"{path}: no SHA-256 recorded for it; refusing to load a file that may "
                                  f"carry pickled code")
    try:
        data = path.read_bytes()
    except OSError as err:
        raise UntrustedModelError(f"{path}: cannot be read ({err.strerror or err})") from err
    digest = hashlib.sha256(data).hexdigest()
    if digest != sha256:
        raise UntrustedModelError(f"{path}: SHA-256 {digest} differs from the recorded {sha256} (truncated or "
                                  f"changed since it was written); refusing to load a file that may carry "
                                  f"pickled code")
    return data


def load_model(data: bytes, algorithm: str, **kwargs: Any) -> Any:
    """An SB3 model of ``algorithm`` from the archive bytes ``data`` (on the CPU; ``kwargs`` go to ``load``).

    An archive of another algorithm (a MaskablePPO file loaded as QR-DQN) is a ``ValueError`` saying so; a missing
    SB3 install is a ``ConfigError`` naming the extra to install. The action space is given, not unpickled:
    archives name the class by the module path it had when they were saved.
    """
    from gymnasium import spaces

    custom = {"action_space": spaces.Discrete(NUM_ACTIONS), **kwargs.pop("custom_objects", {})}
    try:
        cls = algorithm_class(algorithm)
    except ModuleNotFoundError as err:
        extra = missing_extra(err)
        if extra is None:
            raise
        raise extra from None
    try:
        return cls.load(io.BytesIO(data), device="cpu", custom_objects=custom, **kwargs)
    except (AttributeError, KeyError) as err:  # SB3 builds the algorithm's networks, then finds the file's missing
        raise ValueError(f"the file does not hold a {algorithm} model ({type(err).__name__}: {err}); give the "
                         f"algorithm it was trained with") from None


def action_scores(model: Any, observations: np.ndarray) -> Any:
    """Per-action scores (higher = preferred) of ``model`` for a batch, as a torch tensor."""
    import torch

    policy = model.policy
    with torch.no_grad():
        obs, _ = policy.obs_to_tensor(observations)
        if hasattr(policy, "quantile_net"):
            return policy.quantile_net(obs).mean(dim=1)
        if hasattr(policy, "q_net"):
            return policy.q_net(obs)
        distribution = policy.get_distribution(obs)
        return distribution.distribution.logits


def is_value_based(model: Any) -> bool:
    """Whether ``model`` is of the DQN family (scores are action values, not a policy's logits)."""
    return hasattr(model.policy, "q_net") or hasattr(model.policy, "quantile_net")


def first_layer_split(model: Any) -> tuple[Any, Any] | None:
    """The policy's scores as ``rest(first(x))`` with ``first`` the linear layer reading the raw vector, or None.

    For the MLP policies SB3 builds on a flat Box (a flatten extractor, then a ``Sequential`` starting with a
    ``Linear``): what lets :meth:`SB3Agent.action_probabilities_varied` compute the first layer once.
    """
    from stable_baselines3.common.torch_layers import FlattenExtractor
    from torch import nn

    policy = model.policy
    if hasattr(policy, "quantile_net"):
        network, extractor = policy.quantile_net, policy.quantile_net.features_extractor
        layers, quantiles = list(network.quantile_net), network.n_quantiles

        def head(out: Any) -> Any:
            return out.view(len(out), quantiles, -1).mean(dim=1)
    elif hasattr(policy, "q_net"):
        extractor, layers, head = policy.q_net.features_extractor, list(policy.q_net.q_net), nn.Identity()
    else:
        extractor, head = policy.pi_features_extractor, nn.Identity()
        layers = [*policy.mlp_extractor.policy_net, policy.action_net]
    if not isinstance(extractor, FlattenExtractor) or not layers or not isinstance(layers[0], nn.Linear):
        return None
    rest = nn.Sequential(*layers[1:])
    return layers[0], lambda hidden: head(rest(hidden))


def _policy_from_scores(model: Any, scores: Any, masks: np.ndarray, deterministic: bool) -> tuple[Any, bool]:
    """The masked scores' argmax ids (greedy) or their softmax (float64), and which of the two it is."""
    import torch

    legal = np.asarray(masks, dtype=bool)
    empty = np.flatnonzero(~legal.any(axis=-1))
    if len(empty):
        raise ValueError(f"no legal action in row(s) {empty.tolist()} of the batch: not the seat's turn")
    scores = scores.masked_fill(~torch.as_tensor(legal, device=scores.device), -torch.inf)
    if deterministic or is_value_based(model):
        return scores.argmax(dim=1), True
    return torch.softmax(scores.double(), dim=1), False


def masked_actions(model: Any, observations: np.ndarray, masks: np.ndarray, deterministic: bool = True,
                   generator: Any = None) -> np.ndarray:
    """Legal action ids for a batch: the best legal id, or a draw from :func:`masked_probabilities`."""
    import torch

    policy, greedy = _policy_from_scores(model, action_scores(model, observations), masks, deterministic)
    if greedy:
        return policy.cpu().numpy()
    return torch.multinomial(policy, 1, generator=generator).squeeze(1).cpu().numpy()


def masked_probabilities(model: Any, observations: np.ndarray, masks: np.ndarray,
                         deterministic: bool = True) -> np.ndarray:
    """The distribution :func:`masked_actions` draws from, float64 (N, 5): one-hot when greedy, else the softmax."""
    return as_probabilities(*_policy_from_scores(model, action_scores(model, observations), masks, deterministic),
                             np.shape(masks))


class SB3Agent(VectorPolicy):
    """A trained policy playing by the agent interface; batches decisions in one forward pass.

    ``deterministic`` picks the masked argmax (else a draw from the masked softmax; the DQN
    family is greedy either way: see the module docstring). ``variants`` and ``seat_counts``,
    when given, are the tables the policy was trained for: :meth:`reset` refuses any other
    seating (``None``: not declared, any table). Its declaration: it reads the vector of ``encoding`` (of the
    length its model's observation space has: a table whose vectors are longer is refused before any hand),
    states its policy and acts in batch.
    """

    def __init__(self, model: Any, name: str = "sb3", deterministic: bool = True, encoding: str = "flat",
                 seed: int | None = None, variants: Sequence[str] | None = None,
                 seat_counts: Sequence[int] | None = None) -> None:
        import torch

        deterministic = as_flag("deterministic", deterministic)
        self.model = model
        self.name = name
        self.deterministic = bool(deterministic)
        shape = getattr(getattr(model, "observation_space", None), "shape", None)
        self.declaration = dataclasses.replace(self.declare(encoding, variants, seat_counts, self.deterministic),
                                               vector_size=int(shape[0]) if shape and len(shape) == 1 else None)
        self._generator = torch.Generator().manual_seed(seed if seed is not None else 0)

    @staticmethod
    def declare(encoding: str, variants: Sequence[str] | None, seat_counts: Sequence[int] | None,
                deterministic: bool = False) -> Declaration:
        """The declaration of a policy reading ``encoding`` trained for these tables (known before any model loads);
        ``deterministic``: it plays the argmax."""
        return Declaration(observes=("vector",), encoding=encoding, variants=variants, seat_counts=seat_counts,
                           states_policy=True, acts_in_batch=True, deterministic=deterministic)

    @classmethod
    def load(cls, path: str | Path, algorithm: str, sha256: str, **kwargs: Any) -> SB3Agent:
        """Load a saved model whose SHA-256 is ``sha256`` (checked; the verified bytes are what is loaded)."""
        return cls(load_model(read_verified(path, sha256), algorithm), **kwargs)

    def act_batch(self, observations: Sequence[Observation]) -> list[int]:
        """Decisions for many tables in one forward pass over the batch's vectors and masks."""
        observations = ObservationBatch.of(observations)
        if not len(observations):
            return []
        actions = masked_actions(self.model, self._vectors(observations), observations.masks, self.deterministic,
                                 self._generator)
        return [int(a) for a in actions]

    def action_probabilities_batch(self, observations: Sequence[Observation]) -> np.ndarray:
        """The policy at each observation in one forward pass, float64 (N, 5)."""
        observations = ObservationBatch.of(observations)
        if not len(observations):
            return np.zeros((0, NUM_ACTIONS))
        return masked_probabilities(self.model, self._vectors(observations), observations.masks, self.deterministic)

    def action_probabilities_varied(self, observation: Observation, columns: np.ndarray) -> np.ndarray:
        """The policy at variants of ``observation``, float64 (H, 5): row ``h`` reads its vector plus 1 at each
        column of ``columns[h]`` (say, other down cards in a zeroed ``own_down`` slice).

        Equal to :meth:`action_probabilities_batch` on those vectors, but the first layer is computed once
        and each variant only adds its columns' weights: what a best response asks about every holding.
        """
        columns = np.asarray(columns, dtype=np.int64).reshape(len(columns), -1)
        return self.action_probabilities_varied_batch(observation.vector[None], observation.action_mask[None],
                                                      columns, np.zeros(len(columns), dtype=np.intp))

    def action_probabilities_varied_batch(self, vectors: np.ndarray, masks: np.ndarray, columns: np.ndarray,
                                          bases: np.ndarray, device: str = "cpu",
                                          dtype: str = "float32") -> np.ndarray:
        """:meth:`action_probabilities_varied` for many base vectors in one forward pass, float64 (H, 5).

        Row ``h`` reads ``vectors[bases[h]]`` plus 1 at each column of ``columns[h]``, under the mask
        ``masks[bases[h]]``. ``device`` (``"cpu"``, ``"cuda"``) and ``dtype`` (``"float32"``, ``"float64"``) say
        where and in what precision the network runs (a copy of it is kept per pair): what lets a best response
        put its many queries on a GPU, and check that path in float64 on a CPU.
        """
        import torch

        columns = np.asarray(columns, dtype=np.int64).reshape(len(columns), -1)
        bases = np.asarray(bases, dtype=np.intp)
        row_masks = np.asarray(masks)[bases]
        if not len(columns):
            return np.zeros((0, NUM_ACTIONS))
        split = self._split_on(device, dtype)
        if split is None:
            rows = np.asarray(vectors)[bases].astype(np.float32)
            np.add.at(rows, (np.arange(len(columns))[:, None], columns), 1.0)
            return masked_probabilities(self.model, rows, row_masks, self.deterministic)
        with torch.no_grad():
            scores = varied_scores(*split, vectors, columns, bases, device, dtype)
        return as_probabilities(*_policy_from_scores(self.model, scores, row_masks, self.deterministic),
                                 row_masks.shape)

    def _split_on(self, device: str, dtype: str) -> tuple[Any, Any] | None:
        """:func:`first_layer_split` of the policy on ``device`` in ``dtype`` (the model's own on the CPU, float32)."""
        if (device, dtype) == ("cpu", "float32"):
            return self._split
        splits = self.__dict__.setdefault("_splits", {})
        if (device, dtype) not in splits:
            import copy
            import types

            import torch

            policy = copy.deepcopy(self.model.policy).to(device=device, dtype=getattr(torch, dtype))
            splits[device, dtype] = first_layer_split(types.SimpleNamespace(policy=policy))
        return splits[device, dtype]

    @functools.cached_property
    def _split(self) -> tuple[Any, Any] | None:
        return first_layer_split(self.model)

    def _vectors(self, observations: ObservationBatch) -> np.ndarray:
        """The batch's vectors, or ``AttributeError`` when it carries none."""
        if observations.vectors is None:
            raise AttributeError(f"agent {self.name!r} reads vectors, and these observations carry none: list "
                                 "'vector' in the observes of its declaration")
        return observations.vectors
