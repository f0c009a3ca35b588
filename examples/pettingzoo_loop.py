"""Zoo agents in a plain PettingZoo loop: ``ppo_razz`` against ``razz_heuristic`` at heads-up razz.

Each seat's agent acts through :class:`razz_env.envs.adapters.AgentAdapter` given the environment, so agents
that read the table view (``razz_heuristic``, ``monte_carlo``) play as well as those that read the vector.
The table is the one ``ppo_razz`` was trained at (``razz_env/agents/zoo/manifest.json``: 1000-chip stacks).

    python examples/pettingzoo_loop.py --hands 200 --opponent razz_heuristic
"""

from __future__ import annotations

import argparse

import razz_env
from razz_env.agents.registry import make_agent
from razz_env.envs.adapters import AgentAdapter


def play(hands: int, opponent: str = "razz_heuristic", seed: int = 0) -> dict[str, float]:
    """Big bets won per agent over ``hands`` hands, seats alternating (``ppo_razz`` is ``player_0`` first)."""
    env = razz_env.env(variant="razz", num_seats=2, stacks=1000)
    agents = {"ppo_razz": make_agent("ppo_razz"), opponent: make_agent(opponent, seed=seed)}
    players = {name: AgentAdapter(agent, env) for name, agent in agents.items()}
    won = dict.fromkeys(agents, 0.0)
    for hand in range(hands):
        order = list(agents) if hand % 2 == 0 else list(agents)[::-1]
        seated = dict(zip(env.possible_agents, order))  # PettingZoo name -> zoo agent name
        env.reset(seed=seed + hand)
        for name in env.agent_iter():
            observation, reward, termination, truncation, info = env.last()
            if termination or truncation:
                won[seated[name]] += reward  # net chips / big bet, once the hand is over
                env.step(None)
            else:
                env.step(players[seated[name]].act(observation, name))
    env.close()
    return won


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200, help="hands to play (default 200)")
    parser.add_argument("--opponent", default="razz_heuristic", help="zoo agent facing ppo_razz (razz_heuristic)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first deal (default 0)")
    args = parser.parse_args()
    if args.hands < 1:
        parser.error(f"--hands: expected a positive number of hands, got {args.hands}")
    for name, big_bets in play(args.hands, args.opponent, args.seed).items():
        print(f"{name:>16}: {100 * big_bets / args.hands:+8.2f} bb/100 over {args.hands} hands")


if __name__ == "__main__":
    main()
