import numpy as np
import pytest

import optune


def test_devices(dev):
    ds = optune.devices()
    assert ds and dev in ds
    assert dev.spec and dev.name and dev.backend in ("opencl", "cuda")
    assert optune.Device(dev.spec) == dev
    assert dev.spec in repr(dev)


@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.float64, np.int32, np.int8, np.uint8])
def test_round_trip(dev, rng, dtype):
    if dtype == np.float64 and not dev.fp64:
        pytest.skip("no fp64")
    a = (rng.standard_normal((3, 5, 7)) * 50).astype(dtype)
    t = optune.asarray(a)
    assert t.shape == (3, 5, 7) and t.strides == (35, 7, 1) and t.dtype == np.dtype(dtype)
    assert t.device == dev and t.ndim == 3 and t.size == 105 and len(t) == 3
    b = t.numpy()
    assert b.dtype == a.dtype
    np.testing.assert_array_equal(b, a)
    np.testing.assert_array_equal(np.asarray(t), a)


def test_creation(dev):
    z = optune.zeros((2, 3), dtype="float32")
    np.testing.assert_array_equal(z.numpy(), np.zeros((2, 3), np.float32))
    f = optune.full(4, 2.5, dtype=np.float16, device=dev)
    np.testing.assert_array_equal(f.numpy(), np.full(4, 2.5, np.float16))
    i = optune.full((2, 2), -3, dtype="i32", device=dev.spec)
    np.testing.assert_array_equal(i.numpy(), np.full((2, 2), -3, np.int32))
    e = optune.empty((0, 4))
    assert e.numpy().shape == (0, 4)
    s = optune.asarray(np.float32(3.0))
    assert s.shape == () and s.numpy() == np.float32(3.0)


def test_views(rng):
    a = rng.standard_normal((4, 6)).astype(np.float32)
    t = optune.asarray(a)
    np.testing.assert_array_equal(t.T.numpy(), a.T)
    assert t.T.strides == (1, 6) and not t.T.is_contiguous()
    np.testing.assert_array_equal(t.T.reshape((-1,)).numpy(), a.T.reshape(-1))
    np.testing.assert_array_equal(t.reshape((2, 12)).numpy(), a.reshape(2, 12))
    np.testing.assert_array_equal(optune.asarray(t, dtype=np.float64).numpy(), a.astype(np.float64))


def test_indexing_views(rng):
    a = rng.standard_normal((4, 6, 5)).astype(np.float32)
    t = optune.asarray(a)
    for key in (1, -1, (2, 3), (slice(1, 3),), (slice(None), slice(1, 6, 2)), (Ellipsis, 2), (1, Ellipsis, slice(0, 4, 3)),
                (slice(3, 1),)):
        np.testing.assert_array_equal(t[key].numpy(), a[key], err_msg=str(key))
    # A view writes into its base.
    optune.mul(t[1:3, ::2], 0.0, out=t[1:3, ::2])
    a[1:3, ::2] = 0
    np.testing.assert_array_equal(t.numpy(), a)
    with pytest.raises(ValueError, match="out of range"):
        t[4]
    with pytest.raises(ValueError, match="positive"):
        t[::-1]
    with pytest.raises(ValueError, match="4 indices"):
        t[0, 0, 0, 0]


def test_creation_errors():
    with pytest.raises(TypeError, match="int64"):
        optune.asarray(np.zeros(3, np.int64))
    with pytest.raises(ValueError, match="no-such-device"):
        optune.zeros(3, device="no-such-device")
    with pytest.raises(TypeError, match="device"):
        optune.zeros(3, device=1.5)
    with pytest.raises(ValueError, match="negative"):
        optune.zeros((2, -1))
    with pytest.raises(ValueError, match="reshape"):
        optune.zeros(6).reshape((4, 2))
    with pytest.raises(ValueError, match="rank"):
        optune.zeros((2, 2)).transpose(0, 2)
