"""Gymnasium ids: ``gymnasium.make`` / ``make_vec`` per variant, the checkers on what they build, registration order."""

from __future__ import annotations

import pickle
import subprocess
import sys
import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from stable_baselines3.common.env_checker import check_env as sb3_check_env

from razz_env.engine import ConfigError, Table
from razz_env.envs.registration import GYMNASIUM_IDS, register_envs
from razz_env.envs.single_agent import SingleAgentEnv

IDS = sorted(GYMNASIUM_IDS.items())


def run(code: str) -> list[str]:
    """``code`` in a fresh interpreter (so nothing is imported yet); its printed lines."""
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    return result.stdout.split()


@pytest.mark.parametrize(("variant", "env_id"), IDS)
def test_make_builds_the_single_agent_view_of_each_variant(variant: str, env_id: str) -> None:
    env = gymnasium.make(env_id)
    assert isinstance(env.unwrapped, SingleAgentEnv) and env.unwrapped.config.variant.name == variant
    obs, info = env.reset(seed=0)
    assert obs in env.observation_space and info["action_mask"].any()
    assert np.array_equal(info["action_mask"], env.unwrapped.action_masks())
    assert gymnasium.spec(env_id).kwargs == {"variant": variant}


def test_an_id_plays_only_its_own_variant() -> None:
    """The id names the game: a ``variant`` option naming another is refused, naming the id that plays it."""
    assert gymnasium.make("razz_env/Razz-v0", variant="razz").unwrapped.config.variant.name == "razz"
    with pytest.raises(ConfigError, match=r"variant: razz_env/Razz-v0 plays razz, not 'stud'; "
                                          r"gymnasium.make\('razz_env/Stud-v0'\) plays stud"):
        gymnasium.make("razz_env/Razz-v0", variant="stud")
    with pytest.raises(ConfigError, match=r"variant: razz_env/Stud8-v0 plays stud8, not 'holdem'; the ids: "
                                          r"razz_env/Razz-v0"):
        gymnasium.make("razz_env/Stud8-v0", variant="holdem")


def test_make_passes_every_option_on(calling_station) -> None:
    env = gymnasium.make("razz_env/Stud-v0", num_seats=4, opponents=calling_station, seat=2, encoding="flat",
                         stacks=500, big_bet=20, small_bet=10)
    base = env.unwrapped
    assert base.config.num_seats == 4 and base.seat_option == 2 and base.config.stakes.big_bet_size == 20
    assert base._opponents == [calling_station] * 3
    with pytest.raises(TypeError, match=r"unknown option\(s\) \['starting_stacks'\]"):
        gymnasium.make("razz_env/Razz-v0", starting_stacks=100)
    table = Table("stud", num_seats=3, stacks=[50, 60, 70])
    assert gymnasium.make("razz_env/Stud-v0", table=table).unwrapped.table is table
    with pytest.raises(ConfigError, match=r"table: give the table or its options \(variant\), not both"):
        gymnasium.make("razz_env/Razz-v0", table=table)


@pytest.mark.parametrize(("variant", "env_id"), IDS)
def test_gymnasium_checker_passes_on_what_make_builds(variant: str, env_id: str) -> None:
    """Default options, every check (render modes remade from the spec included)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(gymnasium.make(env_id).unwrapped)


@pytest.mark.parametrize(("variant", "env_id"), IDS[:2])
def test_sb3_checker_passes_on_what_make_builds(variant: str, env_id: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        sb3_check_env(gymnasium.make(env_id, num_seats=3).unwrapped)


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_make_vec_plays_masked_hands_and_autoresets(mode: str) -> None:
    envs = gymnasium.make_vec("razz_env/Razz-v0", num_envs=3, vectorization_mode=mode, num_seats=3)
    try:
        obs, info = envs.reset(seed=0)
        assert obs.shape == (3, *envs.single_observation_space.shape)
        envs.action_space.seed(0)
        finished, total = 0, np.zeros(3)
        for _ in range(40 if mode == "sync" else 12):
            masks = tuple(np.asarray(info["action_mask"], dtype=np.int8))
            actions = envs.action_space.sample(mask=masks)  # a legal id for every decision pending
            obs, reward, terminated, truncated, info = envs.step(actions)
            finished += int(terminated.sum())
            total += reward
        assert finished and not truncated.any() and np.abs(total).sum() > 0
    finally:
        envs.close()


def test_import_gymnasium_then_razz_env_registers_the_ids_without_loading_the_environments() -> None:
    lines = run("import sys, gymnasium, razz_env\n"
                f"print(all(i in gymnasium.registry for i in {list(GYMNASIUM_IDS.values())!r}))\n"
                "print('razz_env.envs.single_agent' in sys.modules, 'pettingzoo' in sys.modules)\n")
    assert lines == ["True", "False", "False"]


def test_import_razz_env_first_then_name_the_registering_module_in_the_id() -> None:
    lines = run("import razz_env, gymnasium\n"
                "print('razz_env/Razz-v0' in gymnasium.registry)\n"
                "env = gymnasium.make('razz_env.envs.registration:razz_env/Stud8-v0')\n"
                "print(env.unwrapped.config.variant.name)\n")
    assert lines == ["False", "stud8"]


def test_using_the_environments_registers_the_ids_in_any_import_order() -> None:
    lines = run("import razz_env\n"
                "razz_env.SingleAgentEnv\n"
                "import gymnasium\n"
                "print(gymnasium.make('razz_env/ActionRazz-v0').unwrapped.config.variant.name)\n")
    assert lines == ["action_razz"]


def test_registering_again_changes_nothing_and_warns_nothing() -> None:
    before = {env_id: gymnasium.spec(env_id) for env_id in GYMNASIUM_IDS.values()}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        register_envs()
    assert all(gymnasium.spec(env_id) is spec for env_id, spec in before.items())


def test_a_made_env_pickles_and_continues_exactly() -> None:
    env = gymnasium.make("razz_env/Razz-v0", num_seats=3)
    env.reset(seed=8)
    copy = pickle.loads(pickle.dumps(env))
    runs = []
    for trial in (env, copy):
        seen, terminated = [], False
        while not terminated:
            mask = trial.unwrapped.action_masks()
            obs, reward, terminated, _, _ = trial.step(int(np.flatnonzero(mask)[-1]))
            seen.append((obs.tolist(), reward))
        runs.append(seen)
    assert runs[0] == runs[1]


def test_maskable_ppo_trains_on_what_make_builds() -> None:
    """sb3-contrib reads ``action_masks()`` through Gymnasium's wrappers (``get_wrapper_attr``)."""
    torch = pytest.importorskip("torch")
    sb3_contrib = pytest.importorskip("sb3_contrib")
    torch.set_num_threads(1)
    env = gymnasium.make("razz_env/Razz-v0")
    model = sb3_contrib.MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=64, n_epochs=1, seed=0,
                                    policy_kwargs={"net_arch": [32]}, verbose=0)
    model.learn(total_timesteps=128)
    obs, info = env.reset(seed=1)
    action, _ = model.predict(obs, action_masks=info["action_mask"], deterministic=True)
    assert info["action_mask"][int(action)] == 1


