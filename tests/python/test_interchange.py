# Zero-copy interchange: DLPack with numpy and with a Python object that
# implements the protocol, reference counting, the OpenCL handles, and
# (on the CUDA back end, where torch or CuPy are installed) their tensors.
import gc
import weakref

import numpy as np
import pytest

import optune


def host_shared(dev):
    return dev.backend == "opencl" and dev.unified_memory


class Producer:
    """A DLPack producer of our own: shares a numpy array's memory."""

    def __init__(self, array):
        self.array = array
        self.calls = []

    def __dlpack__(self, stream=None):
        self.calls.append(stream)
        return self.array.__dlpack__()

    def __dlpack_device__(self):
        return self.array.__dlpack_device__()


def test_to_numpy_dlpack(dev, rng):
    if not host_shared(dev):
        pytest.skip("host DLPack export needs a device that shares host memory (PoCL)")
    x = rng.standard_normal((5, 6)).astype(np.float32)
    t = optune.asarray(x)
    assert t.__dlpack_device__() == (1, 0)
    a = np.from_dlpack(t)
    np.testing.assert_array_equal(a, x)
    # A strided view keeps its strides.
    np.testing.assert_array_equal(np.from_dlpack(t.T), x.T)
    # The tensor freed while numpy holds its memory: the memory stays valid.
    del t
    gc.collect()
    optune.synchronize()
    np.testing.assert_array_equal(a, x)


def test_from_numpy_in_place(dev, rng):
    if not host_shared(dev):
        pytest.skip("host memory is used in place only on devices that share it")
    x = rng.standard_normal((4, 8)).astype(np.float32)
    t = optune.from_dlpack(x)
    np.testing.assert_array_equal(t.numpy(), x)
    # out= writes into the numpy array itself, and the call has waited.
    optune.mul(t, 2.0, out=t)
    np.testing.assert_array_equal(x, t.numpy())
    before = x.copy()
    optune.neg(t, out=t)
    np.testing.assert_array_equal(x, -before)
    # A strided numpy view is used as is.
    y = np.zeros((6, 10), np.float32)
    v = optune.from_dlpack(y[1:5, ::2])
    assert v.shape == (4, 5) and v.strides == (10, 2)
    optune.add(optune.asarray(np.ones((4, 5), np.float32)), 1.0, out=v)
    expect = np.zeros((6, 10), np.float32)
    expect[1:5, ::2] = 2
    np.testing.assert_array_equal(y, expect)
    # copy=True: optune's own memory; the array is left alone.
    c = optune.from_dlpack(y, copy=True)
    optune.mul(c, 0.0, out=c)
    np.testing.assert_array_equal(y, expect)


def test_round_trip_and_refcount(dev, rng):
    if not host_shared(dev):
        pytest.skip("needs a device that shares host memory")
    x = rng.standard_normal(300).astype(np.float64 if dev.fp64 else np.float32)
    p = Producer(x)
    t = optune.from_dlpack(p)
    assert p.calls == [None]
    np.testing.assert_array_equal(np.from_dlpack(t), x)
    # The producer's memory stays alive while optune holds it, and is let go after.
    gone = weakref.ref(p)
    del p
    gc.collect()
    np.testing.assert_allclose(optune.exp(t).numpy(), np.exp(x), rtol=1e-12 if dev.fp64 else 2e-6)
    r = weakref.ref(x)
    del x
    gc.collect()
    assert r() is not None  # the capsule's numpy array keeps it
    del t
    gc.collect()
    assert gone() is None
    assert r() is None


def test_dlpack_errors(dev):
    class NotAProducer:
        pass

    with pytest.raises(TypeError, match="__dlpack__"):
        optune.from_dlpack(NotAProducer())
    # Read in place (host-shared devices): the DLPack type is refused; copied
    # through numpy first (CUDA): numpy's int64 is.
    with pytest.raises(TypeError, match="DLPack type|int64"):
        optune.from_dlpack(np.zeros(3, np.int64))
    if host_shared(dev):
        with pytest.raises(ValueError, match="negative strides"):
            optune.from_dlpack(np.arange(6, dtype=np.float32)[::-1])
        with pytest.raises(ValueError, match="stream"):
            optune.zeros(3).__dlpack__(stream=5)


