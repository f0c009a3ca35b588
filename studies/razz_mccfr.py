"""Heads-up razz by external-sampling MCCFR over ``razz_buckets``, in resumable stages (issue 40's CFR arm).

Self-play PPO plateaued on razz (nine arms of ``razz_flagship.py``, none clear of ``ppo_razz_psro``), and on
MiniRazz, measured exactly, external-sampling MCCFR passes every learned method within a CPU minute
(``docs/studies/minirazz_equilibrium.md``). This trains it on full heads-up razz at the flagship's table (1,000-chip
stacks): :class:`razz_env.solve.sampled_cfr.SampledCFR` over the ``razz_buckets`` abstraction
(:mod:`razz_env.solve.abstraction`), one training seed a chain of stages of ``--stage-iterations`` iterations,
each going on from the one before. A stage checkpoints every ``--checkpoint-every`` iterations and a rerun of
the same command goes on from its last checkpoint; a chain cut anywhere repeats an uninterrupted one exactly
(the solver's streams are in the checkpoint). A finished stage writes ``policy.npz`` (the average strategy, a
:class:`~razz_env.solve.sampled_policy.SampledPolicy`: any command seats it by its path) and ``state.json`` (its
iterations, information sets and training CPU minutes, its own and the chain's).

    python studies/razz_mccfr.py --seed 1 --stage 1                 # stage 1 of training seed 1
    python studies/razz_mccfr.py --seed 1 --stage 2                 # goes on from stage 1
    python studies/razz_flagship.py --select --agent runs/razz_mccfr/seed1/stage1/policy.npz --workers 2
    python studies/razz_mccfr.py --seed 1 --stage 1 --coverage      # how often it meets keys it never trained

The selection rule and the figures: ``docs/studies/razz_flagship.md`` (its ``mccfr`` arm).
"""

from __future__ import annotations

import json
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

from razz_env.command_line import run_script
from razz_env.engine.checks import limited
from razz_env.engine.config import HandConfig
from razz_env.engine.errors import ConfigError
from razz_env.train.budgeted import read_state, write_json

TABLE = {"variant": "razz", "stacks": 1000}
"""The flagship's table."""
ABSTRACTION = "razz_buckets"
OPPONENTS = ("razz_heuristic", "monte_carlo", "ppo_razz_psro")
"""The flagship's selection opponents."""
COVERAGE_SEED = 41003
"""The deals ``--coverage`` plays (the flagship's LBR seed: not a selection or acceptance seed)."""


@dataclass
class Args:
    """One stage of one training seed."""

    seed: int = limited(1, minimum=0)
    """training seed (the deals and the other seat's draws)"""
    stage: int = limited(1, minimum=1)
    """the stage to train (stage I goes on from stage I-1's end)"""
    stage_iterations: int = limited(2_000_000, minimum=1)
    """iterations a stage"""
    checkpoint_every: int = limited(500_000, minimum=1)
    """iterations between checkpoints"""
    max_infosets: int = limited(16_000_000, minimum=1)
    """rows of the regret tables (allocated as they are touched)"""
    output: str = "runs/razz_mccfr"
    """where the stages' folders go: ``<output>/seed<k>/stage<i>``"""
    coverage: bool = False
    """instead of training: play the finished stage's policy ``--coverage-hands`` hands against each selection
    opponent (in this process, seats alternating) and write the share of its decisions at keys the solver never
    met to ``coverage.json``"""
    coverage_hands: int = limited(500, minimum=1)
    """hands a selection opponent for ``--coverage``"""


def stage_folder(args: Args, stage: int) -> Path:
    """``<output>/seed<k>/stage<i>``."""
    return Path(args.output) / f"seed{args.seed}" / f"stage{stage}"


def start(args: Args, folder: Path) -> tuple[object, float]:
    """The solver this stage goes on from (its checkpoint, the stage before's end, or fresh) and the chain's
    training CPU seconds before it."""
    from razz_env.solve.sampled_cfr import SampledCFR

    checkpoint = folder / "checkpoint.npz"
    if checkpoint.exists():
        return SampledCFR.load(checkpoint, args.max_infosets), (read_state(folder) or {}).get("chain_cpu_seconds", 0.0)
    if args.stage == 1:
        config = HandConfig.create(TABLE["variant"], stacks=TABLE["stacks"])
        return SampledCFR(config, abstraction=ABSTRACTION, seed=args.seed, max_infosets=args.max_infosets), 0.0
    earlier = stage_folder(args, args.stage - 1)
    state = read_state(earlier)
    if state is None or not state.get("done"):
        raise ConfigError(f"--stage {args.stage}: stage {args.stage - 1} of seed {args.seed} is not finished "
                          f"({earlier}); train it first")
    shutil.copyfile(earlier / "checkpoint.npz", checkpoint)
    write_json(folder / "state.json", {"chain_cpu_seconds": state["chain_cpu_seconds"], "done": False})
    return SampledCFR.load(checkpoint, args.max_infosets), state["chain_cpu_seconds"]


