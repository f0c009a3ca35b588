"""``CudaEngine`` on numba's CUDA simulator (or on a real GPU), run in a process of its own by
``test_cuda_engine.py``.

The simulator is chosen when numba is imported, so these runs need a fresh interpreter (``main`` sets it before
anything imports numba). Two ways to run the shared per-table functions inside the simulated threads, and the
device itself:

- ``python`` (``NUMBA_DISABLE_JIT=1``): as plain Python, the same source the GPU compiles, line by line; about
  1 ms a table a step.
- ``compiled``: as the CPU-compiled functions, handed the simulated arrays' memory (numba's CPU target cannot
  type the simulator's array wrappers). The kernels, their launch, the table-minor layout, the per-table scratch
  and the refusal of illegal ids run as on the GPU, at a speed that allows the 100,000-hand soak.
- ``device``: the kernels compiled for the GPU and run there (no simulator): what only a GPU shows.

Modes (after ``python`` or ``compiled``):

- ``differential HANDS SEED TABLES [VARIANT]``: every case of ``differential.CASES`` (of ``VARIANT`` when given;
  short stacks on every other one) against the scalar engine, ``HANDS`` hands each on ``TABLES`` tables; prints
  one JSON line per case with what it covered.
- ``rulings``: every ruling of ``tests/rulings.py`` under every preset, one table each, held to the scalar engine
  at every decision (``differential.replay``); prints one JSON line a ruling and preset, with whether the answer is
  the expected one.
- ``refusals``: bad input is refused with a message naming it, and changes nothing; prints one JSON line a check.
- ``fields TABLES STEPS SEED VARIANT SEATS``: as ``random``, printing before each step one JSON line with the
  action ids and every array the engine shows (``stacks``, ``bets``, ``folded`` ..., each read with
  ``copy_to_host``), for the CPU engine to show the same.
- ``random TABLES STEPS SEED VARIANT SEATS``: random play from ``policy_state(SEED, rows=TABLES)`` drawn on the
  device; prints the actions, payoffs and finished flags of every step as JSON, for the CPU engine to replay.
"""

from __future__ import annotations

import json
import os
import sys
import warnings

SHARED = ("step_table", "deal_table", "encode_table", "random_legal_row", "is_legal_id")
"""The per-table functions of ``razz_env.batch.kernels`` the CUDA kernels call."""


def hand_compiled_functions_the_memory() -> None:
    """Make the CUDA kernels call the CPU-compiled shared functions with the numpy arrays under the simulator's
    wrappers (the kernels look the functions up on ``cuda_engine._k`` at each call, so a stand-in module does)."""
    from types import SimpleNamespace

    from numba.cuda.simulator.cudadrv.devicearray import FakeCUDAArray, FakeWithinKernelCUDAArray

    from razz_env.batch import cuda_engine, kernels

    def unwrapped(value):
        if isinstance(value, FakeWithinKernelCUDAArray):
            return value._item._ary
        if isinstance(value, FakeCUDAArray):
            return value._ary
        if isinstance(value, tuple) and hasattr(value, "_fields"):  # kernels.Rules, Tables, Encoding
            return type(value)(*(unwrapped(item) for item in value))
        return value

    def unwrapping(function):
        def call(*args):
            return function(*(unwrapped(a) for a in args))
        return call

    stand_in = SimpleNamespace(**{name: getattr(kernels, name) for name in dir(kernels) if not name.startswith("__")})
    for name in SHARED:
        setattr(stand_in, name, unwrapping(getattr(kernels, name)))
    cuda_engine._k = stand_in


