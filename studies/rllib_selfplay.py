"""Multi-agent PPO self-play on RLlib (new API stack), with a learning curve and a tournament agent.

One RLModule (``"shared"``, RLlib's action-masking PPO module) plays both seats of
``razz_env.env()`` through RLlib's ``PettingZooEnv``. Every ``eval_every`` iterations the greedy
policy plays duplicate deals against each of ``opponents`` through the project's harness
(:func:`razz_env.evaluate.blocks.play_deals`); the curve goes to ``<output>/learning_curve.csv``
and ``.png``, and the policy's forward pass (encoder and policy head) to ``<output>/policy.npz``.

:class:`RLlibPolicyAgent` replays that file in numpy: it needs neither Ray nor torch, so the
tournament seats it by its ``module:Class`` spec, run from the repository root:
``{type: "studies.rllib_selfplay:RLlibPolicyAgent", weights: runs/rllib_selfplay/policy.npz}``.

Training needs ``ray[rllib]`` (the ``rllib`` extra, in an environment of its own: it pins gymnasium
1.2.2); checked with ray 2.60. Results: ``docs/studies/rllib_selfplay.md``.

    python studies/rllib_selfplay.py --iterations 60 --eval-every 5
"""

from __future__ import annotations

import csv
import json
import os
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from razz_env.command_line import parse_args
from razz_env.encoding.interface import Declaration, Observation
from razz_env.engine.errors import ConfigError

TABLE = {"variant": "razz", "num_seats": 2, "stacks": 1000}
ACTIVATIONS = {"tanh": np.tanh, "relu": lambda x: np.maximum(x, 0.0), "": lambda x: x}


@dataclass
class Args:
    """PPO self-play settings, the evaluation schedule and where the outputs go."""

    iterations: int = 60
    """PPO training iterations"""
    eval_every: int = 5
    """iterations between evaluations (and after the last)"""
    eval_deals: int = 300
    """duplicate deals per opponent in each evaluation"""
    opponents: tuple[str, ...] = ("random", "razz_heuristic")
    """registered agents the greedy policy is evaluated against"""
    fcnet_hiddens: tuple[int, ...] = (64,)
    """the encoder's hidden layers"""
    head_fcnet_hiddens: tuple[int, ...] = (32,)
    """the policy head's hidden layers"""
    train_batch: int = 2000
    """environment steps per iteration"""
    minibatch: int = 250
    """PPO minibatch size"""
    epochs: int = 4
    """passes over each batch"""
    lr: float = 3e-4
    """learning rate"""
    entropy_coeff: float = 0.01
    """entropy bonus"""
    seed: int = 0
    """RLlib's seed and the evaluation deals'"""
    output: str = "runs/rllib_selfplay"
    """where the curve, ``summary.json`` and ``policy.npz`` go"""


# ---------------------------------------------------------------- the agent (no Ray, no torch)


class RLlibPolicyAgent:
    """The trained shared policy as a tournament agent: masked logits from ``policy.npz``, greedy by default.

    ``sample=True`` draws from the masked softmax instead (seeded). It states its policy
    (``action_probabilities``), so ``razz exploit`` can measure it.
    """

    declaration = Declaration(observes=("vector",), variants=("razz",), seat_counts=(2,), states_policy=True,
                              acts_in_batch=True)

    def __init__(self, weights: str = "runs/rllib_selfplay/policy.npz", sample: bool = False,
                 seed: int | None = None, name: str = "rllib_selfplay") -> None:
        path = Path(weights)
        if not path.is_file():
            raise ValueError(f"weights: no file {str(path)!r}; train one with studies/rllib_selfplay.py")
        with np.load(path, allow_pickle=False) as data:
            activations = [str(a) for a in data["activations"]]
            self.layers = [(data[f"w{i}"].astype(np.float32), data[f"b{i}"].astype(np.float32), ACTIVATIONS[a])
                           for i, a in enumerate(activations)]
        self.name = name
        self.sample = sample
        self.rng = np.random.default_rng(seed)

    def reset(self, seat: int, num_seats: int, variant: str) -> None:
        """Nothing carries over between hands."""

    def logits_batch(self, vectors: np.ndarray) -> np.ndarray:
        """The policy head's raw logits for a batch of observation vectors."""
        x = np.asarray(vectors, dtype=np.float32)
        for weight, bias, activation in self.layers:
            x = activation(x @ weight.T + bias)
        return x

    def action_probabilities_batch(self, observations: list[Observation]) -> np.ndarray:
        """Softmax over the legal ids' logits (illegal ids get 0)."""
        logits = self.logits_batch(np.stack([o.vector for o in observations]))
        masks = np.stack([o.action_mask for o in observations]).astype(bool)
        logits = np.where(masks, logits, -np.inf)
        logits -= logits.max(axis=1, keepdims=True)
        weights = np.exp(logits)
        return weights / weights.sum(axis=1, keepdims=True)

    def action_probabilities(self, observation: Observation) -> np.ndarray:
        """:meth:`action_probabilities_batch` for one observation."""
        return self.action_probabilities_batch([observation])[0]

    def act_batch(self, observations: list[Observation]) -> list[int]:
        """One forward pass for many decisions: the likeliest legal id (or a draw, with ``sample``)."""
        probabilities = self.action_probabilities_batch(observations)
        if self.sample:
            return [int(self.rng.choice(len(p), p=p)) for p in probabilities]
        return [int(np.argmax(p)) for p in probabilities]

    def act(self, observation: Observation) -> int:
        """:meth:`act_batch` for one decision."""
        return self.act_batch([observation])[0]


