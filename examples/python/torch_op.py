#!/usr/bin/env python3
"""optune kernels as PyTorch custom operators (torch.library), in a small model.

gelu, layer_norm and a fused linear layer (GEMM + bias + activation in one
kernel) run through optune on torch's own tensors, shared with no copy by
DLPack: CUDA tensors on the CUDA back end, CPU tensors in place on PoCL.
Runs only where PyTorch is installed (exits 0 saying so otherwise).

    PYTHONPATH=build/release/python python3 examples/python/torch_op.py
"""
import sys

try:
    import torch
except ImportError:
    print("torch_op.py: PyTorch is not installed; nothing to run")
    sys.exit(0)

import optune

if not hasattr(torch.library, "custom_op"):
    print(f"torch_op.py: torch {torch.__version__} has no torch.library.custom_op (2.4+); nothing to run")
    sys.exit(0)


def optune_device(t):
    """The optune device that runs on t's memory."""
    if t.is_cuda:
        return optune.Device(f"cuda:{t.device.index or 0}")
    dev = optune.default_device()
    if not (dev.backend == "opencl" and dev.unified_memory):
        raise RuntimeError(f"CPU tensors need a device that shares host memory, not {dev.spec}")
    return dev


def shared(t, dev):
    # detach: torch refuses to export tensors that require grad (the weights);
    # the detached tensor shares their storage, so nothing is copied.
    return optune.from_dlpack(t.detach().contiguous(), device=dev, copy=False)


def after_optune(dev, t):
    """torch's stream (where t is next used) waits for optune's work."""
    if t.is_cuda:
        dev.join(torch.cuda.current_stream(t.device).cuda_stream)


@torch.library.custom_op("optune::gelu", mutates_args=())
def gelu(x: torch.Tensor) -> torch.Tensor:
    dev = optune_device(x)
    y = torch.empty_like(x)
    optune.gelu(shared(x, dev), out=shared(y, dev))
    after_optune(dev, y)
    return y


@gelu.register_fake
def _(x):
    return torch.empty_like(x)


@torch.library.custom_op("optune::layer_norm", mutates_args=())
def layer_norm(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor, eps: float) -> torch.Tensor:
    dev = optune_device(x)
    y = torch.empty_like(x)
    optune.layer_norm(shared(x, dev), shared(weight, dev), shared(bias, dev), eps, out=shared(y, dev))
    after_optune(dev, y)
    return y


@layer_norm.register_fake
def _(x, weight, bias, eps):
    return torch.empty_like(x)


@torch.library.custom_op("optune::linear_relu", mutates_args=())
def linear_relu(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    """relu(x weight^T + bias): torch.nn.Linear's layout, one GEMM with its epilogue."""
    dev = optune_device(x)
    y = x.new_empty((x.shape[0], weight.shape[0]))
    optune.gemm(shared(x, dev), shared(weight, dev), trans_b=True, bias=shared(bias, dev), activation="relu",
                out=shared(y, dev))
    after_optune(dev, y)
    return y


@linear_relu.register_fake
def _(x, weight, bias):
    return x.new_empty((x.shape[0], weight.shape[0]))


class Block(torch.nn.Module):
    def __init__(self, width, use_optune):
        super().__init__()
        self.norm = torch.nn.LayerNorm(width)
        self.up = torch.nn.Linear(width, 4 * width)
        self.down = torch.nn.Linear(4 * width, width)
        self.use_optune = use_optune

    def forward(self, x):
        if self.use_optune:
            h = layer_norm(x, self.norm.weight, self.norm.bias, self.norm.eps)
            h = linear_relu(h, self.up.weight, self.up.bias)
            return x + gelu(self.down(h))
        h = self.norm(x)
        h = torch.relu(self.up(h))
        return x + torch.nn.functional.gelu(self.down(h))


def main():
    device = "cuda" if torch.cuda.is_available() else "cpu"
    torch.manual_seed(0)
    with torch.no_grad():
        ref = Block(256, use_optune=False).to(device)
        opt = Block(256, use_optune=True).to(device)
        opt.load_state_dict(ref.state_dict())
        x = torch.randn(64, 256, device=device)
        want, got = ref(x), opt(x)
    err = ((got - want).abs().max() / want.abs().max()).item()
    print(f"torch {torch.__version__} on {device}: optune block vs torch block, max relative difference {err:.2e}")
    if err > 1e-4:
        raise SystemExit("optune's block differs from torch's")


if __name__ == "__main__":
    main()
