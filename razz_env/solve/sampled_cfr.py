"""External-sampling Monte Carlo CFR on the batched engine's kernels, over an abstraction of what a seat sees.

Games too large for :mod:`razz_env.solve.cfr`'s exact tree (heads-up razz) are solved by sampling (Lanctot et al.,
*Monte Carlo Sampling for Regret Minimization in Extensive Games*, 2009, external sampling). Each iteration deals
one hand with the batched engine, so every rule is the engine's, and walks that deal's betting tree: at the
traversing seat's decisions every legal action is tried (the table's row copied to the next row, then stepped), at
the other seat's one action is drawn from its current strategy. Regrets by regret matching; the average strategy
is the running sum of the other seat's current strategies, weighted by the iteration (linear averaging, as in
Brown and Sandholm's linear CFR). The seats traverse in turn. An information set is the key
:mod:`razz_env.solve.abstraction` makes of the acting seat's vector and legal ids.

With an :class:`OpponentModel` (what given agents were seen to play at each key) the run solves the restricted
game of Johanson, Zinkevich and Bowling's restricted Nash response, with Johanson and Bowling's data-biased
confidence (*Data Biased Robust Counter Strategies*, 2009): an *exploiter* plays an *adversary* who, each iteration,
is with each model's weight that model's type (at a key the model saw, with its confidence ``min(1, n / full)``
for ``n`` decisions seen there, it plays what the model saw; elsewhere it is free) and otherwise free. Both roles
learn by regret matching in tables of their own, each role sits at each seat in turn, and the average strategy is
the exploiter's: a counter-strategy that exploits the models while a free adversary bounds what it gives up.

The run is seeded (the deals come from the engine's stream, the other seat's draws from the solver's) and
resumable: :meth:`SampledCFR.save` writes every table and stream, :meth:`SampledCFR.load` goes on from them, and a
run cut anywhere repeats an uninterrupted one exactly.

>>> from razz_env.engine.config import HandConfig
>>> solver = SampledCFR(HandConfig.create("minirazz_tiny"), seed=0)
>>> solver.run(200)
>>> solver.iterations, solver.num_infosets > 0
(200, True)
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
from numba import njit

from razz_env.batch import kernels as _k
from razz_env.batch.engine import BatchEngine
from razz_env.engine.checks import as_int
from razz_env.engine.config import HandConfig
from razz_env.engine.errors import ConfigError
from razz_env.solve.abstraction import abstraction_code, abstraction_encoder, infoset_key
from razz_env.solve.policy import config_of, read_archive, table_of
from razz_env.solve.sampled_policy import SampledPolicy

CACHE = _k.CACHE
NUM_IDS = 5
MAX_DEPTH = 64
"""Rows of the walk: one per traversing decision on the path (a heads-up limit hand has far fewer)."""
FULL, TOO_DEEP = 1, 2
"""What stopped a walk (``status[1]``): the information-set table is full; the path outgrew the rows."""
FORMAT = "razz-env sampled CFR checkpoint"


@njit(cache=CACHE, inline="always")
def _copy_row(source, target, tables):
    """Table row ``source``'s hand into row ``target`` (what stepping reads and writes)."""
    tables.tab[target] = tables.tab[source]
    tables.seats[target] = tables.seats[source]
    tables.cards[target] = tables.cards[source]
    tables.deck[target] = tables.deck[source]
    tables.used[target] = tables.used[source]
    tables.history[target] = tables.history[source]
    tables.counts[target] = tables.counts[source]
    tables.masks[target] = tables.masks[source]


@njit(cache=CACHE, inline="always")
def _current(regrets, i, mask, out):
    """Regret matching at information set ``i``: positive regrets normalised, else uniform over the legal ids."""
    total = 0.0
    legal = 0
    for a in range(NUM_IDS):
        out[a] = regrets[i, a] if mask[a] and regrets[i, a] > 0.0 else 0.0
        total += out[a]
        legal += mask[a]
    for a in range(NUM_IDS):
        out[a] = out[a] / total if total > 0.0 else (1.0 / legal if mask[a] else 0.0)