def export_policy(module: Any, path: str | Path) -> Path:
    """Write the torch RLModule's actor path (encoder, then ``pi`` head) to ``path`` as float32 arrays."""
    import torch

    layers: list[tuple[np.ndarray, np.ndarray, str]] = []
    for part in (module.encoder.actor_encoder if hasattr(module.encoder, "actor_encoder") else module.encoder.encoder,
                 module.pi):
        mlp = list(part.net.mlp)
        for index, layer in enumerate(mlp):
            if isinstance(layer, torch.nn.Linear):
                following = mlp[index + 1] if index + 1 < len(mlp) else None
                activation = "" if following is None or isinstance(following, torch.nn.Linear) else \
                    type(following).__name__.lower()
                if activation not in ACTIVATIONS:
                    raise ValueError(f"export: activation {activation!r} is not one of {sorted(ACTIVATIONS)}")
                layers.append((layer.weight.detach().cpu().numpy(), layer.bias.detach().cpu().numpy(), activation))
    arrays = {f"{kind}{i}": array for i, (w, b, _) in enumerate(layers) for kind, array in (("w", w), ("b", b))}
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(path, activations=np.array([a for _, _, a in layers]), **arrays)
    return path


# ---------------------------------------------------------------- evaluation


def evaluate(agent: Any, opponents: tuple[str, ...], deals: int, seed: str) -> dict[str, dict[str, float]]:
    """Duplicate bb/100 (and the 95% CI) of ``agent`` against each opponent, heads-up razz."""
    from razz_env.agents.registry import make_agent
    from razz_env.engine.config import HandConfig
    from razz_env.evaluate.block_sums import Sums, summarise_tables
    from razz_env.evaluate.blocks import play_deals

    config = HandConfig.create(TABLE["variant"], num_seats=2, stacks=TABLE["stacks"])
    rows = {}
    for index, name in enumerate(opponents):
        tables = play_deals([agent, make_agent(name, seed=index)], config, deals, f"{seed}/{name}")
        sums = summarise_tables(tables, 2, deals, config.stakes.big_bet_size)
        rate = Sums.of(sums, 0).per_deal
        rows[name] = {"bb_per_100": round(rate.mean_bb100, 2), "ci95_half_width": round(rate.half_width, 2)}
    return rows


# ---------------------------------------------------------------- training (needs ray[rllib])


def env_creator(config: dict) -> Any:
    """``razz_env.env()`` in RLlib's ``PettingZooEnv``, observations as the action-masking module reads them."""
    from razz_env.envs.rllib import masked_env

    return masked_env({**TABLE, **config})


