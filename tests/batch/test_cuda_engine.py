"""``CudaEngine`` without a GPU: numba's CUDA simulator against the scalar engine, the CPU engine's random games
replayed, its refusals, and every kernel compiled to PTX for an H100 by NVVM; where a GPU is present, the same
checks on it (``-m gpu``; ``scripts/gpu_session.sh`` runs them on the device machine).

The simulator is chosen when numba is imported, so each check runs in a process of its own
(``cuda_simulated.py``, ``cuda_ptx.py`` beside this file). ``-m slow`` plays the soak: ``RAZZ_CUDA_SOAK_HANDS``
(default 100,000) hands of each variant's cases against the scalar engine.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("numba", reason="the batched engine needs numba (the 'batch' extra)")

from differential import CASES  # noqa: E402
from rulings import CASE_IDS as RULING_IDS  # noqa: E402

from razz_env.batch import BatchEngine, policy_state, random_legal_actions  # noqa: E402
from razz_env.engine.config import HandConfig  # noqa: E402
from razz_env.engine.errors import ConfigError  # noqa: E402

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent


def _has_gpu() -> bool:
    from numba import cuda

    return bool(cuda.is_available()) and not os.environ.get("NUMBA_ENABLE_CUDASIM")


ON_A_GPU = [pytest.mark.gpu,
            pytest.mark.skipif(not _has_gpu(), reason="no CUDA GPU here (CI has none; scripts/gpu_session.sh)")]
SIMULATED_OR_DEVICE = pytest.mark.parametrize("way", ["python", pytest.param("device", marks=ON_A_GPU)])


def run(script: str, *args: object, timeout: int = 900) -> list[dict]:
    """Run ``script`` beside this file in a fresh interpreter; its JSON lines."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(HERE), str(HERE.parent)])}
    env.pop("NUMBA_ENABLE_CUDASIM", None)
    env.pop("NUMBA_DISABLE_JIT", None)
    done = subprocess.run([sys.executable, str(HERE / script), *map(str, args)], capture_output=True, text=True,
                          env=env, cwd=ROOT, timeout=timeout)
    assert done.returncode == 0, done.stderr[-4000:]
    return [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]


def covered(lines: list[dict]) -> dict[str, dict]:
    return {line["case"]: line for line in lines}


def test_simulated_as_python_matches_the_scalar_engine_in_every_case():
    """The shared per-table functions as plain Python inside the simulated CUDA threads: the source the GPU
    compiles, every variant, 2-8 seats, presets, chips and short stacks."""
    lines = covered(run("cuda_simulated.py", "python", "differential", 4, 11, 4))
    assert len(lines) == len(CASES)
    assert all(line["hands"] >= 4 for line in lines.values())


@pytest.mark.parametrize(("way", "tables"), [("compiled", 16), pytest.param("device", 1024, marks=ON_A_GPU)])
def test_simulated_compiled_matches_the_scalar_engine_in_every_case(way, tables):
    """The kernels as the CPU compiles them on the simulator (or compiled for and run on a GPU), 60 hands a case."""
    lines = covered(run("cuda_simulated.py", way, "differential", 60, 23, tables))
    assert len(lines) == len(CASES)
    assert sum(line["showdowns"] for line in lines.values()) > 500
    assert sum(line["community"] for line in lines.values()) > 0
    assert sum(line["overflows"] for line in lines.values()) > 0


@SIMULATED_OR_DEVICE
def test_each_ruling_on_the_simulator_as_the_scalar_engine_decides_it(way):
    """The rulings of ``tests/rulings.py`` under every preset (tied door cards and boards, the cap, the open pair,
    the odd chip, an all-in for the ante): the kernels as plain Python in the simulated threads, or on a GPU."""
    lines = covered(run("cuda_simulated.py", way, "rulings"))
    assert sorted(lines) == sorted(RULING_IDS)
    assert all(line["ok"] for line in lines.values()), [case for case, line in lines.items() if not line["ok"]]


@SIMULATED_OR_DEVICE
@pytest.mark.parametrize(("variant", "seats"), [("razz", 2), ("stud8", 6)])
def test_random_games_drawn_on_the_device_are_the_cpu_engines(variant, seats, way):
    """Same seed, one random stream per table: the simulated device (or a GPU) plays the CPU engine's games."""
    tables, steps, seed = 16, 60, 5
    record = run("cuda_simulated.py", way, "random", tables, steps, seed, variant, seats)[0]
    engine = BatchEngine(HandConfig.create(variant, num_seats=seats), tables, seed=seed)
    state = policy_state(seed, rows=tables)
    for step in range(steps):
        actions = random_legal_actions(engine.masks, state)
        assert actions.tolist() == record["actions"][step], step
        result = engine.step(actions)
        assert result.payoffs.tolist() == record["payoffs"][step], step
        assert result.finished.tolist() == record["finished"][step], step
    assert np.sum(record["finished"]) > tables


