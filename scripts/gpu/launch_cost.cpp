// Host time per call on a device, split into its parts: where a repeated
// small call spends its microseconds (the library's planning, the program
// lookup, the queue's events, the driver's launch). A diagnostic for the GPU
// machine, not a test; scripts/gpu/run.sh (step `launch-cost`) builds it
// against the shared library and runs it on cuda:0 and the OpenCL GPU.
//
//   launch_cost DEVICE [iterations]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "optune/optune.hpp"

using Clock = std::chrono::steady_clock;

template <class Fn>
double us_per_call(const optune::Queue& q, int iterations, Fn&& fn) {
  double best = 1e30;
  for (int rep = 0; rep < 5; ++rep) {
    q.finish();
    const auto t0 = Clock::now();
    for (int i = 0; i < iterations; ++i) fn();
    const double us = std::chrono::duration<double, std::micro>(Clock::now() - t0).count() / iterations;
    q.finish();
    best = std::min(best, us);
  }
  return best;
}

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: launch_cost DEVICE [iterations]\n");
    return 2;
  }
  const int iterations = argc > 2 ? std::atoi(argv[2]) : 200;
  optune::Device dev = optune::select_device(argv[1]);
  optune::Context ctx(dev);
  optune::Queue q(ctx);
  auto x = ctx.alloc<float>(1024), y = ctx.alloc<float>(1024);
  q.fill(x, 1.0f).wait();
  const optune::Operand xo(x, {1}), yo(y, {1});
  const optune::Operand xk(x, {1024}), yk(y, {1024});
  optune::unary(q, optune::Unary::Relu, xo, yo).wait();  // compile
  optune::unary(q, optune::Unary::Relu, xk, yk).wait();
  optune::reduce(q, optune::ReduceOp::Sum, xk, {0}, false, optune::Operand(y, {1})).wait();
  struct Row {
    const char* what;
    double us;
  };
  std::vector<Row> rows;
  rows.push_back({"queue.fill 4 B (events + driver)", us_per_call(q, iterations, [&] { q.fill(y, 0.0f); })});
  rows.push_back({"unary relu 1 elem", us_per_call(q, iterations, [&] { optune::unary(q, optune::Unary::Relu, xo, yo); })});
  rows.push_back({"unary relu 1024 elem", us_per_call(q, iterations, [&] { optune::unary(q, optune::Unary::Relu, xk, yk); })});
  rows.push_back({"unary relu + Operand build", us_per_call(q, iterations, [&] {
                    optune::unary(q, optune::Unary::Relu, optune::Operand(x, {1}), optune::Operand(y, {1}));
                  })});
  rows.push_back({"reduce sum 1024", us_per_call(q, iterations, [&] {
                    optune::reduce(q, optune::ReduceOp::Sum, xk, {0}, false, optune::Operand(y, {1}));
                  })});
  std::printf("%s (%s), %d calls, best of 5\n", dev.name().c_str(), dev.spec().c_str(), iterations);
  for (const Row& r : rows) std::printf("  %-36s %9.2f us/call\n", r.what, r.us);
  return 0;
}
