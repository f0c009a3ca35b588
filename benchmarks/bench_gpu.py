"""The batched engine and the batched PPO on a GPU, against Pgx and the CPU engine, all in one run.

GPU time is scarce, so one script measures everything, in this order, and prints each figure when it has it:

1. **Engine**: decisions/s of random play with the acting seats' observation vectors (``FlatEncoder``), heads-up
   and 6-max razz: ``BatchEngine`` in this process on the CPU, and ``CudaEngine`` at each batch size of
   ``--gpu-tables`` (random legal ids drawn on the device, every vector written to device memory). Pgx's
   ``leduc_holdem`` and ``kuhn_poker`` at the same batch sizes when ``pgx`` and a GPU ``jax`` are installed (random
   legal actions, auto-reset, all in one jitted step), as Pgx's own benchmark plays them.
2. **Network**: observations/s through the policy LBR queries (676 -> 256 -> 256 -> 5) on the GPU in float32 and
   bfloat16, and on one CPU thread.
3. **Training**: decisions/s of ``razz_env.train.batch_ppo`` (self-play: every decision is trained), on the GPU
   and on the CPU, against sb3-contrib's MaskablePPO on the batched SB3 VecEnv with two torch threads (the
   2-core machine the project's training runs on).

Ratios are printed against the peers measured in the same run. Without a GPU the GPU rows say so and the CPU
figures are still measured. ``--output`` writes every figure as JSON.

    python benchmarks/bench_gpu.py                      # every figure (an H200's: docs/batch.md)
    python benchmarks/bench_gpu.py --quick              # a smoke run
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from dataclasses import dataclass

import numpy as np

from razz_env.command_line import parse_args


@dataclass
class Args:
    """What to measure and for how long."""

    gpu_tables: tuple[int, ...] = (4096, 16384, 65536, 262144, 1048576)
    """batch sizes of the GPU engine and of Pgx"""
    cpu_tables: int = 4096
    """tables of the CPU engine"""
    seconds: float = 3.0
    """time each engine figure for about this long (after a warm-up)"""
    train_tables: int = 16384
    """tables of the GPU PPO run"""
    train_updates: int = 6
    """PPO updates timed on the GPU (the first, which compiles, is not timed)"""
    cpu_train_steps: int = 65536
    """decisions of each CPU training run"""
    quick: bool = False
    """a smoke run: small batches, short timings"""
    output: str = ""
    """write the figures as JSON here"""


FIGURES: dict[str, float | str] = {}


def report(key: str, value: float | str, unit: str = "") -> None:
    FIGURES[key] = value
    shown = f"{value:,.0f}" if isinstance(value, float) else value
    print(f"{key:<52} {shown} {unit}", flush=True)


def ratio(key: str, top: str, bottom: str) -> None:
    a, b = FIGURES.get(top), FIGURES.get(bottom)
    if isinstance(a, float) and isinstance(b, float) and b > 0:
        report(key, f"{a / b:.2f}x", f"({top} / {bottom})")


def timed(step, seconds: float, sync) -> float:
    """Calls of ``step`` per second over about ``seconds`` (``sync`` waits for the device)."""
    step()
    sync()
    calls, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(10):
            step()
        calls += 10
        sync()
    return calls / (time.perf_counter() - start)


# ---------------------------------------------------------------------------------------------- engines


def cpu_engine(seats: int, tables: int, seconds: float) -> float:
    from razz_env.batch import BatchEngine, policy_state, random_legal_actions
    from razz_env.encoding.encoders import FlatEncoder
    from razz_env.engine.config import HandConfig

    config = HandConfig.create("razz", num_seats=seats)
    engine = BatchEngine(config, tables, seed=0, encoder=FlatEncoder(config))
    state, actions = policy_state(0, rows=tables), np.empty(tables, dtype=np.int64)
    vectors = engine.observe()

    def step() -> None:
        random_legal_actions(engine.masks, state, actions)
        engine.step(actions, out=vectors)

    return tables * timed(step, seconds, lambda: None)


def gpu_engine(seats: int, tables: int, seconds: float) -> float:
    from numba import cuda

    from razz_env.batch.cuda_engine import CudaEngine, random_legal_actions
    from razz_env.batch.random_play import policy_state
    from razz_env.encoding.encoders import FlatEncoder
    from razz_env.engine.config import HandConfig

    config = HandConfig.create("razz", num_seats=seats)
    engine = CudaEngine(config, tables, seed=0, encoder=FlatEncoder(config))
    state = cuda.to_device(policy_state(0, rows=tables))
    actions = cuda.device_array(tables, dtype=np.int64)
    vectors = engine.observe()

    def step() -> None:
        random_legal_actions(engine.masks, state, actions)
        engine.step(actions, out=vectors, check=False)

    rate = tables * timed(step, seconds, cuda.synchronize)
    engine.check()
    return rate


def pgx_engine(game: str, batch: int, seconds: float) -> float:
    import jax
    import jax.numpy as jnp
    import pgx
    from pgx.experimental import auto_reset

    env = pgx.make(game)
    keys = jax.random.split(jax.random.PRNGKey(0), batch)
    state = jax.jit(jax.vmap(env.init))(keys)
    stepper = jax.vmap(auto_reset(env.step, env.init))

    @jax.jit
    def step(state, key):
        action_key, step_key = jax.random.split(key)
        logits = jnp.where(state.legal_action_mask, 0.0, -jnp.inf)
        action = jax.random.categorical(action_key, logits, axis=-1)
        return stepper(state, action, jax.random.split(step_key, batch))

    holder = {"state": state, "key": jax.random.PRNGKey(1)}

    def one() -> None:
        holder["key"], key = jax.random.split(holder["key"])
        holder["state"] = step(holder["state"], key)

    return batch * timed(one, seconds, lambda: holder["state"].current_player.block_until_ready())


# ---------------------------------------------------------------------------------------------- network


def network_rate(device: str, dtype: str, batch: int, seconds: float) -> float:
    import torch

    from razz_env.agents.torch_policy import build_mlp

    network = build_mlp([676, 256, 256, 5], "tanh").to(device=device, dtype=getattr(torch, dtype))
    x = torch.rand(batch, 676, device=device, dtype=getattr(torch, dtype))
    sync = torch.cuda.synchronize if device == "cuda" else (lambda: None)

    def step() -> None:
        with torch.no_grad():
            network(x)

    return batch * timed(step, seconds, sync)


# ---------------------------------------------------------------------------------------------- training


def batch_ppo_rate(device: str, tables: int, steps: int) -> float:
    """Decisions/s of the batched PPO in self-play (every decision trained), its first update excluded: a run of
    one update, then one of ``steps`` more, after a warm-up run that compiles the engine's kernels (on a GPU they
    compile once a process, so without it the one-update run pays the compilation and the difference can be
    negative)."""
    from razz_env.train.batch_ppo import Args as PPOArgs
    from razz_env.train.batch_ppo import train

    def run(total: int, name: str) -> dict:
        return train(PPOArgs(device=device, num_tables=tables, total_steps=total, self_play_fraction=1.0,
                             output=os.path.join(folder, name), quiet=True))

    with tempfile.TemporaryDirectory() as folder:
        rollout = tables * 32
        run(rollout, "warm-up")
        short, full = run(rollout, "a"), run(rollout + steps, "b")
    return (full["steps"] - short["steps"]) / (full["seconds"] - short["seconds"])


def maskable_ppo_rate(steps: int) -> float:
    """Learner decisions/s of MaskablePPO on the batched SB3 VecEnv, two torch threads, the zoo's 256x256 net."""
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import VecMonitor

    from razz_env.batch.sb3_vec_env import BatchSB3VecEnv

    torch.set_num_threads(2)
    venv = VecMonitor(BatchSB3VecEnv(256, seed=0))
    model = MaskablePPO("MlpPolicy", venv, n_steps=128, batch_size=4096, n_epochs=4, gamma=1.0,
                        policy_kwargs={"net_arch": [256, 256]}, seed=0, verbose=0, device="cpu")
    model.learn(256 * 128)
    start = time.perf_counter()
    model.learn(steps, reset_num_timesteps=False)
    rate = steps / (time.perf_counter() - start)
    torch.set_num_threads(1)
    return rate


