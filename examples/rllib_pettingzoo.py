"""razz-env in RLlib through its PettingZoo wrapper: ``register_env(name, lambda c: PettingZooEnv(razz_env.env()))``.

* :func:`play`: hands through RLlib's ``PettingZooEnv`` (its multi-agent dict API), zoo agents acting on
  its observations through :class:`razz_env.envs.adapters.AgentAdapter` given the environment underneath.
* :func:`train`: PPO for a few iterations on the registered env with RLlib's action-masking module,
  one policy shared by both seats (self-play). Ray ships the ``register_env`` lambda to its env-runner
  process with cloudpickle. RLlib's masking module reads ``{"observations", "action_mask"}``, so
  :func:`razz_env.envs.rllib.masked_env` renames the PettingZoo key and gives the mask as float32.

Needs ``ray[rllib]`` (``pip install "razz-env[rllib]"``, in an environment of its own: it pins
gymnasium 1.2.2); checked with ray 2.60.

    python examples/rllib_pettingzoo.py --hands 200 --train-iterations 2
"""

from __future__ import annotations

import argparse

import cloudpickle
from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv
from ray.tune.registry import register_env

import razz_env
from razz_env.agents.registry import make_agent
from razz_env.envs.adapters import AgentAdapter
from razz_env.envs.rllib import masked_env

TABLE = {"variant": "razz", "num_seats": 2, "stacks": 1000}


ENV_CREATORS = {  # what register_env receives; Ray pickles them (cloudpickle) into its env-runner processes
    "razz": lambda config: PettingZooEnv(razz_env.env(**{**TABLE, **config})),
    "razz_masked": lambda config: masked_env({**TABLE, **config}),
}


def register() -> None:
    """``"razz"`` (the plain route) and ``"razz_masked"`` (for the masking module) as RLlib env names."""
    for name, creator in ENV_CREATORS.items():
        register_env(name, creator)


def play(hands: int, opponent: str = "razz_heuristic", seed: int = 0) -> dict[str, float]:
    """Big bets won per seat: ``player_0`` is ``ppo_razz``, ``player_1`` the ``opponent``, on RLlib's wrapper."""
    env = cloudpickle.loads(cloudpickle.dumps(ENV_CREATORS["razz"]))({})  # as an env runner builds it
    players = {"player_0": AgentAdapter(make_agent("ppo_razz"), env.env),
               "player_1": AgentAdapter(make_agent(opponent, seed=seed), env.env)}
    won = dict.fromkeys(players, 0.0)
    for hand in range(hands):
        observations, _ = env.reset(seed=seed + hand)
        while True:
            (agent, observation), = observations.items()
            observations, rewards, terminated, _, _ = env.step({agent: players[agent].act(observation, agent)})
            if terminated["__all__"]:
                for name, reward in rewards.items():
                    won[name] += reward
                break
    return won


def train(iterations: int, seed: int = 0) -> list[float]:
    """PPO with action masking on ``"razz_masked"``, one env runner; the mean episode length per iteration."""
    import ray
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule

    register()
    ray.init(num_cpus=2, include_dashboard=False, ignore_reinit_error=True, log_to_driver=False)
    config = (
        PPOConfig()
        .environment("razz_masked")
        .env_runners(num_env_runners=1, rollout_fragment_length=128)
        .multi_agent(policies={"shared"}, policy_mapping_fn=lambda agent_id, *args, **kwargs: "shared")
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={"shared": RLModuleSpec(
            module_class=ActionMaskingTorchRLModule, model_config={"head_fcnet_hiddens": [64]})}))
        .training(train_batch_size_per_learner=256, minibatch_size=64, num_epochs=2)
        .debugging(seed=seed)
    )
    algo = config.build_algo()
    lengths = []
    try:
        for _ in range(iterations):
            result = algo.train()
            lengths.append(float(result["env_runners"]["episode_len_mean"]))
    finally:
        algo.stop()
        ray.shutdown()
    return lengths


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200, help="hands ppo_razz plays through the wrapper (200)")
    parser.add_argument("--opponent", default="razz_heuristic", help="zoo agent facing ppo_razz (razz_heuristic)")
    parser.add_argument("--train-iterations", type=int, default=0, help="PPO iterations to run after (default 0)")
    parser.add_argument("--seed", type=int, default=0, help="seed (default 0)")
    args = parser.parse_args()
    if args.hands < 1 or args.train_iterations < 0:
        parser.error("--hands must be positive and --train-iterations not negative")
    for name, big_bets in play(args.hands, args.opponent, args.seed).items():
        print(f"{name}: {100 * big_bets / args.hands:+8.2f} bb/100 over {args.hands} hands")
    if args.train_iterations:
        for number, length in enumerate(train(args.train_iterations, args.seed), start=1):
            print(f"PPO iteration {number}: mean episode length {length:.1f} decisions")


if __name__ == "__main__":
    main()
