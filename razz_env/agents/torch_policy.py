"""A policy network saved by the batched PPO trainer (a ``.pt`` file) as an agent.

``razz_env.train.batch_ppo`` saves ``final.pt``: ``torch.save`` of a dict of plain data, loaded here with
``torch.load(..., weights_only=True)`` (no pickled code can run):

- ``format``: :data:`FORMAT`; ``version``: :data:`VERSION`;
- ``variant``, ``num_seats``, ``stacks``: the table it was trained at, and ``table``: all of it (the
  :class:`~razz_env.engine.table.Table` as plain data, ``Table.to_dict``: stakes and rules too); ``encoding``:
  ``"flat"``;
- ``layers``: the widths of the MLP, input to the five action logits; ``activation``: ``"tanh"`` or ``"relu"``;
- ``state_dict``: the actor network's weights; ``steps``: training steps; ``args``: the trainer's settings.

:func:`build_mlp` is the one builder of that network: the trainer builds its actor with it and this module
rebuilds it from ``layers``/``activation``, so a saved file reloads to the same ``nn.Sequential`` and the same
logits. The agent plays the masked argmax (``deterministic=True``, the default) or samples the masked softmax
from its own seeded generator; it declares the variant and seat count it was trained at and refuses other
tables, as :class:`~razz_env.agents.sb3_agent.SB3Agent` does, and declares its whole table (``Declaration.table``),
so that a harness refuses a seating at other stacks, stakes or rules in one line naming both tables. A file saved
before ``table`` was recorded has its table unknown: it plays at any stacks, stakes and rules, as it did.
"""

from __future__ import annotations

import hashlib
import io
import os
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from razz_env.encoding.actions import NUM_ACTIONS
from razz_env.encoding.interface import Declaration, Observation, ObservationBatch, seating_problem
from razz_env.engine.checks import archive_problem, as_flag
from razz_env.engine.config import HandConfig
from razz_env.engine.errors import ConfigError

FORMAT = "razz-batch-ppo"
VERSION = 1
ALGORITHM = "batch_ppo"
"""A zoo manifest entry's ``algorithm`` for such a file."""
ACTIVATIONS = ("tanh", "relu")
_KEYS = ("format", "version", "variant", "num_seats", "encoding", "layers", "activation", "state_dict")


def build_mlp(layers: Sequence[int], activation: str) -> Any:
    """``nn.Sequential`` of Linear layers of widths ``layers`` with ``activation`` between them (none after the
    last): the network the trainer trains and this module reloads."""
    from torch import nn

    if activation not in ACTIVATIONS:
        raise ValueError(f"activation: expected one of {', '.join(ACTIVATIONS)}, got {activation!r}")
    modules: list[Any] = []
    for i, (width_in, width_out) in enumerate(zip(layers, layers[1:])):
        if i:
            modules.append(nn.Tanh() if activation == "tanh" else nn.ReLU())
        modules.append(nn.Linear(width_in, width_out))
    return nn.Sequential(*modules)


def varied_scores(first: Any, rest: Any, vectors: np.ndarray, columns: np.ndarray, bases: np.ndarray, device: str,
                  dtype: str) -> Any:
    """``rest(first(x))`` for each row ``x = vectors[bases[h]]`` plus 1 at each column of ``columns[h]``, with the
    first linear layer computed once per base and each variant adding its columns' weights: what a best response's
    queries about every holding cost (the network, ``first`` and ``rest``, on ``device`` in ``dtype``)."""
    import torch

    with torch.no_grad():
        # a copy (torch.tensor, not as_tensor): the vectors may be a read-only array
        hidden = first(torch.tensor(np.asarray(vectors), dtype=getattr(torch, dtype), device=device))
        hidden = hidden[torch.as_tensor(bases, device=device)]
        weights = first.weight.T.contiguous()  # one row per input column: a gather per variant column
        for column in torch.as_tensor(columns, device=device).T:
            hidden += weights[column]
        return rest(hidden)


def as_probabilities(policy: Any, greedy: bool, shape: tuple[int, ...]) -> np.ndarray:
    """A batch's policy as float64 probabilities of ``shape`` (N, 5): the one-hot of greedy ids, else the softmax
    rows as they are."""
    if not greedy:
        return policy.cpu().numpy()
    probabilities = np.zeros(shape, dtype=np.float64)
    probabilities[np.arange(len(probabilities)), policy.cpu().numpy()] = 1.0
    return probabilities


