// Shared BLAS enums for levels 2 and 3 (triangle, diagonal, side, and a
// transpose with the conjugate variant that optune/gemm.hpp's Transpose lacks).
#pragma once

namespace optune {

enum class Triangle { Upper, Lower };
enum class Diagonal { NonUnit, Unit };
enum class Side { Left, Right };
enum class BlasTranspose { No, Yes, Conjugate };

}  // namespace optune
