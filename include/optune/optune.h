/* optune C API: devices, buffers and the operators of the C++ API
 * (the headers in include/optune/) for C and any language with a C FFI.
 *
 * Conventions:
 * - Every function returns optune_status (the codes of optune::Status) and
 *   never throws or aborts on bad input: NULL handles or pointers, values out
 *   of an enum's range and every validation error of the C++ API come back as
 *   a status. optune_last_error_message() describes the calling thread's most
 *   recent call ("" after a success).
 * - Handles are opaque. Devices belong to optune and live as long as the
 *   process; contexts, queues, buffers and events are released with their
 *   *_release function (NULL is accepted and ignored). Objects share
 *   ownership underneath: releasing a context while its buffers or queues
 *   live is safe.
 * - Operators and transfers are asynchronous: they take an optional wait list
 *   (events that must complete first; wait_count 0 with wait_list NULL for
 *   none) and, when `event` is not NULL, return an event that completes with
 *   the work. Host memory passed to a read or write must stay valid until
 *   that work completes. An operator with nothing to do returns an event that
 *   is already complete.
 * - Sizes, offsets and counts are in elements of the buffer's data type.
 *
 * This header is C99 and C++; the library itself is C++ (link it with a C++
 * linker, or add the C++ runtime library).
 */
#ifndef OPTUNE_OPTUNE_H
#define OPTUNE_OPTUNE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- status, data types ---- */

typedef enum optune_status {
  OPTUNE_SUCCESS = 0,
  OPTUNE_INVALID_ARGUMENT = 1,    /* a value is out of range, a handle or pointer is NULL */
  OPTUNE_INVALID_SHAPE = 2,       /* shapes, strides or sizes do not fit together */
  OPTUNE_INVALID_TYPE = 3,        /* unsupported or mismatched data type */
  OPTUNE_BUFFER_TOO_SMALL = 4,    /* a buffer cannot hold offset + extent */
  OPTUNE_OVERFLOW = 5,            /* index arithmetic would overflow */
  OPTUNE_DEVICE_NOT_FOUND = 6,    /* OPTUNE_DEVICE or a device spec names nothing */
  OPTUNE_UNSUPPORTED = 7,         /* the device lacks a feature the call needs */
  OPTUNE_BUILD_FAILURE = 8,       /* a kernel did not compile; the message holds the log */
  OPTUNE_OUT_OF_RESOURCES = 9,    /* device or host memory, local memory, work-group limits */
  OPTUNE_DEVICE_ERROR = 10,       /* any other failure reported by the driver */
  OPTUNE_BACKEND_UNAVAILABLE = 11, /* driver or compiler library could not be loaded */
  OPTUNE_IO_ERROR = 12,           /* cache or database file problems */
  OPTUNE_NOT_FOUND = 13,          /* a named entry does not exist */
  OPTUNE_INTERNAL = 14,           /* a bug in optune */
  OPTUNE_STATUS_FORCE_INT = 0x7fffffff
} optune_status;

typedef enum optune_dtype {
  OPTUNE_F32 = 0,
  OPTUNE_F16 = 1, /* IEEE binary16 storage: host data as uint16_t bit patterns */
  OPTUNE_F64 = 2, /* needs a device with fp64 */
  OPTUNE_I32 = 3,
  OPTUNE_I8 = 4,
  OPTUNE_U8 = 5,
  OPTUNE_BF16 = 6, /* bfloat16 storage (f32's upper 16 bits): host data as uint16_t bit patterns */
  OPTUNE_C32 = 7,  /* complex: interleaved (real, imaginary) f32 pairs (C's float _Complex); BLAS only */
  OPTUNE_C64 = 8,  /* complex: interleaved (real, imaginary) f64 pairs (double _Complex); BLAS only, fp64 */
  OPTUNE_DTYPE_FORCE_INT = 0x7fffffff
} optune_dtype;

/* "success", "invalid argument", ...; "unknown status" for other values. */
const char* optune_status_name(optune_status status);
/* The calling thread's most recent call: why it failed, or "" after a success.
 * Valid until the thread's next optune call. Never NULL. */
