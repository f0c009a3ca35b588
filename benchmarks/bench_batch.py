"""The batched engine's speed against the scalar environment, measured in one run.

Plays random legal actions (uniform over each table's mask) through :class:`razz_env.batch.BatchEngine`
at batch sizes 64 to 8,192, heads-up and 6-max razz, one process, and the scalar ``razz_env.env()`` (the
PettingZoo AEC loop, observations built) on the same games; prints decisions/s, the ratio to the scalar
env and the memory of a table's state, in three ways: without vectors; with the acting seats'
``FlatEncoder`` vectors written every step (``step(actions, out=vectors)`` into one reused (T, size) array),
the random actions drawn with numpy (a (T, 5) uniform array times the masks, argmax); and the same with the
actions drawn inside numba (``random_legal_actions``, as Pgx draws its random actions inside JIT). Rates are
CPU time of the fastest of ``--rounds`` rounds, so other load on the machine skews them less; the first call
compiles the kernels (numba caches them on disk).

Run: ``python benchmarks/bench_batch.py`` (a few minutes; ``--decisions``, ``--rounds``, ``--sizes``;
``--plot results/batch_scaling.png`` draws the rate against the batch size, needs matplotlib). With ``pgx``
installed (the ``bench`` extra) each batch size also runs Pgx's ``leduc_holdem`` (JAX, ``vmap`` with
``auto_reset``, random legal actions, its observations built every step) at the same batch size; JAX
uses every core, so its CPU time is its cost here and its wall-clock rate is printed beside.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import razz_env
from razz_env.batch import BatchEngine, policy_state, random_legal_actions
from razz_env.encoding.encoders import FlatEncoder
from razz_env.engine.config import HandConfig

CLOCK = time.process_time
DEFAULT_SIZES = (64, 256, 1024, 4096, 8192)
DEFAULT_DECISIONS = 400_000
SCALAR_HANDS = 300


MODES = ("bare", "vectors", "vectors, numba policy")
"""``batch_rate`` modes: no vectors; vectors, numpy random actions; vectors, actions drawn in numba."""


def batch_rate(engine: BatchEngine, decisions: int, rounds: int, mode: str, seed: int = 0) -> float:
    """Decisions/s of random legal play (about ``decisions`` per round) in one of :data:`MODES`."""
    tables = engine.num_tables
    rng = np.random.default_rng(seed)
    state = policy_state(seed)
    steps = max(decisions // tables, 20)
    out = np.empty((tables, engine.encoder.size), dtype=np.float32)
    actions = np.empty(tables, dtype=np.int64)
    best = float("inf")
    for _ in range(rounds):
        noise = rng.random((steps, tables, 5))
        start = CLOCK()
        if mode == "bare":
            for step in range(steps):
                engine.step((engine.masks * noise[step]).argmax(axis=1))
        elif mode == "vectors":
            for step in range(steps):
                engine.step((engine.masks * noise[step]).argmax(axis=1), out=out)
        else:
            for _step in range(steps):
                engine.step(random_legal_actions(engine.masks, state, actions), out=out)
        best = min(best, CLOCK() - start)
    return steps * tables / best


def pgx_rate(tables: int, decisions: int, rounds: int, seed: int = 0) -> tuple[float, float]:
    """Pgx ``leduc_holdem`` decisions/s (CPU time, wall clock) at ``tables`` games in lockstep."""
    import jax
    import jax.numpy as jnp
    import pgx
    from pgx.experimental import auto_reset

    env = pgx.make("leduc_holdem")
    steps = max(decisions // tables, 20)
    step = jax.vmap(auto_reset(env.step, env.init))

    @jax.jit
    def play(state, key):
        def body(_, carry):
            state, key = carry
            key, choose, reset = jax.random.split(key, 3)
            logits = jnp.log(state.legal_action_mask.astype(jnp.float32))
            action = jax.random.categorical(choose, logits, axis=1)
            return step(state, action, jax.random.split(reset, tables)), key
        return jax.lax.fori_loop(0, steps, body, (state, key))

    key = jax.random.PRNGKey(seed)
    state = jax.jit(jax.vmap(env.init))(jax.random.split(key, tables))
    state, key = jax.block_until_ready(play(state, key))  # compile
    best_cpu = best_wall = float("inf")
    for _ in range(rounds):
        wall, cpu = time.perf_counter(), CLOCK()
        state, key = jax.block_until_ready(play(state, key))
        best_cpu, best_wall = min(best_cpu, CLOCK() - cpu), min(best_wall, time.perf_counter() - wall)
    return steps * tables / best_cpu, steps * tables / best_wall


def scalar_rate(seats: int, hands: int, rounds: int, seed: int = 0) -> float:
    """Decisions/s of ``razz_env.env()`` (AEC loop, observations built), random legal actions: ``bench_env``'s
    loop, the best of ``rounds``."""
    from bench_env import run_aec  # the sibling script (benchmarks/ is the script's folder, first on sys.path)

    env = razz_env.env(num_seats=seats)
    best, decisions = float("inf"), 0
    for _ in range(rounds):
        seconds, decisions = run_aec(env, hands, seed)
        best = min(best, seconds)
    return decisions / best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=list(DEFAULT_SIZES), help="batch sizes")
    parser.add_argument("--decisions", type=int, default=DEFAULT_DECISIONS, help="decisions per batched round")
    parser.add_argument("--rounds", type=int, default=3, help="rounds per row (the fastest counts)")
    parser.add_argument("--plot", help="save a plot of decisions/s against the batch size to this PNG")
    args = parser.parse_args()
    series: dict[str, list[float]] = {}
    print(f"{'game':<14}{'tables':>8}{'decisions/s':>14}{'x scalar':>10}{'+ vectors':>14}{'x scalar':>10}"
          f"{'+ vec, numba pol.':>19}{'x scalar':>10}{'bytes/table':>13}")
    labels = {"bare": "", "vectors": " + vectors", "vectors, numba policy": " + vectors, numba policy"}
    for seats, name in ((2, "heads-up razz"), (6, "6-max razz")):
        config = HandConfig.create("razz", num_seats=seats)
        engine = BatchEngine(config, 2, seed=0, encoder=FlatEncoder(config))  # compile or load the kernels
        engine.step(random_legal_actions(engine.masks, policy_state(0)), out=engine.observe())
        scalar = scalar_rate(seats, SCALAR_HANDS, args.rounds)
        print(f"{name:<14}{'env()':>8}{'':>14}{'':>10}{scalar:>14,.0f}{1:>10.1f}")
        for tables in args.sizes:
            engine = BatchEngine(config, tables, seed=0, encoder=FlatEncoder(config))
            rates = [batch_rate(engine, args.decisions, args.rounds, mode) for mode in MODES]
            for mode, rate in zip(MODES, rates):
                series.setdefault(f"{name}{labels[mode]}", []).append(rate)
            cells = "".join(f"{rate:>{width},.0f}{rate / scalar:>10.1f}" for rate, width in zip(rates, (14, 14, 19)))
            print(f"{name:<14}{tables:>8}{cells}{engine.nbytes / tables:>13,.0f}")

    try:
        import pgx  # noqa: F401
    except ImportError:
        print("pgx not installed (pip install 'razz-env[bench]'): no Pgx leduc_holdem rows")
    else:
        for tables in args.sizes:
            cpu, wall = pgx_rate(tables, args.decisions, args.rounds)
            series.setdefault("Pgx leduc_holdem (CPU time)", []).append(cpu)
            print(f"{'pgx leduc':<14}{tables:>8}{'':>14}{'':>10}{cpu:>14,.0f}{'':>10}   wall {wall:,.0f}/s")
    if args.plot:
        plot(args.sizes, series, args.plot)


def plot(sizes: list[int], series: dict[str, list[float]], path: str) -> None:
    """Decisions/s against the batch size, one line per game (and with vectors), log-scaled batch axis."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(9, 4.5))
    for name, rates in series.items():
        axes.plot(sizes, [r / 1e6 for r in rates], marker="o", label=name)
    axes.set_xscale("log", base=2)
    axes.set_xlabel("tables in lockstep")
    axes.set_ylabel("million decisions/s (one process)")
    axes.set_title("BatchEngine, random legal actions")
    axes.grid(alpha=0.3)
    axes.legend(loc="center left", bbox_to_anchor=(1.01, 0.5), fontsize=8)
    figure.tight_layout()
    figure.savefig(path, dpi=110)


if __name__ == "__main__":
    main()
