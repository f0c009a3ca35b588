"""Packaging: the license is an SPDX expression with its file, and building the package warns about nothing."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

tomllib = pytest.importorskip("tomllib", reason="reading pyproject.toml needs Python 3.11's tomllib")
ROOT = Path(__file__).resolve().parent.parent
BUILD = """
import sys, warnings
from setuptools import build_meta
warnings.simplefilter("always")
build_meta.build_editable(sys.argv[1]) if sys.argv[2] == "editable" else build_meta.build_wheel(sys.argv[1])
"""


def test_license_is_an_spdx_expression_with_its_file():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["project"]["license"] == "MIT"
    assert [(ROOT / name).is_file() for name in project["project"]["license-files"]] == [True]
    assert "MIT License" in (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert "setuptools>=77" in project["build-system"]["requires"]  # the first to read license expressions


@pytest.mark.parametrize("kind", ["editable", "wheel"])
def test_building_the_package_prints_no_warning(tmp_path, kind):
    pytest.importorskip("setuptools", minversion="77", reason="building needs setuptools 77 or later")
    source = tmp_path / "src"
    source.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy(ROOT / name, source / name)
    shutil.copytree(ROOT / "razz_env", source / "razz_env", ignore=shutil.ignore_patterns("__pycache__", "*.zip"))
    result = subprocess.run([sys.executable, "-c", BUILD, str(tmp_path), kind], cwd=source, capture_output=True,
                            text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]
    assert "Warning" not in result.stderr and "deprecated" not in result.stderr, result.stderr[-3000:]
    wheel = list(tmp_path.glob("razz_env-*.whl"))
    assert wheel
    if kind == "wheel":  # the wheel installs one top-level package, razz_env, with the zoo's files inside it
        names = zipfile.ZipFile(wheel[0]).namelist()
        assert {name.split("/")[0] for name in names if not name.split("/")[0].endswith(".dist-info")} == {"razz_env"}
        assert "razz_env/agents/zoo/manifest.json" in names


def test_every_shipped_zoo_file_is_package_data():
    from fnmatch import fnmatch

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = project["tool"]["setuptools"]["package-data"]["razz_env.agents"]
    zoo = ROOT / "razz_env" / "agents" / "zoo"
    shipped = [path.relative_to(zoo.parent).as_posix() for path in zoo.iterdir()]
    assert shipped and [name for name in shipped if not any(fnmatch(name, p) for p in patterns)] == []