@njit(cache=CACHE, inline="always")
def _draw(strategy, rng):
    """An id drawn from ``strategy`` with the solver's splitmix64 stream."""
    u = np.float64(_k.next_u64(rng, 0) >> np.uint64(11)) * (1.0 / 9007199254740992.0)
    last = 0
    for a in range(NUM_IDS):
        if strategy[a] > 0.0:
            last = a
            u -= strategy[a]
            if u < 0.0:
                return a
    return last


class Regrets(NamedTuple):
    """The solver's tables, a row an information set: its key, legal ids, regrets and strategy sums; and the open
    addressing that finds a key's row (``slot_keys``/``slot_rows``, a power of two at least twice the rows; -1: an
    empty slot). Plain arrays, so the walk borrows them without reference counting and a checkpoint is them."""

    keys: Any  # int64 (rows,)
    legal: Any  # int8 (rows, 5)
    regrets: Any  # float64 (rows, 5)
    sums: Any  # float64 (rows, 5)
    slot_keys: Any  # int64 (slots,)
    slot_rows: Any  # int64 (slots,)


def new_regrets(rows: int) -> Regrets:
    """Empty tables for ``rows`` information sets."""
    slots = 1 << max(2 * rows - 1, 1).bit_length()
    return Regrets(np.zeros(rows, dtype=np.int64), np.zeros((rows, NUM_IDS), dtype=np.int8),
                   np.zeros((rows, NUM_IDS)), np.zeros((rows, NUM_IDS)), np.zeros(slots, dtype=np.int64),
                   np.full(slots, -1, dtype=np.int64))


@njit(cache=CACHE, inline="always")
def _slot(key, table):
    """The slot of ``key``, or of the empty slot where it would go (linear probing from its mixed hash)."""
    mask = np.uint64(table.slot_keys.shape[0] - 1)
    z = np.uint64(key) * np.uint64(0x9E3779B97F4A7C15)
    at = np.int64((z ^ (z >> np.uint64(29))) & mask)
    while table.slot_rows[at] >= 0 and table.slot_keys[at] != key:
        at = np.int64((np.uint64(at) + np.uint64(1)) & mask)
    return at


@njit(cache=CACHE, inline="always")
def _infoset(key, mask, table, status, counter):
    """The row of ``key`` (added, with its legal ids, when new; ``status[counter]`` counts the table's rows); -1 when
    the table is full."""
    at = _slot(key, table)
    if table.slot_rows[at] >= 0:
        return table.slot_rows[at]
    i = status[counter]
    if i >= table.keys.shape[0]:
        status[1] = FULL
        return -1
    table.slot_keys[at] = key
    table.slot_rows[at] = i
    table.keys[i] = key
    for a in range(NUM_IDS):
        table.legal[i, a] = mask[a]
    status[counter] = i + 1
    return i


@njit(cache=CACHE)
def _fill(table, count):
    """The slots of ``table``'s first ``count`` rows (a checkpoint's keys)."""
    for row in range(count):
        at = _slot(table.keys[row], table)
        table.slot_keys[at] = table.keys[row]
        table.slot_rows[at] = row


class OpponentModel(NamedTuple):
    """What agents were seen to play, by abstraction key: model ``m``'s rows are ``starts[m]:starts[m + 1]`` of
    ``keys`` (sorted within the slice), each with the shares of the ids seen there (``probabilities``) and the
    confidence the adversary gives them (``confidence``); ``weights[m]`` is the chance an iteration's adversary is
    of model ``m``'s type (the rest: free). Plain arrays, so the walk borrows them."""

    keys: Any  # int64 (rows,)
    probabilities: Any  # float64 (rows, 5)
    confidence: Any  # float64 (rows,)
    starts: Any  # int64 (models + 1,)
    weights: Any  # float64 (models,)


