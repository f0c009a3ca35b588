"""The model a train config's run starts from, written to a file: its ``init_model``, widened when it says
``widen_from``, in the config's network.

    python experiments/widen_model.py --config configs/train_ppo_razz_multiway3.yaml --out runs/ppo_razz_multiway

``razz train`` builds this same model before its first step (``init_model``, checked by SHA-256; with
``widen_from`` its input layer widened to the padded encoding, :mod:`razz_env.train.widen`). Saved on its
own it is an agent of the config's encoding: ``razz_env/agents/zoo/ppo_razz_pool.zip`` widened to ``flat8`` plays heads-up
exactly as ``ppo_razz_pool`` and sits at every table size. The folder gets ``model.zip`` and ``hashes.json``
(its SHA-256); a folder that already holds a ``model.zip`` is refused.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make this checkout importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from razz_env.engine.errors import ConfigError  # noqa: E402
from razz_env.train.config import TrainConfig  # noqa: E402
from razz_env.train.runfolder import RunFolder  # noqa: E402

MODEL = "model.zip"


@dataclass
class Args:
    """The train config whose starting model is written, and the folder it goes to."""

    config: Path
    out: Path


def main(args: Args) -> str:
    """Write the starting model; its SHA-256 (``ConfigError`` for a config without ``init_model`` or a taken folder)."""
    config = TrainConfig.from_yaml(args.config)
    if config.init_model is None:
        raise ConfigError(f"--config {args.config}: has no init_model; there is no model to start from")
    if (args.out / MODEL).exists():
        raise ConfigError(f"--out {args.out}: already holds a model.zip; give a new folder")
    from razz_env.train.trainer import build_model, build_vec_env, initialise_from

    venv = build_vec_env(config)
    model = build_model(config, venv, None)
    venv.close()
    initialise_from(model, config)
    return RunFolder(args.out).save_model(model, MODEL)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--config", type=Path, required=True, help="a razz train config with init_model")
    parser.add_argument("--out", type=Path, required=True, help="a new folder for model.zip and hashes.json")
    parsed = Args(**vars(parser.parse_args()))
    try:
        print(f"wrote {parsed.out / MODEL} (SHA-256 {main(parsed)})")
    except (ConfigError, OSError) as err:
        print(f"widen_model: {err}", file=sys.stderr)
        sys.exit(2)