def test_every_variant_has_an_id_minirazz_included() -> None:
    from razz_env.engine.variants import VARIANTS

    assert list(GYMNASIUM_IDS) == list(VARIANTS)
    assert GYMNASIUM_IDS["minirazz"] == "razz_env/MiniRazz-v0"
    assert GYMNASIUM_IDS["minirazz_tiny"] == "razz_env/MiniRazzTiny-v0"
    assert GYMNASIUM_IDS["action_razz"] == "razz_env/ActionRazz-v0"
    env = gymnasium.make("razz_env/MiniRazz-v0")
    stakes = env.unwrapped.config.stakes
    assert (stakes.ante, stakes.bring_in, stakes.small_bet, stakes.big_bet) == (1, 1, 2, 4)
    assert env.unwrapped.config.rules.raise_cap == 2 and env.observation_space.shape == (188,)


CHILD_SCRIPT = '''
import functools
import sys

import gymnasium
from stable_baselines3.common.vec_env import SubprocVecEnv


def main() -> None:
    import razz_env  # inside a function: a forkserver child never imports it
    from razz_env.envs import make_env

    del razz_env
    fns = {"make_env": [functools.partial(make_env, "razz_env/Razz-v0")] * 2,
           "entry point id": [lambda: gymnasium.make("razz_env.envs.registration:razz_env/Razz-v0")] * 2,
           "plain id": [lambda: gymnasium.make("razz_env/Razz-v0")]}
    if sys.argv[1:] == ["plain-first"]:
        fns = {"plain id": fns["plain id"]}
    for name, env_fns in fns.items():
        try:
            venv = SubprocVecEnv(env_fns, start_method="forkserver")
        except Exception as err:  # the child's NamespaceNotFound reaches the parent as a broken pipe
            print(name, "fails", type(err).__name__)
            continue
        observations = venv.reset()
        venv.close()
        print(name, "works", observations.shape[0])


if __name__ == "__main__":
    main()
'''


@pytest.mark.parametrize(("mode", "expected"), [
    ("all", ["make_env works 2", "entry point id works 2", "plain id works 1"]),
    ("plain-first", ["plain id works 1"]),
])
def test_the_plain_id_make_env_and_the_entry_point_id_work_in_forkserver_children(tmp_path, mode, expected) -> None:
    """A forkserver child of a script that imported razz_env only inside a function makes every id form (the plain
    id failed there with NamespaceNotFound)."""
    script = tmp_path / "children.py"
    script.write_text(CHILD_SCRIPT)
    result = subprocess.run([sys.executable, str(script), mode], capture_output=True, text=True, timeout=300,
                            cwd=tmp_path)
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.splitlines() == expected, result.stderr[-2000:]


def test_make_env_pickles_by_reference_and_makes_a_registered_id() -> None:
    from razz_env.envs import make_env

    assert pickle.loads(pickle.dumps(make_env)) is make_env
    env = make_env("razz_env/MiniRazzTiny-v0", num_seats=2)
    assert isinstance(env.unwrapped, SingleAgentEnv) and env.unwrapped.table.variant.name == "minirazz_tiny"


def test_gymnasium_make_takes_opponents_by_name() -> None:
    env = gymnasium.make("razz_env/Razz-v0", opponents="razz_heuristic", seat=0)
    env.reset(seed=0)
    assert [agent.name for agent in env.unwrapped._opponents] == ["razz_heuristic"]