const char* optune_last_error_message(void);
/* Bytes of one element (0 for a value out of range). */
size_t optune_dtype_size(optune_dtype dtype);
/* OPTUNE_TRACE=FILE: writes the trace file now (it is also written at exit).
 * OPTUNE_UNSUPPORTED when tracing is off, OPTUNE_IO_ERROR when the file
 * cannot be written. */
optune_status optune_flush_trace(void);

/* ---- handles ---- */

typedef struct optune_device_t* optune_device;   /* owned by optune, never released */
typedef struct optune_context_t* optune_context;
typedef struct optune_queue_t* optune_queue;
typedef struct optune_buffer_t* optune_buffer;   /* a typed view: memory, offset, count */
typedef struct optune_event_t* optune_event;

/* ---- devices ---- */

typedef enum optune_backend {
  OPTUNE_BACKEND_OPENCL = 0,
  OPTUNE_BACKEND_CUDA = 1,
  OPTUNE_BACKEND_FORCE_INT = 0x7fffffff
} optune_backend;
typedef enum optune_device_type {
  OPTUNE_DEVICE_CPU = 0,
  OPTUNE_DEVICE_GPU = 1,
  OPTUNE_DEVICE_ACCELERATOR = 2,
  OPTUNE_DEVICE_OTHER = 3,
  OPTUNE_DEVICE_TYPE_FORCE_INT = 0x7fffffff
} optune_device_type;

/* Strings point into the device and live as long as the process. */
typedef struct optune_device_info {
  optune_backend backend;
  optune_device_type type;
  const char* spec;          /* "opencl:P:D" or "cuda:N": optune_device_select takes it */
  const char* name;
  const char* vendor;
  const char* driver_version;
  const char* architecture;  /* "sm_90", "pocl-...": the tuning database's family key */
  uint32_t compute_units;
  uint32_t max_clock_mhz;
  uint64_t global_mem_bytes;
  uint64_t max_alloc_bytes;
  uint64_t local_mem_bytes;  /* per work-group */
  size_t max_work_group_size;
  int fp16;                  /* half arithmetic (f16 storage works everywhere) */
  int fp64;
  int subgroups;
  int images;
  int unified_memory;
} optune_device_info;

/* Every device of every available backend, OpenCL first, in a stable order. */
optune_status optune_device_count(size_t* count);
optune_status optune_device_get(size_t index, optune_device* device);
/* "opencl:P:D", "cuda:N", "gpu" or "cpu"; OPTUNE_DEVICE_NOT_FOUND lists the devices. */
optune_status optune_device_select(const char* spec, optune_device* device);
/* OPTUNE_DEVICE if set, else the first GPU, else the first CPU. */
optune_status optune_device_default(optune_device* device);
optune_status optune_device_get_info(optune_device device, optune_device_info* info);

/* ---- contexts and queues ---- */

optune_status optune_context_create(optune_device device, optune_context* context);
optune_status optune_context_release(optune_context context);

/* An in-order queue with profiling. */
optune_status optune_queue_create(optune_context context, optune_queue* queue);
optune_status optune_queue_finish(optune_queue queue);  /* waits for everything enqueued */
optune_status optune_queue_release(optune_queue queue);

/* ---- buffers ---- */

/* count elements of dtype (count > 0). */
optune_status optune_buffer_alloc(optune_context context, optune_dtype dtype, size_t count, optune_buffer* buffer);
/* A new handle on [offset, offset + count) of `buffer`'s view, sharing its memory. */
optune_status optune_buffer_view(optune_buffer buffer, size_t offset, size_t count, optune_buffer* view);
/* Any of the outputs may be NULL. offset is the view's first element in its allocation. */
optune_status optune_buffer_get_info(optune_buffer buffer, optune_dtype* dtype, size_t* count, size_t* offset);
optune_status optune_buffer_release(optune_buffer buffer);

/* Copy `count` elements (0 < count <= the view's count) between host memory
 * and the start of the view. f16 host data are uint16_t bit patterns. */
