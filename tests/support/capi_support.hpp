// Helpers for the C API tests: the C handles of the device under test, RAII
// holders for buffers and events, tensors whose shape outlives the call, and
// a check of a failed call's status and message.
#pragma once

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "optune/optune.h"
#include "support/test_support.hpp"

#define C_OK(call) ASSERT_EQ((call), OPTUNE_SUCCESS) << #call << ": " << optune_last_error_message()

namespace optune::test::capi {

// The C handles of the device under test, made once and never released
// (driver teardown at exit races static destructors).
struct Env {
  optune_device device = nullptr;
  optune_context ctx = nullptr;
  optune_queue queue = nullptr;
};
inline const Env& env() {
  static Env* e = [] {
    auto* e = new Env;
    if (optune_device_select(test::device().spec().c_str(), &e->device) != OPTUNE_SUCCESS ||
        optune_context_create(e->device, &e->ctx) != OPTUNE_SUCCESS ||
        optune_queue_create(e->ctx, &e->queue) != OPTUNE_SUCCESS)
      throw std::runtime_error(std::string("C API set-up: ") + optune_last_error_message());
    return e;
  }();
  return *e;
}

struct Buf {
  optune_buffer h = nullptr;
  Buf() = default;
  Buf(optune_dtype t, std::size_t n) {
    if (optune_buffer_alloc(env().ctx, t, n, &h) != OPTUNE_SUCCESS)
      throw std::runtime_error(optune_last_error_message());
  }
  Buf(const Buf&) = delete;
  Buf& operator=(const Buf&) = delete;
  ~Buf() { optune_buffer_release(h); }
};

struct Ev {
  optune_event h = nullptr;
  Ev() = default;
  Ev(const Ev&) = delete;
  ~Ev() { optune_event_release(h); }
};

// A tensor description whose shape and strides live as long as it does.
struct Tensor {
  std::vector<std::int64_t> shape, strides;
  optune_tensor t{};
  Tensor(optune_buffer b, std::vector<std::int64_t> s, std::vector<std::int64_t> st = {}, std::size_t offset = 0)
      : shape(std::move(s)), strides(std::move(st)) {
    t.buffer = b;
    t.offset = offset;
    t.ndim = shape.size();
  }
  const optune_tensor* get() {
    t.shape = shape.data();
    t.strides = strides.empty() ? nullptr : strides.data();
    return &t;
  }
};

inline std::vector<float> read_f32(optune_buffer b, std::size_t n) {
  std::vector<float> out(n, std::nanf(""));
  if (optune_buffer_read(env().queue, b, out.data(), n, nullptr, 0, nullptr) != OPTUNE_SUCCESS ||
      optune_queue_finish(env().queue) != OPTUNE_SUCCESS)
    throw std::runtime_error(optune_last_error_message());
  return out;
}

inline void write_f32(optune_buffer b, const std::vector<float>& v) {
  if (optune_buffer_write(env().queue, b, v.data(), v.size(), nullptr, 0, nullptr) != OPTUNE_SUCCESS ||
      optune_queue_finish(env().queue) != OPTUNE_SUCCESS)
    throw std::runtime_error(optune_last_error_message());
}

inline std::vector<double> doubles(const std::vector<float>& v) { return {v.begin(), v.end()}; }

// Asserts a failed call's status and that its message names `needle`.
inline ::testing::AssertionResult fails(optune_status got, optune_status want, const std::string& needle) {
  const std::string msg = optune_last_error_message();
  if (got != want)
    return ::testing::AssertionFailure() << "status " << optune_status_name(got) << ", expected "
                                         << optune_status_name(want) << " (" << msg << ")";
  if (msg.find(needle) == std::string::npos)
    return ::testing::AssertionFailure() << "message '" << msg << "' does not name '" << needle << "'";
  return ::testing::AssertionSuccess();
}


}  // namespace optune::test::capi
