// Fuzz target over the C API's shape, stride, offset and view arguments
// (issue 23). Each input decodes to one element-wise call (unary neg or
// binary add on f32) on buffer views with random offsets, counts, ranks,
// shapes and strides, valid or not. The call must either fail cleanly (a
// status other than success or internal, and a message) or succeed with
// exactly the CPU reference's result, every element it must not write left
// as it was. A call the reference finds out of bounds must not succeed, and
// a call whose sizes are small and which the reference finds valid must not
// fail.
//
// Built two ways: with main() below as a CTest driver that runs a fixed
// number of pseudo-random inputs (label cpu), and with -DOPTUNE_LIBFUZZER as
// a libFuzzer target (scripts/fuzz.sh, clang-15).
#include <chrono>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "optune/optune.h"

namespace {

constexpr float kPoison = -7777.0f;

// Calls that succeeded and were checked against the reference, and calls
// refused with an error (the driver prints both, so a run that only ever
// meets errors shows).
std::uint64_t g_checked = 0, g_refused = 0;

// Reads the fuzz input as a stream of small numbers; zeros once exhausted.
class Reader {
 public:
  Reader(const std::uint8_t* d, std::size_t n) : d_(d), n_(n) {}
  std::uint8_t byte() { return at_ < n_ ? d_[at_++] : 0; }
  std::uint64_t u64() {
    std::uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v |= std::uint64_t(byte()) << (8 * i);
    return v;
  }
  // Mostly small values, sometimes extreme ones.
  std::int64_t dim() {
    const std::uint8_t k = byte();
    if (k < 200) return k % 6;
    if (k < 230) return -std::int64_t(k % 3) - 1;
    if (k < 250) return std::int64_t(byte()) * 1000;
    return std::int64_t(u64());
  }
  std::int64_t stride() {
    const std::uint8_t k = byte();
    if (k < 200) return std::int64_t(k % 9) - 4;
    if (k < 250) return std::int64_t(byte()) - 128;
    return std::int64_t(u64());
  }
  std::size_t offset(std::size_t scale) {
    const std::uint8_t k = byte();
    // scale may be near SIZE_MAX itself (a view count read as extreme).
    if (k < 240) return scale < SIZE_MAX - 2 ? k % (scale + 2) : k;
    return k < 250 ? std::size_t(u64() >> 1) : SIZE_MAX - (k % 4);
  }

 private:
  const std::uint8_t* d_;
  std::size_t n_, at_ = 0;
};

struct TensorDesc {
  std::size_t alloc = 1, view_offset = 0, view_count = 1, offset = 0, ndim = 0;
  bool use_view = false, strides_given = false;
  std::vector<std::int64_t> shape, strides;
};

TensorDesc read_tensor(Reader& r) {
  TensorDesc t;
  t.alloc = 1 + r.byte() % 48;
  t.use_view = r.byte() % 2;
  if (t.use_view) {
    t.view_offset = r.offset(t.alloc);
    t.view_count = r.offset(t.alloc);
  } else {
    t.view_count = t.alloc;
  }
  t.offset = r.offset(t.view_count);
  const std::uint8_t k = r.byte();
  t.ndim = k < 240 ? k % 4 : 4 + k % 6;  // 4..9 rarely; 9 is invalid
  for (std::size_t d = 0; d < t.ndim; ++d) t.shape.push_back(r.dim());
  t.strides_given = r.byte() % 2;
  for (std::size_t d = 0; d < t.ndim; ++d) t.strides.push_back(r.stride());
  return t;
}

// What the reference thinks of one tensor: reachable, and where each
// element lies relative to the allocation's start.
struct Layout {
  bool sane = true;   // all sizes small: the reference's view is exact
  bool valid = true;  // within the contract of optune.h
  std::vector<std::int64_t> shape, strides;
  std::int64_t base = 0;  // the allocation index of element 0
};

Layout layout(const TensorDesc& t) {
  Layout l;
  if (t.ndim > 8) {
    l.valid = false;
    return l;
  }
  if (t.use_view && (t.view_offset > t.alloc || t.view_count > t.alloc - t.view_offset)) {
    l.valid = false;
    return l;
  }
  if (t.offset > t.view_count) {
    l.valid = false;
    return l;
  }
  l.shape = t.ndim ? t.shape : std::vector<std::int64_t>{1};
  std::int64_t running = 1;
  l.strides.assign(l.shape.size(), 0);
  for (std::size_t d = l.shape.size(); d-- > 0;) {
    const std::int64_t n = l.shape[d];
    if (n < 0) l.valid = false;
    if (n > 1000 || n < -1000) l.sane = false;
    l.strides[d] = t.strides_given && t.ndim ? t.strides[d] : running;
    if (l.strides[d] > 1000 || l.strides[d] < -1000) l.sane = false;
    if (l.sane && n > 0) running *= n;
  }
  if (!l.valid || !l.sane) return l;
  std::int64_t elements = 1, lo = 0, hi = 0;
  for (std::size_t d = 0; d < l.shape.size(); ++d) {
    elements *= l.shape[d];
    const std::int64_t span = l.strides[d] * (l.shape[d] - 1);
    (span < 0 ? lo : hi) += span;
  }
  l.base = std::int64_t(t.view_offset + t.offset);
  if (elements > 0 && (l.base + lo < 0 || std::int64_t(t.offset) + hi >= std::int64_t(t.view_count)))
    l.valid = false;
  return l;
}

struct Handles {
  optune_device device = nullptr;
  optune_context ctx = nullptr;
  optune_queue queue = nullptr;
};

const Handles& handles() {
  static Handles* h = [] {
    auto* h = new Handles;
    if (optune_device_default(&h->device) != OPTUNE_SUCCESS ||
        optune_context_create(h->device, &h->ctx) != OPTUNE_SUCCESS ||
        optune_queue_create(h->ctx, &h->queue) != OPTUNE_SUCCESS) {
      std::fprintf(stderr, "fuzz: set-up failed: %s\n", optune_last_error_message());
      std::abort();
    }
    return h;
  }();
  return *h;
}

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "fuzz: FAILURE: %s\n", what.c_str());
  std::abort();
}

