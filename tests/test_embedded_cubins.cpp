// Cubins embedded at build time (runtime/embedded_cubins.hpp,
// tools/embed_cubins): the index and its damage, the exact-match rule on a
// dry-run H100 (only the same architecture, options and text load; anything
// else, a damaged entry included, compiles), that the library's own blob
// holds what the runtime asks for on the H100 profile's capabilities for a
// first SGEMM 256^3, and, on an H100 (label gpu), that a cold SGEMM 256^3
// compiles nothing and is right.
#include <gtest/gtest.h>

#ifdef OPTUNE_WITH_CUDA

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <optional>

#include "optune/optune.hpp"
#include "runtime/cuda/cuda_caps.hpp"
#include "runtime/cuda/dry_device.hpp"
#include "runtime/cuda/nvrtc_check.hpp"
#include "runtime/embedded_cubins.hpp"
#include "runtime/program.hpp"
#include "support/test_support.hpp"

using namespace optune;
using namespace optune::detail;

namespace {

Capabilities profile_caps(const std::string& id) {
  for (const CudaProfile& p : embedded_cubin_profiles(cuda_fp16_headers()))
    if (p.id == id) return cuda_capabilities(p.attributes, 0);
  throw Error(Status::NotFound, "no profile " + id);
}

// A fresh context (programs are cached per context) that builds one small program.
ProgramCounts build_one(const Device& dev, const std::string& body) {
  const ProgramCounts p0 = program_counts();
  Context ctx(dev);
  get_program_from_text(*ctx.impl(), "test/one.cl", body, {{"N", "4"}});
  const ProgramCounts p1 = program_counts();
  return {p1.compiled - p0.compiled, p1.from_disk - p0.from_disk, p1.from_memory - p0.from_memory,
          p1.from_embedded - p0.from_embedded};
}

struct TestBlob {
  std::vector<std::uint8_t> blob;
  explicit TestBlob(const std::vector<CubinEntry>& entries) : blob(write_cubin_index(entries)) {
    set_embedded_cubins_for_testing(&blob);
  }
  // A whole file (sized, read in one call: this code is built at -O0).
  explicit TestBlob(std::ifstream& in) {
    in.seekg(0, std::ios::end);
    blob.resize(std::size_t(in.tellg()));
    in.seekg(0);
    in.read(reinterpret_cast<char*>(blob.data()), std::streamsize(blob.size()));
    set_embedded_cubins_for_testing(&blob);
  }
  ~TestBlob() { set_embedded_cubins_for_testing(nullptr); }
};

const char* kBody = "__kernel void one(__global float* p) { p[get_global_id(0)] = N; }\n";

}  // namespace

TEST(EmbeddedCubins, IndexRoundTripsAndRefusesDamage) {
  const std::vector<CubinEntry> entries{{"sm_90\x1f-a\x1f" "0123", {1, 2, 3}}, {"sm_80\x1f-b\x1f" "4567", {4, 5}}};
  const std::vector<std::uint8_t> blob = write_cubin_index(entries);
  const CubinIndex index(blob.data(), blob.size());
  ASSERT_TRUE(index.ok()) << index.error();
  EXPECT_EQ(index.size(), 2u);
  for (const CubinEntry& e : entries) {
    std::string why;
    auto got = index.find(e.key, &why);
    ASSERT_TRUE(got) << why;
    EXPECT_EQ(*got, e.cubin);
  }
  EXPECT_FALSE(index.find("sm_90\x1f-a\x1f" "0124", nullptr));

  std::vector<std::uint8_t> bad = blob;
  bad[0] = 'X';
  EXPECT_FALSE(CubinIndex(bad.data(), bad.size()).ok());
  bad = blob;
  bad[8] = 2;  // format
  EXPECT_FALSE(CubinIndex(bad.data(), bad.size()).ok());
  // Cut anywhere: the index is refused whole (its last cubin would point
  // past the end), never read past the end.
  for (std::size_t n = 1; n < blob.size(); ++n) {
    const CubinIndex cut(blob.data(), n);
    EXPECT_FALSE(cut.ok()) << n;
    EXPECT_EQ(cut.size(), 0u) << n;
  }
  // One flipped byte in a cubin: that entry is refused with a reason.
  bad = blob;
  bad.back() ^= 1;
  const CubinIndex flipped(bad.data(), bad.size());
  ASSERT_TRUE(flipped.ok());
  std::string why;
  EXPECT_FALSE(flipped.find(entries[1].key, &why));
  EXPECT_NE(why.find("checksum"), std::string::npos) << why;
  EXPECT_TRUE(flipped.find(entries[0].key, nullptr));
}

