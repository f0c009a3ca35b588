"""The batched single-agent vector env against the scalar SingleAgentEnv, its Gymnasium/SB3 contracts and errors."""

from __future__ import annotations

import zlib

import numpy as np
import pytest

from razz_env.encoding.interface import Declaration

pytest.importorskip("numba", reason="the batched engine needs numba (the batch extra)")

from razz_env.batch.vec_env import BatchSingleAgentVecEnv
from razz_env.encoding.interface import Observation
from razz_env.envs.single_agent import SingleAgentEnv


class VectorHashOpponent:
    """Deterministic, and its choice depends on the whole vector: a vector that differs changes the hand."""

    name = "vector-hash"
    def __init__(self, encoding: str | None = None) -> None:
        self.declaration = Declaration(observes=("vector",), encoding=encoding)

    def reset(self, seat: int, num_seats: int, variant: str) -> None:
        """Stateless."""

    def act(self, observation: Observation) -> int:
        legal = np.flatnonzero(observation.action_mask)
        weights = np.arange(1, observation.vector.size + 1, dtype=np.float64)
        return int(legal[int(np.dot(observation.vector, weights) * 1000) % len(legal)])


class ViewHashOpponent:
    """Deterministic, and its choice depends on the whole seat view: a view that differs changes the hand."""

    name = "view-hash"
    declaration = Declaration(observes=("view",), acts_in_batch=True)

    def reset(self, seat: int, num_seats: int, variant: str) -> None:
        """Stateless."""

    def act(self, observation: Observation) -> int:
        legal = np.flatnonzero(observation.action_mask)
        digest = zlib.crc32(repr(observation.view).encode())
        return int(legal[digest % len(legal)])

    def act_batch(self, observations) -> list[int]:
        return [self.act(o) for o in observations]


def _opponent(kind: str, encoding: str | None) -> object:
    return ViewHashOpponent() if kind == "view" else VectorHashOpponent(encoding)


class CountingOpponent(VectorHashOpponent):
    """Counts its batched calls."""

    def __init__(self) -> None:
        super().__init__()
        self.declaration = Declaration(observes=("vector",), acts_in_batch=True)
        self.calls = 0

    def act_batch(self, observations: list[Observation]) -> list[int]:
        self.calls += 1
        return [self.act(o) for o in observations]


CASES = [
    dict(variant="razz", num_seats=2),
    dict(variant="razz", num_seats=4, stacks=[200, 9, 30, 200]),
    dict(variant="stud8", num_seats=3),
    dict(variant="minirazz", num_seats=2),
    dict(variant="minirazz", num_seats=3, stacks=[6, 20, 20]),
    dict(variant="razz", num_seats=6, encoding="flat8"),
    dict(variant="razz", num_seats=3, stacks=[200, 9, 30], encoding="ranks8"),
    dict(variant="stud8", num_seats=3, rules="wsop_2023", chip=5, ante=5, bring_in=5, small_bet=10, big_bet=20,
         stacks=[300, 45, 300]),
]


def _record(options: dict, seat: object, illegal_action: str, tables: int, steps: int, seed: int,
            opponent: str = "vector") -> list[dict]:
    """Play the batched env with random learner ids (some illegal when ``check_fold``); the finished episodes."""
    env = BatchSingleAgentVecEnv(tables, _opponent(opponent, options.get("encoding")), seat,
                                 illegal_action=illegal_action, seed=seed, **options)
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    open_eps = [dict(deck=env.engine.decks[t].copy(), seat=int(info["seat"][t]), obs=[obs[t].copy()],
                     masks=[info["action_mask"][t].copy()], actions=[]) for t in range(tables)]
    done = []
    for _ in range(steps):
        masks = env.action_masks()
        actions = np.where(masks > 0, rng.random(masks.shape), -1).argmax(axis=1)
        if illegal_action == "check_fold":
            actions = np.where(rng.random(tables) < 0.2, rng.integers(0, 5, tables), actions)
        obs, rewards, terminated, truncated, info = env.step(actions)
        assert not truncated.any()
        for t in range(tables):
            episode = open_eps[t]
            episode["actions"].append(int(actions[t]))
            if terminated[t]:
                episode["reward"] = float(rewards[t])
                done.append(episode)
                open_eps[t] = episode = dict(deck=env.engine.decks[t].copy(), seat=int(info["seat"][t]), obs=[],
                                             masks=[], actions=[])
            else:
                assert rewards[t] == 0
            episode["obs"].append(obs[t].copy())
            episode["masks"].append(info["action_mask"][t].copy())
    return done