optune_status optune_buffer_write(optune_queue queue, optune_buffer dst, const void* src, size_t count,
                                  const optune_event* wait_list, size_t wait_count, optune_event* event);
optune_status optune_buffer_read(optune_queue queue, optune_buffer src, void* dst, size_t count,
                                 const optune_event* wait_list, size_t wait_count, optune_event* event);
/* The whole of src into the start of dst (same dtype, dst at least as large). */
optune_status optune_buffer_copy(optune_queue queue, optune_buffer src, optune_buffer dst,
                                 const optune_event* wait_list, size_t wait_count, optune_event* event);
/* Every element of the view set to value, converted to the dtype (integers:
 * value must be an integer the type holds; f16 rounds to nearest even). */
optune_status optune_buffer_fill(optune_queue queue, optune_buffer dst, double value,
                                 const optune_event* wait_list, size_t wait_count, optune_event* event);

/* ---- events ---- */

optune_status optune_event_wait(optune_event event);
/* *complete = 1 when the work has finished, else 0. */
optune_status optune_event_complete(optune_event event, int* complete);
/* Device time from start to end in seconds (waits first); 0 for an event
 * with no work. */
optune_status optune_event_elapsed(optune_event event, double* seconds);
optune_status optune_event_release(optune_event event);

/* ---- tensors ---- */

/* A strided view of a buffer, of the buffer's data type: element
 * (i0, i1, ...) is at offset + sum(ik * strides[k]) from the start of the
 * buffer's view. strides NULL: contiguous row-major. A stride may be 0
 * (broadcast) or negative (a reversed view: offset names element 0, which
 * then lies after the others). Every element reached must lie before the end
 * of the view and, through negative strides, at or after the start of the
 * allocation. ndim 0 is a scalar; at most 8 dimensions. shape and strides
 * are only read during the call. */
typedef struct optune_tensor {
  optune_buffer buffer;
  size_t offset;
  size_t ndim;
  const int64_t* shape;
  const int64_t* strides;
} optune_tensor;

/* ---- element-wise operators (optune/elementwise.hpp) ---- */

typedef enum optune_unary_op {
  OPTUNE_UNARY_COPY, OPTUNE_UNARY_NEG, OPTUNE_UNARY_ABS, OPTUNE_UNARY_RELU, OPTUNE_UNARY_LEAKY_RELU,
  OPTUNE_UNARY_RELU6, OPTUNE_UNARY_ELU, OPTUNE_UNARY_SELU, OPTUNE_UNARY_GELU, OPTUNE_UNARY_GELU_TANH,
  OPTUNE_UNARY_SILU, OPTUNE_UNARY_MISH, OPTUNE_UNARY_SIGMOID, OPTUNE_UNARY_HARD_SIGMOID, OPTUNE_UNARY_HARD_SWISH,
  OPTUNE_UNARY_TANH, OPTUNE_UNARY_SOFTPLUS, OPTUNE_UNARY_EXP, OPTUNE_UNARY_LOG, OPTUNE_UNARY_SQRT,
  OPTUNE_UNARY_RSQRT, OPTUNE_UNARY_RECIPROCAL, OPTUNE_UNARY_SQUARE, OPTUNE_UNARY_SIN, OPTUNE_UNARY_COS,
  OPTUNE_UNARY_FLOOR, OPTUNE_UNARY_CEIL, OPTUNE_UNARY_ROUND, OPTUNE_UNARY_SIGN, OPTUNE_UNARY_CLAMP,
  OPTUNE_UNARY_FORCE_INT = 0x7fffffff
} optune_unary_op;

typedef enum optune_binary_op {
  OPTUNE_BINARY_ADD, OPTUNE_BINARY_SUB, OPTUNE_BINARY_MUL, OPTUNE_BINARY_DIV, OPTUNE_BINARY_MAX,
  OPTUNE_BINARY_MIN, OPTUNE_BINARY_POW, OPTUNE_BINARY_ATAN2, OPTUNE_BINARY_PRELU, OPTUNE_BINARY_EQ,
  OPTUNE_BINARY_NE, OPTUNE_BINARY_LT, OPTUNE_BINARY_LE, OPTUNE_BINARY_GT, OPTUNE_BINARY_GE,
  OPTUNE_BINARY_FORCE_INT = 0x7fffffff
} optune_binary_op;