TEST(EmbeddedCubins, OnlyAnExactMatchLoadsAndDamageCompiles) {
  const Capabilities caps = profile_caps("h100");
  const Device dev = make_dry_cuda_device(caps);
  EXPECT_EQ(build_one(dev, kBody).compiled, 1u);
  const std::vector<DryBuild> builds = dry_builds(dev);
  ASSERT_EQ(builds.size(), 1u);
  const std::string text = builds[0].text, options = builds[0].options;
  EXPECT_NE(options.find("--gpu-architecture=sm_90"), std::string::npos) << options;
  const std::vector<std::uint8_t> cubin{0x7f, 'E', 'L', 'F', 1, 2, 3};

  {
    TestBlob b({{cubin_key("sm_90", options, text), cubin}});
    const ProgramCounts c = build_one(dev, kBody);
    EXPECT_EQ(c.from_embedded, 1u);
    EXPECT_EQ(c.compiled, 0u);
    // Turned off: compiled, strictly parsed.
    ::setenv("OPTUNE_EMBEDDED_CUBINS", "off", 1);
    EXPECT_EQ(build_one(dev, kBody).compiled, 1u);
    ::setenv("OPTUNE_EMBEDDED_CUBINS", "0", 1);
    EXPECT_EQ(build_one(dev, kBody).compiled, 1u);
    ::setenv("OPTUNE_EMBEDDED_CUBINS", "1", 1);
    EXPECT_EQ(build_one(dev, kBody).from_embedded, 1u);
    ::unsetenv("OPTUNE_EMBEDDED_CUBINS");
    // Another body: another text, compiled.
    EXPECT_EQ(build_one(dev, std::string(kBody) + " ").compiled, 1u);
  }
  const std::vector<std::pair<std::string, std::string>> near{
      {cubin_key("sm_80", options, text), "another architecture"},
      {cubin_key("sm_90", options + " -DX=1", text), "other options"},
      {cubin_key("sm_90", options, text + " "), "another text"}};
  for (const auto& [key, what] : near) {
    TestBlob b({{key, cubin}});
    const ProgramCounts c = build_one(dev, kBody);
    EXPECT_EQ(c.compiled, 1u) << what;
    EXPECT_EQ(c.from_embedded, 0u) << what;
  }
  {
    // The right key over damaged bytes: compiled, never loaded.
    TestBlob b({{cubin_key("sm_90", options, text), cubin}});
    b.blob.back() ^= 0x40;
    set_embedded_cubins_for_testing(&b.blob);
    const ProgramCounts c = build_one(dev, kBody);
    EXPECT_EQ(c.compiled, 1u);
    EXPECT_EQ(c.from_embedded, 0u);
  }
  {
    // A damaged index: every program compiles.
    TestBlob b({{cubin_key("sm_90", options, text), cubin}});
    b.blob.resize(b.blob.size() - 1);
    set_embedded_cubins_for_testing(&b.blob);
    EXPECT_EQ(build_one(dev, kBody).compiled, 1u);
  }
}