@pytest.mark.parametrize("options", CASES,
                         ids=lambda o: "-".join(str(o[k]) for k in ("variant", "num_seats", "encoding") if k in o))
@pytest.mark.parametrize("seat, illegal_action", [("random", "raise"), (1, "check_fold")])
@pytest.mark.parametrize("opponent", ["vector", "view"])
def test_episodes_equal_the_scalar_env(options: dict, seat: object, illegal_action: str, opponent: str) -> None:
    episodes = _record(options, seat, illegal_action, tables=16, steps=40, seed=7, opponent=opponent)
    assert len(episodes) >= 60
    for episode in episodes:
        scalar = SingleAgentEnv(_opponent(opponent, options.get("encoding")), seat=episode["seat"],
                                illegal_action=illegal_action, **options)
        obs, info = scalar.reset(options={"deck": episode["deck"].tolist()})
        for k, action in enumerate(episode["actions"]):
            np.testing.assert_array_equal(obs, episode["obs"][k])
            np.testing.assert_array_equal(info["action_mask"], episode["masks"][k])
            obs, reward, terminated, _, info = scalar.step(action)
            assert terminated == (k == len(episode["actions"]) - 1)
        assert reward == pytest.approx(episode["reward"])


def test_one_batched_call_per_opponent_pass() -> None:
    opponent = CountingOpponent()
    env = BatchSingleAgentVecEnv(64, opponent, 0, seed=0, variant="razz", num_seats=2)
    env.reset(seed=0)
    passes = opponent.calls
    env.step(np.argmax(env.action_masks(), axis=1))
    assert passes <= 4  # a few rounds of answers, never one call per table
    assert opponent.calls - passes <= 4


def test_seeded_reset_repeats() -> None:
    first = BatchSingleAgentVecEnv(8, seed=None, num_seats=3)
    second = BatchSingleAgentVecEnv(8, seed=None, num_seats=3)
    a, b = first.reset(seed=5), second.reset(seed=5)
    np.testing.assert_array_equal(a[0], b[0])
    for _ in range(20):
        actions = np.argmax(first.action_masks(), axis=1)
        np.testing.assert_array_equal(first.step(actions)[0], second.step(actions)[0])


def test_illegal_id_raises_and_changes_nothing() -> None:
    env = BatchSingleAgentVecEnv(4, seat=0, seed=0)
    obs, _ = env.reset(seed=0)
    actions = np.argmax(env.action_masks(), axis=1)
    actions[2] = int(np.flatnonzero(env.action_masks()[2] == 0)[0])
    with pytest.raises(ValueError, match=r"actions\[2\]: id \d is not legal"):
        env.step(actions)
    np.testing.assert_array_equal(env.engine.observe(), obs)


def test_refuses_view_readers_without_views_and_bad_arguments(folder: object) -> None:
    assert BatchSingleAgentVecEnv(4, folder).views
    with pytest.raises(ValueError, match="reads the view; this env keeps no seat views"):
        BatchSingleAgentVecEnv(4).set_opponents(folder)
    for encoding in ("ranks", "flat8"):  # a vector reader naming no encoding reads "flat", as in SingleAgentEnv
        with pytest.raises(ValueError, match=f"'vector-hash' reads the 'flat' encoding; this env encodes '{encoding}'"):
            BatchSingleAgentVecEnv(4, VectorHashOpponent(), encoding=encoding)
    assert BatchSingleAgentVecEnv(4, VectorHashOpponent("flat8"), encoding="flat8").encoder.name == "flat8"
    with pytest.raises(ValueError, match="num_envs"):
        BatchSingleAgentVecEnv(0)
    with pytest.raises(ValueError, match="illegal_action"):
        BatchSingleAgentVecEnv(2, illegal_action="ignore")
    env = BatchSingleAgentVecEnv(2)
    with pytest.raises(RuntimeError, match="before reset"):
        env.step(np.zeros(2, dtype=np.int64))
    env.reset(seed=0)
    with pytest.raises(ValueError, match="shape"):
        env.step(np.zeros(3, dtype=np.int64))


