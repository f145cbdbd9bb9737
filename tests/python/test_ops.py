# Every operator against numpy in float64 (float32 where the device lacks
# fp64), on fresh random data, with broadcasting, out= and the errors.
import math

import numpy as np
import pytest

import optune
from conftest import tol

erf = np.vectorize(math.erf)


def relu6(x):
    return np.clip(x, 0, 6)


def softplus(x):
    return np.where(x > 20, x, np.log1p(np.exp(np.minimum(x, 20))))


UNARY = {
    "copy": lambda x: x,
    "neg": lambda x: -x,
    "abs": np.abs,
    "relu": lambda x: np.maximum(x, 0),
    "leaky_relu": lambda x: np.where(x > 0, x, 0.01 * x),
    "relu6": relu6,
    "elu": lambda x: np.where(x > 0, x, np.expm1(x)),
    "selu": lambda x: 1.0507009873554805 * np.where(x > 0, x, 1.6732632423543772 * np.expm1(x)),
    "gelu": lambda x: 0.5 * x * (1 + erf(x / math.sqrt(2))),
    "gelu_tanh": lambda x: 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x**3))),
    "silu": lambda x: x / (1 + np.exp(-x)),
    "mish": lambda x: x * np.tanh(softplus(x)),
    "sigmoid": lambda x: 1 / (1 + np.exp(-x)),
    "hard_sigmoid": lambda x: np.clip((x + 3) / 6, 0, 1),
    "hard_swish": lambda x: x * np.clip((x + 3) / 6, 0, 1),
    "tanh": np.tanh,
    "softplus": softplus,
    "exp": np.exp,
    "log": np.log,
    "sqrt": np.sqrt,
    "rsqrt": lambda x: 1 / np.sqrt(x),
    "reciprocal": lambda x: 1 / x,
    "square": np.square,
    "sin": np.sin,
    "cos": np.cos,
    "floor": np.floor,
    "ceil": np.ceil,
    "round": np.rint,
    "sign": np.sign,
}
POSITIVE = {"log", "sqrt", "rsqrt", "reciprocal"}

BINARY = {
    "add": np.add, "sub": np.subtract, "mul": np.multiply, "div": np.divide, "max": np.maximum,
    "min": np.minimum, "pow": np.power, "atan2": np.arctan2, "prelu": lambda a, b: np.where(a > 0, a, b * a),
    "eq": np.equal, "ne": np.not_equal, "lt": np.less, "le": np.less_equal, "gt": np.greater,
    "ge": np.greater_equal,
}

REDUCE = {
    "sum": np.sum, "mean": np.mean, "max": np.max, "min": np.min, "prod": np.prod,
    "sum_squares": lambda x, axis, keepdims: np.sum(x * x, axis=axis, keepdims=keepdims),
    "l1": lambda x, axis, keepdims: np.sum(np.abs(x), axis=axis, keepdims=keepdims),
    "l2": lambda x, axis, keepdims: np.sqrt(np.sum(x * x, axis=axis, keepdims=keepdims)),
}


def test_every_operator_is_tested():
    assert set(UNARY) | {"clamp"} == set(optune.UNARY_OPS)
    assert set(BINARY) == set(optune.BINARY_OPS)
    assert set(REDUCE) | {"argmax", "argmin", "any", "all"} == set(optune.REDUCE_OPS)


@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary(name, rng, ftype):
    x = rng.standard_normal((37, 3)) * 3
    if name in POSITIVE:
        x = np.abs(x) + 0.1
    if name == "round":
        x[0, :] = [0.5, 1.5, -2.5]  # ties go to even
    x = x.astype(ftype)
    y = getattr(optune, name)(optune.asarray(x)).numpy()
    np.testing.assert_allclose(y, UNARY[name](x.astype(np.float64)), **tol(ftype))


def test_unary_params_and_clamp(rng, ftype):
    x = (rng.standard_normal(101) * 4).astype(ftype)
    t = optune.asarray(x)
    np.testing.assert_allclose(optune.leaky_relu(t, alpha=0.2).numpy(), np.where(x > 0, x, 0.2 * x), **tol(ftype))
    np.testing.assert_allclose(optune.elu(t, alpha=0.5).numpy(), np.where(x > 0, x, 0.5 * np.expm1(x)), **tol(ftype))
    np.testing.assert_array_equal(optune.clamp(t, -1.0, 2.0).numpy(), np.clip(x, -1, 2))
    np.testing.assert_array_equal(optune.unary("clamp", t, alpha=-1.0, beta=2.0).numpy(), np.clip(x, -1, 2))