def test_cl_mem(dev, rng):
    if dev.backend != "opencl":
        pytest.skip("OpenCL only")
    x = rng.standard_normal(40).astype(np.float32)
    t = optune.asarray(x)
    assert isinstance(t.cl_mem, int) and t.cl_mem != 0
    assert not hasattr(t, "__cuda_array_interface__")
    assert dev.native_queue != 0 and dev.native_context != 0
    dev.join(dev.native_queue)  # a queue of optune's context (its own)
    with pytest.raises(ValueError, match="null"):
        dev.join(0)
    v = optune.from_cl_buffer(t.cl_mem, (5, 6), np.float32, offset=10, owner=t)
    np.testing.assert_array_equal(v.numpy(), x[10:].reshape(5, 6))
    optune.mul(v, 0.0, out=v)
    expect = x.copy()
    expect[10:] = 0
    np.testing.assert_array_equal(t.numpy(), expect)
    with pytest.raises(ValueError, match="too small|cl_mem"):
        optune.from_cl_buffer(t.cl_mem, (50,), np.float32)


def cuda_dev():
    return next((d for d in optune.devices() if d.backend == "cuda"), None)


@pytest.mark.skipif(cuda_dev() is None, reason="no CUDA device")
def test_cuda_interchange(rng):
    d = cuda_dev()
    x = rng.standard_normal((3, 4)).astype(np.float32)
    t = optune.asarray(x, device=d)
    assert t.__dlpack_device__()[0] == 2
    cai = t.__cuda_array_interface__
    assert cai["shape"] == (3, 4) and cai["typestr"] == "<f4" and cai["data"][0] != 0
    u = optune.from_cuda_array_interface(t)
    np.testing.assert_array_equal(u.numpy(), x)
    w = optune.from_dlpack(t.T)
    np.testing.assert_array_equal(w.numpy(), x.T)
    torch = pytest.importorskip("torch")
    tt = torch.from_dlpack(t)
    np.testing.assert_array_equal(tt.cpu().numpy(), x)
    src = torch.randn(64, 33, device="cuda")
    o = optune.from_dlpack(src)
    np.testing.assert_allclose(optune.softmax(o).numpy(), torch.softmax(src, -1).cpu().numpy(), rtol=1e-5, atol=1e-7)
    optune.mul(o, 2.0, out=o)
    d.synchronize()
    expect = src.cpu().numpy()
    np.testing.assert_array_equal(o.numpy(), expect)
    # torch's tensor dropped while optune holds its memory: still valid.
    del src, tt
    gc.collect()
    torch.cuda.empty_cache()
    np.testing.assert_array_equal(o.numpy(), expect)


@pytest.mark.skipif(cuda_dev() is None, reason="no CUDA device")
def test_cupy_round_trips(rng):
    cp = pytest.importorskip("cupy")
    d = cuda_dev()
    x = rng.standard_normal((37, 65)).astype(np.float32)
    # CuPy -> optune through DLPack: the same memory, no copy.
    c = cp.asarray(x)
    o = optune.from_dlpack(c, device=d, copy=False)
    assert o.__cuda_array_interface__["data"][0] == c.data.ptr
    np.testing.assert_allclose(optune.gelu(o).numpy(), optune.gelu(optune.asarray(x, device=d)).numpy())
    optune.mul(o, 3.0, out=o)
    d.synchronize()
    np.testing.assert_array_equal(cp.asnumpy(c), x * 3.0)  # CuPy sees optune's write
    # optune -> CuPy through DLPack and through __cuda_array_interface__.
    t = optune.asarray(x, device=d)
    via_dlpack = cp.from_dlpack(t)
    via_cai = cp.asarray(t)
    assert via_dlpack.data.ptr == t.__cuda_array_interface__["data"][0] == via_cai.data.ptr
    np.testing.assert_array_equal(cp.asnumpy(via_dlpack), x)
    np.testing.assert_array_equal(cp.asnumpy(via_cai.T), x.T)
    # CuPy -> optune through __cuda_array_interface__, a strided view.
    v = optune.from_cuda_array_interface(c[:, 1::2])
    np.testing.assert_array_equal(v.numpy(), (x * 3.0)[:, 1::2])
    # CuPy's array dropped while optune holds it: still valid.
    expect = x * 3.0
    del c
    gc.collect()
    cp.get_default_memory_pool().free_all_blocks()
    np.testing.assert_array_equal(o.numpy(), expect)
    # optune's tensor dropped while CuPy holds it: still valid.
    del t
    gc.collect()
    np.testing.assert_array_equal(cp.asnumpy(via_dlpack), x)
