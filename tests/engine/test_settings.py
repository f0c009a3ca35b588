"""``razz_env/engine/settings.py``: reading YAML settings files."""

from __future__ import annotations

import pytest

from razz_env.engine.errors import ConfigError
from razz_env.engine.settings import read_settings_file


@pytest.mark.parametrize("name", ["0\n", "a\tb.yaml", "x\r\ny.yaml", "bell\a.yaml"])
def test_a_path_with_control_characters_is_named_on_one_line(tmp_path, name):
    with pytest.raises(ConfigError) as caught:
        read_settings_file(tmp_path / name, "tournament", "configs/tournament_plain.yaml")
    message = str(caught.value)
    assert "\n" not in message and "\r" not in message and message.endswith(": no such file")


def test_a_file_with_an_unusual_name_is_still_read(tmp_path):
    path = tmp_path / "a\tb.yaml"
    path.write_text("seed: 3\n")
    assert read_settings_file(path, "tournament", "configs/tournament_plain.yaml") == {"seed": 3}


def test_a_plain_path_is_named_as_given(tmp_path):
    with pytest.raises(ConfigError, match=f"^{tmp_path}/missing.yaml: no such file$"):
        read_settings_file(tmp_path / "missing.yaml", "tournament", "configs/tournament_plain.yaml")
