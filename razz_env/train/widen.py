"""Widening a trained network's input layer from a fixed-size layout to its padded twin (``flat`` to ``flat8``).

A model trained heads-up on ``"flat"`` reads a 676-wide vector; a ``"flat8"`` network reads the same pieces
for eight seat positions plus ``seated``. :func:`widening_columns` says, for every column of the padded
vector, which column of the fixed-size one carries the same feature; :func:`widen_model` builds the padded
network with those input weights (zero for a column with no counterpart) and every other weight and the
optimizer state copied. At the source's table size the widened network computes the same outputs, so a
multi-way run can start from a heads-up agent that already plays (``init_model.widen_from`` in ``razz train``).

Seat positions and history slots beyond the source's read nothing: at a larger table the widened network
sees the seats the source knew (heads-up: the observer and the seat to its left) and the table-wide pieces
(pot, to call, street, dead cards). Reading every further seat through the source's opponent weights was
measured worse (docs/zoo/ppo_razz_multiway.md).

>>> from razz_env.engine.config import HandConfig
>>> from razz_env.encoding.encoders import FlatEncoder, PaddedFlatEncoder
>>> table = HandConfig.create("razz", num_seats=2)
>>> columns = widening_columns(FlatEncoder(table), PaddedFlatEncoder(table))
>>> len(columns), int((columns >= 0).sum())
(2068, 676)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from razz_env.encoding.encoders import NUM_KINDS

if TYPE_CHECKING:
    from razz_env.encoding.encoders import TableEncoder

NO_SOURCE = -1


def widening_columns(source: TableEncoder, target: TableEncoder) -> np.ndarray:
    """For each column of ``target``'s vector, the column of ``source``'s that carries the same feature
    (``NO_SOURCE`` where none does).

    ``target`` must be the padded twin of ``source``'s encoding for the same variant and stakes: the same
    pieces, at least as many seat positions and history slots (a :class:`ValueError` otherwise).
    """
    if not target.padded or source.padded or target.name != source.name + "8":
        raise ValueError(f"widening goes from a fixed-size encoding to its padded twin (flat to flat8, ranks to "
                         f"ranks8), not from {source.name!r} to {target.name!r}")
    if source.config.variant is not target.config.variant or source.card_width != target.card_width:
        raise ValueError(f"widening keeps the variant: {source.config.variant.name} is not "
                         f"{target.config.variant.name}")
    seats = source.seats
    columns = np.full(target.size, NO_SOURCE, dtype=np.int64)
    source_pieces = {piece.name: piece for piece in source.layout.pieces}
    for piece in target.layout.pieces:
        if piece.name not in source_pieces:
            continue
        src = np.arange(source.layout.slices[piece.name].start,
                        source.layout.slices[piece.name].stop).reshape(source_pieces[piece.name].shape)
        out = columns[target.layout.slices[piece.name]].reshape(piece.shape)
        if piece.name == "history":
            slots = source.history_slots
            out[:, :slots, :seats] = src[:, :, :seats]
            out[:, :slots, target.seats:] = src[:, :, seats:seats + NUM_KINDS + 1]
        elif piece.dims.startswith(("N", "(N")):
            out[:seats] = src
        elif piece.shape == src.shape:
            out[...] = src
        else:
            raise ValueError(f"piece {piece.name!r} has shape {src.shape} in {source.name!r} and {piece.shape} "
                             f"in {target.name!r}; only seat positions and history slots may grow")
    return columns


def widen_matrix(weights: np.ndarray, columns: np.ndarray) -> np.ndarray:
    """``weights`` (``(out, source width)``) as ``(out, len(columns))``: column ``c`` is ``weights[:, columns[c]]``,
    zero where ``columns[c]`` is ``NO_SOURCE``."""
    widened = np.zeros((weights.shape[0], len(columns)), dtype=weights.dtype)
    known = columns != NO_SOURCE
    widened[:, known] = weights[:, columns[known]]
    return widened


def widen_model(model: Any, columns: np.ndarray, observation_space: Any) -> Any:
    """A new model of ``model``'s algorithm reading ``observation_space`` (``len(columns)`` wide): every weight
    that reads the observation widened by ``columns``, its Adam moments likewise, everything else copied."""
    import gymnasium
    import torch

    class _Spaces(gymnasium.Env):
        """Only the spaces a model is built for; it is never stepped."""

        def __init__(self) -> None:
            self.observation_space = observation_space
            self.action_space = model.action_space

    widened = type(model)(model.policy_class, _Spaces(), policy_kwargs=model.policy_kwargs, device="cpu")
    shapes = {name: tuple(tensor.shape) for name, tensor in widened.policy.state_dict().items()}

    def fitted(name: str, tensor: torch.Tensor) -> torch.Tensor:
        """``tensor`` as the widened network's ``name`` holds it: widened if it reads the observation."""
        if tuple(tensor.shape) == shapes[name]:
            return tensor
        if shapes[name] != (tensor.shape[0], len(columns)):
            raise ValueError(f"{name}: shape {tuple(tensor.shape)} does not widen to {shapes[name]}")
        return torch.from_numpy(widen_matrix(tensor.detach().cpu().numpy(), columns))

    params = model.get_parameters()
    policy = {name: fitted(name, tensor) for name, tensor in params["policy"].items()}
    optimizer = params["policy.optimizer"]
    # the optimizer's state is indexed in parameter order; its dicts are the source's own, so build new ones
    names = [name for name, _ in widened.policy.named_parameters()]
    moments = {index: {key: fitted(names[index], value) if value.dim() else value for key, value in state.items()}
               for index, state in optimizer["state"].items()}
    widened.set_parameters({"policy": policy, "policy.optimizer": {**optimizer, "state": moments}}, exact_match=True,
                           device="cpu")
    return widened