def build_config(args: Args) -> Any:
    """RLlib's PPOConfig: one env runner, one ``shared`` masked module for both seats."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule

    model = {"fcnet_hiddens": list(args.fcnet_hiddens), "head_fcnet_hiddens": list(args.head_fcnet_hiddens)}
    return (
        PPOConfig()
        .environment("razz_selfplay")
        .env_runners(num_env_runners=1, rollout_fragment_length="auto")
        .multi_agent(policies={"shared"}, policy_mapping_fn=lambda agent_id, *a, **k: "shared")
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={"shared": RLModuleSpec(
            module_class=ActionMaskingTorchRLModule, model_config=model)}))
        .training(train_batch_size_per_learner=args.train_batch, minibatch_size=args.minibatch,
                  num_epochs=args.epochs, lr=args.lr, entropy_coeff=args.entropy_coeff)
        .debugging(seed=args.seed)
    )


class StalledRun(RuntimeError):
    """Training whose environment steps stopped advancing: nothing more is being learned."""


STEPS_KEY = "num_env_steps_sampled_lifetime"


def env_steps_after(result: dict[str, Any], before: int, iteration: int) -> int:
    """The lifetime environment steps an ``algo.train()`` result reports; :class:`StalledRun` when they did not
    advance past ``before`` (under load RLlib's ``sample_timeout_s`` can expire every iteration and train nothing)."""
    steps = result.get(STEPS_KEY, (result.get("env_runners") or {}).get(STEPS_KEY))
    if steps is None or int(steps) <= before:
        seen = "reported no " + STEPS_KEY if steps is None else f"{STEPS_KEY} stayed at {int(steps):,}"
        raise StalledRun(f"iteration {iteration} sampled no environment steps ({seen}): the env runners timed out "
                         "(sample_timeout_s) or failed, so nothing was trained; stopped (free the CPUs or raise "
                         "sample_timeout_s)")
    return int(steps)


def train(args: Args) -> list[dict[str, Any]]:
    """Train, evaluating every ``eval_every`` iterations (and after the last); writes the outputs, returns the curve."""
    import ray
    from ray.tune.registry import register_env

    output = Path(args.output)
    output.mkdir(parents=True, exist_ok=True)
    weights = output / "policy.npz"
    register_env("razz_selfplay", env_creator)
    # Imported as a module (not run as a script), this file's functions reach the env runner by name: give the
    # runner this folder on its PYTHONPATH.
    here = str(Path(__file__).resolve().parent)
    ray.init(num_cpus=2, include_dashboard=False, ignore_reinit_error=True, log_to_driver=False,
             runtime_env={"env_vars": {"PYTHONPATH": os.pathsep.join([here, os.environ.get("PYTHONPATH", "")])}})
    algo = build_config(args).build_algo()
    curve: list[dict[str, Any]] = []
    started = time.perf_counter()
    try:
        steps = 0
        for iteration in range(1, args.iterations + 1):
            result = algo.train()
            steps = env_steps_after(result, steps, iteration)
            if iteration % args.eval_every == 0 or iteration == args.iterations:
                export_policy(algo.get_module("shared"), weights)
                row = {"iteration": iteration, "env_steps": steps,
                       "minutes": round((time.perf_counter() - started) / 60, 2)}
                for name, rate in evaluate(RLlibPolicyAgent(str(weights)), args.opponents, args.eval_deals,
                                           f"eval/{args.seed}").items():
                    row[f"{name}_bb_per_100"] = rate["bb_per_100"]
                    row[f"{name}_ci95"] = rate["ci95_half_width"]
                curve.append(row)
                print(json.dumps(row), flush=True)
    finally:
        algo.stop()
        ray.shutdown()
    write_outputs(args, curve, output)
    return curve


def write_outputs(args: Args, curve: list[dict[str, Any]], output: Path) -> None:
    """``learning_curve.csv``, ``learning_curve.png`` and ``summary.json`` (settings and the final row)."""
    with open(output / "learning_curve.csv", "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(curve[0]))
        writer.writeheader()
        writer.writerows(curve)
    summary = {"args": asdict(args), "final": curve[-1], "weights": "policy.npz"}
    (output / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(6, 3.5), dpi=80)
    steps = [row["env_steps"] for row in curve]
    for name in args.opponents:
        means = np.array([row[f"{name}_bb_per_100"] for row in curve])
        widths = np.array([row[f"{name}_ci95"] for row in curve])
        axes.plot(steps, means, marker="o", label=f"vs {name}")
        axes.fill_between(steps, means - widths, means + widths, alpha=0.2)
    axes.axhline(0, color="grey", linewidth=0.8)
    axes.set_xlabel("env steps (both seats)")
    axes.set_ylabel("duplicate bb/100 (95% CI)")
    axes.set_title("RLlib PPO self-play, shared policy")
    axes.legend()
    figure.tight_layout()
    figure.savefig(output / "learning_curve.png")
    plt.close(figure)


def check(args: Args) -> None:
    """Refuse settings RLlib would fail on later, and opponents that cannot sit at heads-up razz."""
    from razz_env.train.config import check_agent_spec

    positive = ("iterations", "eval_every", "eval_deals", "train_batch", "minibatch", "epochs")
    bad = [name for name in positive if getattr(args, name) < 1]
    bad += [name for name in ("fcnet_hiddens", "head_fcnet_hiddens") if min(getattr(args, name)) < 1]
    if bad:
        raise ConfigError(f"--{bad[0].replace('_', '-')} must be positive, got {getattr(args, bad[0])}")
    if args.minibatch > args.train_batch:
        raise ConfigError(f"--minibatch must not exceed --train-batch ({args.minibatch} > {args.train_batch})")
    for name in args.opponents:
        check_agent_spec("--opponents", name, TABLE["variant"], 2)


def main(args: Args) -> None:
    """Check the settings, then train (which needs ray[rllib])."""
    check(args)
    try:
        import ray.rllib  # noqa: F401 - only to say clearly what is missing
    except ImportError as missing:
        raise ConfigError(f"training needs ray[rllib] (pip install 'razz-env[rllib]' in a virtualenv of its own: it "
                          f"pins gymnasium 1.2.2); {type(missing).__name__}: {missing}") from None
    train(args)


if __name__ == "__main__":
    try:
        main(parse_args(Args, __doc__))
    except ConfigError as err:
        print(f"rllib_selfplay: {err}", file=sys.stderr)
        sys.exit(2)
    except StalledRun as err:
        print(f"rllib_selfplay: {err}", file=sys.stderr)
        sys.exit(1)
