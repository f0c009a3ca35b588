#!/usr/bin/env bash
# The wheels a GPU session carries to the device machine (docs/batch.md, "A GPU session"), downloaded into .whl/
# here: that machine reaches no package index, and its image's numba-cuda cannot compile a kernel under its own
# numpy 2.5 (np.row_stack is gone), so numpy comes in the version the tests run with, beside the benchmark's peers
# (pure Python). scripts/gpu_session.sh installs whatever .whl/ holds before anything else.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m pip download --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
    --platform manylinux_2_28_x86_64 --platform manylinux_2_27_x86_64 --platform manylinux_2_17_x86_64 \
    --platform manylinux2014_x86_64 -d .whl \
    numpy==2.4.6 gymnasium==1.4.0 farama-notifications==0.0.6 stable-baselines3==2.9.2 sb3-contrib==2.9.2 \
    pgx==2.6.0 svgwrite==1.4.3
