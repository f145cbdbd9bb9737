"""optune: tuned GPU operators on every OpenCL device and on CUDA.

Tensors live on a device (``optune.devices()``, ``optune.default_device()``);
every operator runs on its inputs' device, on that device's in-order queue,
and returns a new tensor or writes into ``out=``.  Host memory is only touched
by ``Tensor.numpy()`` (which waits), by ``asarray`` (which copies) and by
tensors that share host memory (``from_dlpack`` of a numpy array on PoCL),
whose calls wait before returning.

Names and options are the C++ API's (include/optune/*.hpp): ``unary(op, x)``,
``binary(op, a, b)``, ``ternary``, ``cast``, ``elementwise`` (custom OpenCL C
expressions), ``fused``, ``reduce(op, x, axis, keepdims)``, ``softmax``,
``log_softmax``, ``layer_norm``, ``rms_norm``, ``gemm``, ``conv2d``; plus one function per
operator name (``optune.gelu(x)``, ``optune.add(a, b)``, ``optune.sum(x)``; as
in numpy, ``max``/``min`` reduce and ``maximum``/``minimum`` are binary)
and Python's operators on tensors (``a + b``, ``a @ b``, ``-a``, ``a < b``).

Validation errors raise ValueError or TypeError with optune's message; device,
driver and compiler failures raise ``optune.Error`` (``.status`` names it).
"""

from . import _optune
from ._optune import (  # noqa: F401
    Device, Error, Tensor, asarray, binary, cast, conv2d, default_device, devices, elementwise, empty, from_cl_buffer,
    from_cuda_array_interface, from_dlpack, full, fused, gemm, layer_norm, log_softmax, reduce, rms_norm, softmax,
    ternary, unary, zeros, UNARY_OPS, BINARY_OPS, TERNARY_OPS, REDUCE_OPS,
)


def _unary_fn(name):
    def fn(x, *, out=None, alpha=None, beta=None):
        return unary(name, x, out=out, alpha=alpha, beta=beta)
    fn.__name__ = name
    fn.__doc__ = f"y = {name}(x) (optune::Unary); alpha/beta as unary()."
    return fn


def _binary_fn(name):
    def fn(a, b, *, out=None):
        return binary(name, a, b, out=out)
    fn.__name__ = name
    fn.__doc__ = f"y = {name}(a, b) with broadcasting (optune::Binary); a or b may be a number."
    return fn


def _reduce_fn(name):
    def fn(x, axis=None, keepdims=False, *, out=None):
        return reduce(name, x, axis, keepdims, out=out)
    fn.__name__ = name
    fn.__doc__ = f"{name} over axis (None: every axis) (optune::ReduceOp)."
    return fn


for _name in UNARY_OPS:
    if _name != "clamp":
        globals()[_name] = _unary_fn(_name)
# As numpy: max and min are the reductions, maximum and minimum the binary operators.
_BINARY_ALIASES = {"max": "maximum", "min": "minimum"}
for _name in BINARY_OPS:
    globals()[_BINARY_ALIASES.get(_name, _name)] = _binary_fn(_name)
for _name in REDUCE_OPS:
    globals()[_name] = _reduce_fn(_name)


def _as_operand(value, like):
    return value if isinstance(value, Tensor) else full((), value, dtype=like.dtype, device=like.device)


def clamp(x, low=None, high=None, *, out=None):
    """min(max(x, low), high): numbers (optune::Unary::Clamp) or tensors (Ternary::Clamp)."""
    if isinstance(low, Tensor) or isinstance(high, Tensor):
        low = _as_operand(float("-inf") if low is None else low, x)
        high = _as_operand(float("inf") if high is None else high, x)
        return ternary("clamp", x, low, high, out=out)
    return unary("clamp", x, out=out, alpha=low, beta=high)


def where(cond, a, b, *, out=None):
    """a where cond != 0 else b; a and b may be numbers."""
    like = a if isinstance(a, Tensor) else b
    return ternary("where", cond, _as_operand(a, like), _as_operand(b, like), out=out)


def fma(a, b, c, *, out=None):
    """a * b + c with broadcasting."""
    return ternary("fma", a, b, c, out=out)


def addcmul(a, b, c, alpha=1.0, *, out=None):
    """a + alpha * b * c with broadcasting."""
    return ternary("addcmul", a, b, c, out=out, alpha=alpha)


def matmul(a, b, *, out=None):
    """a @ b: 2-d products, or batches of them with 3-d operands (optune::gemm)."""
    return gemm(a, b, out=out)


def synchronize(device=None):
    """Waits for every command on the device (default: the default device)."""
    (device or default_device()).synchronize()


def _binop(name, reflected=False):
    if reflected:
        return lambda self, other: binary(name, other, self)
    return lambda self, other: binary(name, self, other)


Tensor.__add__ = _binop("add")
Tensor.__radd__ = _binop("add", True)
Tensor.__sub__ = _binop("sub")
Tensor.__rsub__ = _binop("sub", True)
Tensor.__mul__ = _binop("mul")
Tensor.__rmul__ = _binop("mul", True)
Tensor.__truediv__ = _binop("div")
Tensor.__rtruediv__ = _binop("div", True)
Tensor.__pow__ = _binop("pow")
Tensor.__rpow__ = _binop("pow", True)
Tensor.__eq__ = _binop("eq")
Tensor.__ne__ = _binop("ne")
Tensor.__lt__ = _binop("lt")
Tensor.__le__ = _binop("le")
Tensor.__gt__ = _binop("gt")
Tensor.__ge__ = _binop("ge")
Tensor.__hash__ = object.__hash__
Tensor.__neg__ = lambda self: unary("neg", self)
Tensor.__abs__ = lambda self: unary("abs", self)
Tensor.__matmul__ = lambda self, other: gemm(self, other)
Tensor.__rmatmul__ = lambda self, other: gemm(other, self)
Tensor.sum = lambda self, axis=None, keepdims=False: reduce("sum", self, axis, keepdims)
Tensor.mean = lambda self, axis=None, keepdims=False: reduce("mean", self, axis, keepdims)
Tensor.max = lambda self, axis=None, keepdims=False: reduce("max", self, axis, keepdims)
Tensor.min = lambda self, axis=None, keepdims=False: reduce("min", self, axis, keepdims)
Tensor.astype = lambda self, dtype: cast(self, dtype)

del _name