def read_policy_bytes(data: bytes, where: str) -> dict[str, Any]:
    """The checked contents of a policy file's bytes (``where`` names it in errors): ``ValueError`` when it is not
    this format."""
    import torch

    try:
        saved = torch.load(io.BytesIO(data), map_location="cpu", weights_only=True)
    except Exception as err:  # noqa: BLE001 - any unreadable file is one clear error
        problem = archive_problem(data) or f"{type(err).__name__}: {' '.join(str(err).split())[:200]}"
        raise ValueError(f"policy file {where}: not a saved torch policy ({problem})") from None
    if not isinstance(saved, dict) or saved.get("format") != FORMAT:
        raise ValueError(f"policy file {where}: not a {FORMAT} file (razz_env.train.batch_ppo's final.pt); "
                         f"an SB3 model is a .zip")
    missing = [key for key in _KEYS if key not in saved]
    if missing:
        raise ValueError(f"policy file {where}: damaged, it lacks {', '.join(missing)}")
    if saved["version"] != VERSION:
        raise ValueError(f"policy file {where}: format version {saved['version']!r}, this code reads {VERSION}")
    if saved["encoding"] != "flat":
        raise ValueError(f"policy file {where}: encoding {saved['encoding']!r}; only 'flat' is read")
    if "table" in saved:
        from razz_env.engine.table import Table

        try:
            table = Table.from_mapping(saved["table"], f"policy file {where}: table")
        except (ConfigError, TypeError, ValueError) as err:
            raise ValueError(str(err)) from None
        if (table.variant.name, table.num_seats) != (saved["variant"], saved["num_seats"]):
            raise ValueError(f"policy file {where}: its table is {table.variant.name} at {table.num_seats} seats, "
                             f"but it names {saved['variant']} at {saved['num_seats']}")
    return saved


@lru_cache(maxsize=16)
def _network(path: str, sha256: str) -> tuple[Any, dict[str, Any]]:
    """The network and metadata of the file at ``path`` once its bytes match ``sha256`` (once per process)."""
    try:
        data = Path(path).read_bytes()
    except OSError as err:
        raise ValueError(f"policy file {path!r}: cannot be read ({err.strerror or err})") from None
    digest = hashlib.sha256(data).hexdigest()
    if digest != sha256:
        raise ValueError(f"policy file {path!r}: SHA-256 {digest} differs from the expected {sha256} "
                         f"(changed since the agent was made)")
    saved = read_policy_bytes(data, repr(path))
    network = build_mlp(saved["layers"], saved["activation"])
    try:
        network.load_state_dict(saved["state_dict"])
    except RuntimeError as err:
        raise ValueError(f"policy file {path!r}: the weights do not fit layers {saved['layers']} "
                         f"({' '.join(str(err).split())[:200]})") from None
    network.eval()
    meta = {key: value for key, value in saved.items() if key != "state_dict"}
    return network, meta


def trained_table(meta: dict[str, Any]) -> HandConfig | None:
    """The table a policy file's metadata says it was trained at, or None for a file from before it said."""
    from razz_env.engine.table import Table

    return Table.from_mapping(meta["table"]).hand_config() if "table" in meta else None


def declaration(variant: str, num_seats: int, table: HandConfig | None, deterministic: bool) -> Declaration:
    """What a policy trained at ``table`` (``variant``, ``num_seats``) declares: it reads the flat vector and states
    its policy, a batch at a time."""
    return Declaration(observes=("vector",), encoding="flat", variants=(variant,), seat_counts=(num_seats,),
                       states_policy=True, acts_in_batch=True, deterministic=deterministic, table=table)


class VectorPolicy:
    """What a policy of vectors deciding a batch at a time (:class:`TorchPolicyAgent`, an SB3 model's agent) does
    one observation at a time, and its check of the table it is seated at."""

    def reset(self, seat: int, num_seats: int, variant: str) -> None:
        """Refuse a table the policy was not trained for (``ValueError``); otherwise stateless."""
        problem = seating_problem(self, variant, num_seats)
        if problem is not None:
            raise ValueError(problem)

    def act(self, observation: Observation) -> int:
        """One decision (prefer :meth:`act_batch`: one forward pass for many tables)."""
        return self.act_batch(_single(observation))[0]

    def action_probabilities(self, observation: Observation) -> np.ndarray:
        """The distribution :meth:`act` uses now, float64 (5,) (prefer :meth:`action_probabilities_batch`)."""
        return self.action_probabilities_batch(_single(observation))[0]


def _single(observation: Observation) -> ObservationBatch:
    """``observation`` as a batch of one: its mask and vector, never its view (an agent of vectors reads none)."""
    return ObservationBatch(np.array([observation.seat]), observation.action_mask[None],
                            vectors=observation.vector[None])


