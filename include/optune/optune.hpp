// optune: tuned GPU operators on OpenCL and CUDA devices. Include this one header.
#pragma once

#include "optune/error.hpp"
#include "optune/runtime.hpp"
#include "optune/types.hpp"
#include "optune/elementwise.hpp"
#include "optune/reduce.hpp"
#include "optune/gemm.hpp"
#include "optune/conv.hpp"
#include "optune/blas.hpp"
#include "optune/interop.hpp"
#include "optune/warm.hpp"