NO_MODEL = OpponentModel(np.zeros(0, dtype=np.int64), np.zeros((0, NUM_IDS)), np.zeros(0), np.zeros(1, dtype=np.int64),
                         np.zeros(0))
"""The plain self-play run's (no model: one table serves both seats)."""


def opponent_model(observed: Sequence[tuple[np.ndarray, np.ndarray]], weights: Sequence[float],
                   full: int = 10) -> OpponentModel:
    """A model per ``observed`` pair (the keys of an agent's decisions and the ids it chose there): at each key the
    shares of the ids seen, trusted ``min(1, n / full)`` for ``n`` decisions seen; ``weights`` the chance of each
    model's type in an iteration (at most 1 together).

    >>> model = opponent_model([(np.array([7, 3, 7]), np.array([2, 1, 2]))], [0.5], full=2)
    >>> model.keys.tolist(), model.probabilities[1].tolist(), model.confidence.tolist()
    ([3, 7], [0.0, 0.0, 1.0, 0.0, 0.0], [0.5, 1.0])
    """
    weights = model_weights(weights, len(observed))
    full = as_int("full", full, 1)
    keys, probabilities, confidence, starts = [], [], [], [0]
    for number, (seen_keys, seen_ids) in enumerate(observed):
        seen_keys, seen_ids = np.asarray(seen_keys, dtype=np.int64), np.asarray(seen_ids, dtype=np.int64)
        if seen_keys.shape != seen_ids.shape or seen_keys.ndim != 1 or not len(seen_keys):
            raise ConfigError(f"model {number}: expected as many ids as keys, one or more, got {seen_keys.shape} "
                              f"and {seen_ids.shape}")
        if seen_ids.min() < 0 or seen_ids.max() >= NUM_IDS:
            raise ConfigError(f"model {number}: ids must be 0 to {NUM_IDS - 1}, got {seen_ids.min()} to "
                              f"{seen_ids.max()}")
        unique, row = np.unique(seen_keys, return_inverse=True)
        counts = np.zeros((len(unique), NUM_IDS))
        np.add.at(counts, (row, seen_ids), 1.0)
        seen = counts.sum(axis=1)
        keys.append(unique)
        probabilities.append(counts / seen[:, None])
        confidence.append(np.minimum(seen / full, 1.0))
        starts.append(starts[-1] + len(unique))
    return OpponentModel(np.concatenate(keys), np.concatenate(probabilities), np.concatenate(confidence),
                         np.asarray(starts, dtype=np.int64), np.asarray(weights))


def model_weights(weights: Sequence[float], models: int) -> list[float]:
    """``weights`` checked as the chances of ``models`` models' types: one each, in (0, 1], at most 1 together."""
    weights = [float(w) for w in weights]
    if len(weights) != models or not models:
        raise ConfigError(f"model weights: expected one per model ({models}), got {len(weights)}")
    if any(not 0.0 < w <= 1.0 for w in weights) or sum(weights) > 1.0 + 1e-12:
        raise ConfigError(f"model weights: expected each in (0, 1] and at most 1 together, got {weights}")
    return weights


@njit(cache=CACHE, inline="always")
def _model_type(model, rng):
    """The iteration's adversary: a model's index drawn by the weights, or -1 (free)."""
    u = np.float64(_k.next_u64(rng, 0) >> np.uint64(11)) * (1.0 / 9007199254740992.0)
    for m in range(model.weights.shape[0]):
        u -= model.weights[m]
        if u < 0.0:
            return m
    return -1