def test_gymnasium_vector_contract() -> None:
    env = BatchSingleAgentVecEnv(8, seed=0, variant="razz")
    obs, info = env.reset(seed=0)
    assert env.observation_space.contains(obs)
    assert env.metadata["autoreset_mode"].value == "SameStep"
    finished = 0
    for _ in range(30):
        obs, rewards, terminated, truncated, info = env.step(np.argmax(env.action_masks(), axis=1))
        assert env.observation_space.contains(obs)
        if terminated.any():
            assert (info["_final_obs"] == terminated).all()
            finished += int(terminated.sum())
    assert finished > 0


def test_maskable_ppo_trains_on_the_sb3_vec_env() -> None:
    sb3_contrib = pytest.importorskip("sb3_contrib", reason="MaskablePPO is in sb3-contrib (the train extra)")
    from stable_baselines3.common.vec_env import VecEnv

    from razz_env.batch.sb3_vec_env import BatchSB3VecEnv

    venv = BatchSB3VecEnv(16, variant="minirazz", seed=0)
    assert isinstance(venv, VecEnv)
    model = sb3_contrib.MaskablePPO("MlpPolicy", venv, n_steps=16, batch_size=64, n_epochs=1, seed=0, device="cpu")
    model.learn(total_timesteps=512)
    assert model.num_timesteps >= 512
    masks = np.stack(venv.env_method("action_masks"))
    assert masks.shape == (16, 5) and masks.any(axis=1).all()


SHIPPED_OPPONENTS = [
    ({"type": "razz_heuristic", "bluff": 0.0}, dict(variant="razz", num_seats=2)),
    ({"type": "monte_carlo", "samples": 10}, dict(variant="stud", num_seats=3, stacks=[200, 9, 30])),
    ("tag", dict(variant="stud8", num_seats=3)),
    ({"type": "lbr", "target": "calling_station", "samples": 20, "stacks": 200}, dict(variant="razz", num_seats=2)),
]


@pytest.mark.parametrize(("spec", "options"), SHIPPED_OPPONENTS,
                         ids=[s if isinstance(s, str) else s["type"] for s, _ in SHIPPED_OPPONENTS])
def test_episodes_against_shipped_agents_equal_the_scalar_env(spec, options: dict) -> None:
    """Shipped agents whose decisions depend only on what they see give the batched env's episodes in the scalar env."""
    from razz_env.agents.registry import make_agent

    env = BatchSingleAgentVecEnv(8, make_agent(spec, seed=1), "random", seed=3, **options)
    rng = np.random.default_rng(3)
    obs, info = env.reset(seed=3)
    episodes = [dict(deck=env.engine.decks[t].copy(), seat=int(info["seat"][t]), actions=[], obs=[obs[t].copy()])
                for t in range(8)]
    done = []
    for _ in range(25):
        masks = env.action_masks()
        actions = np.where(masks > 0, rng.random(masks.shape), -1).argmax(axis=1)
        obs, rewards, terminated, _, info = env.step(actions)
        for t in range(8):
            episodes[t]["actions"].append(int(actions[t]))
            if terminated[t]:
                done.append({**episodes[t], "reward": float(rewards[t])})
                episodes[t] = dict(deck=env.engine.decks[t].copy(), seat=int(info["seat"][t]), actions=[], obs=[])
            episodes[t]["obs"].append(obs[t].copy())
    assert len(done) >= 20
    for episode in done:
        scalar = SingleAgentEnv(make_agent(spec, seed=1), seat=episode["seat"], **options)
        observation, _ = scalar.reset(options={"deck": episode["deck"].tolist()})
        for k, action in enumerate(episode["actions"]):
            np.testing.assert_array_equal(observation, episode["obs"][k])
            observation, reward, _, _, _ = scalar.step(action)
        assert reward == pytest.approx(episode["reward"])


def test_opponents_by_name_as_the_scalar_env_takes_them() -> None:
    env = BatchSingleAgentVecEnv(4, "razz_heuristic", 0, seed=3)
    assert [agent.name for agent in env._opponents] == ["razz_heuristic"]
    env = BatchSingleAgentVecEnv(4, ["calling_station", {"type": "random"}], 0, seed=3, num_seats=3)
    assert [agent.name for agent in env._opponents] == ["calling_station", "random"]
    with pytest.raises(ValueError, match="^opponents: unknown agent 'razz_heurstic'"):
        BatchSingleAgentVecEnv(4, "razz_heurstic", 0, seed=3)