@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary_broadcast(name, rng, ftype):
    a = rng.standard_normal((3, 1, 5)).astype(ftype)
    b = rng.standard_normal((4, 5)).astype(ftype)
    if name == "pow":
        a = np.abs(a) + 0.5
    if name in ("eq", "ne", "le", "ge"):
        b[0, :] = a[0, 0, :]  # some equal pairs
    fn = getattr(optune, {"max": "maximum", "min": "minimum"}.get(name, name))
    y = fn(optune.asarray(a), optune.asarray(b))
    assert y.shape == (3, 4, 5)
    np.testing.assert_array_equal(optune.binary(name, optune.asarray(a), optune.asarray(b)).numpy(), y.numpy())
    ref = BINARY[name](a.astype(np.float64), b.astype(np.float64))
    if ref.dtype == bool:
        assert y.dtype == np.uint8
        np.testing.assert_array_equal(y.numpy(), ref.astype(np.uint8))
    else:
        np.testing.assert_allclose(y.numpy(), ref, **tol(ftype))


def test_scalars_and_python_operators(rng, ftype):
    a = rng.standard_normal((6, 7)).astype(ftype)
    b = rng.standard_normal(7).astype(ftype)
    ta, tb = optune.asarray(a), optune.asarray(b)
    t = tol(ftype)
    np.testing.assert_allclose((ta + tb).numpy(), a + b, **t)
    np.testing.assert_allclose((ta - 2.0).numpy(), a - 2, **t)
    np.testing.assert_allclose((2.0 - ta).numpy(), 2 - a, **t)
    np.testing.assert_allclose((ta * 3).numpy(), a * 3, **t)
    np.testing.assert_allclose((1.0 / ta).numpy(), 1 / a.astype(np.float64), **t)
    np.testing.assert_allclose((-ta).numpy(), -a, **t)
    np.testing.assert_allclose(abs(ta).numpy(), np.abs(a), **t)
    np.testing.assert_array_equal((ta < tb).numpy(), (a < b).astype(np.uint8))
    np.testing.assert_array_equal((ta >= 0.0).numpy(), (a >= 0).astype(np.uint8))


def test_ternary(rng, ftype):
    a = rng.standard_normal((5, 1)).astype(ftype)
    b = rng.standard_normal((1, 6)).astype(ftype)
    c = rng.standard_normal((5, 6)).astype(ftype)
    ta, tb, tc = optune.asarray(a), optune.asarray(b), optune.asarray(c)
    t = tol(ftype)
    cond = optune.asarray((rng.random((5, 6)) > 0.5).astype(np.uint8))
    np.testing.assert_array_equal(optune.where(cond, tb, tc).numpy(), np.where(cond.numpy() != 0, b, c))
    np.testing.assert_array_equal(optune.where(cond, tb, 0.5).numpy(), np.where(cond.numpy() != 0, b, 0.5))
    np.testing.assert_allclose(optune.fma(ta, tb, tc).numpy(), a * b + c, **t)
    np.testing.assert_allclose(optune.addcmul(tc, ta, tb, alpha=0.25).numpy(), c + 0.25 * a * b, **t)
    lo, hi = np.minimum(b, 0), np.maximum(b, 0) + 0.5
    np.testing.assert_array_equal(optune.clamp(tc, optune.asarray(lo), optune.asarray(hi)).numpy(),
                                  np.minimum(np.maximum(c, lo), hi))


def test_cast(rng):
    x = (rng.standard_normal(50) * 100).astype(np.float32)
    tx = optune.asarray(x)
    np.testing.assert_array_equal(optune.cast(tx, np.int32).numpy(), np.trunc(x).astype(np.int32))
    np.testing.assert_array_equal(tx.astype("float16").numpy(), x.astype(np.float16))


