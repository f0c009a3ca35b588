"""Observation encodings, chosen by name: ``"flat"`` (default, card one-hots) or ``"ranks"`` (suit-free), and
their padded twins ``"flat8"`` and ``"ranks8"``, one layout for every table size of a variant (2 to 8 seats).

An encoder turns ``(hand, seat)`` into a float32 vector holding only what that
seat may see; its :class:`~razz_env.encoding.layout.Layout` names every slice.
:func:`register_encoding` plugs in another one.

>>> from razz_env.engine.config import HandConfig
>>> make_encoder("ranks", HandConfig.create("razz")).layout.slices["own_down"]
slice(0, 13, None)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from razz_env.encoding.encoders import FlatEncoder, PaddedFlatEncoder, PaddedRanksEncoder, RanksEncoder, TableEncoder
from razz_env.encoding.layout import Layout, Piece

if TYPE_CHECKING:
    from razz_env.engine.config import HandConfig

EncoderFactory = Callable[..., TableEncoder]

ENCODINGS: dict[str, EncoderFactory] = {"flat": FlatEncoder, "ranks": RanksEncoder, "flat8": PaddedFlatEncoder,
                                        "ranks8": PaddedRanksEncoder}
DEFAULT_ENCODING = "flat"
BATCHED_ENCODERS: tuple[type[TableEncoder], ...] = (FlatEncoder, RanksEncoder, PaddedFlatEncoder, PaddedRanksEncoder)
"""The encoder classes whose vectors the batched engine (:mod:`razz_env.batch`) writes exactly."""


def is_padded(name: str) -> bool:
    """Whether encoding ``name`` has one layout for every table size of a variant (``"flat8"``, ``"ranks8"``)."""
    return bool(getattr(ENCODINGS.get(name), "padded", False))


def register_encoding(name: str, factory: EncoderFactory) -> None:
    """Make ``factory(config, **options)`` available as ``encoding=name``."""
    ENCODINGS[name] = factory


def make_encoder(name: str, config: HandConfig, **options: Any) -> TableEncoder:
    """The encoder registered as ``name`` for ``config``; ``ValueError`` listing the known names."""
    factory = ENCODINGS.get(name)
    if factory is None:
        raise ValueError(f"encoding: unknown encoding {name!r}; known: {', '.join(ENCODINGS)}")
    return factory(config, **options)


__all__ = [
    "BATCHED_ENCODERS", "DEFAULT_ENCODING", "ENCODINGS", "FlatEncoder", "Layout", "PaddedFlatEncoder",
    "PaddedRanksEncoder", "Piece", "RanksEncoder", "TableEncoder", "is_padded", "make_encoder", "register_encoding",
]
