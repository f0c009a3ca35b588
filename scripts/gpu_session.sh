#!/usr/bin/env bash
# A GPU session in one command (issue 40; docs/batch.md, "On a GPU"). Run it on the device machine from the
# repository root, OUT set to the folder whose files come back (at most 8 files):
#
#     bash scripts/gpu_session.sh [TRAIN_MINUTES]     (carry .whl, made here by scripts/gpu_wheels.sh)
#
# In order, each writing into OUT as it goes, so that a run cut short still returns what it did:
#   equality.log    the CUDA engine on the real GPU held to the scalar and CPU engines: the device cases of
#                   tests/batch/test_cuda_engine.py (every differential case, every ruling, random games, refusals)
#   bench_gpu.*     benchmarks/bench_gpu.py: the engine, the policy network and the batched PPO on the GPU
#   flagship-*      the flagship's PPO method (studies/razz_flagship.py, training seed 1, stage 1, from scratch: no
#                   stage is restored from releases/) on CudaEngine for TRAIN_MINUTES (default 4; 0 skips it),
#                   checkpointed every minute; its log, state, curve and checkpoint
set -uo pipefail
: "${OUT:?set OUT to the folder whose files come back}"
export PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}" PYTHONUNBUFFERED=1
python=${PYTHON:-python3}  # the device machine's python3 holds torch and numba
minutes=${1:-4}
run=$(mktemp -d)
if compgen -G ".whl/*.whl" > /dev/null; then  # carried wheels (scripts/gpu_wheels.sh) replace the image's versions
    "$python" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir .whl/*.whl > "$OUT/wheels.log" 2>&1
fi

{ nvidia-smi -L; timeout 240 "$python" -m pytest -q -p no:cacheprovider -o addopts="" -rs -m gpu tests/batch/test_cuda_engine.py; } \
    > "$OUT/equality.log" 2>&1
timeout 240 "$python" benchmarks/bench_gpu.py --output "$OUT/bench_gpu.json" > "$OUT/bench_gpu.log" 2>&1
[ "$minutes" -gt 0 ] || { tail -n 3 "$OUT/equality.log" "$OUT/bench_gpu.log"; exit 0; }
timeout $((minutes * 60)) "$python" studies/razz_flagship.py --device cuda --seed 1 --stage 1 --checkpoint-every 1 \
    --release "$run/no-release" --output "$run/out" > "$OUT/flagship.log" 2>&1
for name in state.json curve.csv checkpoint.pt; do
    cp "$run/out/seed1/stage1/$name" "$OUT/flagship-$name" 2>/dev/null || echo "no $name" >> "$OUT/flagship.log"
done
tail -n 3 "$OUT/equality.log" "$OUT/bench_gpu.log" "$OUT/flagship.log"