def test_custom_expressions(rng, ftype):
    x = rng.standard_normal(1000).astype(ftype)
    b = rng.standard_normal(1000).astype(ftype)
    tx, tb = optune.asarray(x), optune.asarray(b)
    y = optune.elementwise("y = x > 0 ? x : a * x", [tx], scalars={"a": 0.1})
    np.testing.assert_allclose(y.numpy(), np.where(x > 0, x, 0.1 * x), **tol(ftype))
    s, d = optune.elementwise("real t = p + q; s = t * t; d = p - q", [tx, tb], input_names=["p", "q"],
                              output_names=["s", "d"], outputs=2)
    np.testing.assert_allclose(s.numpy(), (x + b) ** 2, **tol(ftype))
    np.testing.assert_allclose(d.numpy(), x - b, **tol(ftype))
    f = optune.fused(["add", "gelu", ("mul", 2.0)], [tx, tb])
    np.testing.assert_allclose(f.numpy(), 2 * UNARY["gelu"]((x + b).astype(np.float64)), **tol(ftype))


@pytest.mark.parametrize("name", sorted(REDUCE))
def test_reduce(name, rng, ftype):
    x = (rng.standard_normal((5, 33, 4)) + (1.0 if name == "prod" else 0.0)).astype(ftype)
    if name == "prod":
        x = np.clip(x, 0.5, 1.5)
    tx = optune.asarray(x)
    ref = REDUCE[name]
    x64 = x.astype(np.float64)
    t = tol(ftype) if ftype == np.float64 else dict(rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(optune.reduce(name, tx, 1).numpy(), ref(x64, axis=1, keepdims=False), **t)
    np.testing.assert_allclose(getattr(optune, name)(tx, (0, 2), True).numpy(), ref(x64, axis=(0, 2), keepdims=True), **t)
    full = optune.reduce(name, tx)
    assert full.shape == ()
    np.testing.assert_allclose(full.numpy(), ref(x64, axis=None, keepdims=False), **t)


def test_arg_and_logical_reductions(rng, ftype):
    x = rng.standard_normal((7, 9)).astype(ftype)
    tx = optune.asarray(x)
    for name, ref in (("argmax", np.argmax), ("argmin", np.argmin)):
        y = optune.reduce(name, tx, -1)
        assert y.dtype == np.int32
        np.testing.assert_array_equal(y.numpy(), ref(x, axis=-1))
    m = (rng.random((7, 9)) > 0.8).astype(np.uint8)
    tm = optune.asarray(m)
    np.testing.assert_array_equal(optune.any(tm, 1).numpy(), m.any(axis=1).astype(np.uint8))
    np.testing.assert_array_equal(optune.all(tm, 0).numpy(), m.all(axis=0).astype(np.uint8))


def softmax_ref(x, axis):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


@pytest.mark.parametrize("axis", [-1, 0])
def test_softmax(axis, rng, ftype):
    x = (rng.standard_normal((6, 129)) * 4).astype(ftype)
    tx = optune.asarray(x)
    ref = softmax_ref(x.astype(np.float64), axis)
    t = tol(ftype) if ftype == np.float64 else dict(rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(optune.softmax(tx, axis).numpy(), ref, **t)
    np.testing.assert_allclose(optune.log_softmax(tx, axis=axis).numpy(), np.log(ref), **t)


def test_norms(rng, ftype):
    x = (rng.standard_normal((9, 70)) * 3 + 5).astype(ftype)
    g = rng.standard_normal(70).astype(ftype)
    b = rng.standard_normal(70).astype(ftype)
    tx, tg, tb = (optune.asarray(v) for v in (x, g, b))
    x64 = x.astype(np.float64)
    mean = x64.mean(axis=-1, keepdims=True)
    rstd = 1 / np.sqrt(x64.var(axis=-1, keepdims=True) + 1e-5)
    mean_out, rstd_out = optune.empty((9,), dtype=ftype), optune.empty((9,), dtype=ftype)
    y = optune.layer_norm(tx, tg, tb, eps=1e-5, mean_out=mean_out, rstd_out=rstd_out)
    t = dict(rtol=1e-10, atol=1e-12) if ftype == np.float64 else dict(rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(y.numpy(), (x64 - mean) * rstd * g + b, **t)
    np.testing.assert_allclose(mean_out.numpy(), mean[:, 0], **t)
    np.testing.assert_allclose(rstd_out.numpy(), rstd[:, 0], **t)
    np.testing.assert_allclose(optune.layer_norm(tx).numpy(), (x64 - mean) * rstd, **t)
    r = optune.rms_norm(tx, tg, eps=1e-6).numpy()
    np.testing.assert_allclose(r, x64 / np.sqrt((x64 * x64).mean(axis=-1, keepdims=True) + 1e-6) * g, **t)


@pytest.mark.parametrize("ta,tb", [(False, False), (True, False), (False, True), (True, True)])
def test_gemm(ta, tb, rng, ftype):
    m, n, k = 13, 17, 9
    a = rng.standard_normal((k, m) if ta else (m, k)).astype(ftype)
    b = rng.standard_normal((n, k) if tb else (k, n)).astype(ftype)
    c = rng.standard_normal((m, n)).astype(ftype)
    bias = rng.standard_normal(n).astype(ftype)
    oa, ob = (a.T if ta else a), (b.T if tb else b)
    t = tol(ftype) if ftype == np.float64 else dict(rtol=1e-5, atol=1e-5)
    # The flags, and the same through transposed views.
    y = optune.gemm(optune.asarray(a), optune.asarray(b), trans_a=ta, trans_b=tb)
    np.testing.assert_allclose(y.numpy(), oa.astype(np.float64) @ ob, **t)
    va = optune.asarray(a).T if ta else optune.asarray(a)
    vb = optune.asarray(b).T if tb else optune.asarray(b)
    np.testing.assert_allclose((va @ vb).numpy(), oa.astype(np.float64) @ ob, **t)
    out = optune.asarray(c)
    r = optune.gemm(va, vb, out=out, alpha=0.5, beta=-2.0, bias=optune.asarray(bias), activation="relu")
    assert r is out
    np.testing.assert_allclose(out.numpy(), np.maximum(0.5 * (oa.astype(np.float64) @ ob) - 2 * c + bias, 0), **t)


def test_gemm_per_row_bias_and_batches(rng, ftype):
    t = tol(ftype) if ftype == np.float64 else dict(rtol=1e-5, atol=1e-5)
    a = rng.standard_normal((4, 6, 5)).astype(ftype)
    b = rng.standard_normal((4, 5, 3)).astype(ftype)
    w = rng.standard_normal((5, 3)).astype(ftype)
    bias = rng.standard_normal(6).astype(ftype)
    ta, tb, tw = (optune.asarray(v) for v in (a, b, w))
    np.testing.assert_allclose((ta @ tb).numpy(), a.astype(np.float64) @ b, **t)
    np.testing.assert_allclose((ta @ tw).numpy(), a.astype(np.float64) @ w, **t)
    y = optune.gemm(ta, tb, bias=optune.asarray(bias), bias_mode="per_row", activation="leaky_relu",
                    activation_alpha=0.1)
    ref = a.astype(np.float64) @ b + bias[:, None]
    np.testing.assert_allclose(y.numpy(), np.where(ref > 0, ref, 0.1 * ref), **t)


def test_float32_and_float16(rng):
    x = rng.standard_normal((8, 64)).astype(np.float32)
    tx = optune.asarray(x)
    np.testing.assert_allclose(optune.gelu(tx).numpy(), UNARY["gelu"](x.astype(np.float64)), rtol=2e-6, atol=1e-6)
    h = optune.asarray(x.astype(np.float16))
    np.testing.assert_allclose(optune.softmax(h).numpy().astype(np.float64),
                               softmax_ref(x.astype(np.float16).astype(np.float64), -1), rtol=2e-3, atol=1e-4)
    a = optune.asarray(x[:, :16])
    np.testing.assert_allclose((a @ a.T).numpy(), x[:, :16].astype(np.float64) @ x[:, :16].T, rtol=1e-5, atol=1e-5)


def test_out(rng, ftype):
    x = rng.standard_normal((4, 5)).astype(ftype)
    tx = optune.asarray(x)
    out = optune.empty((4, 5), dtype=ftype)
    assert optune.exp(tx, out=out) is out
    np.testing.assert_allclose(out.numpy(), np.exp(x.astype(np.float64)), **tol(ftype))
    # In place, and into a strided view.
    optune.add(out, 1.0, out=out)
    np.testing.assert_allclose(out.numpy(), np.exp(x.astype(np.float64)) + 1, **tol(ftype))
    wide = optune.zeros((5, 4), dtype=ftype)
    optune.neg(tx, out=wide.T)
    np.testing.assert_array_equal(wide.numpy(), -x.T)
    s = optune.zeros((4,), dtype=ftype)
    assert optune.sum(tx, 1, out=s) is s
    np.testing.assert_allclose(s.numpy(), x.astype(np.float64).sum(axis=1), **tol(ftype))


def test_errors(rng):
    a = optune.zeros((3, 4))
    with pytest.raises(ValueError, match="broadcast"):
        optune.add(a, optune.zeros((5,)))
    with pytest.raises(TypeError):
        optune.add(a, optune.zeros((4,), dtype="float16"))
    with pytest.raises(ValueError, match="unknown operator 'nope'"):
        optune.unary("nope", a)
    with pytest.raises(ValueError):
        optune.exp(a, out=optune.zeros((4, 3)))
    with pytest.raises(ValueError, match="axis"):
        optune.softmax(a, 2)
    with pytest.raises(ValueError):
        optune.sum(a, (1, 1))
    with pytest.raises(ValueError, match="op\\(a\\) is 3 x 4"):
        a @ a
    with pytest.raises(ValueError, match="beta"):
        optune.gemm(a, a.T, beta=1.0)
    with pytest.raises(TypeError, match="optune.Tensor"):
        optune.exp(np.zeros(3, np.float32))
    with pytest.raises(TypeError):
        optune.gemm(optune.zeros((2, 2), dtype="int32"), optune.zeros((2, 2), dtype="int32"))
    with pytest.raises(ValueError, match="eps"):
        optune.layer_norm(a, eps=-1.0)
    with pytest.raises(optune.Error) as e:
        optune.elementwise("y = x +* 1", [a])
    assert e.value.status == "build failure"


def test_binding_errors():
    a = optune.zeros((3, 4))
    with pytest.raises(TypeError, match="at least one operand must be a tensor"):
        optune.binary("add", 1.0, 2.0)
    with pytest.raises(ValueError, match="give dtype or out"):
        optune.cast(a)
    with pytest.raises(ValueError, match="at least one input"):
        optune.elementwise("y = 1", [])
    with pytest.raises(ValueError, match="outputs must be at least 1"):
        optune.elementwise("y = x", [a], outputs=0)
    with pytest.raises(ValueError, match="a step is a name"):
        optune.fused([("add",)], [a, a])
    with pytest.raises(ValueError, match="unknown operator 'median'"):
        optune.reduce("median", a)
    with pytest.raises(ValueError, match="2-d or 3-d"):
        optune.gemm(optune.zeros(4), a)
    x = optune.zeros((2, 3, 4)).transpose(0, 2)
    with pytest.raises(ValueError, match="unit stride"):
        optune.gemm(x, optune.zeros((2, 5)))
    with pytest.raises(ValueError, match="do not broadcast"):
        optune.gemm(optune.zeros((2, 3, 4)), optune.zeros((3, 4, 5)))
    with pytest.raises(ValueError, match="out must have shape \\(3, 3\\)"):
        optune.gemm(a, a.T, out=optune.zeros((3, 4)))
    with pytest.raises(ValueError, match="out must be row-major"):
        optune.gemm(a, a.T, out=optune.zeros((3, 3)).T.reshape((3, 3)).T)
    with pytest.raises(ValueError, match="accumulate"):
        optune.gemm(a, a.T, accumulate="f64")
    with pytest.raises(ValueError, match="bias_mode"):
        optune.gemm(a, a.T, bias=optune.zeros(3), bias_mode="diagonal")
    with pytest.raises(ValueError, match="only one extent may be -1"):
        a.reshape((-1, -1))
    with pytest.raises(ValueError, match="not 2-d"):
        optune.zeros(3).T
    with pytest.raises(TypeError, match="0-d"):
        len(optune.zeros(()))
    with pytest.raises(TypeError, match="quad"):
        optune.zeros(3, dtype="quad")
    if a.device.backend == "opencl":  # checked before the handle is looked at
        with pytest.raises(ValueError, match="strides and shape"):
            optune.from_cl_buffer(1, (2, 2), strides=(1,))
        with pytest.raises(ValueError, match="offset must be >= 0"):
            optune.from_cl_buffer(1, (2, 2), offset=-1)


def conv2d_ref(x, w, stride, pads, dilation, groups):
    """Direct convolution in float64: x (N, C, H, W), w (K, C/groups, R, S), pads (top, bottom, left, right)."""
    n, c, h, wd = x.shape
    k, cg, r, s = w.shape
    xp = np.zeros((n, c, h + pads[0] + pads[1], wd + pads[2] + pads[3]))
    xp[:, :, pads[0]:pads[0] + h, pads[2]:pads[2] + wd] = x
    oh = (xp.shape[2] - dilation[0] * (r - 1) - 1) // stride[0] + 1
    ow = (xp.shape[3] - dilation[1] * (s - 1) - 1) // stride[1] + 1
    y = np.zeros((n, k, oh, ow))
    kg = k // groups
    for ko in range(k):
        g = ko // kg
        for i in range(r):
            for j in range(s):
                patch = xp[:, g * cg:(g + 1) * cg, i * dilation[0]:i * dilation[0] + stride[0] * (oh - 1) + 1:stride[0],
                           j * dilation[1]:j * dilation[1] + stride[1] * (ow - 1) + 1:stride[1]]
                y[:, ko] += np.einsum("nchw,c->nhw", patch, w[ko, :, i, j])
    return y


@pytest.mark.parametrize("layout", ["nchw", "nhwc"])
def test_conv2d(rng, layout):
    # float32 tensors (conv2d takes f32, f16, bf16); groups 2, stride 2 along H,
    # dilation along W, asymmetric padding, bias, residual, relu.
    x = rng.standard_normal((2, 4, 7, 9)).astype(np.float32)
    w = rng.standard_normal((6, 2, 3, 2)).astype(np.float32)
    bias = rng.standard_normal(6).astype(np.float32)
    pads = (1, 0, 2, 1)
    ref = conv2d_ref(x.astype(np.float64), w.astype(np.float64), (2, 1), pads, (1, 2), 2)
    res = rng.standard_normal(ref.shape).astype(np.float32)
    to = (lambda a: a.transpose(0, 2, 3, 1).copy()) if layout == "nhwc" else (lambda a: a)
    back = (lambda a: a.transpose(0, 3, 1, 2)) if layout == "nhwc" else (lambda a: a)
    tx, tw = optune.asarray(to(x)), optune.asarray(w)
    y = optune.conv2d(tx, tw, stride=(2, 1), padding=pads, dilation=(1, 2), groups=2, layout=layout)
    np.testing.assert_allclose(back(y.numpy()), ref, rtol=1e-5, atol=1e-5)
    y = optune.conv2d(tx, tw, bias=optune.asarray(bias), residual=optune.asarray(to(res)), stride=(2, 1),
                      padding=pads, dilation=(1, 2), groups=2, layout=layout, activation="relu")
    np.testing.assert_allclose(back(y.numpy()), np.maximum(ref + bias[None, :, None, None] + res, 0), rtol=1e-5,
                               atol=1e-5)
    # The other output layout.
    other = "nchw" if layout == "nhwc" else "nhwc"
    y = optune.conv2d(tx, tw, stride=(2, 1), padding=pads, dilation=(1, 2), groups=2, layout=layout,
                      out_layout=other)
    got = y.numpy().transpose(0, 3, 1, 2) if other == "nhwc" else y.numpy()
    np.testing.assert_allclose(got, ref, rtol=1e-5, atol=1e-5)
    # f32 data: accumulate "f32" changes nothing.
    y = optune.conv2d(tx, tw, stride=(2, 1), padding=pads, dilation=(1, 2), groups=2, layout=layout,
                      accumulate="f32")
    np.testing.assert_allclose(back(y.numpy()), ref, rtol=1e-5, atol=1e-5)


def test_conv2d_errors():
    x = optune.zeros((1, 4, 5, 5), dtype=np.float32)
    with pytest.raises(ValueError, match="not divisible by groups"):
        optune.conv2d(x, optune.zeros((4, 2, 3, 3), dtype=np.float32), groups=3)
    with pytest.raises(ValueError, match="weight has shape"):
        optune.conv2d(x, optune.zeros((4, 3, 3, 3), dtype=np.float32))
    with pytest.raises(ValueError, match="the output would be"):
        optune.conv2d(x, optune.zeros((4, 4, 7, 7), dtype=np.float32))
    with pytest.raises(ValueError, match="padding takes 2 or 4"):
        optune.conv2d(x, optune.zeros((4, 4, 3, 3), dtype=np.float32), padding=(1, 1, 1))
    with pytest.raises(ValueError, match="'nchw' or 'nhwc'"):
        optune.conv2d(x, optune.zeros((4, 4, 3, 3), dtype=np.float32), layout="chwn")
    with pytest.raises(ValueError, match="must be 4-d"):
        optune.conv2d(optune.zeros((4, 5, 5), dtype=np.float32), optune.zeros((4, 4, 3, 3), dtype=np.float32))
    with pytest.raises(ValueError, match="accumulate must be 'default' or 'f32'"):
        optune.conv2d(x, optune.zeros((4, 4, 3, 3), dtype=np.float32), accumulate="f16")
