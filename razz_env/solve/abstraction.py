"""Information-set keys for the sampled solver, computed from what the acting seat sees: its vector and legal ids.

:mod:`razz_env.solve.sampled_cfr` keys its regrets, and :class:`~razz_env.solve.sampled_policy.SampledCFRAgent`
its policy, by :func:`infoset_keys` of the seat's observation vector (the abstraction's encoding, as the batched
engine and every :class:`~razz_env.encoding.interface.Observer` write it) and its legal-id mask, so the solver
and the agent read one function and the agent is given nothing its seat may not see. An abstraction:

- ``exact``: a 64-bit FNV-1a hash of the vector's float32 bits and the mask, lossless wherever the vector holds
  the seat's whole view (heads-up, the history slots the table's raise cap needs). Lowball variants are keyed on
  their ``ranks`` vectors (suits, which razz reads only to break bring-in ties, shown by the bring-in's seat), so
  the key is the rank game's information set, as :mod:`razz_env.solve.keys` reduces it; others on ``flat``.

>>> import numpy as np
>>> vectors = np.zeros((2, 4), dtype=np.float32)
>>> vectors[1, 2] = 1.0
>>> masks = np.array([[0, 1, 1, 0, 0], [0, 1, 1, 0, 0]], dtype=np.int8)
>>> keys = infoset_keys("exact", vectors, masks)
>>> bool(keys[0] != keys[1]), bool((infoset_keys("exact", vectors, masks) == keys).all())
(True, True)
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from numba import njit

from razz_env.batch.kernels import CACHE, KERNEL_SOURCES, drop_stale_cache
from razz_env.encoding import TableEncoder, make_encoder
from razz_env.engine.config import HandConfig

drop_stale_cache(Path(__file__).resolve().parent / "__pycache__", KERNEL_SOURCES)

ABSTRACTIONS = {"exact": 0}
"""Each abstraction's name and the code the kernels read."""
EXACT = ABSTRACTIONS["exact"]

_FNV_OFFSET = np.uint64(14695981039346656037)
_FNV_PRIME = np.uint64(1099511628211)


def abstraction_code(name: str) -> int:
    """The kernels' code of abstraction ``name``; ``ValueError`` listing the known ones."""
    if name not in ABSTRACTIONS:
        raise ValueError(f"abstraction: unknown abstraction {name!r}; known: {', '.join(ABSTRACTIONS)}")
    return ABSTRACTIONS[name]


def encoding_name(config: HandConfig) -> str:
    """The encoding an abstraction reads at ``config``'s table: ``ranks`` for lowball games, else ``flat``."""
    variant = config.variant
    return "ranks" if variant.low_board and "high" not in variant.showdown else "flat"


def abstraction_encoder(config: HandConfig) -> TableEncoder:
    """The encoder whose vectors the abstractions key at ``config``'s table."""
    return make_encoder(encoding_name(config), config)


@njit(cache=CACHE)
def infoset_key(kind, vector, mask):
    """The key of one decision: abstraction ``kind`` of ``vector`` (float32) and ``mask`` (the five legal ids)."""
    h = _FNV_OFFSET
    bits = vector.view(np.uint32)
    for i in range(bits.shape[0]):
        h = (h ^ np.uint64(bits[i])) * _FNV_PRIME
    for a in range(mask.shape[0]):
        h = (h ^ np.uint64(mask[a])) * _FNV_PRIME
    return np.int64(h)


@njit(cache=CACHE)
def _keys(kind, vectors, masks, out):
    for row in range(vectors.shape[0]):
        out[row] = infoset_key(kind, vectors[row], masks[row])


def infoset_keys(abstraction: str, vectors: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """The keys (int64, (N,)) of ``vectors`` ((N, size) float32) and ``masks`` ((N, 5)) under ``abstraction``."""
    kind = abstraction_code(abstraction)
    vectors = np.ascontiguousarray(vectors, dtype=np.float32)
    masks = np.ascontiguousarray(masks, dtype=np.int8)
    if vectors.ndim != 2 or masks.shape != (vectors.shape[0], 5):
        raise ValueError(f"infoset_keys: expected (N, size) vectors and (N, 5) masks, got {vectors.shape} and "
                         f"{masks.shape}")
    out = np.empty(vectors.shape[0], dtype=np.int64)
    _keys(kind, vectors, masks, out)
    return out