class TorchPolicyAgent(VectorPolicy):
    """A ``.pt`` policy of :mod:`razz_env.train.batch_ppo` playing by the agent interface (see the module docs).

    It pickles as its spec (path, SHA-256, options): unpickling loads the same bytes again or refuses.
    """

    def __init__(self, path: str | os.PathLike[str], sha256: str | None = None, name: str | None = None,
                 deterministic: bool = True, seed: int | None = None, variant: str | None = None,
                 num_seats: int | None = None) -> None:
        import torch

        where = Path(path)
        if not where.is_file():
            raise ValueError(f"policy file {str(path)!r}: no such file")
        deterministic = as_flag("deterministic", deterministic)
        resolved = str(where.resolve())
        if sha256 is None:
            sha256 = hashlib.sha256(where.read_bytes()).hexdigest()
        self.network, meta = _network(resolved, sha256.lower())
        for key, given in (("variant", variant), ("num_seats", num_seats)):
            if given is not None and given != meta[key]:
                raise ValueError(f"policy file {str(path)!r}: trained for {key} {meta[key]!r}, not {given!r}")
        self.spec = {"path": resolved, "sha256": sha256.lower(), "name": name, "deterministic": bool(deterministic),
                     "seed": seed}
        self.meta = meta
        self.name = name or where.stem
        self.deterministic = bool(deterministic)
        self.declaration = declaration(meta["variant"], meta["num_seats"], trained_table(meta), self.deterministic)
        self._generator = torch.Generator().manual_seed(seed if seed is not None else 0)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return _rebuild, (self.spec,)

    def _policy(self, observations: ObservationBatch) -> Any:
        """The masked logits' argmax ids (deterministic) or the masked softmax (float64) of the batch."""
        import torch

        if observations.vectors is None:
            raise AttributeError(f"agent {self.name!r} reads vectors, and these observations carry none")
        legal = torch.as_tensor(np.asarray(observations.masks) != 0)
        empty = np.flatnonzero(~legal.any(dim=1).numpy())
        if len(empty):
            raise ValueError(f"no legal action in row(s) {empty.tolist()} of the batch: not the seat's turn")
        with torch.no_grad():
            logits = self.network(torch.from_numpy(np.array(observations.vectors, dtype=np.float32)))
        logits = logits.masked_fill(~legal, -torch.inf)
        if self.deterministic:
            return logits.argmax(dim=1)
        return torch.softmax(logits.double(), dim=1)

    def act_batch(self, observations: Sequence[Observation]) -> list[int]:
        """Decisions for many tables in one forward pass: the masked argmax, or draws from the masked softmax."""
        import torch

        batch = ObservationBatch.of(observations)
        if not len(batch):
            return []
        policy = self._policy(batch)
        if not self.deterministic:
            policy = torch.multinomial(policy, 1, generator=self._generator).squeeze(1)
        return [int(a) for a in policy]

    def action_probabilities_batch(self, observations: Sequence[Observation]) -> np.ndarray:
        """The policy at each observation in one forward pass, float64 (N, 5): one-hot when deterministic."""
        batch = ObservationBatch.of(observations)
        if not len(batch):
            return np.zeros((0, NUM_ACTIONS))
        return as_probabilities(self._policy(batch), self.deterministic, (len(batch), NUM_ACTIONS))

    def action_probabilities_varied_batch(self, vectors: np.ndarray, masks: np.ndarray, columns: np.ndarray,
                                          bases: np.ndarray, device: str = "cpu",
                                          dtype: str = "float32") -> np.ndarray:
        """The policy at many variants of base vectors in one forward pass, float64 (H, 5): row ``h`` reads
        ``vectors[bases[h]]`` plus 1 at each column of ``columns[h]`` under ``masks[bases[h]]``.

        What a best response asks about every holding (``razz_env.agents.lbr``): the first layer is computed once
        per base and each variant adds its columns' weights, on ``device`` (``"cuda"`` puts the queries on a GPU)
        in ``dtype``; equal to :meth:`action_probabilities_batch` on those vectors.
        """
        import torch

        columns = np.asarray(columns, dtype=np.int64).reshape(len(columns), -1)
        bases = np.asarray(bases, dtype=np.intp)
        if not len(columns):
            return np.zeros((0, NUM_ACTIONS))
        network = self._network_on(device, dtype)
        legal = torch.as_tensor(np.asarray(masks)[bases] != 0, device=device)
        logits = varied_scores(network[0], network[1:], vectors, columns, bases, device, dtype).masked_fill(
            ~legal, -torch.inf)
        if not self.deterministic:
            return torch.softmax(logits.double(), dim=1).cpu().numpy()
        probabilities = np.zeros((len(columns), NUM_ACTIONS), dtype=np.float64)
        probabilities[np.arange(len(columns)), logits.argmax(dim=1).cpu().numpy()] = 1.0
        return probabilities

    def _network_on(self, device: str, dtype: str) -> Any:
        """The network on ``device`` in ``dtype`` (a copy kept per pair; the loaded one on the CPU in float32)."""
        if (device, dtype) == ("cpu", "float32"):
            return self.network
        copies = self.__dict__.setdefault("_copies", {})
        if (device, dtype) not in copies:
            import copy

            import torch

            copies[device, dtype] = copy.deepcopy(self.network).to(device=device, dtype=getattr(torch, dtype))
        return copies[device, dtype]

    def __repr__(self) -> str:
        return f"TorchPolicyAgent(name={self.name!r}, path={self.spec['path']!r})"


def _rebuild(spec: dict[str, Any]) -> TorchPolicyAgent:
    return TorchPolicyAgent(**spec)


def load_policy_path(path: str | os.PathLike[str], *, sha256: str | None = None, name: str | None = None,
                     deterministic: bool = True, seed: int | None = None, variant: str | None = None,
                     num_seats: int | None = None) -> TorchPolicyAgent:
    """A ``.pt`` policy file given by its path (``make_agent("runs/x/final.pt")``, a tournament's ``agents``)."""
    return TorchPolicyAgent(path, sha256=sha256, name=name, deterministic=deterministic, seed=seed,
                            variant=variant, num_seats=num_seats)
