#include "bench_elementwise.hpp"

#include <cstdio>
#include <functional>
#include <random>

#include "optune/elementwise.hpp"

namespace optune::tool {

namespace {

struct Case {
  std::string name;
  DType in, out;
  int inputs;         // tensor inputs of type `in`
  bool mask = false;  // a u8 condition as the first input (where)
  std::function<Event(const Queue&, const std::vector<Operand>&, const Operand&)> run;
};

Operand view(const Buffer<std::uint8_t>& b, DType t, std::size_t offset, std::size_t n) {
  Operand o;
  o.mem = b.mem();
  o.dtype = t;
  o.offset = offset;
  o.count = n;
  o.shape = {std::int64_t(n)};
  return o;
}

const std::vector<Case>& cases() {
  static const std::vector<Case> c{
      {"relu f32", DType::F32, DType::F32, 1, false,
       [](const Queue& q, const std::vector<Operand>& in, const Operand& y) { return unary(q, Unary::Relu, in[0], y); }},
      {"gelu f32", DType::F32, DType::F32, 1, false,
       [](const Queue& q, const std::vector<Operand>& in, const Operand& y) { return unary(q, Unary::Gelu, in[0], y); }},
      {"gelu f16", DType::F16, DType::F16, 1, false,
       [](const Queue& q, const std::vector<Operand>& in, const Operand& y) { return unary(q, Unary::Gelu, in[0], y); }},
      {"add f32", DType::F32, DType::F32, 2, false,
       [](const Queue& q, const std::vector<Operand>& in, const Operand& y) { return binary(q, Binary::Add, in[0], in[1], y); }},
      {"where f32", DType::F32, DType::F32, 2, true,
       [](const Queue& q, const std::vector<Operand>& in, const Operand& y) {
         return ternary(q, Ternary::Where, in[0], in[1], in[2], y);
       }},
      {"cast f32->f16", DType::F32, DType::F16, 1, false,
       [](const Queue& q, const std::vector<Operand>& in, const Operand& y) { return cast(q, in[0], y); }},
  };
  return c;
}

}  // namespace

std::vector<std::string> elementwise_case_names() {
  std::vector<std::string> names;
  for (const Case& k : cases()) names.push_back(k.name);
  return names;
}

nlohmann::json bench_elementwise(const Queue& q, const Ceilings& c, const ElementwiseBenchOptions& o) {
  const Capabilities& caps = q.device().caps();
  const bool cpu = caps.type == DeviceType::CPU;
  const int runs = o.runs > 0 ? o.runs : (cpu ? 5 : 20);
  int max_log2 = o.max_log2 > 0 ? o.max_log2 : (cpu ? 24 : 28);
  // Four buffers of the largest size must fit beside each other.
  while (max_log2 > 10 && (std::uint64_t(4) << max_log2) * 4 > std::min(caps.max_alloc_bytes, caps.global_mem_bytes / 5))
    --max_log2;
  const std::size_t cap = std::size_t(1) << max_log2;

  // Random inputs once, at the largest size; the mask is random bytes 0/1.
  Context ctx = q.context();
  std::vector<Buffer<std::uint8_t>> bufs;
  std::mt19937 rng(7);
  for (int k = 0; k < 3; ++k) {
    std::vector<float> host(cap);
    std::uniform_real_distribution<float> d(-3.0f, 3.0f);
    for (auto& v : host) v = d(rng);
    bufs.push_back(ctx.alloc<std::uint8_t>(cap * 4));
    q.write(bufs.back(), std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(host.data()), cap * 4)).wait();
  }
  Buffer<std::uint8_t> mask = ctx.alloc<std::uint8_t>(cap);
  {
    std::vector<std::uint8_t> m(cap);
    for (auto& v : m) v = std::uint8_t(rng() & 1);
    q.upload(mask, std::span<const std::uint8_t>(m));
  }
  Buffer<std::uint8_t> out = ctx.alloc<std::uint8_t>(cap * 4);

  nlohmann::json rows = nlohmann::json::array();
  if (!o.quiet) std::printf("\n%-16s %12s %10s %10s %8s\n", "elementwise", "elements", "time us", "GB/s", "ceiling");
  for (const Case& k : cases()) {
    if (!selected(k.name, o.only)) continue;
    for (int lg = o.min_log2; lg <= max_log2; lg += 2) {
      const std::size_t n = std::size_t(1) << lg;
      // Rotate over disjoint slices so small sizes are not served from cache.
      const std::size_t slices = std::max<std::size_t>(1, std::min<std::size_t>(8, cap / n));
      std::size_t turn = 0;
      auto run = [&] {
        const std::size_t off = (turn++ % slices) * n;
        std::vector<Operand> in;
        if (k.mask) in.push_back(view(mask, DType::U8, off, n));
        for (int i = 0; i < k.inputs; ++i) in.push_back(view(bufs[std::size_t(i)], k.in, off, n));
        return k.run(q, in, view(out, k.out, off, n));
      };
      const Timing t = time_events(run, 3, runs);
      const double bytes = double(n) * (double(k.inputs) * double(dtype_size(k.in)) + double(dtype_size(k.out)) +
                                        (k.mask ? 1.0 : 0.0));
      const double gbs = bytes / t.median_s * 1e-9;
      const double frac = c.copy_gbs > 0 ? gbs / c.copy_gbs : 0;
      // What the rotation touches: every slice's inputs and output.
      const double working_set = bytes * double(slices);
      const bool cached = fits_in_cache(c, working_set);
      rows.push_back({{"op", k.name}, {"elements", n}, {"bytes", bytes}, {"median_us", t.median_s * 1e6},
                      {"min_us", t.min_s * 1e6}, {"gbs", gbs}, {"fraction_of_copy_ceiling", frac},
                      {"working_set_bytes", working_set}, {"fits_in_cache", cached},
                      {"parameters", t.parameters}});
      if (!o.quiet)
        std::printf("%-16s %12zu %10.1f %10.1f %7.1f%%%s %s\n", k.name.c_str(), n, t.median_s * 1e6, gbs, 100 * frac,
                    cached ? "*" : " ", t.parameters_text.c_str());
    }
  }
  return rows;
}

}  // namespace optune::tool