std::string describe(const TensorDesc& t) {
  std::string s = "alloc " + std::to_string(t.alloc);
  if (t.use_view) s += " view [" + std::to_string(t.view_offset) + ", +" + std::to_string(t.view_count) + ")";
  s += " offset " + std::to_string(t.offset) + " shape [";
  for (auto v : t.shape) s += std::to_string(v) + " ";
  s += "]";
  if (t.strides_given) {
    s += " strides [";
    for (auto v : t.strides) s += std::to_string(v) + " ";
    s += "]";
  }
  return s;
}

// One C tensor over a fresh allocation filled with values.
struct Live {
  optune_buffer alloc = nullptr, view = nullptr;
  optune_tensor tensor{};
  bool view_failed = false;
  ~Live() {
    optune_buffer_release(view);
    optune_buffer_release(alloc);
  }
};

void make(const TensorDesc& t, const std::vector<float>& values, Live* out) {
  const Handles& h = handles();
  if (optune_buffer_alloc(h.ctx, OPTUNE_F32, t.alloc, &out->alloc) != OPTUNE_SUCCESS) fail("alloc");
  // Finished here: the write is asynchronous and values may not outlive it.
  if (optune_buffer_write(h.queue, out->alloc, values.data(), t.alloc, nullptr, 0, nullptr) != OPTUNE_SUCCESS ||
      optune_queue_finish(h.queue) != OPTUNE_SUCCESS)
    fail(std::string("write: ") + optune_last_error_message());
  optune_buffer b = out->alloc;
  if (t.use_view) {
    const optune_status s = optune_buffer_view(out->alloc, t.view_offset, t.view_count, &out->view);
    if (s != OPTUNE_SUCCESS) {
      if (out->view || !*optune_last_error_message()) fail("a failed view left a handle or no message");
      out->view_failed = true;
      return;
    }
    b = out->view;
  }
  out->tensor.buffer = b;
  out->tensor.offset = t.offset;
  out->tensor.ndim = t.ndim;
  out->tensor.shape = t.shape.data();
  out->tensor.strides = t.strides_given ? t.strides.data() : nullptr;
}

// For each output element (multi-index over out's shape), the allocation
// index of each operand, broadcasting inputs NumPy-style.
bool broadcasts(const Layout& in, const Layout& out) {
  if (in.shape.size() > out.shape.size()) return false;
  const std::size_t lead = out.shape.size() - in.shape.size();
  for (std::size_t d = 0; d < in.shape.size(); ++d)
    if (in.shape[d] != out.shape[lead + d] && in.shape[d] != 1) return false;
  return true;
}

