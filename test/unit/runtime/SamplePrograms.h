// Hand-written programs shared by the unit tests, the benchmarks and the
// sample executables under test/runtime/Inputs.
#ifndef TPUC_TEST_UNIT_RUNTIME_SAMPLEPROGRAMS_H
#define TPUC_TEST_UNIT_RUNTIME_SAMPLEPROGRAMS_H

#include "runtime/loader/ProgramBuilder.h"

namespace tpuc::runtime::test {

// C = A x B: A bf16[m,k], B bf16[k,n], C f32[m,n], all {1,0:T(8,128)};
// k and n multiples of 128, m a multiple of 8 * mxu_count. Weight-stationary
// and double-buffered; see the comment in SamplePrograms.cpp.
ProgramBuilder tiledMatmulProgram(const exe::Target &target, int64_t m,
                                  int64_t n, int64_t k);

// y = softmax(x) over the rows of f32[16,256] {1,0:T(8,128)}.
ProgramBuilder rowSoftmaxProgram();

// y = 2 * x + 1 for f32[8,128] {1,0:T(8,128)}: the smallest end-to-end
// program.
ProgramBuilder scaleProgram();

// One SGD step with a "loss": w' = w - 0.25 * g for w, g f32[8,128]
// {1,0:T(8,128)}; result 0 is w' and aliases parameter 0 (w), result 1 is
// f32[1]{0:T(1024)} holding w[0,0] before the update. The smallest program
// for the step loop (runSteps, tpuc-run --steps).
ProgramBuilder sgdStepProgram();

} // namespace tpuc::runtime::test

#endif // TPUC_TEST_UNIT_RUNTIME_SAMPLEPROGRAMS_H
