// gemm_flags: the bits of the GEMM kernels' `flags` argument, shared by the
// kernels (the host puts this text before gemm_common.cl) and by the host,
// which includes this file from C++ (kernels/gemm/gemm.hpp). Plain macros
// only, so both languages read it.
//   GEMM_A_LIST, GEMM_B_LIST, GEMM_C_LIST: the operand's batch offsets come
//     from the table, else base + z * stride;
//   GEMM_AB_LIST: alpha and beta per product from the table;
//   GEMM_BIAS_ROW, GEMM_BIAS_COL: bias[i] (per row of C) or bias[j] added;
//   GEMM_TRANS_A, GEMM_TRANS_B: the direct kernel's operand layouts (the
//     thin kernel's A);
//   GEMM_TRANS_C: C stored transposed, element (i, j) at j * ldc + i, and
//   GEMM_LISTS_SWAPPED: A's listed offsets in the table's B slot and B's in
//     A's; both for the thin kernel's C^T = B^T A^T form of a thin-N call.
#ifndef OPTUNE_GEMM_FLAGS
#define OPTUNE_GEMM_FLAGS

#define GEMM_A_LIST 1u
#define GEMM_B_LIST 2u
#define GEMM_C_LIST 4u
#define GEMM_AB_LIST 8u
#define GEMM_BIAS_ROW 16u
#define GEMM_BIAS_COL 32u
#define GEMM_TRANS_A 64u
#define GEMM_TRANS_B 128u
#define GEMM_TRANS_C 256u
#define GEMM_LISTS_SWAPPED 512u

#endif
