// Matrices of the BLAS level-3 tests (test_blas3.cpp, test_blas3_complex.cpp):
// a stored matrix inside a NaN-poisoned allocation, the batched systems'
// allocation, and the names of the enum values in the cases' traces.
#pragma once

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "optune/blas3_complex.hpp"
#include "support/blas_values.hpp"

namespace optune::test::blas {

// A stored rows x cols matrix inside a larger allocation: `off` NaN
// elements first, a leading dimension 2 beyond the row (or column) length
// whose gap stays NaN, one NaN element after. Elements are random unless the
// caller writes them.
template <class T>
struct Mat {
  Layout layout;
  std::int64_t rows, cols, ld;
  std::size_t off;
  std::vector<T> host;
  Buffer<T> all, view;

  Mat(Layout l, std::int64_t r, std::int64_t c, std::size_t o = 3) : layout(l), rows(r), cols(c), off(o) {
    ld = std::max<std::int64_t>(1, (l == Layout::RowMajor ? c : r)) + 2;
    const std::int64_t outer = l == Layout::RowMajor ? r : c;
    host.assign(off + std::size_t(std::max<std::int64_t>(outer, 1) * ld) + 1, nan_value<T>());
    for (std::int64_t i = 0; i < r; ++i)
      for (std::int64_t j = 0; j < c; ++j) el(i, j) = random_value<T>();
  }
  std::size_t index(std::int64_t i, std::int64_t j) const {
    return off + std::size_t(layout == Layout::RowMajor ? i * ld + j : i + j * ld);
  }
  T& el(std::int64_t i, std::int64_t j) { return host[index(i, j)]; }
  T el(std::int64_t i, std::int64_t j) const { return host[index(i, j)]; }
  Ref<T> ref(std::int64_t i, std::int64_t j) const { return to_ref(el(i, j)); }
  void upload() {
    all = test::context().alloc<T>(host.size());
    test::queue().upload(all, std::span<const T>(host));
    view = all.view(off, host.size() - off);
  }
  std::vector<T> download() const { return test::queue().download(all); }
};

// One allocation of every system's matrix (batched trsm): system s at
// s * stride, stride one matrix's allocation. Returns the host copy.
template <class T>
std::vector<T> pack_systems(const std::vector<Mat<T>>& ms, Buffer<T>& all, std::int64_t& stride) {
  stride = std::int64_t(ms[0].host.size());
  std::vector<T> host;
  for (const auto& m : ms) host.insert(host.end(), m.host.begin(), m.host.end());
  all = test::context().alloc<T>(host.size());
  test::queue().upload(all, std::span<const T>(host));
  return host;
}

// `optune bench blas --only <only>`'s level-3 rows (expected: `count`):
// each timed, and within 1e-4 of the reference library where one ran.
inline void check_level3_bench_rows(const std::string& only, std::size_t count, const std::string& dtype) {
  const std::string path = test::temp_dir() + "/bench-blas3-" + dtype + ".json";
  std::string out;
  ASSERT_EQ(test::run_cli("bench blas --runs 1 --copy-mib 4 --only " + only + " --json " + path, &out,
                          "OPTUNE_PARAMS= "),
            0)
      << out;
  std::ifstream f(path);
  const auto j = nlohmann::json::parse(f);
  const auto& rows = j["operators"]["blas"]["level3_rows"];
  ASSERT_EQ(rows.size(), count) << j.dump();
  for (const auto& r : rows) {
    EXPECT_EQ(r["dtype"].get<std::string>(), dtype) << r.dump();
    EXPECT_GT(r["median_us"].get<double>(), 0.0) << r.dump();
    EXPECT_GT(r["gflops"].get<double>(), 0.0) << r.dump();
    const auto& ref = r["reference"];
    if (ref["available"].get<bool>()) EXPECT_LT(ref["relative_difference"].get<double>(), 1e-4) << r.dump();
  }
}

inline const char* name(Layout l) { return l == Layout::RowMajor ? "row" : "col"; }
inline const char* name(Triangle t) { return t == Triangle::Upper ? "upper" : "lower"; }
inline const char* name(BlasTranspose t) {
  return t == BlasTranspose::No ? "N" : t == BlasTranspose::Yes ? "T" : "C";
}
inline const char* name(Side s) { return s == Side::Left ? "left" : "right"; }
inline const char* name(Diagonal d) { return d == Diagonal::Unit ? "unit" : "nonunit"; }

}  // namespace optune::test::blas
