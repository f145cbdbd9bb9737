// Helpers shared by the tests: the device under test, fresh random data,
// poisoning, and comparison against double-precision references.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "optune/optune.hpp"

namespace optune::test {

// The device every test runs on: OPTUNE_DEVICE, else the default rule.
Device device();
// A context and queue on device(), shared by the tests of one process.
const Context& context();
const Queue& queue();

// A generator seeded freshly per call site run; the seed is printed on failure
// through SCOPED_TRACE by the caller (see seed()).
std::mt19937_64& rng();
std::uint64_t seed();

std::vector<float> random_floats(std::size_t n, float lo = -1.0f, float hi = 1.0f);
std::vector<std::uint32_t> random_words(std::size_t n);

// A scratch folder unique to this process, removed at exit.
std::string temp_dir();

// Runs the optune tool with arguments and environment prefix; returns the
// exit code and fills output (stdout+stderr).
int run_cli(const std::string& args, std::string* output, const std::string& env = "");

// Runs fn, expecting Error(status) whose message contains `needle`.
template <class Fn>
void expect_error(Status status, const std::string& needle, Fn&& fn) {
  try {
    fn();
    ADD_FAILURE() << "no error; expected " << status_name(status) << " mentioning '" << needle << "'";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), status) << e.what();
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << "'" << needle << "' not in: " << e.what();
  }
}

// Runs this test binary again as a child, with only the tests that match
// filter and the environment prefix env; returns the exit code (-1 when it
// died of a signal) and fills output (stdout+stderr).
int run_self(const std::string& filter, std::string* output, const std::string& env = "");

}  // namespace optune::test