def coverage(policy_path: Path, opponent: str, hands: int) -> dict[str, float]:
    """The policy's decisions and those at keys the solver never met, in ``hands`` hands against ``opponent``."""
    from razz_env.agents.registry import make_agent
    from razz_env.encoding.actions import to_engine
    from razz_env.encoding.interface import Observer, act_batch
    from razz_env.engine.state import HandState
    from razz_env.solve.sampled_policy import SampledCFRAgent, SampledPolicy

    config = HandConfig.create(TABLE["variant"], stacks=TABLE["stacks"])
    agent = SampledCFRAgent(SampledPolicy.load(policy_path), seed=COVERAGE_SEED)
    other = make_agent(opponent, seed=COVERAGE_SEED)
    observers = [Observer(agent, config), Observer(other, config)]
    for number in range(hands):
        players = [(agent, observers[0]), (other, observers[1])][:: 1 if number % 2 == 0 else -1]
        for seat, (player, _) in enumerate(players):
            player.reset(seat, 2, config.variant.name)
        hand = HandState(config, seed=COVERAGE_SEED * 1_000_003 + number)
        while not hand.is_over:
            player, observer = players[hand.actor]
            action = act_batch(player, [observer(hand, hand.actor)])[0]
            hand.act(to_engine(action, hand.legal_actions()))
    return {"hands": hands, "decisions": agent.decisions, "unseen": agent.unseen,
            "unseen_share": round(agent.unseen / max(agent.decisions, 1), 5)}


def main(args: Args) -> None:
    """Train the stage, or go on with it from its checkpoint; or measure its coverage."""
    folder = stage_folder(args, args.stage)
    state = read_state(folder)
    if args.coverage:
        if state is None or not state.get("done"):
            raise ConfigError(f"--coverage: stage {args.stage} of seed {args.seed} is not finished ({folder}); "
                              f"train it first")
        measured = {name: coverage(folder / "policy.npz", name, args.coverage_hands) for name in OPPONENTS}
        (folder / "coverage.json").write_text(json.dumps(measured, indent=2) + "\n", encoding="utf-8")
        for name, figures in measured.items():
            print(f"{folder} against {name}: {figures['unseen']:,} of {figures['decisions']:,} decisions at keys "
                  f"it never met ({figures['unseen_share']:.2%})")
        return
    if state is not None and state.get("done"):
        print(f"{folder}: finished ({state['iterations']:,} iterations); train the next stage")
        return
    folder.mkdir(parents=True, exist_ok=True)
    solver, chain_before = start(args, folder)
    target = args.stage * args.stage_iterations
    stage_start = (args.stage - 1) * args.stage_iterations
    print(f"{folder}: from iteration {solver.iterations:,} to {target:,}", flush=True)
    while solver.iterations < target:
        began = time.process_time()
        solver.run(min(args.checkpoint_every - solver.iterations % args.checkpoint_every, target - solver.iterations))
        chain = chain_before + time.process_time() - began
        solver.save(folder / "checkpoint.npz")
        done = solver.iterations >= target
        if done:
            solver.average_policy().save(folder / "policy.npz")
        stage_cpu = chain - (read_state(stage_folder(args, args.stage - 1)) or {}).get("chain_cpu_seconds", 0.0)
        write_json(folder / "state.json", {"seed": args.seed, "stage": args.stage, "iterations": solver.iterations,
                             "stage_iterations": solver.iterations - stage_start, "infosets": solver.num_infosets,
                             "abstraction": ABSTRACTION, "table": TABLE, "chain_cpu_seconds": round(chain, 1),
                             "stage_cpu_minutes": round(stage_cpu / 60, 2), "done": done})
        chain_before = chain
        print(f"{folder}: {stage_cpu / 60:7.2f} CPU min  {solver.iterations:>12,} iterations  "
              f"{solver.num_infosets:>11,} information sets", flush=True)


if __name__ == "__main__":
    run_script(main, Args, __doc__)
