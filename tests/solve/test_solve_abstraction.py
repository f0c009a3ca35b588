"""Information-set keys from what a seat sees: the exact key separates any two different vectors or masks, and the
encoding each table's keys read is the rank game's for lowball variants."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from razz_env.engine.config import HandConfig
from razz_env.solve.abstraction import abstraction_encoder, encoding_name, infoset_keys


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from([0.0, 0.5, 1.0, 2.0, -1.0]), min_size=12, max_size=12),
       st.integers(0, 11), st.sampled_from([0.5, 1.0, 3.0]), st.integers(0, 4))
def test_the_exact_key_changes_with_any_entry_or_legal_id(values, where, new, legal):
    vector = np.array([values], dtype=np.float32)
    mask = np.array([[0, 1, 1, 0, 0]], dtype=np.int8)
    key = infoset_keys("exact", vector, mask)[0]
    changed = vector.copy()
    changed[0, where] = new if new != vector[0, where] else new + 1.0
    other_mask = mask.copy()
    other_mask[0, legal] ^= 1
    assert infoset_keys("exact", changed, mask)[0] != key
    assert infoset_keys("exact", vector, other_mask)[0] != key
    assert infoset_keys("exact", vector.copy(), mask.copy())[0] == key


@pytest.mark.parametrize(("variant", "encoding"), [("razz", "ranks"), ("minirazz", "ranks"), ("action_razz", "ranks"),
                                                     ("stud", "flat"), ("stud8", "flat")])
def test_lowball_games_are_keyed_on_ranks_others_on_cards(variant, encoding):
    config = HandConfig.create(variant)
    assert encoding_name(config) == encoding
    assert abstraction_encoder(config).name == encoding


def test_bad_input_is_refused_by_name():
    with pytest.raises(ValueError, match="unknown abstraction 'coarse'; known: exact"):
        infoset_keys("coarse", np.zeros((1, 3), dtype=np.float32), np.ones((1, 5), dtype=np.int8))
    with pytest.raises(ValueError, match=r"expected \(N, size\) vectors and \(N, 5\) masks"):
        infoset_keys("exact", np.zeros((2, 3), dtype=np.float32), np.ones((1, 5), dtype=np.int8))
