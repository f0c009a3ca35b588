"""Observation layouts: one declared list of named pieces drives the vector, its bounds and its docs.

A :class:`Layout` is built from :class:`Piece` declarations (name, shape, upper
bound, description). Encoders write into the offsets it computes, the Box space
takes its bounds from it, ``describe()`` returns every named slice, and
``table()`` renders the documentation table that the environment docstring
embeds (a test keeps the two in sync).

>>> layout = Layout([Piece("a", (2,), "first"), Piece("b", (3, 4), "second", dims="(N, 4)")])
>>> layout.size, layout.slices["b"]
(14, slice(2, 14, None))
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from math import prod
from typing import NamedTuple

import numpy as np

TABLE_WIDTH = 116
COLUMN_GAP = 2


class Piece(NamedTuple):
    """One named block of the vector: ``shape`` (row-major), values in ``[0, high]``.

    ``dims`` is the symbolic shape shown in the docs (e.g. ``"(N, 52)"``); it defaults to ``shape``.
    """

    name: str
    shape: tuple[int, ...]
    description: str
    high: float = 1.0
    dims: str = ""

    @property
    def size(self) -> int:
        """Number of floats the piece takes."""
        return prod(self.shape)


class Layout:
    """Pieces laid end to end: offsets, slices, bounds and a docs table."""

    __slots__ = ("pieces", "slices", "offsets", "size")

    def __init__(self, pieces: Sequence[Piece]) -> None:
        names = [p.name for p in pieces]
        if len(set(names)) != len(names):
            raise ValueError(f"layout: duplicate piece names in {names}")
        self.pieces: tuple[Piece, ...] = tuple(pieces)
        self.offsets: dict[str, int] = {}
        self.slices: dict[str, slice] = {}
        start = 0
        for piece in self.pieces:
            self.offsets[piece.name] = start
            self.slices[piece.name] = slice(start, start + piece.size)
            start += piece.size
        self.size = start

    def high(self) -> np.ndarray:
        """Per-element upper bounds (float32); every lower bound is 0."""
        out = np.empty(self.size, dtype=np.float32)
        for piece in self.pieces:
            out[self.slices[piece.name]] = piece.high
        return out

    def describe(self) -> dict[str, tuple[slice, str]]:
        """Every named slice of the vector with its description."""
        return {p.name: (self.slices[p.name], p.description) for p in self.pieces}

    def view(self, vector: np.ndarray, name: str) -> np.ndarray:
        """The named piece of ``vector``, reshaped to the piece's shape (a view, not a copy)."""
        piece = self.pieces[[p.name for p in self.pieces].index(name)]
        return vector[self.slices[name]].reshape(piece.shape)

    def table(self, width: int = TABLE_WIDTH) -> str:
        """The reStructuredText table of the layout (name, symbolic shape, slice, description), ``width`` wide.

        Long descriptions wrap onto continuation lines (blank first column), so the table fits a docstring.
        """
        rows = [("piece", "shape", "slice", "description")]
        for piece in self.pieces:
            sl = self.slices[piece.name]
            dims = piece.dims or str(piece.shape if len(piece.shape) > 1 else piece.shape[0])
            rows.append((f"``{piece.name}``", dims, f"{sl.start}:{sl.stop}", piece.description))
        widths = [max(len(row[i]) for row in rows) for i in range(3)]
        text_width = width - sum(widths) - COLUMN_GAP * len(widths)
        widths.append(min(text_width, max(len(row[3]) for row in rows)))
        lines = []
        for row in rows[1:]:
            wrapped = textwrap.wrap(row[3], text_width) or [""]
            lines.append(_row((*row[:3], wrapped[0]), widths))
            lines += [_row(("", "", "", more), widths) for more in wrapped[1:]]
        rule = (" " * COLUMN_GAP).join("=" * w for w in widths)
        return "\n".join([rule, _row(rows[0], widths), rule, *lines, rule])

def _row(cells: Sequence[str], widths: Sequence[int]) -> str:
    return (" " * COLUMN_GAP).join(cell.ljust(w) for cell, w in zip(cells, widths)).rstrip()
