// The tuning files the library embeds for NVIDIA devices
// (database/{cuda,opencl}/nvidia), judged as the database judges them at run
// time (detail::entry_unusable): every entry's parameter names are its
// family's, and its parameters, completed with the family's defaults, pass
// the family's check on the bucket's example problem under the capabilities
// of the device the file names. An entry that fails here is skipped at run
// time with a warning, which no CI run would see: the GPU machine is the only
// place such an entry applies.
#include <string_view>
#include <vector>

#include "database/database.hpp"
#include "database/format.hpp"
#include "kernels/conv/conv.hpp"
#include "kernels/families.hpp"
#include "runtime/embedded.hpp"
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

// Calls visit(path, backend, entry) for every entry of the embedded NVIDIA
// files (parsed strictly); returns how many files there were.
template <class Visit>
int for_each_nvidia_entry(Visit visit) {
  int files = 0;
  for (const detail::EmbeddedFile* f = detail::embedded_database_files(); f && f->path; ++f) {
    const std::string_view path(f->path);
    const char* backend = path.rfind("cuda/nvidia/", 0) == 0     ? "cuda"
                          : path.rfind("opencl/nvidia/", 0) == 0 ? "opencl"
                                                                 : nullptr;
    if (!backend) continue;
    ++files;
    for (const detail::DbEntry& e :
         detail::parse_database_json(std::string(f->data, f->size), "database/" + std::string(path), /*strict=*/true))
      visit(path, std::string(backend), e);
  }
  return files;
}

}  // namespace

TEST(DatabaseShipped, NvidiaEntriesPassTheirFamiliesChecks) {
  int entries = 0;
  const int files = for_each_nvidia_entry([&](std::string_view path, const std::string& backend,
                                              const detail::DbEntry& e) {
    ++entries;
    const std::string what = std::string(path) + ": " + e.family + " " + e.dtype + " " + e.bucket + " " +
                             detail::params_to_json(e.params);
    const Capabilities caps = hopper_caps(backend, e);
    const detail::KernelFamily& fam = detail::families::find(e.family);
    ASSERT_TRUE(fam.knows_bucket(e.bucket)) << what;
    EXPECT_EQ(detail::entry_unusable(fam, e.params, caps, fam.example(parse_dtype(e.dtype), e.bucket, caps)), "")
        << what;
  });
  EXPECT_GE(files, 4);
  EXPECT_GT(entries, 50);
}

// What the check above catches: the H200's f64 gemv entry as first shipped,
// {"GEMM": 22}, whose completed defaults (SB 64) overflow local memory in
// f64, and a name the family does not have.
TEST(DatabaseShipped, UnusableEntriesAreNamed) {
  detail::DbEntry e;
  e.name = "NVIDIA H200", e.vendor = "NVIDIA";
  const Capabilities caps = hopper_caps("cuda", e);
  const detail::KernelFamily& blas2 = detail::families::find("blas2");
  const auto example = blas2.example(DType::F64, "mv-cols/n<=2^22", caps);
  EXPECT_EQ(detail::entry_unusable(blas2, {{"GEMM", 22}}, caps, example), "symv's strip sums exceed local memory");
  EXPECT_EQ(detail::entry_unusable(blas2, {{"GEMM", 22}, {"SB", 32}}, caps, example), "");
  EXPECT_EQ(detail::entry_unusable(blas2, {{"GEMM", 22}, {"NOPE", 1}}, caps, example), "unknown parameter NOPE");
}

// A stored entry serves every layer of its bucket: each shipped
// conv_depthwise entry passes its family's check (as the database's lookup
// asks it) on the bucket's other layers, strided, dilated, with widths that
// are no multiple of the packs, a 5 x 5 filter, and f16 with f32 sums asked
// for (Accumulate::F32). The H200's ROLL 1 entries once failed it on every
// strided layer, which then ran the family's defaults.
TEST(DatabaseShipped, ConvDepthwiseEntriesServeEveryLayerOfTheirBucket) {
  int checked = 0;
  for_each_nvidia_entry([&](std::string_view path, const std::string& backend, const detail::DbEntry& e) {
    if (e.family != "conv_depthwise") return;
    const Capabilities caps = hopper_caps(backend, e);
    const detail::KernelFamily& fam = detail::families::find(e.family);
    const DType t = parse_dtype(e.dtype);
    const bool nhwc = e.bucket == "nhwc";
    std::vector<detail::ConvProblem> layers{
        detail::conv_kernels::make(t, 8, 96, 112, 112, 96, 3, 3, 2, 1, 96, nhwc),   // stride 2
        detail::conv_kernels::make(t, 1, 576, 14, 14, 576, 3, 3, 1, 1, 576, nhwc),  // 14 wide
        detail::conv_kernels::make(t, 1, 40, 9, 9, 40, 5, 5, 1, 2, 40, nhwc),       // 5 x 5, odd sizes
        detail::conv_kernels::make(t, 1, 64, 20, 20, 64, 3, 3, 3, 1, 64, nhwc),     // stride 3: no windows
    };
    detail::ConvProblem dil = layers[1];
    dil.dil_h = dil.dil_w = 2, dil.pad_t = dil.pad_b = dil.pad_l = dil.pad_r = 2;
    layers.push_back(dil);
    detail::ConvProblem f32_sums = layers[1];
    f32_sums.half_arith = false;
    layers.push_back(f32_sums);
    const detail::Params p = fam.complete(e.params, caps);
    for (std::size_t i = 0; i < layers.size(); ++i) {
      EXPECT_EQ(fam.check(p, caps, detail::Problem(layers[i])), "")
          << path << ": " << e.dtype << " " << e.bucket << " " << detail::params_to_json(e.params) << ", layer " << i;
      ++checked;
    }
  });
  EXPECT_GT(checked, 0);
}