@SIMULATED_OR_DEVICE
@pytest.mark.parametrize(("variant", "seats"), [("razz", 2), ("stud8", 6)])
def test_every_array_shown_is_the_cpu_engines(variant, seats, way):
    """``stacks``, ``bets``, ``folded`` and every other array the engine shows, before each step of random play:
    on a GPU, numba's slicing of the (T, S, fields) seat array had shown (T, S) arrays of other seats' and tables'
    chips (``last_axis_slice``). 130 tables on a GPU: more than one block of threads."""
    from cuda_simulated import shown_arrays

    tables, steps, seed = (130 if way == "device" else 6), 40, 3
    assert {"stacks", "bets", "folded", "num_cards", "masks", "decks"} <= set(shown_arrays())
    lines = run("cuda_simulated.py", way, "fields", tables, steps, seed, variant, seats)
    assert len(lines) == steps
    engine = BatchEngine(HandConfig.create(variant, num_seats=seats), tables, seed=seed)
    for step, line in enumerate(lines):
        for name in shown_arrays():
            assert getattr(engine, name).tolist() == line[name], (step, name)
        engine.step(np.array(line["actions"], dtype=np.int64))
    assert engine.folded.any() or engine.street.max() > 3


@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("shape", [(7,), (5, 3), (6, 2, 4), (3, 4, 2, 5)])
def test_a_last_axis_slice_is_laid_out_as_numpy_lays_it_out(shape, order):
    """``slice_layout``, from which ``last_axis_slice`` builds the device views, against numpy's own slices."""
    from razz_env.batch.cuda_engine import slice_layout

    array = np.zeros(shape, dtype=np.int64, order=order)
    start = array.__array_interface__["data"][0]
    for index in range(shape[-1]):
        view = array[..., index]
        got_shape, strides, begin, end = slice_layout(array.shape, array.strides, array.itemsize, index)
        first = view.__array_interface__["data"][0] - start
        last = first + sum((n - 1) * s for n, s in zip(view.shape, view.strides)) + view.itemsize
        assert (got_shape, strides, begin, end) == (view.shape, view.strides, first, last)


@SIMULATED_OR_DEVICE
def test_refusals_on_the_simulator(way):
    checks = run("cuda_simulated.py", way, "refusals")
    assert checks and all(line["ok"] for line in checks), checks


def test_every_kernel_compiles_to_ptx_for_an_h100():
    """NVVM compiles every kernel the engine launches, for the argument types it passes (compute capability 9.0);
    skipped where the ``nvidia-nvvm`` wheel (the ``gpu`` extra) is missing."""
    try:
        from numba.cuda.cudadrv import nvvm

        nvvm.NVVM()
    except Exception as err:  # noqa: BLE001 - any failure to load NVVM means it is not installed
        pytest.skip(f"NVVM is not installed (pip install 'razz-env[gpu]'): {err}")
    kernels = {line["kernel"]: line["ptx_bytes"] for line in run("cuda_ptx.py", "stud8", 8, 9, 0)}
    assert set(kernels) == {"_deal_kernel", "_encode_kernel", "_check_kernel", "_step_kernel", "_random_kernel"}
    assert all(size > 1000 for size in kernels.values())


def test_without_a_gpu_it_says_so():
    from numba import cuda

    if cuda.is_available():
        pytest.skip("a GPU (or the simulator) is available here")
    from razz_env.batch.cuda_engine import CudaEngine

    with pytest.raises(ConfigError, match="no CUDA GPU is available.*BatchEngine"):
        CudaEngine(HandConfig.create("razz", num_seats=2), 4)


@pytest.mark.slow
@pytest.mark.timeout(6 * 3600)  # about 0.6 ms a decision on the simulator: up to 15 minutes a variant
@pytest.mark.parametrize("variant", sorted({case[0] for case in CASES}))
def test_simulated_soak(variant):
    hands = int(os.environ.get("RAZZ_CUDA_SOAK_HANDS", "100000"))
    cases = [case for case in CASES if case[0] == variant]
    lines = covered(run("cuda_simulated.py", "compiled", "differential", -(-hands // len(cases)), 101, 256, variant,
                        timeout=6 * 3600))
    total = sum(line["hands"] for line in lines.values())
    print(json.dumps({"variant": variant, "hands": total,
                      "decisions": sum(line["decisions"] for line in lines.values()),
                      "showdowns": sum(line["showdowns"] for line in lines.values())}))
    assert total >= hands