@njit(cache=CACHE, inline="always")
def _modelled(model, model_type, key, free, out):
    """The adversary's play at ``key`` when of model ``model_type``'s type: ``out`` = c * the model's shares +
    (1 - c) * ``free`` for the model's confidence c there (0 where it saw nothing); returns c."""
    start, stop = model.starts[model_type], model.starts[model_type + 1]
    at = start + np.searchsorted(model.keys[start:stop], key)
    c = model.confidence[at] if at < stop and model.keys[at] == key else 0.0
    for a in range(NUM_IDS):
        out[a] = c * model.probabilities[at, a] + (1.0 - c) * free[a] if c > 0.0 else free[a]
    return c


@njit(cache=CACHE, inline="always")
def _play_other(row, traverser, weight, kind, rules, tables, work, encoding, vectors, unused, own, other, roles,
                scratch, frames, rng, status):
    """Play the other seat's decisions at row ``row`` (drawn, their strategy summed) up to the traverser's: then
    its frame is set (information set, current strategy) and this returns False; True at the hand's end (its value
    in ``scratch[row, 0]``) or when the walk must stop (``status[1]``). ``own``/``other``: the traverser's and the
    other seat's tables; ``roles``: the model, the iteration's adversary type (-1: none), whether the traverser
    is the adversary and the rows' counters of ``own`` and ``other`` in ``status``."""
    model, adversary, traverser_adversary, own_count, other_count = roles
    while True:
        status[2] += 1
        _k.encode_table(row, rules, tables, encoding, vectors[row])
        mask = tables.masks[row]
        key = infoset_key(kind, vectors[row], mask, encoding.offsets)
        mine = tables.tab[row, _k.C_ACTOR] == traverser
        table = own if mine else other
        i = _infoset(key, mask, table, status, own_count if mine else other_count)
        if i < 0:
            return True
        strategy = scratch[row, :NUM_IDS]
        _current(table.regrets, i, mask, strategy)
        if mine:
            frames[row, 0] = i
            frames[row, 1] = 0
            scratch[row, 3 * NUM_IDS] = 0.0
            if adversary >= 0 and traverser_adversary:
                free = scratch[row, 2 * NUM_IDS:3 * NUM_IDS]
                free[:] = strategy
                scratch[row, 3 * NUM_IDS] = _modelled(model, adversary, key, free, strategy)
            return False
        for a in range(NUM_IDS):
            table.sums[i, a] += weight * strategy[a]
        if adversary >= 0 and not traverser_adversary:
            played = scratch[row, 2 * NUM_IDS:3 * NUM_IDS]
            _modelled(model, adversary, key, strategy, played)
            strategy = played
        _k.step_table(row, _draw(strategy, rng), rules, tables, work, False, encoding, unused)
        if tables.finished[row]:
            scratch[row, 0] = tables.payoffs[row, traverser]
            return True


