"""The batched engine on an NVIDIA GPU: one CUDA thread a table, every array in device memory.

:class:`CudaEngine` takes :class:`~razz_env.batch.engine.BatchEngine`'s arguments and plays the same hands: the
CUDA kernels here are thin launchers around the per-table functions of :mod:`razz_env.batch.kernels`
(``step_table``, ``deal_table``, ``encode_table``, ``random_legal_row``), which numba compiles for the CPU and,
called from these kernels, for the GPU. There is no second copy of the rules. The arrays are laid out
table-minor (Fortran order): thread ``t`` reads ``tab[t, c]`` beside thread ``t + 1``, so a warp's loads coalesce,
while the CPU engine keeps a table's state together for its cache.

Every array it gives (``masks``, ``actor``, the step's ``payoffs`` and ``finished``, the vectors of ``observe``)
is a numba device array with ``__cuda_array_interface__``: ``torch.as_tensor(engine.masks, device="cuda")``
reads it without a copy (the tensor is strided, as the array is), and ``step`` takes actions the same way
from a CUDA tensor. A deck deals as on the CPU, and a seed gives the CPU engine's decks; random legal ids drawn
by :func:`random_legal_actions` from ``policy_state(seed, rows=T)`` are the CPU's per-row draws.

Without a GPU it runs on numba's CUDA simulator (``NUMBA_ENABLE_CUDASIM=1``, with ``NUMBA_DISABLE_JIT=1`` so that
the shared functions run as Python inside the simulated threads): slow, but the same source, which is how the
tests hold it to the scalar engine on machines without a GPU.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from razz_env.batch import kernels as _k
from razz_env.batch.engine import (
    StepResult,
    TableState,
    check_decks,
    check_stacks,
    check_tables,
    compile_rules,
    encoder_layout,
)
from razz_env.encoding.actions import NUM_ACTIONS
from razz_env.encoding.encoders import TableEncoder
from razz_env.engine.checks import as_int
from razz_env.engine.config import HandConfig
from razz_env.engine.errors import ConfigError, shown

try:
    from numba import cuda
except ImportError as err:  # pragma: no cover - numba ships its CUDA target
    raise ImportError(f"razz_env.batch.cuda_engine needs numba's CUDA target: pip install 'razz-env[gpu]' ({err})") \
        from None

THREADS = 128
"""Threads a block (not yet tuned on a GPU)."""


def slice_layout(shape: tuple[int, ...], strides: tuple[int, ...], itemsize: int,
                 index: int) -> tuple[tuple[int, ...], tuple[int, ...], int, int]:
    """Shape, strides and byte extent [begin, end) of ``array[..., index]`` for an array of ``shape`` and
    ``strides`` (in bytes), as numpy lays it out."""
    begin = index * strides[-1]
    shape, strides = tuple(shape[:-1]), tuple(strides[:-1])
    return shape, strides, begin, begin + sum((n - 1) * s for n, s in zip(shape, strides)) + itemsize


def last_axis_slice(array: Any, index: int) -> Any:
    """``array[..., index]`` of a device array, with numpy's strides. numba's own slicing gives the slice of a
    Fortran-ordered array C-ordered strides (``seats[:, :, k]`` of a (T, S, k) array read (T, S) as rows of S), so
    on a GPU ``stacks``, ``bets`` and the other (T, S) arrays showed other seats' and tables' chips; numba's
    simulator slices as numpy does."""
    if not hasattr(array, "gpu_data"):  # the simulator's arrays
        return array[..., index]
    from numba.cuda.cudadrv.devicearray import DeviceNDArray

    shape, strides, begin, end = slice_layout(array.shape, array.strides, array.dtype.itemsize, index)
    return DeviceNDArray(shape, strides, array.dtype, gpu_data=array.gpu_data.view(begin, end))


def _launch(kernel: Any, count: int) -> Any:
    """``kernel`` configured with a thread for each of ``count`` items (blocks of :data:`THREADS`, or fewer)."""
    threads = min(THREADS, count)
    return kernel[(count + threads - 1) // threads, threads]


@cuda.jit
def _check_kernel(actions, rules, tables, bad):
    """``bad[0]``: the lowest table whose action id is not legal (left as it is when every id is)."""
    t = cuda.grid(1)
    if t < actions.shape[0] and not _k.is_legal_id(t, actions[t], rules, tables):
        cuda.atomic.min(bad, 0, t)


@cuda.jit
def _step_kernel(actions, bad, rules, tables, work, observe, encoding, out):
    """``kernels.step_table`` at every table, unless an id was refused (then nothing changes)."""
    t = cuda.grid(1)
    if t < actions.shape[0] and bad[0] == actions.shape[0]:
        _k.step_table(t, actions[t], rules, tables, work[t], observe, encoding, out)


@cuda.jit
def _deal_kernel(index, given, decks, rules, tables):
    """``kernels.deal_table`` at each table of ``index`` (row ``i`` of ``decks`` is table ``index[i]``'s deck when
    ``given``)."""
    i = cuda.grid(1)
    if i < index.shape[0]:
        t = index[i]
        if given:
            for c in range(tables.deck.shape[1]):
                tables.deck[t, c] = decks[i, c]
        _k.deal_table(t, given, rules, tables)


@cuda.jit
def _encode_kernel(rules, tables, encoding, out):
    t = cuda.grid(1)
    if t < out.shape[0]:
        _k.encode_table(t, rules, tables, encoding, out[t])


@cuda.jit
def _random_kernel(masks, state, out):
    t = cuda.grid(1)
    if t < masks.shape[0]:
        out[t] = _k.random_legal_row(t, masks, state, t)


def _is_device_array(value: object) -> bool:
    return hasattr(value, "__cuda_array_interface__") or hasattr(value, "copy_to_host")


def _as_device(value: Any) -> Any:
    """A numba device array as it is; any other CUDA array (a torch tensor...) viewed as one, without a copy and
    without waiting for its stream: PyTorch and these kernels both run on the default stream, which orders them."""
    return value if hasattr(value, "copy_to_host") else cuda.as_cuda_array(value, sync=False)


def _described(value: object) -> str:
    shape, dtype = getattr(value, "shape", None), getattr(value, "dtype", None)
    if shape is None:
        return type(value).__name__
    return f"{'a device' if _is_device_array(value) else 'a host'} {dtype} array of shape {tuple(shape)}"


def random_legal_actions(masks: Any, state: Any, out: Any = None) -> Any:
    """A uniformly random legal id per row of the device ``masks`` ((T, 5) int8, as ``CudaEngine.masks``), row
    ``t`` from its own splitmix64 stream ``state[t]`` (a device uint64 array of ``policy_state(seed, rows=T)``,
    advanced in place): the draws the CPU's ``random_legal_actions`` makes with the same streams. Into the device
    int64 ``out`` when given, else a new device array; every row must allow an id (an engine's masks do)."""
    masks, state = _as_device(masks), _as_device(state)
    if len(masks.shape) != 2 or masks.shape[1] != NUM_ACTIONS or masks.dtype != np.int8:
        raise ValueError(f"masks: expected device int8 legal-id masks of shape (tables, {NUM_ACTIONS}), got "
                         f"{_described(masks)}")
    rows = masks.shape[0]
    if state.shape != (rows,) or state.dtype != np.uint64:
        raise ValueError(f"state: expected a device uint64 array of shape ({rows},) "
                         f"(cuda.to_device(policy_state(seed, rows={rows}))), got {_described(state)}")
    if out is None:
        out = cuda.device_array(rows, dtype=np.int64)
    else:
        out = _as_device(out)
        if out.shape != (rows,) or out.dtype != np.int64:
            raise ValueError(f"out: expected a device int64 array of shape ({rows},), got {_described(out)}")
    _launch(_random_kernel, rows)(masks, state, out)
    return out


class CudaEngine(TableState):
    """``num_tables`` hands of ``config`` in lockstep on the GPU; the arguments are :class:`BatchEngine`'s (but
    ``views``, which needs the host's full histories).

    Arrays are device arrays updated in place by :meth:`step` (``masks``, ``actor``, ``street``, ``stacks``,
    ``bets``, ``contributed``, ``folded``, ``cards``, ``num_cards``, ``community``, ``decks``, ``level``,
    ``bring_in_seat``); read them on the device, or ``copy_to_host()`` them.
    """

    def __init__(self, config: HandConfig, num_tables: int, *, seed: int | None = None,
                 stacks: np.ndarray | Sequence[Sequence[int]] | None = None,
                 decks: np.ndarray | Sequence[Sequence[int]] | None = None, allow_open_fold: bool = False,
                 encoder: TableEncoder | None = None) -> None:
        if not isinstance(config, HandConfig):
            raise ConfigError(f"config: expected a HandConfig, got {shown(config)}")
        if not cuda.is_available():
            raise ConfigError("CudaEngine: no CUDA GPU is available (numba.cuda.is_available() is False); use "
                              "BatchEngine on the CPU, or NUMBA_ENABLE_CUDASIM=1 for numba's simulator")
        num_tables = as_int("num_tables", num_tables, 1)
        self.config, self.num_tables, self.encoder = config, num_tables, encoder
        n = self.num_seats = config.num_seats
        variant, layout = config.variant, config.layout
        self._rules = _k.Rules(*(cuda.to_device(array) for array in compile_rules(config, allow_open_fold)))
        starting = check_stacks(config, num_tables, stacks)
        offsets, card_index, slots = encoder_layout(config, encoder)
        self._encoding = _k.Encoding(cuda.to_device(offsets), cuda.to_device(card_index), 1.0 / config.big_bet)
        streets = len(variant.streets)
        small = starting.max() <= np.iinfo(np.int32).max

        def table_minor(shape: tuple[int, ...], dtype: Any, fill: int = 0) -> Any:
            return cuda.to_device(np.asfortranarray(np.full(shape, fill, dtype=dtype)))

        self._tables = _k.Tables(
            tab=table_minor((num_tables, _k.NUM_TAB), np.int64),
            seats=table_minor((num_tables, n, _k.NUM_SEAT), np.int64),
            cards=table_minor((num_tables, n, variant.cards_per_seat), np.int64, -1),
            deck=table_minor((num_tables, layout.deck_size), np.int64),
            used=table_minor((num_tables, layout.deck_size), np.int8),
            rng=cuda.to_device(np.random.SeedSequence(None if seed is None else as_int("seed", seed, 0))
                               .generate_state(num_tables, np.uint64)),
            starting=cuda.to_device(np.asfortranarray(starting)),
            history=table_minor((num_tables, streets, slots, 3), np.int32 if small else np.int64),
            counts=table_minor((num_tables, streets), np.int32),
            masks=table_minor((num_tables, NUM_ACTIONS), np.int8), payoffs=table_minor((num_tables, n), np.int64),
            finished=cuda.to_device(np.zeros(num_tables, dtype=np.int64)),
            ended_tab=table_minor((num_tables, _k.NUM_TAB), np.int64),
            ended_seats=table_minor((num_tables, n, _k.NUM_SEAT), np.int64),
            ended_cards=table_minor((num_tables, n, variant.cards_per_seat), np.int64, -1))
        self._work = table_minor((num_tables, _k.NUM_WORK, _k.WORK_WIDTH), np.int64)
        self._bad = cuda.to_device(np.array([num_tables], dtype=np.int64))
        self._bad_host = np.zeros(1, dtype=np.int64)
        self._actions = cuda.device_array(num_tables, dtype=np.int64)
        self._no_vectors = cuda.device_array((1, 1), dtype=np.float32)
        self._no_decks = cuda.device_array((1, 1), dtype=np.int64)
        self._result = StepResult(self._tables.payoffs, self._tables.finished)
        self.reset(decks=decks)

    # ------------------------------------------------------------------ play

    def reset(self, tables: Sequence[int] | np.ndarray | None = None,
              decks: np.ndarray | Sequence[Sequence[int]] | None = None) -> None:
        """Abandon the hands at ``tables`` (default: all) and deal new ones, from ``decks`` (one per table reset,
        host arrays) or from each table's stream."""
        index = check_tables(self.num_tables, tables)
        if not len(index):
            return
        given = decks is not None
        rows = cuda.to_device(check_decks(self.config, decks, len(index))) if given else self._no_decks
        _launch(_deal_kernel, len(index))(cuda.to_device(index), given, rows, self._rules, self._tables)

    def step(self, actions: Any, out: Any = None, *, check: bool = True) -> StepResult:
        """Apply one action id per table (int64: a host array, copied, or a device array such as a CUDA tensor,
        read in place). A table whose id its mask forbids leaves every table unchanged; with ``check`` (one
        8-byte copy to the host, which waits for the GPU) a ``ValueError`` names it at once, without it the
        error comes from the next checked step or :meth:`check`, and the steps until then change nothing. With
        ``out`` (a device float32 (T, encoder.size) array), the new acting seats' vectors are written there.
        The result's device arrays are reused by the next call."""
        device_actions = self._device_actions(actions)
        observe = out is not None
        vectors = self._vectors(out) if observe else self._no_vectors
        _launch(_check_kernel, self.num_tables)(device_actions, self._rules, self._tables, self._bad)
        _launch(_step_kernel, self.num_tables)(device_actions, self._bad, self._rules, self._tables, self._work,
                                               observe, self._encoding, vectors)
        if check:
            self.check(device_actions)
        return self._result

    def check(self, actions: Any = None) -> None:
        """Raise the ``ValueError`` of a refused action id, if an unchecked step had one (and clear it)."""
        self._bad.copy_to_host(self._bad_host)
        bad = int(self._bad_host[0])
        if bad < self.num_tables:
            self._bad.copy_to_device(np.array([self.num_tables], dtype=np.int64))
            legal = ", ".join(str(i) for i in np.flatnonzero(self._tables.masks.copy_to_host()[bad]))
            taken = "" if actions is None else f"id {int(_as_device(actions).copy_to_host()[bad])} "
            raise ValueError(f"actions[{bad}]: {taken}is not legal at table {bad}; legal ids: {legal} (no table "
                             "changed)")

    def _device_actions(self, actions: Any) -> Any:
        shape = (self.num_tables,)
        if _is_device_array(actions):
            array = _as_device(actions)
            if array.shape != shape or array.dtype != np.int64:
                raise ValueError(f"actions: expected one int64 action id per table, shape {shape}, got "
                                 f"{_described(array)}")
            return array
        host = np.asarray(actions)
        if host.shape != shape or host.dtype.kind not in "iu":
            raise ValueError(f"actions: expected one integer action id per table, shape {shape}, got "
                             f"{_described(host)}")
        self._actions.copy_to_device(np.ascontiguousarray(host, dtype=np.int64))
        return self._actions

    def _vectors(self, out: Any) -> Any:
        encoder = self.encoder
        if encoder is None:
            raise ConfigError("observe: this engine was built without an encoder; pass encoder=FlatEncoder(config)")
        shape = (self.num_tables, encoder.size)
        if out is None:
            return cuda.device_array(shape, dtype=np.float32, order="F")
        if not _is_device_array(out):
            raise ValueError(f"out: expected a device float32 array of shape {shape}, got {_described(out)}")
        array = _as_device(out)
        if array.shape != shape or array.dtype != np.float32:
            raise ValueError(f"out: expected a device float32 array of shape {shape}, got {_described(array)}")
        return array

    def observe(self, out: Any = None) -> Any:
        """(T, encoder.size) float32 device array: each table's acting seat's vector (a new one, or ``out``)."""
        out = self._vectors(out)
        _launch(_encode_kernel, self.num_tables)(self._rules, self._tables, self._encoding, out)
        return out

    # ------------------------------------------------------------------ state (device arrays)

    def _field(self, array: Any, index: int | None = None) -> Any:
        """The device array itself (a device array has no read-only flag), or its slice ``[..., index]`` laid out
        here (:func:`last_axis_slice`)."""
        return array if index is None else last_axis_slice(array, index)

    @property
    def nbytes(self) -> int:
        """Device bytes of the per-table arrays (the GPU memory a table costs)."""
        return sum(array.nbytes for array in self._tables) + self._work.nbytes
