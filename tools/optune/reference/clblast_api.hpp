// CLBlast's C API as optune's reference loads it at run time (clblast.cpp
// holds the ReferenceBlas over it, clblast_conv.cpp the convolution): the
// enums and function types of clblast_c.h this tool calls, the table of
// loaded entry points and the loader (the optional entry points may be
// missing).
#pragma once

#include <CL/cl.h>

#include <string>

#include "dynamic_library.hpp"
#include "reference_blas.hpp"

namespace optune::tool::clblast {

// clblast_c.h: the enums are C enums (int), the status a CLBlastStatusCode.
enum : int { kRowMajor = 101, kColMajor = 102, kTransposeNo = 111, kTransposeYes = 112 };
enum : int { kUpper = 121, kLower = 122, kLeft = 141, kRight = 142 };  // CLBlastTriangle, CLBlastSide

template <class S>
using GemmFn = int(int layout, int trans_a, int trans_b, std::size_t m, std::size_t n, std::size_t k, S alpha,
                   cl_mem a, std::size_t a_offset, std::size_t a_ld, cl_mem b, std::size_t b_offset, std::size_t b_ld,
                   S beta, cl_mem c, std::size_t c_offset, std::size_t c_ld, cl_command_queue* queue,
                   cl_event* event);

template <class S>
using StridedBatchedFn = int(int layout, int trans_a, int trans_b, std::size_t m, std::size_t n, std::size_t k,
                             S alpha, cl_mem a, std::size_t a_offset, std::size_t a_ld, std::size_t a_stride, cl_mem b,
                             std::size_t b_offset, std::size_t b_ld, std::size_t b_stride, S beta, cl_mem c,
                             std::size_t c_offset, std::size_t c_ld, std::size_t c_stride, std::size_t batch,
                             cl_command_queue* queue, cl_event* event);

template <class S>
using SymmFn = int(int layout, int side, int triangle, std::size_t m, std::size_t n, S alpha, cl_mem a,
                   std::size_t a_offset, std::size_t a_ld, cl_mem b, std::size_t b_offset, std::size_t b_ld, S beta,
                   cl_mem c, std::size_t c_offset, std::size_t c_ld, cl_command_queue* queue, cl_event* event);

// Level 1 (increments and offsets in elements).
template <class S>
using AxpyFn = int(std::size_t n, S alpha, cl_mem x, std::size_t x_offset, std::size_t x_inc, cl_mem y,
                   std::size_t y_offset, std::size_t y_inc, cl_command_queue* queue, cl_event* event);
using DotFn = int(std::size_t n, cl_mem dot, std::size_t dot_offset, cl_mem x, std::size_t x_offset,
                  std::size_t x_inc, cl_mem y, std::size_t y_offset, std::size_t y_inc, cl_command_queue* queue,
                  cl_event* event);
using Nrm2Fn = int(std::size_t n, cl_mem nrm2, std::size_t nrm2_offset, cl_mem x, std::size_t x_offset,
                   std::size_t x_inc, cl_command_queue* queue, cl_event* event);
// trmv and trsv: (layout, triangle, a_transpose, diagonal, n, a, a_offset,
// a_ld, x, x_offset, x_inc, queue, event).
using TriFn = int(int layout, int triangle, int a_transpose, int diagonal, std::size_t n, cl_mem a,
                  std::size_t a_offset, std::size_t a_ld, cl_mem x, std::size_t x_offset, std::size_t x_inc,
                  cl_command_queue* queue, cl_event* event);

// Level 3 (lower 122, left 141, unit 132).
enum : int { kUnit = 132 };
template <class S>
using SyrkFn = int(int layout, int triangle, int trans, std::size_t n, std::size_t k, S alpha, cl_mem a,
                   std::size_t a_offset, std::size_t a_ld, S beta, cl_mem c, std::size_t c_offset, std::size_t c_ld,
                   cl_command_queue* queue, cl_event* event);
template <class S>
using Syr2kFn = int(int layout, int triangle, int trans, std::size_t n, std::size_t k, S alpha, cl_mem a,
                    std::size_t a_offset, std::size_t a_ld, cl_mem b, std::size_t b_offset, std::size_t b_ld, S beta,
                    cl_mem c, std::size_t c_offset, std::size_t c_ld, cl_command_queue* queue, cl_event* event);
template <class S>
using Tri3Fn = int(int layout, int side, int triangle, int trans, int diagonal, std::size_t m, std::size_t n, S alpha,
                  cl_mem a, std::size_t a_offset, std::size_t a_ld, cl_mem b, std::size_t b_offset, std::size_t b_ld,
                  cl_command_queue* queue, cl_event* event);
// herk and her2k (c32): real alpha (herk) and beta.
using HerkFn = int(int layout, int triangle, int trans, std::size_t n, std::size_t k, float alpha, cl_mem a,
                   std::size_t a_offset, std::size_t a_ld, float beta, cl_mem c, std::size_t c_offset,
                   std::size_t c_ld, cl_command_queue* queue, cl_event* event);
using Her2kFn = int(int layout, int triangle, int trans, std::size_t n, std::size_t k, cl_float2 alpha, cl_mem a,
                    std::size_t a_offset, std::size_t a_ld, cl_mem b, std::size_t b_offset, std::size_t b_ld,
                    float beta, cl_mem c, std::size_t c_offset, std::size_t c_ld, cl_command_queue* queue,
                    cl_event* event);
template <class S>
struct Level3Api {
  SyrkFn<S>* syrk = nullptr;
  Syr2kFn<S>* syr2k = nullptr;
  Tri3Fn<S>* trmm = nullptr;
  Tri3Fn<S>* trsm = nullptr;
  HerkFn* herk = nullptr;  // c32 only
  Her2kFn* her2k = nullptr;
  bool loaded() const { return syrk && syr2k && trmm && trsm; }
};

// Level 2 (kUpper 121 for the triangle).
template <class S>
using GemvFn = int(int layout, int trans, std::size_t m, std::size_t n, S alpha, cl_mem a, std::size_t a_offset,
                   std::size_t a_ld, cl_mem x, std::size_t x_offset, std::size_t x_inc, S beta, cl_mem y,
                   std::size_t y_offset, std::size_t y_inc, cl_command_queue* queue, cl_event* event);
template <class S>
using GerFn = int(int layout, std::size_t m, std::size_t n, S alpha, cl_mem x, std::size_t x_offset,
                  std::size_t x_inc, cl_mem y, std::size_t y_offset, std::size_t y_inc, cl_mem a,
                  std::size_t a_offset, std::size_t a_ld, cl_command_queue* queue, cl_event* event);
template <class S>
using SymvFn = int(int layout, int triangle, std::size_t n, S alpha, cl_mem a, std::size_t a_offset,
                   std::size_t a_ld, cl_mem x, std::size_t x_offset, std::size_t x_inc, S beta, cl_mem y,
                   std::size_t y_offset, std::size_t y_inc, cl_command_queue* queue, cl_event* event);
template <class S>
struct Level2Api {
  GemvFn<S>* gemv = nullptr;
  GerFn<S>* ger = nullptr;    // c32, c64: geru
  SymvFn<S>* symv = nullptr;  // c32, c64: hemv
  bool loaded() const { return gemv && ger && symv; }
};

// im2col and col2im: (kernel_mode, channels, height, width, kernel_h,
// kernel_w, pad_h, pad_w, stride_h, stride_w, dilation_h, dilation_w,
// source, source_offset, destination, destination_offset, queue, event);
// kernel_mode 151 cross-correlation.
enum : int { kCrossCorrelation = 151 };
using PatchesFn = int(int kernel_mode, std::size_t channels, std::size_t height, std::size_t width,
                      std::size_t kernel_h, std::size_t kernel_w, std::size_t pad_h, std::size_t pad_w,
                      std::size_t stride_h, std::size_t stride_w, std::size_t dilation_h, std::size_t dilation_w,
                      cl_mem from, std::size_t from_offset, cl_mem to, std::size_t to_offset, cl_command_queue* queue,
                      cl_event* event);
struct PatchesApi {
  PatchesFn* im2col = nullptr;
  PatchesFn* col2im = nullptr;
};

// Per scalar type: float (S), double (D), cl_half (H).
template <class S>
struct TypedApi {
  GemmFn<S>* gemm = nullptr;
  StridedBatchedFn<S>* strided_batched = nullptr;
};

// Level 1 per type: S, D and C (c32; dot is Cdotc, nrm2 Scnrm2).
template <class S>
struct Level1Api {
  AxpyFn<S>* axpy = nullptr;
  DotFn* dot = nullptr;
  Nrm2Fn* nrm2 = nullptr;
  TriFn* trmv = nullptr;  // optional, as the triangular rows
  TriFn* trsv = nullptr;
};

struct ClblastApi {
  LibraryProbe probe;
  DynamicLibrary lib;  // for clblast_symbol (the convolution adapter's entry points)
  TypedApi<float> s;
  TypedApi<double> d;
  TypedApi<cl_half> h;
  TypedApi<cl_float2> c;
  SymmFn<float>* ssymm = nullptr;
  Level1Api<float> s1;
  Level1Api<double> d1;
  Level1Api<cl_float2> c1;
  Level3Api<float> s3;  // optional: level-3 rows are skipped without them
  Level3Api<double> d3;
  Level3Api<cl_float2> c3;
  // Optional: level 2 is left out of the comparison where one is missing.
  Level2Api<float> s2;
  Level2Api<double> d2;
  Level2Api<cl_float2> c2;
  Level2Api<cl_double2> z2;
  // Optional: the im2col rows go without a reference where one is missing.
  PatchesApi sx, dx, cx;
};

// The entry points, loaded once (probe.loaded false, with the reason, where
// the library or a required symbol is missing).
const ClblastApi& load();
// A CLBlastStatusCode by name.
std::string status_text(int s);

}  // namespace optune::tool::clblast