/* WHERE: y = a != 0 ? b : c.  FMA: y = a * b + c.  ADDCMUL: y = a + alpha * b * c.
 * CLAMP: y = min(max(a, b), c). */
typedef enum optune_ternary_op {
  OPTUNE_TERNARY_WHERE, OPTUNE_TERNARY_FMA, OPTUNE_TERNARY_ADDCMUL, OPTUNE_TERNARY_CLAMP,
  OPTUNE_TERNARY_FORCE_INT = 0x7fffffff
} optune_ternary_op;

/* alpha: leaky_relu slope (default 0.01), elu alpha (1), clamp low, addcmul
 * alpha (1); beta: clamp high. NAN, or a NULL params pointer, means the
 * operator's default (clamp has none: both are required). */
typedef struct optune_op_params {
  double alpha;
  double beta;
} optune_op_params;

optune_status optune_unary(optune_queue queue, optune_unary_op op, const optune_tensor* x, const optune_tensor* y,
                           const optune_op_params* params, const optune_event* wait_list, size_t wait_count,
                           optune_event* event);
/* NumPy broadcasting between a, b and y. */
optune_status optune_binary(optune_queue queue, optune_binary_op op, const optune_tensor* a, const optune_tensor* b,
                            const optune_tensor* y, const optune_event* wait_list, size_t wait_count,
                            optune_event* event);
/* y = a op s. */
optune_status optune_binary_tensor_scalar(optune_queue queue, optune_binary_op op, const optune_tensor* a, double s,
                                          const optune_tensor* y, const optune_event* wait_list, size_t wait_count,
                                          optune_event* event);
/* y = s op b. */
optune_status optune_binary_scalar_tensor(optune_queue queue, optune_binary_op op, double s, const optune_tensor* b,
                                          const optune_tensor* y, const optune_event* wait_list, size_t wait_count,
                                          optune_event* event);
optune_status optune_ternary(optune_queue queue, optune_ternary_op op, const optune_tensor* a, const optune_tensor* b,
                             const optune_tensor* c, const optune_tensor* y, const optune_op_params* params,
                             const optune_event* wait_list, size_t wait_count, optune_event* event);
/* y = x converted to y's data type. */
optune_status optune_cast(optune_queue queue, const optune_tensor* x, const optune_tensor* y,
                          const optune_event* wait_list, size_t wait_count, optune_event* event);

/* A custom element-wise kernel from OpenCL C statements over `real`, e.g.
 * "y = x > 0 ? x : a * x". inputs (0..4) are named by input_names (NULL: x, b,
 * c, d), outputs (1..2) by output_names (NULL: y, z), scalar_count scalars
 * by scalar_names with scalar_values. A bad expression gives
 * OPTUNE_BUILD_FAILURE with the compiler's message. */
optune_status optune_elementwise(optune_queue queue, const char* code, const optune_tensor* inputs,
                                 size_t input_count, const char* const* input_names, const optune_tensor* outputs,
                                 size_t output_count, const char* const* output_names,
                                 const char* const* scalar_names, const double* scalar_values, size_t scalar_count,
                                 const optune_event* wait_list, size_t wait_count, optune_event* event);

/* ---- reductions and norms (optune/reduce.hpp) ---- */

typedef enum optune_reduce_op {
  OPTUNE_REDUCE_SUM, OPTUNE_REDUCE_MEAN, OPTUNE_REDUCE_MAX, OPTUNE_REDUCE_MIN, OPTUNE_REDUCE_PROD,
  OPTUNE_REDUCE_SUM_SQUARES, OPTUNE_REDUCE_L1, OPTUNE_REDUCE_L2, OPTUNE_REDUCE_ARGMAX, OPTUNE_REDUCE_ARGMIN,
  OPTUNE_REDUCE_ANY, OPTUNE_REDUCE_ALL,
  OPTUNE_REDUCE_FORCE_INT = 0x7fffffff
} optune_reduce_op;

