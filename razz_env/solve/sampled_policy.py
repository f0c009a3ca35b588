"""A sampled solver's policy, keyed by abstraction: its file, and the agent that plays it.

:class:`SampledPolicy` holds the average strategy :class:`~razz_env.solve.sampled_cfr.SampledCFR` met at each
key (sorted int64 keys, (K, 5) probabilities), the table it was solved at and the abstraction, and saves as one
``.npz`` (numpy arrays and a JSON header with their SHA-256, never a pickle). Importing this module needs no
numba (the key function is imported where a policy is built). :class:`SampledCFRAgent` plays it:
it keys each observation's vector and mask with :func:`~razz_env.solve.abstraction.infoset_keys` (the solver's own
function, on what its seat sees), draws from the probabilities there, seeded, and states them through
``action_probabilities``; at a key the solver never met it plays uniformly over the legal ids and counts it
(``unseen``), so a report can say how often that happened. With ``threshold`` it plays the policy thresholded
(Ganzfried & Sandholm 2012): each probability below it dropped and the rest renormalised, so that the small
weight an unfinished average strategy keeps on poor actions is not played.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from razz_env.encoding.actions import NUM_ACTIONS
from razz_env.encoding.interface import Declaration, Observation, ObservationBatch, seating_problem
from razz_env.engine.config import HandConfig
from razz_env.engine.errors import ConfigError
from razz_env.solve.policy import config_of, read_archive, table_of

FORMAT = "razz-env sampled policy"
VERSION = 1


class SampledPolicy:
    """The probabilities (float64, (K, 5)) at each key of ``keys`` (sorted int64) under ``abstraction``."""

    def __init__(self, config: HandConfig, abstraction: str, keys: np.ndarray, probabilities: np.ndarray, *,
                 iterations: int = 0) -> None:
        from razz_env.solve.abstraction import abstraction_code, abstraction_layout  # numba: not at import

        abstraction_code(abstraction, config)
        keys = np.asarray(keys, dtype=np.int64)
        probabilities = np.asarray(probabilities, dtype=np.float64)
        if probabilities.shape != (len(keys), NUM_ACTIONS):
            raise ValueError(f"probabilities: expected shape ({len(keys)}, {NUM_ACTIONS}), got {probabilities.shape}")
        if len(keys) > 1 and not (np.diff(keys) > 0).all():
            raise ValueError("keys: expected distinct keys in increasing order")
        self.config = config
        self.abstraction = abstraction
        self.keys = keys
        self.probabilities = probabilities
        self.iterations = iterations
        self.offsets = abstraction_layout(config)

    def __len__(self) -> int:
        return len(self.keys)

    def lookup(self, vectors: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The probabilities at each row's key ((N, 5)) and whether the key was met (N,); an unmet key's row is
        uniform over its legal ids."""
        from razz_env.solve.abstraction import infoset_keys

        masks = np.asarray(masks, dtype=np.int8)
        keys = infoset_keys(self.abstraction, vectors, masks, self.offsets)
        where = np.minimum(np.searchsorted(self.keys, keys), max(len(self.keys) - 1, 0))
        met = self.keys[where] == keys if len(self.keys) else np.zeros(len(keys), dtype=bool)
        uniform = masks / masks.sum(axis=1, keepdims=True)
        rows = self.probabilities[where] if len(self.keys) else uniform
        return np.where(met[:, None], rows, uniform), met

    # ------------------------------------------------------------------ files

    def _digest(self) -> str:
        return hashlib.sha256(self.keys.tobytes() + self.probabilities.tobytes()).hexdigest()

    def save(self, path: str | Path) -> Path:
        """Write the policy to ``path`` (``.npz`` added when missing); returns the path written."""
        path = Path(path)
        if path.suffix != ".npz":
            path = path.with_name(path.name + ".npz")
        header = {"format": FORMAT, "version": VERSION, "table": table_of(self.config),
                  "abstraction": self.abstraction, "iterations": self.iterations, "sha256": self._digest()}
        np.savez_compressed(path, keys=self.keys, probabilities=self.probabilities,
                            header=np.frombuffer(json.dumps(header, sort_keys=True).encode(), dtype=np.uint8))
        return path

    @classmethod
    def load(cls, path: str | Path) -> SampledPolicy:
        """Read a policy :meth:`save` wrote; ``ConfigError`` naming the file for anything else or a damaged one."""
        path = Path(path)
        where = f"policy file {path}"
        header, arrays = read_archive(path, where, "sampled policy", ("keys", "probabilities"))
        if not isinstance(header, dict) or header.get("format") != FORMAT:
            raise ConfigError(f"{where}: not a sampled policy file (no '{FORMAT}' header)")
        if header.get("version") != VERSION:
            raise ConfigError(f"{where}: format version {header.get('version')!r}; this library reads {VERSION}")
        policy = cls(config_of(header.get("table") or {}, where), str(header.get("abstraction")), arrays["keys"],
                     arrays["probabilities"], iterations=int(header.get("iterations", 0)))
        if policy._digest() != header.get("sha256"):
            raise ConfigError(f"{where}: the probabilities do not match their SHA-256 (the file is damaged)")
        return policy


