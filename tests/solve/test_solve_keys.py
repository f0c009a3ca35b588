"""Information-set keys in batch: :func:`view_keys` gives each row of many seat views the key :func:`view_key`
gives its view."""

import numpy as np
import pytest

from razz_env.engine.config import HandConfig
from razz_env.engine.seat_views import SeatViews
from razz_env.engine.state import HandState
from razz_env.engine.variants import VARIANTS
from razz_env.solve.cards import card_model
from razz_env.solve.keys import view_key, view_keys


@pytest.mark.parametrize("suited", [False, True], ids=["ranks", "cards"])
@pytest.mark.parametrize("variant", ["minirazz_tiny", "minirazz", "minirazz_large"])
def test_each_row_has_the_key_of_its_view(variant, suited, random_decisions):
    model = card_model(VARIANTS[variant], suited)
    views = [o.view for o in random_decisions(HandConfig.create(variant), 150, 7)]
    expected = [view_key(model, view) for view in views]
    rows = SeatViews.from_views(views)
    assert view_keys(model, rows) == expected
    assert view_keys(model, rows) == expected  # the boards' text now comes from the cache
    assert view_keys(model, rows.take(range(len(views) - 1, -1, -1))) == expected[::-1]
    assert len(set(expected)) > len(expected) // 3
    assert suited or any(" low " in key for key in expected)


def test_views_of_another_game_are_refused_and_no_views_have_no_keys(random_decisions):
    model = card_model(VARIANTS["minirazz"], False)
    views = SeatViews.from_views([o.view for o in random_decisions(HandConfig.create("minirazz"), 3, 1)])
    assert view_keys(model, views.take(np.arange(0))) == []
    razz = SeatViews.from_views([HandState(HandConfig.create("razz"), seed=1).view(0)])
    with pytest.raises(ValueError, match="keys of minirazz heads-up: got views of razz with 2 seats"):
        view_keys(model, razz)
