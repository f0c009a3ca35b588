"""Compile every kernel ``CudaEngine`` launches to PTX for a given GPU, on a machine without one.

NVVM (the ``nvidia-nvvm`` wheel) compiles without a driver; what needs one is only numba asking the current
device for its compute capability, which is stubbed here. The engine is then built and stepped with host arrays
standing in for device arrays, and each launch compiles its kernel, for the argument types the engine really
passes, with ``cuda.compile_ptx`` instead of running it. Prints one JSON line per kernel: its name and PTX size.
Run by ``test_cuda_engine.py`` in a process of its own (it patches numba's CUDA module).
"""

from __future__ import annotations

import json
import sys
from types import SimpleNamespace


def main(variant: str, seats: int, major: int, minor: int) -> None:
    import numba
    import numpy as np
    from numba import cuda
    from numba.cuda import dispatcher

    dispatcher.get_current_device = lambda: SimpleNamespace(compute_capability=(major, minor))
    cuda.is_available = lambda: True
    cuda.to_device = lambda array: np.array(array, order="K")
    cuda.device_array = lambda shape, dtype, order="C": np.zeros(shape, dtype=dtype, order=order)

    from razz_env.batch import cuda_engine
    from razz_env.batch.random_play import policy_state
    from razz_env.encoding import make_encoder
    from razz_env.engine.config import HandConfig

    compiled: dict[str, int] = {}

    def compile_instead(kernel, count):
        def launch(*args):
            name = kernel.py_func.__name__
            if name not in compiled:
                ptx, _ = cuda.compile_ptx(kernel.py_func, tuple(numba.typeof(a) for a in args), cc=(major, minor))
                compiled[name] = len(ptx)
                print(json.dumps({"kernel": name, "ptx_bytes": len(ptx)}), flush=True)
        return launch

    cuda_engine._launch = compile_instead
    cuda_engine._is_device_array = lambda value: isinstance(value, np.ndarray)
    cuda_engine._as_device = lambda value: value
    config = HandConfig.create(variant, num_seats=seats)
    engine = cuda_engine.CudaEngine(config, 4, seed=0, encoder=make_encoder("flat", config))
    engine.step(np.full(4, 2), out=engine.observe(), check=False)
    cuda_engine.random_legal_actions(engine.masks, policy_state(0, rows=4), np.zeros(4, dtype=np.int64))


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]))
