#include "bench_reduce.hpp"

#include <cstdio>
#include <functional>

#include "optune/reduce.hpp"

namespace optune::tool {

namespace {

struct Case {
  std::string name;
  std::int64_t rows, cols;  // the tensor is [rows][cols]
  double bytes;             // read plus written per call
  bool report_us;           // the small case: time matters, not bandwidth
  std::function<Event(const Queue&, const Operand& x, const Operand& y, const Operand& g, const Operand& b)> run;
};

Operand tensor(const Buffer<float>& b, std::vector<std::int64_t> shape) {
  Operand o(b);
  o.shape = std::move(shape);
  return o;
}

// Uniform values in [-1, 1) from a 64-bit LCG: fast enough for a GiB.
void fill_random(const Queue& q, const Buffer<float>& b) {
  const std::size_t chunk = std::size_t(1) << 24;
  std::vector<float> host(std::min(chunk, b.size()));
  std::uint64_t s = 0x9E3779B97F4A7C15ull;
  for (std::size_t at = 0; at < b.size(); at += chunk) {
    const std::size_t n = std::min(chunk, b.size() - at);
    for (std::size_t i = 0; i < n; ++i) {
      s = s * 6364136223846793005ull + 1442695040888963407ull;
      host[i] = float(std::int32_t(s >> 32)) * (1.0f / 2147483648.0f);
    }
    q.write(b.view(at, n), std::span<const float>(host.data(), n)).wait();
  }
}

// The large cases' long side is `big` (rows or columns).
std::vector<Case> make_cases(std::int64_t big) {
  const double f = 4;  // bytes per f32
  return {
      {"row-sum", big, 1024, f * double(big) * 1025, false,
       [](const Queue& q, const Operand& x, const Operand& y, const Operand&, const Operand&) {
         return reduce(q, ReduceOp::Sum, x, {1}, false, y);
       }},
      {"column-sum", 1024, big, f * double(big) * 1025, false,
       [](const Queue& q, const Operand& x, const Operand& y, const Operand&, const Operand&) {
         return reduce(q, ReduceOp::Sum, x, {0}, false, y);
       }},
      {"softmax", big, 1024, f * double(big) * 2048, false,
       [](const Queue& q, const Operand& x, const Operand& y, const Operand&, const Operand&) {
         return softmax(q, x, -1, y);
       }},
      {"layer_norm", big, 1024, f * (double(big) * 2048 + 2048), false,
       [](const Queue& q, const Operand& x, const Operand& y, const Operand& g, const Operand& b) {
         return layer_norm(q, x, g, b, 1e-5, y);
       }},
      {"row-mean", 512, 768, f * 512 * 769, true,
       [](const Queue& q, const Operand& x, const Operand& y, const Operand&, const Operand&) {
         return reduce(q, ReduceOp::Mean, x, {1}, false, y);
       }},
  };
}

}  // namespace

std::vector<std::string> reduce_case_names() {
  std::vector<std::string> names;
  for (const Case& k : make_cases(1)) names.push_back(k.name);
  return names;
}

nlohmann::json bench_reduce(const Queue& q, const Ceilings& c, int runs_in, bool quiet,
                            const std::vector<std::string>& only) {
  const Capabilities& caps = q.device().caps();
  const bool cpu = caps.type == DeviceType::CPU;
  const int runs = runs_in > 0 ? runs_in : (cpu ? 5 : 20);
  const std::int64_t big = cpu ? 262144 / 64 : 262144;  // the long side of the large cases
  const std::vector<Case> cases = make_cases(big);

  const std::size_t n = std::size_t(big) * 1024;
  Context ctx = q.context();
  Buffer<float> x = ctx.alloc<float>(n), y = ctx.alloc<float>(n), g = ctx.alloc<float>(1024), b = ctx.alloc<float>(1024);
  fill_random(q, x);
  fill_random(q, g);
  fill_random(q, b);

  nlohmann::json rows = nlohmann::json::array();
  if (!quiet) std::printf("\n%-12s %18s %10s %10s %8s\n", "reduce", "shape", "time us", "GB/s", "ceiling");
  for (const Case& k : cases) {
    if (!selected(k.name, only)) continue;
    const Operand xo = tensor(x, {k.rows, k.cols});
    const bool to_rows = k.name != "column-sum" && k.name != "softmax" && k.name != "layer_norm";
    const Operand yo = k.name == "softmax" || k.name == "layer_norm" ? tensor(y, {k.rows, k.cols})
                                                                      : tensor(y, {to_rows ? k.rows : k.cols});
    const Operand go = tensor(g, {1024}), bo = tensor(b, {1024});
    const Timing t = time_events([&] { return k.run(q, xo, yo, go, bo); }, 3, runs);
    const double gbs = k.bytes / t.median_s * 1e-9;
    const double frac = c.copy_gbs > 0 ? gbs / c.copy_gbs : 0;
    const bool cached = fits_in_cache(c, k.bytes);  // the same buffers every call
    const std::string shape = std::to_string(k.rows) + "x" + std::to_string(k.cols);
    nlohmann::json row{{"op", k.name},          {"shape", shape},          {"bytes", k.bytes},
                       {"median_us", t.median_s * 1e6}, {"min_us", t.min_s * 1e6}, {"gbs", gbs},
                       {"fraction_of_copy_ceiling", frac}, {"working_set_bytes", k.bytes},
                       {"fits_in_cache", cached}, {"parameters", t.parameters}};
    if (k.report_us) row["target_us"] = 10.0;
    rows.push_back(row);
    if (!quiet)
      std::printf("%-12s %18s %10.1f %10.1f %7.1f%%%s %s\n", k.name.c_str(), shape.c_str(), t.median_s * 1e6, gbs,
                  100 * frac, cached ? "*" : " ", t.parameters_text.c_str());
  }
  return rows;
}

}  // namespace optune::tool
