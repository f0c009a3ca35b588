"""NFSP from OpenSpiel learns heads-up razz from the information-state tensors, in about a minute.

Two NFSP agents (OpenSpiel's PyTorch implementation: a DQN best response plus a supervised average
policy) train in self-play on the ``razz_env_razz`` game through OpenSpiel's ``rl_environment``; then
the average policy plays uniform random play, seats alternating, and the script prints its win in
chips per hand with a standard error. No glue: the game, its chance nodes, the five action ids and
the tensors all come from ``import razz_env.openspiel``.

    python examples/openspiel_nfsp.py                      # 60 s of training, 2,000 evaluation hands
    python examples/openspiel_nfsp.py --seconds 10 --hands 500

Needs the ``openspiel`` and ``train`` extras (``pip install -e ".[openspiel,train]"``).
"""

from __future__ import annotations

import argparse
import math
import random
import time

import numpy as np
import pyspiel
import torch
from open_spiel.python import rl_environment
from open_spiel.python.pytorch import nfsp

import razz_env.openspiel  # noqa: F401  (registers the games)

GAME = "razz_env_razz"
HIDDEN = [128]
RESERVOIR = 200_000
REPLAY = 50_000
ANTICIPATORY = 0.1


def make_agents(env: rl_environment.Environment, seed: int, learn_after: int = 1000, batch_size: int = 128,
                learn_every: int = 64) -> list[nfsp.NFSP]:
    """One NFSP agent per seat, reading the information-state tensor (a learning step every ``learn_every``
    steps once ``learn_after`` transitions are stored)."""
    size = env.observation_spec()["info_state"][0]
    actions = env.action_spec()["num_actions"]
    return [nfsp.NFSP(seat, size, actions, HIDDEN, RESERVOIR, ANTICIPATORY, batch_size=batch_size,
                      learn_every=learn_every, replay_buffer_capacity=REPLAY, min_buffer_size_to_learn=learn_after,
                      epsilon_start=0.06, epsilon_end=0.001, seed=seed + seat)
            for seat in range(env.num_players)]


def train(env: rl_environment.Environment, agents: list[nfsp.NFSP], seconds: float | None = None,
          episodes: int | None = None) -> int:
    """Self-play hands until ``seconds`` have passed or ``episodes`` hands are played; returns the hands played."""
    start = time.perf_counter()
    played = 0
    while (episodes is None or played < episodes) and (seconds is None or time.perf_counter() - start < seconds):
        step = env.reset()
        while not step.last():
            seat = step.observations["current_player"]
            step = env.step([agents[seat].step(step).action])
        for agent in agents:
            agent.step(step)
        played += 1
    return played


def average_policy_action(agent: nfsp.NFSP, state: pyspiel.State, rng: random.Random) -> int:
    """An action drawn from ``agent``'s average policy at ``state``."""
    seat = state.current_player()
    legal = state.legal_actions()
    observations = {"info_state": {seat: state.information_state_tensor(seat)},
                    "legal_actions": {seat: legal}, "current_player": seat}
    step = rl_environment.TimeStep(observations=observations, rewards=None, discounts=None, step_type=None)
    with agent.temp_mode_as(nfsp.MODE.AVERAGE_POLICY):
        probs = agent.step(step, is_evaluation=True).probs
    return rng.choices(legal, weights=[probs[action] for action in legal])[0]


def play_random(game: pyspiel.Game, agents: list[nfsp.NFSP], hands: int, seed: int) -> tuple[float, float]:
    """Mean and standard error of the chips per hand the average policies win against uniform random play."""
    rng = random.Random(seed)
    wins = []
    for hand in range(hands):
        seat = hand % game.num_players()
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            elif state.current_player() == seat:
                state.apply_action(average_policy_action(agents[seat], state, rng))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        wins.append(state.returns()[seat])
    mean = float(np.mean(wins))
    error = float(np.std(wins, ddof=1) / math.sqrt(len(wins))) if len(wins) > 1 else float("nan")
    return mean, error


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="training time (default 60)")
    parser.add_argument("--episodes", type=int, default=None, help="stop after this many training hands instead")
    parser.add_argument("--hands", type=int, default=2000, help="evaluation hands against random play")
    parser.add_argument("--seed", type=int, default=0, help="seed of the networks, chance and the evaluation")
    args = parser.parse_args(argv)
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)  # small networks: one thread is fastest
    np.random.seed(args.seed)
    env = rl_environment.Environment(GAME, chance_event_sampler=rl_environment.ChanceEventSampler(args.seed))
    agents = make_agents(env, args.seed)
    seconds = None if args.episodes is not None else args.seconds
    start = time.perf_counter()
    played = train(env, agents, seconds=seconds, episodes=args.episodes)
    print(f"trained NFSP on {GAME} for {played} hands ({time.perf_counter() - start:.0f} s); "
          f"information state: {env.observation_spec()['info_state'][0]} floats")
    mean, error = play_random(env.game, agents, args.hands, args.seed)
    print(f"average policy vs uniform random, {args.hands} hands: {mean:+.2f} ± {error:.2f} chips per hand")


if __name__ == "__main__":
    main()