/* axes: axis_count axes, negative from the end; axis_count 0 reduces every
 * axis. keepdims nonzero keeps reduced axes as 1. argmax/argmin write i32,
 * any/all u8, the others x's type. */
optune_status optune_reduce(optune_queue queue, optune_reduce_op op, const optune_tensor* x, const int* axes,
                            size_t axis_count, int keepdims, const optune_tensor* y, const optune_event* wait_list,
                            size_t wait_count, optune_event* event);
optune_status optune_softmax(optune_queue queue, const optune_tensor* x, int axis, const optune_tensor* y,
                             const optune_event* wait_list, size_t wait_count, optune_event* event);
optune_status optune_log_softmax(optune_queue queue, const optune_tensor* x, int axis, const optune_tensor* y,
                                 const optune_event* wait_list, size_t wait_count, optune_event* event);
/* Over the last axis. gamma, beta, mean_out and rstd_out may be NULL. */
optune_status optune_layer_norm(optune_queue queue, const optune_tensor* x, const optune_tensor* gamma,
                                const optune_tensor* beta, double eps, const optune_tensor* y,
                                const optune_tensor* mean_out, const optune_tensor* rstd_out,
                                const optune_event* wait_list, size_t wait_count, optune_event* event);
optune_status optune_rms_norm(optune_queue queue, const optune_tensor* x, const optune_tensor* gamma, double eps,
                              const optune_tensor* y, const optune_event* wait_list, size_t wait_count,
                              optune_event* event);

/* ---- GEMM (optune/gemm.hpp): C = act(alpha * op(A) * op(B) + beta * C + bias) ---- */

typedef enum optune_layout {
  OPTUNE_ROW_MAJOR = 0, /* element (i, j) at i * ld + j */
  OPTUNE_COL_MAJOR = 1, /* element (i, j) at i + j * ld */
  OPTUNE_LAYOUT_FORCE_INT = 0x7fffffff
} optune_layout;
typedef enum optune_transpose {
  OPTUNE_NO_TRANS = 0,
  OPTUNE_TRANS = 1,
  OPTUNE_CONJ_TRANS = 2, /* op(X) = X^H; real matrices take it as OPTUNE_TRANS */
  OPTUNE_TRANSPOSE_FORCE_INT = 0x7fffffff
} optune_transpose;
typedef enum optune_bias_mode {
  OPTUNE_BIAS_NONE = 0,
  OPTUNE_BIAS_PER_ROW = 1,    /* m elements: bias[i] added to C(i, j) */
  OPTUNE_BIAS_PER_COLUMN = 2, /* n elements: bias[j] added to C(i, j) */
  OPTUNE_BIAS_MODE_FORCE_INT = 0x7fffffff
} optune_bias_mode;
typedef enum optune_accumulate {
  OPTUNE_ACCUMULATE_DEFAULT = 0, /* f16: in f16 where the device has f16 arithmetic */
  OPTUNE_ACCUMULATE_F32 = 1,
  OPTUNE_ACCUMULATE_FORCE_INT = 0x7fffffff
} optune_accumulate;
/* FAST_TF32 (cuBLAS's CUBLAS_COMPUTE_32F_FAST_TF32): f32 products may run on
 * tensor cores with A and B rounded to tf32 (10 mantissa bits), f32
 * accumulation, |error| about K * 2^-11 * (|A||B|)(i, j); CUDA sm_80+ only,
 * ignored (exact f32) elsewhere. f32 matrices only. See optune/gemm.hpp. */
typedef enum optune_gemm_compute {
  OPTUNE_GEMM_COMPUTE_DEFAULT = 0,
  OPTUNE_GEMM_COMPUTE_FAST_TF32 = 1,
  OPTUNE_GEMM_COMPUTE_FORCE_INT = 0x7fffffff
} optune_gemm_compute;

