// The shipped tuning files for NVIDIA devices (database/{cuda,opencl}/nvidia),
// read as the database reads them at run time: every entry's family and
// parameter names are known, and its parameters, completed with the
// family's defaults, pass the family's check on the bucket's example problem
// under the capabilities of the device the file names. An entry that fails
// here is skipped at run time with a warning, which no CI run would see: the
// GPU machine is the only place such an entry applies.
#include <filesystem>
#include <fstream>
#include <sstream>

#include "database/format.hpp"
#include "kernels/families.hpp"
#include "support/gemm_fixture.hpp"

using namespace optune;

namespace {

// An H100 / H200 as the CUDA driver and NVIDIA's OpenCL report it (132 or
// 114 multiprocessors do not change any check; 48 KiB of local memory per
// group, warps of 32 on CUDA, no cl_khr_subgroups on OpenCL, where 2-D
// images are).
Capabilities hopper_caps(const std::string& backend, const detail::DbEntry& e) {
  Capabilities caps = test::nvidia_caps(backend == "cuda" ? Backend::CUDA : Backend::OpenCL, 90);
  caps.name = e.name, caps.vendor = e.vendor;
  caps.compute_units = 132, caps.max_threads_per_cu = 2048;
  if (caps.backend == Backend::CUDA) caps.subgroups = true, caps.subgroup_sizes = {32}, caps.warp_size = 32;
  caps.fp16 = caps.backend == Backend::CUDA;
  // NVIDIA's OpenCL has 2-D images of 32768 x 32768.
  if (caps.backend == Backend::OpenCL) caps.images = true, caps.image2d_max_width = caps.image2d_max_height = 32768;
  return caps;
}

std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

TEST(DatabaseShipped, NvidiaEntriesPassTheirFamiliesChecks) {
  const std::filesystem::path root = std::filesystem::path(OPTUNE_TEST_SOURCE_DIR) / "database";
  int files = 0, entries = 0;
  for (const char* backend : {"cuda", "opencl"}) {
    const std::filesystem::path dir = root / backend / "nvidia";
    ASSERT_TRUE(std::filesystem::is_directory(dir)) << dir;
    for (const auto& f : std::filesystem::directory_iterator(dir)) {
      if (f.path().extension() != ".json") continue;
      ++files;
      const std::vector<detail::DbEntry> all =
          detail::parse_database_json(read_file(f.path()), f.path().string(), /*strict=*/true);
      for (const detail::DbEntry& e : all) {
        ++entries;
        const std::string what = f.path().filename().string() + ": " + e.family + " " + e.dtype + " " + e.bucket +
                                 " " + detail::params_to_json(e.params);
        const Capabilities caps = hopper_caps(backend, e);
        const detail::KernelFamily& fam = detail::families::find(e.family);
        for (const auto& [name, value] : e.params) {
          bool known = false;
          for (const detail::Parameter& def : fam.parameters(caps)) known |= def.name == name;
          EXPECT_TRUE(known) << what << ": unknown parameter " << name;
        }
        ASSERT_TRUE(fam.knows_bucket(e.bucket)) << what;
        const detail::Params p = fam.complete(e.params, caps);
        EXPECT_EQ(fam.check(p, caps, fam.example(parse_dtype(e.dtype), e.bucket, caps)), "") << what;
      }
    }
  }
  EXPECT_GE(files, 4);
  EXPECT_GT(entries, 50);
}
