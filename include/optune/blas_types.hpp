// Enumerations of the BLAS level-2 and level-3 routines (the level-2
// general and triangular routines, the level-3 ones). Layout is gemm's
// (optune/gemm.hpp); BlasTranspose adds the conjugate transpose that gemm's
// Transpose lacks.
#pragma once

namespace optune {

enum class Triangle { Upper, Lower };
enum class Diagonal { NonUnit, Unit };
enum class Side { Left, Right };
enum class BlasTranspose { No, Yes, Conjugate };

}  // namespace optune