@njit(cache=CACHE)
def _walk(traverser, weight, kind, rules, tables, work, encoding, vectors, unused, own, other, roles, scratch, frames,
          rng, status):
    """The traverser's value of the hand dealt at row 0, its regrets and the other seat's strategy sums updated on
    the way. Depth first with an explicit stack (numba cannot load a cached recursive function): row ``r`` holds
    the hand at the ``r``-th traversing decision of the path, ``frames[r]`` its information set and next action,
    ``scratch[r]`` its strategy as played, the values of the actions tried, its free strategy and the model's
    confidence there (an adversary of a model's type: its regrets move by ``1 - confidence`` of the free part's)."""
    if _play_other(0, traverser, weight, kind, rules, tables, work, encoding, vectors, unused, own, other, roles,
                   scratch, frames, rng, status):
        return scratch[0, 0]
    row = 0
    while True:
        mask = own.legal[frames[row, 0]]
        a = frames[row, 1]
        while a < NUM_IDS and not mask[a]:
            a += 1
        if a < NUM_IDS:
            frames[row, 1] = a + 1
            child = row + 1
            if child >= tables.tab.shape[0]:
                status[1] = TOO_DEEP
                return 0.0
            _copy_row(row, child, tables)
            _k.step_table(child, a, rules, tables, work, False, encoding, unused)
            if tables.finished[child]:
                scratch[row, NUM_IDS + a] = tables.payoffs[child, traverser]
            elif _play_other(child, traverser, weight, kind, rules, tables, work, encoding, vectors, unused, own,
                             other, roles, scratch, frames, rng, status):
                if status[1]:
                    return 0.0
                scratch[row, NUM_IDS + a] = scratch[child, 0]
            else:
                row = child
            continue
        i = frames[row, 0]
        value = 0.0
        for b in range(NUM_IDS):
            if mask[b]:
                value += scratch[row, b] * scratch[row, NUM_IDS + b]
        confidence = scratch[row, 3 * NUM_IDS]
        if confidence > 0.0:  # the free part's regrets, weighted by its share of the adversary's play here
            free = 0.0
            for b in range(NUM_IDS):
                if mask[b]:
                    free += scratch[row, 2 * NUM_IDS + b] * scratch[row, NUM_IDS + b]
            for b in range(NUM_IDS):
                if mask[b]:
                    own.regrets[i, b] += (1.0 - confidence) * (scratch[row, NUM_IDS + b] - free)
        else:
            for b in range(NUM_IDS):
                if mask[b]:
                    own.regrets[i, b] += scratch[row, NUM_IDS + b] - value
        if row == 0:
            return value
        row -= 1
        scratch[row, NUM_IDS + frames[row, 1] - 1] = value


@njit(cache=CACHE, inline="always")
def _borrowed_table(table):
    """``table`` with every array borrowed."""
    return Regrets(_k.borrowed(table.keys), _k.borrowed(table.legal), _k.borrowed(table.regrets),
                   _k.borrowed(table.sums), _k.borrowed(table.slot_keys), _k.borrowed(table.slot_rows))