def gpu_available() -> bool:
    try:
        import torch
        from numba import cuda
    except ImportError:
        return False
    return bool(cuda.is_available() and torch.cuda.is_available())


def pgx_available() -> str | None:
    try:
        import jax
        import pgx  # noqa: F401
    except ImportError as err:
        return f"not installed ({err.name})"
    if jax.default_backend() != "gpu":
        return f"jax runs on {jax.default_backend()}, not a GPU"
    return None


def main() -> None:
    args = parse_args(Args, __doc__)
    if args.quick:
        args.gpu_tables, args.cpu_tables, args.seconds = (1024, 8192), 1024, 0.5
        args.train_tables, args.cpu_train_steps = 2048, 16384
    import torch

    torch.set_num_threads(1)
    gpu = gpu_available()
    print(f"device: {torch.cuda.get_device_name(0) if gpu else 'no GPU (CPU figures only)'}; "
          f"CPU cores: {os.cpu_count()}", flush=True)

    for seats in (2, 6):
        report(f"engine cpu razz {seats}-max ({args.cpu_tables} tables)",
               cpu_engine(seats, args.cpu_tables, args.seconds), "decisions/s")
    missing_pgx = pgx_available() if gpu else "no GPU"
    for batch in args.gpu_tables if gpu else ():
        for seats in (2, 6):
            report(f"engine gpu razz {seats}-max ({batch} tables)", gpu_engine(seats, batch, args.seconds),
                   "decisions/s")
        for game in ("leduc_holdem", "kuhn_poker"):
            if missing_pgx is None:
                report(f"pgx {game} ({batch})", pgx_engine(game, batch, args.seconds), "decisions/s")
    for seats in (2, 6):
        rows = [FIGURES[f"engine gpu razz {seats}-max ({b} tables)"] for b in args.gpu_tables if gpu]
        if rows:
            best = max(rows)
            report(f"engine gpu razz {seats}-max, best batch", float(best), "decisions/s")
            ratio(f"gpu/cpu engine, razz {seats}-max", f"engine gpu razz {seats}-max, best batch",
                  f"engine cpu razz {seats}-max ({args.cpu_tables} tables)")
    if missing_pgx is None:
        for game in ("leduc_holdem", "kuhn_poker"):
            report(f"pgx {game}, best batch", float(max(FIGURES[f"pgx {game} ({b})"] for b in args.gpu_tables)),
                   "decisions/s")
            ratio(f"razz heads-up / pgx {game}", "engine gpu razz 2-max, best batch", f"pgx {game}, best batch")
    else:
        report("pgx", f"not measured: {missing_pgx}")

    report("network cpu float32 (1 thread)", network_rate("cpu", "float32", 4096, args.seconds), "observations/s")
    if gpu:
        for dtype in ("float32", "bfloat16"):
            report(f"network gpu {dtype}", network_rate("cuda", dtype, 65536, args.seconds), "observations/s")
            ratio(f"network gpu {dtype} / cpu", f"network gpu {dtype}", "network cpu float32 (1 thread)")

    report("train maskable_ppo cpu (2 threads)", maskable_ppo_rate(args.cpu_train_steps), "decisions/s")
    report("train batch_ppo cpu (1 thread)", batch_ppo_rate("cpu", 1024, args.cpu_train_steps), "decisions/s")
    ratio("batch_ppo cpu / maskable_ppo", "train batch_ppo cpu (1 thread)", "train maskable_ppo cpu (2 threads)")
    if gpu:
        report(f"train batch_ppo gpu ({args.train_tables} tables)",
               batch_ppo_rate("cuda", args.train_tables, args.train_tables * 32 * args.train_updates), "decisions/s")
        ratio("batch_ppo gpu / maskable_ppo cpu", f"train batch_ppo gpu ({args.train_tables} tables)",
              "train maskable_ppo cpu (2 threads)")
    else:
        report("gpu figures", "not measured: no GPU here")
    if args.output:
        with open(args.output, "w", encoding="utf-8") as handle:
            json.dump(FIGURES, handle, indent=2)


if __name__ == "__main__":
    sys.exit(main())
