# The pytest suite of the Python module (CTest: python.pytest, and
# python.pytest.cuda on the GPU machine). Runs on optune's default device
# (OPTUNE_DEVICE chooses), with the module from the build tree on PYTHONPATH.
import numpy as np
import pytest

import optune


@pytest.fixture(scope="session")
def dev():
    return optune.default_device()


@pytest.fixture
def rng():
    # Fresh random data every run (the seed is printed on failure).
    seed = np.random.SeedSequence().entropy % (2**32)
    print(f"numpy seed {seed}")
    return np.random.default_rng(seed)


@pytest.fixture(scope="session")
def ftype(dev):
    """float64 where the device has it (references are float64), else float32."""
    return np.float64 if dev.fp64 else np.float32


def tol(dtype):
    # Relative to the result; the absolute floor covers results that round to
    # near zero from larger intermediates (sin, differences), a few ulps of 1.
    return dict(rtol=1e-12, atol=1e-14) if dtype == np.float64 else dict(rtol=2e-6, atol=1e-6)