// The generator's keys are the runtime's: the blob this build embedded holds
// every program that a first SGEMM 256^3 builds on the H100 profile's
// capabilities (trust checks included), as the runtime computes them now.
// The test preset's builds embed none and name the blob their generator
// checked (OPTUNE_TEST_CUBIN_BLOB, OPTUNE_EMBED_CUBINS_QUICK): that one.
TEST(EmbeddedCubins, LibraryBlobHoldsTheH100sFirstSgemm) {
  std::optional<TestBlob> checked;
  if (const char* file = std::getenv("OPTUNE_TEST_CUBIN_BLOB"); file && embedded_cubins()->size() == 0) {
    std::ifstream in(file, std::ios::binary);
    ASSERT_TRUE(in) << "cannot read " << file;
    checked.emplace(in);
    ASSERT_TRUE(embedded_cubins()->ok()) << embedded_cubins()->error();
    ASSERT_GT(embedded_cubins()->size(), 0u) << file << " holds no cubin";
  }
  if (embedded_cubins()->size() == 0) GTEST_SKIP() << "built without embedded cubins (OPTUNE_EMBED_CUBINS=OFF)";
  const Device dev = make_dry_cuda_device(profile_caps("h100"));
  const Context ctx(dev);
  const Queue q(ctx);
  const std::int64_t s = 256;
  Buffer<float> a = ctx.alloc<float>(s * s), b = ctx.alloc<float>(s * s), c = ctx.alloc<float>(s * s);
  const ProgramCounts p0 = program_counts();
  gemm<float>(q, Layout::RowMajor, Transpose::No, Transpose::No, s, s, s, 1.0, a, s, b, s, 0.0, c, s).wait();
  const ProgramCounts p1 = program_counts();
  std::string missing;
  for (const DryBuild& d : dry_builds(dev)) missing += d.text.substr(d.text.rfind("#line 1 \""), 60) + "\n  " + d.options + "\n";
  EXPECT_EQ(p1.compiled - p0.compiled, 0u) << "not embedded:\n" << missing;
  EXPECT_GT(p1.from_embedded - p0.from_embedded, 0u);
}

// On an H100 (the gpu-label run): the probe gives the profile's
// capabilities, and a cold SGEMM 256^3 on a new context loads embedded
// cubins, compiles nothing, and is right.
TEST(EmbeddedCubins, ColdSgemmOnTheH100CompilesNothing) {
  const Device dev = test::device();
  const Capabilities want = profile_caps("h100");
  if (dev.backend() != Backend::CUDA || dev.name() != want.name)
    GTEST_SKIP() << "needs " << want.name << " on the CUDA back end (OPTUNE_DEVICE=cuda:N)";
  if (embedded_cubins()->size() == 0) GTEST_SKIP() << "built without embedded cubins (OPTUNE_EMBED_CUBINS=OFF)";
  const Capabilities& got = dev.caps();
  EXPECT_EQ(capability_macros(got), capability_macros(want));
  EXPECT_EQ(dev.impl()->base_options(), cuda_base_options(want.architecture));
  EXPECT_EQ(got.compute_units, want.compute_units);
  EXPECT_EQ(got.local_mem_bytes, want.local_mem_bytes);
  EXPECT_EQ(got.shared_mem_per_block_optin_bytes, want.shared_mem_per_block_optin_bytes);
  EXPECT_EQ(got.shared_mem_per_cu_bytes, want.shared_mem_per_cu_bytes);
  EXPECT_EQ(got.l2_bytes, want.l2_bytes);
  EXPECT_EQ(got.max_work_group_size, want.max_work_group_size);
  EXPECT_EQ(got.max_work_item_sizes, want.max_work_item_sizes);

  const Context ctx(dev);
  const Queue q(ctx);
  const std::int64_t s = 256;
  const std::vector<float> ha = test::random_floats(s * s), hb = test::random_floats(s * s);
  Buffer<float> a = ctx.alloc<float>(s * s), b = ctx.alloc<float>(s * s), c = ctx.alloc<float>(s * s);
  q.upload(a, std::span<const float>(ha));
  q.upload(b, std::span<const float>(hb));
  std::vector<float> hc(std::size_t(s * s), -1.7e38f);
  q.upload(c, std::span<const float>(hc));
  q.finish();
  const ProgramCounts p0 = program_counts();
  gemm<float>(q, Layout::RowMajor, Transpose::No, Transpose::No, s, s, s, 1.0, a, s, b, s, 0.0, c, s).wait();
  const ProgramCounts p1 = program_counts();
  EXPECT_EQ(p1.compiled - p0.compiled, 0u);
  EXPECT_GT(p1.from_embedded - p0.from_embedded, 0u);
  hc = q.download(c);
  for (std::int64_t i = 0; i < s; ++i)
    for (std::int64_t j = 0; j < s; ++j) {
      double ref = 0, scale = 0;
      for (std::int64_t k = 0; k < s; ++k) {
        ref += double(ha[i * s + k]) * hb[k * s + j];
        scale += std::fabs(double(ha[i * s + k]) * hb[k * s + j]);
      }
      ASSERT_NEAR(hc[i * s + j], ref, 4e-6 * scale + 1e-30) << i << "," << j;
    }
}

#endif  // OPTUNE_WITH_CUDA
