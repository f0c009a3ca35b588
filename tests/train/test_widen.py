"""Widening a fixed-size network to the padded layout: the same features in the same columns, the same
outputs at the source's table size (razz_env/train/widen.py)."""

from __future__ import annotations

import random
from collections.abc import Iterator

import numpy as np
import pytest
import torch

from razz_env.encoding import make_encoder
from razz_env.engine import HandConfig, HandState
from razz_env.train.widen import NO_SOURCE, widen_matrix, widen_model, widening_columns

PAIRS = [("flat", "razz", 2), ("flat", "stud8", 3), ("ranks", "razz", 2), ("ranks", "razz", 5)]


def decision_points(config: HandConfig, hands: int, seed: int) -> Iterator[tuple[HandState, int]]:
    """The live state at every decision of random hands with the seat to act (encode before the next), and each
    hand's end with a random observer."""
    rng = random.Random(seed)
    for _ in range(hands):
        hand = HandState(config, rng=rng)
        while not hand.is_over:
            yield hand, hand.actor
            hand.act(rng.choice(hand.legal_actions()))
        yield hand, rng.randrange(config.num_seats)


@pytest.mark.parametrize(("name", "variant", "seats"), PAIRS)
def test_every_padded_column_holds_the_value_of_its_source_column(name: str, variant: str, seats: int) -> None:
    """On every decision point of random hands at the source's size, the padded vector at a mapped column equals
    the fixed-size vector at its source column, and the unmapped columns are the padding (zero) or ``seated``."""
    table = HandConfig.create(variant, num_seats=seats)
    source, target = make_encoder(name, table), make_encoder(name + "8", table)
    columns = widening_columns(source, target)
    mapped = columns != NO_SOURCE
    assert sorted(columns[mapped]) == list(range(source.size)), "every source column is read exactly once"
    seated = np.zeros(target.size, dtype=bool)
    seated[target.layout.slices["seated"]] = True
    assert not mapped[seated].any()
    for hand, seat in decision_points(table, hands=15, seed=seats):
        fixed, padded = source.encode(hand, seat), target.encode(hand, seat)
        np.testing.assert_array_equal(padded[mapped], fixed[columns[mapped]])
        assert not padded[~mapped & ~seated].any()


def test_seats_beyond_the_source_table_read_nothing() -> None:
    table = HandConfig.create("razz", num_seats=2)
    target = make_encoder("flat8", table)
    columns = widening_columns(make_encoder("flat", table), target)
    for name in ("up_cards", "stacks", "live", "to_act", "bring_in"):
        by_seat = columns[target.layout.slices[name]].reshape(8, -1)
        assert (by_seat[:2] != NO_SOURCE).all() and (by_seat[2:] == NO_SOURCE).all(), name
    history = target.layout.view(columns, "history")
    assert (history[:, 6:] == NO_SOURCE).all(), "heads-up keeps 6 slots a street; the other 10 read nothing"
    assert (history[:, :6, 2:8] == NO_SOURCE).all() and (history[:, :6, 8:] != NO_SOURCE).all()


@pytest.mark.parametrize(("source", "target", "message"), [
    ("flat", "ranks8", "from 'flat' to 'ranks8'"),
    ("flat8", "flat8", "from 'flat8' to 'flat8'"),
    ("flat", "flat", "from 'flat' to 'flat'"),
])
def test_only_a_fixed_size_encoding_widens_to_its_padded_twin(source: str, target: str, message: str) -> None:
    table = HandConfig.create("razz", num_seats=2)
    with pytest.raises(ValueError, match=message):
        widening_columns(make_encoder(source, table), make_encoder(target, table))


def test_widening_keeps_the_variant() -> None:
    with pytest.raises(ValueError, match="widening keeps the variant: razz is not stud"):
        widening_columns(make_encoder("flat", HandConfig.create("razz", num_seats=2)),
                         make_encoder("flat8", HandConfig.create("stud", num_seats=2)))


def test_widen_matrix_copies_mapped_columns_and_zeros_the_rest() -> None:
    weights = np.arange(6, dtype=np.float32).reshape(2, 3)
    widened = widen_matrix(weights, np.array([2, NO_SOURCE, 0, 1, NO_SOURCE]))
    np.testing.assert_array_equal(widened, [[2, 0, 0, 1, 0], [5, 0, 3, 4, 0]])


@pytest.fixture(scope="module")
def trained_pair():
    """A small MaskablePPO on heads-up ``flat`` razz with one optimizer step taken (so Adam has moments), and
    the encoders of the two layouts."""
    from sb3_contrib import MaskablePPO

    from razz_env.envs.single_agent import SingleAgentEnv

    torch.manual_seed(0)
    table = HandConfig.create("razz", num_seats=2, stacks=1000)
    model = MaskablePPO("MlpPolicy", SingleAgentEnv(stacks=1000), policy_kwargs={"net_arch": [16]},
                        device="cpu", seed=0)
    source, target = make_encoder("flat", table), make_encoder("flat8", table)
    pairs = [(source.encode(hand, seat), target.encode(hand, seat)) for hand, seat in decision_points(table, 8, 3)]
    observations = torch.as_tensor(np.stack([fixed for fixed, _ in pairs]))
    logits = model.policy.get_distribution(observations).distribution.logits
    model.policy.optimizer.zero_grad()
    (model.policy.predict_values(observations).pow(2).mean() + logits.pow(2).mean()).backward()
    model.policy.optimizer.step()
    return model, source, target, pairs


def test_the_widened_model_computes_the_same_logits_and_values_at_the_source_size(trained_pair) -> None:
    model, source, target, pairs = trained_pair
    widened = widen_model(model, widening_columns(source, target), target.observation_space)
    assert widened.observation_space == target.observation_space and widened.action_space == model.action_space
    fixed = torch.as_tensor(np.stack([fixed for fixed, _ in pairs]))
    padded = torch.as_tensor(np.stack([padded for _, padded in pairs]))
    with torch.no_grad():
        for network in (model, widened):
            network.policy.set_training_mode(False)
        torch.testing.assert_close(widened.policy.get_distribution(padded).distribution.logits,
                                   model.policy.get_distribution(fixed).distribution.logits, rtol=0, atol=1e-5)
        torch.testing.assert_close(widened.policy.predict_values(padded), model.policy.predict_values(fixed),
                                   rtol=0, atol=1e-5)


def test_the_adam_moments_are_widened_with_the_weights(trained_pair) -> None:
    model, source, target, _ = trained_pair
    columns = widening_columns(source, target)
    widened = widen_model(model, columns, target.observation_space)
    theirs, ours = model.policy.optimizer.state_dict(), widened.policy.optimizer.state_dict()
    assert ours["param_groups"] == theirs["param_groups"]
    wide = 0
    for key, state in theirs["state"].items():
        assert float(ours["state"][key]["step"]) == float(state["step"]) > 0
        for moment in ("exp_avg", "exp_avg_sq"):
            old, new = state[moment], ours["state"][key][moment]
            if old.dim() == 2 and old.shape[1] == source.size:
                wide += 1
                np.testing.assert_array_equal(new.numpy(), widen_matrix(old.numpy(), columns))
            else:
                assert torch.equal(new, old)
    assert wide == 4, "the first layer of the policy and of the value network, two moments each"