/* The epilogue; a NULL pointer means none. activation OPTUNE_UNARY_COPY is none. */
typedef struct optune_gemm_options {
  optune_bias_mode bias_mode;
  optune_buffer bias;                   /* C's dtype; NULL with OPTUNE_BIAS_NONE */
  optune_unary_op activation;
  optune_op_params activation_params;  /* NAN: the activation's defaults */
  optune_accumulate accumulate;
  optune_gemm_compute compute;         /* OPTUNE_GEMM_COMPUTE_DEFAULT (0): exact f32 */
} optune_gemm_options;

/* a and b of one dtype; c of the same (f32, f64, c32, c64), or for f16 and bf16 a and b
 * any of f16, bf16, f32 (f32 accumulation); the bias has c's dtype. Other
 * combinations: OPTUNE_INVALID_TYPE. Views carry their offsets. */
optune_status optune_gemm(optune_queue queue, optune_layout layout, optune_transpose trans_a,
                          optune_transpose trans_b, int64_t m, int64_t n, int64_t k, double alpha, optune_buffer a,
                          int64_t lda, optune_buffer b, int64_t ldb, double beta, optune_buffer c, int64_t ldc,
                          const optune_gemm_options* options, const optune_event* wait_list, size_t wait_count,
                          optune_event* event);
/* batch products; the i-th reads A at i * stride_a from a's view (likewise B, C). */
optune_status optune_gemm_strided_batched(optune_queue queue, optune_layout layout, optune_transpose trans_a,
                                          optune_transpose trans_b, int64_t m, int64_t n, int64_t k, double alpha,
                                          optune_buffer a, int64_t lda, int64_t stride_a, optune_buffer b,
                                          int64_t ldb, int64_t stride_b, double beta, optune_buffer c, int64_t ldc,
                                          int64_t stride_c, int64_t batch, const optune_gemm_options* options,
                                          const optune_event* wait_list, size_t wait_count, optune_event* event);

/* ---- BLAS levels 1, 2 and 3 and the extras: optune_blas.h ---- */

#include "optune_blas.h"

/* ---- 2-D convolution (optune/conv.hpp): out = act(conv(input, weight) + bias + residual) ---- */

typedef enum optune_conv_layout {
  OPTUNE_CONV_NCHW = 0, /* element (n, c, y, x) at ((n C + c) H + y) W + x */
  OPTUNE_CONV_NHWC = 1, /* element (n, c, y, x) at ((n H + y) W + x) C + c */
  OPTUNE_CONV_LAYOUT_FORCE_INT = 0x7fffffff
} optune_conv_layout;

/* Sizes as optune::Conv2dDesc: input N x C x H x W, weight K x C/groups x R x S
 * (kernel_h x kernel_w), output N x K x OH x OW, each tensor in its layout. */
typedef struct optune_conv2d_desc {
  int64_t batch, in_channels, in_height, in_width, out_channels, kernel_h, kernel_w;
  int64_t stride_h, stride_w, dilation_h, dilation_w;
  int64_t pad_top, pad_bottom, pad_left, pad_right;
  int64_t groups;
  optune_conv_layout input_layout, output_layout;
  /* Conv2dOptions::accumulate: OPTUNE_ACCUMULATE_DEFAULT (what a zeroed
   * descriptor holds; f16 depthwise may sum in f16) or OPTUNE_ACCUMULATE_F32. */
  optune_accumulate accumulate;
} optune_conv2d_desc;

/* Every tensor of one dtype (f32, f16, bf16), dense from its offset: ndim 1
 * holding at least the elements the descriptor needs, or ndim 4 of exactly
 * its shape. bias (K elements) and residual (the output's shape and layout,
 * possibly the output itself) may be NULL; activation OPTUNE_UNARY_COPY is
 * none, activation_params NULL its defaults. */
optune_status optune_conv2d(optune_queue queue, const optune_conv2d_desc* desc, const optune_tensor* input,
                            const optune_tensor* weight, const optune_tensor* output, const optune_tensor* bias,
                            const optune_tensor* residual, optune_unary_op activation,
                            const optune_op_params* activation_params, const optune_event* wait_list,
                            size_t wait_count, optune_event* event);

#ifdef __cplusplus
}  /* extern "C" */
#endif

#endif /* OPTUNE_OPTUNE_H */