class SampledCFRAgent:
    """Plays a :class:`SampledPolicy` at the table it was solved at, drawing from it with ``seed``; with
    ``deterministic``, its most likely id instead (the lowest of a tie), stated as that one-hot; with ``threshold``
    (0 to 1), drawing from it thresholded (:func:`thresholded`), stated so.

    In batch it draws what :meth:`act` would on the same observations in order. ``unseen`` counts the decisions
    at keys the solver never met (played uniformly), ``decisions`` all of them.
    """

    def __init__(self, policy: SampledPolicy, seed: int | None = None, name: str | None = None,
                 deterministic: bool = False, threshold: float = 0.0) -> None:
        from razz_env.solve.abstraction import abstraction_encoder, encoding_name

        if isinstance(threshold, bool) or not isinstance(threshold, (int, float)) or not 0 <= threshold < 1:
            raise ValueError(f"threshold: expected a probability from 0 up to (not including) 1, got {threshold!r}")
        if deterministic and threshold:
            raise ValueError("deterministic plays the argmax, threshold a thresholded mix: give one of them")
        self.policy = policy
        config = policy.config
        self.deterministic = bool(deterministic)
        self.threshold = float(threshold)
        self.declaration = Declaration(observes=("vector",), encoding=encoding_name(config),
                                       variants=(config.variant.name,), seat_counts=(2,), states_policy=True,
                                       acts_in_batch=True, deterministic=self.deterministic, table=config,
                                       vector_size=abstraction_encoder(config).size)
        self.name = name or f"sampled_cfr_{config.variant.name}"
        self.rng = np.random.default_rng(seed)
        self.unseen = 0
        self.decisions = 0

    def reset(self, seat: int, num_seats: int, variant: str) -> None:
        """Refuse a table this policy was not solved for."""
        if seating_problem(self, variant, num_seats) is not None:
            raise ValueError(f"agent {self.name!r} plays {self.policy.config.variant.name} heads-up; "
                             f"it cannot play {variant} with {num_seats} seats")

    def action_probabilities(self, observation: Observation) -> np.ndarray:
        """The policy's probabilities at ``observation``'s key."""
        return self.action_probabilities_batch([observation])[0]

    def action_probabilities_batch(self, observations: Sequence[Observation]) -> np.ndarray:
        """The policy's probabilities at each observation's key, (N, 5)."""
        batch = ObservationBatch.of(observations)
        if not len(batch):
            return np.zeros((0, NUM_ACTIONS))
        if batch.vectors is None:
            raise AttributeError(f"agent {self.name!r} reads vectors, and these observations carry none")
        probabilities, _ = self.policy.lookup(batch.vectors, batch.masks)
        return self._played(probabilities)

    def _played(self, probabilities: np.ndarray) -> np.ndarray:
        """The policy as played: itself, thresholded, or the one-hot of its most likely ids."""
        if self.threshold:
            return thresholded(probabilities, self.threshold)
        if not self.deterministic:
            return probabilities
        played = np.zeros_like(probabilities)
        played[np.arange(len(probabilities)), probabilities.argmax(axis=1)] = 1.0
        return played

    def act(self, observation: Observation) -> int:
        """An action id drawn from the policy at ``observation``."""
        return self.act_batch([observation])[0]

    def act_batch(self, observations: Sequence[Observation]) -> list[int]:
        """An action id drawn at each observation, one uniform draw each, in order."""
        batch = ObservationBatch.of(observations)
        if not len(batch):
            return []
        if batch.vectors is None:
            raise AttributeError(f"agent {self.name!r} reads vectors, and these observations carry none")
        probabilities, met = self.policy.lookup(batch.vectors, batch.masks)
        self.decisions += len(met)
        self.unseen += int((~met).sum())
        if self.deterministic:
            return probabilities.argmax(axis=1).tolist()
        cumulative = np.cumsum(self._played(probabilities), axis=1)
        drawn = self.rng.random(len(cumulative)) * cumulative[:, -1]
        return (cumulative[:, :-1] <= drawn[:, None]).sum(axis=1).tolist()

    def __repr__(self) -> str:
        return f"SampledCFRAgent(name={self.name!r}, keys={len(self.policy):,})"


def thresholded(probabilities: np.ndarray, threshold: float) -> np.ndarray:
    """Each row of ``probabilities`` with the entries below ``threshold`` dropped and the rest renormalised; a
    row with none at or above it keeps its most likely entry (the lowest of a tie).

    >>> thresholded(np.array([[0.1, 0.6, 0.3, 0.0, 0.0], [0.1, 0.1, 0.1, 0.1, 0.6]]), 0.2).round(3).tolist()
    [[0.0, 0.667, 0.333, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 1.0]]
    >>> thresholded(np.array([[0.25, 0.25, 0.25, 0.25, 0.0]]), 0.3).tolist()
    [[1.0, 0.0, 0.0, 0.0, 0.0]]
    """
    kept = np.where(probabilities >= threshold, probabilities, 0.0)
    rows = np.arange(len(probabilities))
    lost = kept.sum(axis=1) == 0
    kept[rows[lost], probabilities[lost].argmax(axis=1)] = 1.0
    return kept / kept.sum(axis=1, keepdims=True)