@njit(cache=CACHE)
def _iterate(count, first, kind, rules, tables, work, encoding, vectors, unused, table, adversary_table, model,
             scratch, frames, rng, status):
    """Iterations ``first`` to ``first + count - 1``; returns how many completed (fewer when a walk stopped). With
    models (``model.weights`` not empty), iteration ``t``'s traverser is seat ``t % 2`` and the exploiter (whose
    table is ``table``) seat ``t // 2 % 2``, the adversary (``adversary_table``) the other, its type drawn first;
    without, one table serves both seats."""
    rules, tables = _k.lent(rules, tables)  # every array borrowed: reference counting was a third of the walk
    encoding, work, vectors, unused = _k.lent_encoding(encoding), _k.borrowed(work), _k.borrowed(vectors), _k.borrowed(
        unused)
    table, adversary_table = _borrowed_table(table), _borrowed_table(adversary_table)
    model = OpponentModel(_k.borrowed(model.keys), _k.borrowed(model.probabilities), _k.borrowed(model.confidence),
                          _k.borrowed(model.starts), _k.borrowed(model.weights))
    scratch, frames, rng, status = _k.borrowed(scratch), _k.borrowed(frames), _k.borrowed(rng), _k.borrowed(status)
    modelled = model.weights.shape[0] > 0
    for done in range(count):
        iteration = first + done
        traverser = iteration % 2
        _k.deal_table(0, False, rules, tables)
        own, other, roles = table, table, (model, -1, False, 0, 0)
        if modelled:
            adversary = _model_type(model, rng)
            if traverser == iteration // 2 % 2:
                other, roles = adversary_table, (model, adversary, False, 0, 3)
            else:
                own, roles = adversary_table, (model, adversary, True, 3, 0)
        _walk(traverser, np.float64(iteration // 2 + 1), kind, rules, tables, work, encoding, vectors, unused, own,
              other, roles, scratch, frames, rng, status)
        if status[1]:
            return done
    return count


class SampledCFR:
    """External-sampling MCCFR for heads-up ``config`` under ``abstraction`` (see the module docstring).

    ``max_infosets``: the rows of the regret and strategy tables (allocated up front; a run that meets more
    information sets stops with a ``ConfigError`` saying so, its finished iterations kept). ``model``: solve the
    restricted game against it (the module docstring): the adversary gets tables of its own, as many rows.
    """

    def __init__(self, config: HandConfig, *, abstraction: str = "exact", seed: int = 0,
                 max_infosets: int = 1_000_000, model: OpponentModel | None = None) -> None:
        if not isinstance(config, HandConfig):
            raise ConfigError(f"config: expected a HandConfig, got {type(config).__name__}")
        if config.num_seats != 2:
            raise ConfigError(f"config: the sampled solver plays heads-up tables; this one has {config.num_seats} "
                              f"seats")
        if model is not None and not isinstance(model, OpponentModel):
            raise ConfigError(f"model: expected an OpponentModel (opponent_model(...)), got {type(model).__name__}")
        self.config = config
        self.abstraction = abstraction
        self.kind = abstraction_code(abstraction, config)
        self.seed = as_int("seed", seed, 0)
        capacity = as_int("max_infosets", max_infosets, 1)
        self.encoder = abstraction_encoder(config)
        self._engine = BatchEngine(config, MAX_DEPTH, seed=self.seed, encoder=self.encoder)
        self._vectors = np.zeros((MAX_DEPTH, self.encoder.size), dtype=np.float32)
        self._unused = np.zeros((1, 1), dtype=np.float32)
        self._scratch = np.zeros((MAX_DEPTH, 3 * NUM_IDS + 1))
        self._frames = np.zeros((MAX_DEPTH, 2), dtype=np.int64)
        self.table = new_regrets(capacity)
        self.model = model
        self.adversary_table = new_regrets(capacity if model is not None else 1)
        self._rng = np.random.SeedSequence([self.seed, 1]).generate_state(1, np.uint64)
        self._status = np.zeros(4, dtype=np.int64)  # sets met, what stopped a walk, decisions walked, adversary's sets
        self.iterations = 0

    @property
    def num_infosets(self) -> int:
        """Information sets met so far."""
        return int(self._status[0])

    @property
    def adversary_infosets(self) -> int:
        """Information sets the adversary met so far (0 without a model)."""
        return int(self._status[3])

    @property
    def decisions(self) -> int:
        """Decisions walked by this process's runs (a measure of the work, not saved in checkpoints)."""
        return int(self._status[2])

    def run(self, iterations: int) -> None:
        """Run ``iterations`` more iterations (the seats traverse in turn)."""
        iterations = as_int("iterations", iterations, 0)
        rules, tables, work, encoding = self._engine.kernel_state()
        done = _iterate(iterations, self.iterations, self.kind, rules, tables, work, encoding, self._vectors,
                        self._unused, self.table, self.adversary_table, self.model or NO_MODEL, self._scratch,
                        self._frames, self._rng, self._status)
        self.iterations += done
        if self._status[1]:
            problem = ("its information sets outgrew max_infosets "
                       f"{len(self.table.keys):,}; load the last checkpoint with a larger one"
                       if self._status[1] == FULL else f"a hand went deeper than {MAX_DEPTH} decisions")
            raise ConfigError(f"sampled CFR stopped after {self.iterations:,} iterations: {problem}")

    def average_policy(self) -> SampledPolicy:
        """The average strategy at every information set met (the exploiter's, with a model), as a playable
        :class:`SampledPolicy`."""
        count = self.num_infosets
        keys, sums, legal = self.table.keys[:count], self.table.sums[:count], self.table.legal[:count].astype(float)
        totals = sums.sum(axis=1, keepdims=True)
        uniform = legal / legal.sum(axis=1, keepdims=True)
        probabilities = np.where(totals > 0, sums / np.where(totals > 0, totals, 1.0), uniform)
        order = np.argsort(keys)
        return SampledPolicy(self.config, self.abstraction, keys[order], probabilities[order],
                             iterations=self.iterations)

    # ------------------------------------------------------------------ checkpoints

    def save(self, path: str | Path) -> Path:
        """Write everything the run needs to go on (tables, streams, the engine's deal stream) to ``path``."""
        path = Path(path)
        count = self.num_infosets
        _, tables, _, _ = self._engine.kernel_state()
        header = {"format": FORMAT, "table": table_of(self.config), "abstraction": self.abstraction,
                  "seed": self.seed, "iterations": self.iterations, "infosets": count,
                  "max_infosets": len(self.table.keys)}
        table = self.table
        arrays = {"keys": table.keys[:count], "legal": table.legal[:count], "regrets": table.regrets[:count],
                  "sums": table.sums[:count], "rng": self._rng, "deal_stream": tables.rng[:1]}
        if self.model is not None:
            rows, adversary = self.adversary_infosets, self.adversary_table
            header["adversary_infosets"] = rows
            arrays.update({"adversary_keys": adversary.keys[:rows], "adversary_legal": adversary.legal[:rows],
                           "adversary_regrets": adversary.regrets[:rows], "adversary_sums": adversary.sums[:rows]})
            arrays.update({f"model_{name}": value for name, value in self.model._asdict().items()})
        digest = hashlib.sha256(b"".join(np.ascontiguousarray(a).tobytes() for a in arrays.values())).hexdigest()
        header["sha256"] = digest
        tmp = path.with_name(path.name + ".tmp")
        with open(tmp, "wb") as handle:
            np.savez(handle, header=np.frombuffer(json.dumps(header, sort_keys=True).encode(), dtype=np.uint8),
                     **arrays)
        tmp.replace(path)
        return path

    @classmethod
    def load(cls, path: str | Path, max_infosets: int | None = None) -> SampledCFR:
        """A run resumed from :meth:`save`'s file (``max_infosets``: a larger table than it had, optional)."""
        path = Path(path)
        where = f"checkpoint {path}"
        names = ("keys", "legal", "regrets", "sums", "rng", "deal_stream")
        header, arrays = read_archive(path, where, "sampled CFR checkpoint", names)
        if not isinstance(header, dict) or header.get("format") != FORMAT:
            raise ConfigError(f"{where}: not a sampled CFR checkpoint (no '{FORMAT}' header)")
        modelled = "adversary_infosets" in header
        if modelled:
            names += tuple(f"adversary_{name}" for name in ("keys", "legal", "regrets", "sums"))
            names += tuple(f"model_{name}" for name in OpponentModel._fields)
            header, arrays = read_archive(path, where, "sampled CFR checkpoint", names)
        digest = hashlib.sha256(b"".join(np.ascontiguousarray(a).tobytes() for a in arrays.values())).hexdigest()
        if digest != header.get("sha256"):
            raise ConfigError(f"{where}: its tables do not match their SHA-256 (the file is damaged)")
        count = int(header["infosets"])
        model = OpponentModel(*(arrays[f"model_{name}"] for name in OpponentModel._fields)) if modelled else None
        rows = int(header["adversary_infosets"]) if modelled else 0
        solver = cls(config_of(header["table"], where), abstraction=header["abstraction"], seed=header["seed"],
                     max_infosets=max(count, rows, max_infosets or header["max_infosets"]), model=model)
        roles = [(solver.table, "", count, 0)] + [(solver.adversary_table, "adversary_", rows, 3)] * modelled
        for table, prefix, filled, counter in roles:
            for name in ("keys", "legal", "regrets", "sums"):
                getattr(table, name)[:filled] = arrays[prefix + name]
            _fill(table, filled)
            solver._status[counter] = filled
        solver._rng[:] = arrays["rng"]
        _, tables, _, _ = solver._engine.kernel_state()
        tables.rng[0] = arrays["deal_stream"][0]
        solver.iterations = int(header["iterations"])
        return solver
