"""The showdown core's hand values compiled as the kernels compile them, and the kernels' board strengths,
against the scalar engine's evaluators and ``order``.

The core computes a low directly (the lowest ranks first, pairing before trips) and the kernels a board's
strength without sorting; these pin both to the scalar functions on random hands, many of them paired up.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba", reason="the batched engine needs numba (the 'batch' extra)")

from numba import njit

from razz_env.batch import kernels as k
from razz_env.engine import showdown_core
from razz_env.engine.hand_value import best_hand, evaluator
from razz_env.engine.order import board_strength

KINDS = showdown_core.KIND_CODES


@njit
def _values(hands, kind, size):
    values = np.empty(hands.shape[0], dtype=np.int64)
    tops = np.empty(hands.shape[0], dtype=np.int64)
    for i in range(hands.shape[0]):
        values[i], tops[i] = showdown_core.hand_value(hands[i], kind, size)
    return values, tops


@njit
def _strengths(boards, low, suits):
    keys = np.empty(boards.shape[0], dtype=np.int64)
    for i in range(boards.shape[0]):
        keys[i] = k._board_strength(boards, i, 0, 0, boards.shape[2], low, suits)
    return keys


def _hands(rng: np.random.Generator, count: int, cards: int) -> np.ndarray:
    """Random hands, half of them from three or four ranks only (pairs, trips, quads, full houses)."""
    hands = np.array([rng.permutation(52)[:cards] for _ in range(count)], dtype=np.int64)
    for hand in hands[::2]:
        ranks = rng.choice(13, size=int(rng.integers(3, 5)), replace=False)
        pool = np.array([r * 4 + s for r in ranks for s in range(4)])
        hand[:] = rng.permutation(pool)[:cards] if len(pool) >= cards else hand
    return hands


@pytest.mark.parametrize(("kind", "size", "cards"), [
    ("razz", 5, 7), ("razz", 5, 6), ("razz", 5, 5), ("action_razz", 5, 7), ("eight", 5, 7), ("eight", 5, 6),
    ("high", 5, 7), ("high", 5, 6), ("razz", 3, 3), ("razz", 3, 4), ("razz", 3, 5),
])
def test_hand_values_order_hands_as_the_evaluators(kind, size, cards):
    """Same order (ties included) as ``evaluator(kind, size)``, and the top card of ``best_hand``."""
    rng = np.random.default_rng(size * 10 + cards)
    hands = _hands(rng, 300, cards)
    values, tops = _values(hands, KINDS[kind], size)
    expected = np.array([evaluator(kind, size)(hand.tolist()) for hand in hands])
    assert np.array_equal(np.sign(values[:, None] - values[None, :]), np.sign(expected[:, None] - expected[None, :]))
    for hand, top in zip(hands, tops):
        best = best_hand(hand.tolist(), kind, size)
        if best:  # an eight without a qualifying low plays no cards
            order = (((best[0] >> 2) + 12) % 13) * 4 + (best[0] & 3) if kind == "high" else best[0]
            assert top == order, (hand.tolist(), best)


@pytest.mark.parametrize("suits", [True, False], ids=["suit", "position"])
@pytest.mark.parametrize("low", [True, False])
@pytest.mark.parametrize("size", [1, 2, 3, 4])
def test_board_strength_matches_order(size, low, suits):
    """The same keys as ``order.board_strength``, suits read (a tie-break option ``"suit"``) or not ("position")."""
    rng = np.random.default_rng(size)
    boards = _hands(rng, 400, size).reshape(400, 1, size)
    keys = _strengths(boards, low, suits)
    assert keys.tolist() == [board_strength(board[0].tolist(), low, suits) for board in boards]


def test_a_read_only_install_with_no_writable_cache_folder_still_imports_and_says_so(tmp_path):
    """numba would cache into the package or the user's cache folder; with neither writable the kernels compile
    in each process instead of failing at import, and the note says how to get a cache."""
    import os
    import shutil
    import subprocess
    import sys
    from pathlib import Path

    if os.geteuid() == 0 and not shutil.which("setpriv"):
        pytest.skip("running as root without setpriv: permissions cannot bind")
    drop = ["setpriv", "--bounding-set=-dac_override,-dac_read_search"] if os.geteuid() == 0 else []
    package = Path(k.__file__).resolve().parents[1]
    copy = tmp_path / "install"
    shutil.copytree(package, copy / "razz_env", ignore=shutil.ignore_patterns("__pycache__"))
    home = tmp_path / "home"
    home.mkdir()
    folders = [home, copy, *(p for p in copy.rglob("*") if p.is_dir())]
    for folder in folders:
        folder.chmod(0o555)
    env = {key: value for key, value in os.environ.items() if key != "NUMBA_CACHE_DIR"}
    env.update(PYTHONPATH=str(copy), HOME=str(home), XDG_CACHE_HOME=str(home / ".cache"))
    try:
        done = subprocess.run([*drop, sys.executable, "-c", "from razz_env.batch import kernels as k; "
                               "print(k.CACHE); print(k.compile_note())"], capture_output=True, text=True, env=env,
                              cwd=tmp_path, timeout=120)
    finally:
        for folder in folders:
            folder.chmod(0o755)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["False", "compiling the batched engine's kernels (about 35 s in every "
                                        "process: no cache folder is writable; set NUMBA_CACHE_DIR to one)"]
    assert not list(copy.rglob("__pycache__"))


def test_the_compile_note_is_printed_once_before_the_first_engine_and_not_once_cached(monkeypatch, capsys):
    from razz_env.batch import BatchEngine
    from razz_env.batch import engine as batch_engine
    from razz_env.engine.config import HandConfig

    config = HandConfig.create("razz", num_seats=2)
    engine = BatchEngine(config, 2, seed=0)
    engine.step(engine.masks.argmax(axis=1))
    assert k.is_compiled() and k.compile_note() is None
    monkeypatch.setattr(batch_engine, "_announced", False)
    monkeypatch.setattr(k, "is_compiled", lambda: False)
    capsys.readouterr()
    BatchEngine(config, 2, seed=0)
    BatchEngine(config, 2, seed=0)
    assert capsys.readouterr().err == "razz: compiling the batched engine's kernels (first run only, about 35 s)\n"


def test_a_changed_showdown_core_drops_the_kernels_numba_cached(tmp_path):
    """numba re-checks only a cached kernel's own file: the batch layer's cache goes when the core's (or the
    kernels') source changes, and stays while it does not."""
    cached = [tmp_path / "kernels._showdown-400.py311.nbi", tmp_path / "aivat._shares-48.py311.1.nbc"]
    for path in cached:
        path.write_text("compiled")
    (tmp_path / "kernel_sources.sha256").write_text("the digest of another source")
    assert k.drop_stale_cache(tmp_path)
    assert not any(path.exists() for path in cached)
    cached[0].write_text("compiled again")
    assert not k.drop_stale_cache(tmp_path)
    assert cached[0].exists()
    assert not k.drop_stale_cache(tmp_path / "no such folder")