std::int64_t index_of(const Layout& l, const Layout& out, const std::vector<std::int64_t>& idx) {
  const std::size_t lead = out.shape.size() - l.shape.size();
  std::int64_t at = l.base;
  for (std::size_t d = 0; d < l.shape.size(); ++d)
    if (l.shape[d] != 1) at += idx[lead + d] * l.strides[d];
  return at;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Reader r(data, size);
  const bool binary = r.byte() % 2;
  std::vector<TensorDesc> in{read_tensor(r)};
  if (binary) in.push_back(read_tensor(r));
  TensorDesc out = read_tensor(r);
  if (r.byte() % 3 == 0 && out.ndim <= 8) {  // often the output shape is the input's, so the call can succeed
    out.ndim = in[0].ndim;
    out.shape = in[0].shape;
    out.strides.resize(out.ndim, 1);
    out.strides_given = false;
  }
  const std::size_t n_in = in.size();

  std::vector<std::vector<float>> values;
  for (std::size_t k = 0; k < n_in; ++k) {
    std::vector<float> v(in[k].alloc);
    for (std::size_t j = 0; j < v.size(); ++j) v[j] = float(k * 1000 + j + 1);
    values.push_back(v);
  }
  std::vector<Live> live(n_in + 1);
  for (std::size_t k = 0; k < n_in; ++k) make(in[k], values[k], &live[k]);
  make(out, std::vector<float>(out.alloc, kPoison), &live[n_in]);
  for (const Live& l : live)
    if (l.view_failed) return 0;  // refused cleanly, checked in make()

  const Handles& h = handles();
  const optune_status st =
      binary ? optune_binary(h.queue, OPTUNE_BINARY_ADD, &live[0].tensor, &live[1].tensor, &live[n_in].tensor,
                             nullptr, 0, nullptr)
             : optune_unary(h.queue, OPTUNE_UNARY_NEG, &live[0].tensor, &live[n_in].tensor, nullptr, nullptr, 0,
                            nullptr);
  const std::string msg = optune_last_error_message();

  std::vector<Layout> lay;
  bool sane = true, valid = true;
  for (const TensorDesc& t : in) lay.push_back(layout(t));
  lay.push_back(layout(out));
  for (const Layout& l : lay) sane = sane && l.sane, valid = valid && l.valid;
  const Layout& lo = lay.back();
  if (valid && sane) {
    for (std::size_t k = 0; k < n_in; ++k) valid = valid && broadcasts(lay[k], lo);
    for (std::size_t d = 0; d < lo.shape.size(); ++d)
      if (lo.shape[d] > 1 && lo.strides[d] == 0) valid = false;  // would write one element twice
  }
  std::string what = binary ? "binary add" : "unary neg";
  for (std::size_t k = 0; k < n_in; ++k) what += "\n  in" + std::to_string(k) + ": " + describe(in[k]);
  what += "\n  out: " + describe(out);

  if (st != OPTUNE_SUCCESS) {
    if (msg.empty()) fail("error without a message: " + what);
    if (st == OPTUNE_INTERNAL) fail("internal error (" + msg + "): " + what);
    if (valid && sane) fail("valid call refused (" + msg + "): " + what);
    ++g_refused;
    return 0;
  }
  if (!sane) return 0;  // accepted extreme sizes: nothing the reference can follow
  if (!valid) fail("invalid call accepted: " + what);

  std::vector<float> got(out.alloc);
  if (optune_buffer_read(h.queue, live[n_in].alloc, got.data(), out.alloc, nullptr, 0, nullptr) != OPTUNE_SUCCESS ||
      optune_queue_finish(h.queue) != OPTUNE_SUCCESS)
    fail(std::string("read: ") + optune_last_error_message());
  // Every output element's candidates (overlapping output strides may write
  // one element several times, with any of the values).
  std::vector<std::vector<float>> want(out.alloc);
  std::int64_t total = 1;
  for (std::int64_t n : lo.shape) total *= n;
  std::vector<std::int64_t> idx(lo.shape.size(), 0);
  for (std::int64_t e = 0; e < total; ++e) {
    std::int64_t rest = e;
    for (std::size_t d = lo.shape.size(); d-- > 0;) idx[d] = rest % lo.shape[d], rest /= lo.shape[d];
    float v = -values[0][std::size_t(index_of(lay[0], lo, idx))];
    if (binary) v = values[0][std::size_t(index_of(lay[0], lo, idx))] + values[1][std::size_t(index_of(lay[1], lo, idx))];
    want[std::size_t(index_of(lo, lo, idx))].push_back(v);
  }
  for (std::size_t j = 0; j < out.alloc; ++j) {
    bool ok = want[j].empty() ? got[j] == kPoison : false;
    for (float v : want[j]) ok = ok || got[j] == v;
    if (!ok)
      fail("element " + std::to_string(j) + " is " + std::to_string(got[j]) + ", expected " +
           (want[j].empty() ? "untouched" : std::to_string(want[j][0])) + ": " + what);
  }
  ++g_checked;
  return 0;
}

#ifndef OPTUNE_LIBFUZZER
// The CI driver: FUZZ_ITERATIONS inputs (default 3000) from OPTUNE_TEST_SEED
// (default 1), stopping early after FUZZ_SECONDS (default 45) so that a slow
// machine still finishes within its CTest budget.
int main() {
  auto env_u64 = [](const char* name, std::uint64_t fallback) {
    const char* v = std::getenv(name);
    return v && *v ? std::strtoull(v, nullptr, 10) : fallback;
  };
  const std::uint64_t iterations = env_u64("FUZZ_ITERATIONS", 3000), seed = env_u64("OPTUNE_TEST_SEED", 1);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(env_u64("FUZZ_SECONDS", 45));
  std::mt19937_64 rng(seed);
  std::uint64_t done = 0;
  for (; done < iterations && std::chrono::steady_clock::now() < deadline; ++done) {
    std::vector<std::uint8_t> input(8 + rng() % 120);
    for (auto& b : input) b = std::uint8_t(rng());
    LLVMFuzzerTestOneInput(input.data(), input.size());
  }
  std::printf("fuzz: %" PRIu64 " inputs from seed %" PRIu64 ", no failure (%" PRIu64 " results checked, %" PRIu64
              " refused with an error, the rest refused earlier or beyond the reference)\n",
              done, seed, g_checked, g_refused);
  return 0;
}
#endif