def main(argv: list[str]) -> None:
    how, argv = argv[0], argv[1:]
    if how not in ("python", "compiled", "device"):
        raise SystemExit(f"unknown way {how!r}: python, compiled or device")
    if how != "device":
        os.environ["NUMBA_ENABLE_CUDASIM"] = "1"
    if how == "python":
        os.environ["NUMBA_DISABLE_JIT"] = "1"
        warnings.simplefilter("ignore", RuntimeWarning)  # splitmix64's uint64 products wrap, as on the device
    import numpy as np
    from numba import cuda

    if how == "compiled":
        hand_compiled_functions_the_memory()
    elif how == "device" and not cuda.is_available():
        raise SystemExit("device: numba sees no CUDA GPU here")

    from razz_env.batch.cuda_engine import CudaEngine, random_legal_actions
    from razz_env.batch.random_play import policy_state
    from razz_env.engine.config import HandConfig

    mode = argv[0]
    if mode == "differential":
        import differential

        hands, seed, tables = int(argv[1]), int(argv[2]), int(argv[3])
        cases = differential.CASES if len(argv) < 5 else [case for case in differential.CASES if case[0] == argv[4]]
        for index, (variant, seats, options) in enumerate(cases):
            config = differential.config_for(variant, seats, options)
            played = differential.play(config, tables=tables, hands=hands, seed=seed + index,
                                       short_stacks=index % 2 == 1, fold_weight=0.3, engine_class=CudaEngine)
            print(json.dumps({"case": differential.case_id(variant, seats, options), **played._asdict()}), flush=True)
    elif mode == "random":
        tables, steps, seed, variant, seats = int(argv[1]), int(argv[2]), int(argv[3]), argv[4], int(argv[5])
        engine = CudaEngine(HandConfig.create(variant, num_seats=seats), tables, seed=seed)
        state = cuda.to_device(policy_state(seed, rows=tables))
        actions = cuda.device_array(tables, dtype=np.int64)
        record: dict[str, list] = {"actions": [], "payoffs": [], "finished": []}
        for _ in range(steps):
            random_legal_actions(engine.masks, state, actions)
            result = engine.step(actions)
            record["actions"].append(actions.copy_to_host().tolist())
            record["payoffs"].append(result.payoffs.copy_to_host().tolist())
            record["finished"].append(result.finished.copy_to_host().tolist())
        print(json.dumps(record))
    elif mode == "fields":
        tables, steps, seed, variant, seats = int(argv[1]), int(argv[2]), int(argv[3]), argv[4], int(argv[5])
        engine = CudaEngine(HandConfig.create(variant, num_seats=seats), tables, seed=seed)
        state = cuda.to_device(policy_state(seed, rows=tables))
        actions = cuda.device_array(tables, dtype=np.int64)
        for _ in range(steps):
            random_legal_actions(engine.masks, state, actions)
            print(json.dumps({"actions": actions.copy_to_host().tolist(),
                              **{name: getattr(engine, name).copy_to_host().tolist() for name in shown_arrays()}}))
            engine.step(actions)
    elif mode == "rulings":
        import differential
        import rulings

        for ruling, preset in rulings.CASES:
            hand = differential.replay(ruling.config(preset), ruling.deck(), ruling.actions, engine_class=CudaEngine)
            print(json.dumps({"case": f"{ruling.name}-{preset}", "ok": ruling.answer(hand) == ruling.answers[preset]}),
                  flush=True)
    elif mode == "refusals":
        for name, ok in refusals():
            print(json.dumps({"check": name, "ok": ok}), flush=True)
    else:
        raise SystemExit(f"unknown mode {mode!r}: differential, fields, rulings, random or refusals")


def shown_arrays() -> tuple[str, ...]:
    """The arrays both engines show: ``TableState``'s properties."""
    from razz_env.batch.engine import TableState

    return tuple(name for name, value in vars(TableState).items() if isinstance(value, property))


def refusals():
    """(name, passed) for each check of the engine's refusals."""
    import numpy as np
    from numba import cuda

    from razz_env.batch.cuda_engine import CudaEngine
    from razz_env.encoding import make_encoder
    from razz_env.engine.config import HandConfig
    from razz_env.engine.errors import ConfigError

    config = HandConfig.create("razz", num_seats=3)
    engine = CudaEngine(config, 4, seed=2, encoder=make_encoder("flat", config))

    def state():
        held = engine._tables
        return [array.copy_to_host().tolist() for array in (held.tab, held.seats, held.cards, held.masks)]

    def refused(call, error, *words):
        before = state()
        try:
            call()
        except error as err:
            return all(word in str(err) for word in words) and state() == before
        return False

    masks = engine.masks.copy_to_host()
    illegal = np.where(masks[:, 0] == 0, 0, 1)  # every table opens with a bring-in: no fold there
    legal = masks.argmax(axis=1)
    yield "illegal id named, nothing changed", refused(lambda: engine.step(illegal), ValueError, "actions[0]",
                                                         "legal ids:", "no table changed")
    yield "wrong shape", refused(lambda: engine.step(np.zeros(3, dtype=np.int64)), ValueError, "shape (4,)")
    yield "device int32", refused(lambda: engine.step(cuda.to_device(legal.astype(np.int32))), ValueError,
                                  "int64", "int32")
    yield "host out", refused(lambda: engine.step(legal, out=np.zeros((4, make_encoder("flat", config).size),
                                                                      dtype=np.float32)),
                              ValueError, "a host float32")
    yield "bad decks", refused(lambda: engine.reset([0], decks=[[0] * 52]), ConfigError, "decks[0]")
    yield "bad tables", refused(lambda: engine.reset([9]), ConfigError, "tables")
    before = state()
    engine.step(illegal, check=False)
    unchanged = state() == before
    engine.step(legal, check=False)
    still_unchanged = state() == before
    yield "unchecked illegal id changes nothing", unchanged and still_unchanged
    yield "check() reports it later", refused(engine.check, ValueError, "actions[0]", "legal ids:")
    engine.step(legal)
    yield "steps again after the report", state() != before
    bare = CudaEngine(config, 2, seed=0)
    yield "observe without an encoder", refused(bare.observe, ConfigError, "encoder")
    deck = np.arange(52)[::-1].copy()
    engine.reset([1], decks=[deck])
    yield "reset deals a given deck", engine.decks.copy_to_host()[1].tolist() == deck.tolist()


if __name__ == "__main__":
    main(sys.argv[1:])
