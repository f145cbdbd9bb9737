// The optune tool: info, bench and their errors, run as a user would.
#include <fstream>
#include <map>
#include <set>
#include <nlohmann/json.hpp>

#include "support/test_support.hpp"

using namespace optune;

namespace {

// `optune tune ARGS --runs 2` with its JSON report: the one bucket's result
// (null, after a failure is recorded, when the command fails or reports
// another number of buckets).
nlohmann::json tune_one_bucket(const std::string& args) {
  const std::string path = test::temp_dir() + "/tune-one-bucket.json";
  std::string out;
  if (test::run_cli("tune " + args + " --runs 2 --json " + path, &out) != 0) {
    ADD_FAILURE() << "optune tune " << args << " failed:\n" << out;
    return nullptr;
  }
  std::ifstream f(path);
  const auto j = nlohmann::json::parse(f);
  if (j["results"].size() != 1u) {
    ADD_FAILURE() << "optune tune " << args << " reported " << j["results"].size() << " buckets: " << j.dump();
    return nullptr;
  }
  return j["results"][0];
}

}  // namespace

TEST(Cli, InfoJsonNamesEveryDevice) {
  std::string out;
  ASSERT_EQ(test::run_cli("info --json", &out), 0) << out;
  // OPTUNE_LOG output goes to stderr which run_cli merges; info prints no log at the default level.
  const auto j = nlohmann::json::parse(out);
  ASSERT_TRUE(j.is_array());
  ASSERT_EQ(j.size(), devices().size());
  bool found_test_device = false;
  for (const auto& d : j) {
    for (const char* key : {"backend", "name", "vendor", "type", "spec", "compute_units", "max_work_group_size",
                            "local_mem_bytes", "fp16", "fp64", "images", "subgroups", "preferred_vector_width"})
      EXPECT_TRUE(d.contains(key)) << key;
    found_test_device |= d["spec"] == test::device().spec() && d["name"] == test::device().name();
  }
  EXPECT_TRUE(found_test_device);
}

TEST(Cli, InfoTextListsBackends) {
  std::string out;
  ASSERT_EQ(test::run_cli("info", &out), 0) << out;
  EXPECT_NE(out.find("backend opencl"), std::string::npos) << out;
  EXPECT_NE(out.find("backend cuda"), std::string::npos) << out;
  EXPECT_NE(out.find(test::device().spec()), std::string::npos) << out;
}

TEST(Cli, BadDeviceListsTheDevices) {
  std::string out;
  EXPECT_EQ(test::run_cli("bench --quiet", &out, "OPTUNE_DEVICE=opencl:42:0"), 2) << out;
  EXPECT_NE(out.find("opencl:42:0"), std::string::npos) << out;
  EXPECT_NE(out.find("devices that exist"), std::string::npos) << out;
  EXPECT_NE(out.find(devices().front().spec()), std::string::npos) << out;
  EXPECT_EQ(test::run_cli("bench --quiet --device nonsense", &out), 2) << out;
  EXPECT_NE(out.find("nonsense"), std::string::npos) << out;
}

TEST(Cli, BenchWritesCeilingsAsJson) {
  const std::string path = test::temp_dir() + "/bench.json";
  std::string out;
  ASSERT_EQ(test::run_cli("bench ceilings --quiet --runs 3 --copy-mib 8 --json " + path, &out), 0) << out;
  EXPECT_NE(out.find("copy ceiling"), std::string::npos) << out;
  EXPECT_NE(out.find("fma f32"), std::string::npos) << out;
  std::ifstream f(path);
  const auto j = nlohmann::json::parse(f);
  EXPECT_EQ(j["device"]["spec"], test::device().spec());
  const auto& c = j["ceilings"];
  EXPECT_GT(c["copy_gbs"].get<double>(), 0.0);
  EXPECT_GT(c["backend_copy_gbs"].get<double>(), 0.0);
  EXPECT_GT(c["kernel_copy_gbs"].get<double>(), 0.0);
  EXPECT_GT(c["fma_f32_gflops"].get<double>(), 0.0);
  EXPECT_DOUBLE_EQ(c["copy_gbs"].get<double>(),
                   std::max(c["backend_copy_gbs"].get<double>(), c["kernel_copy_gbs"].get<double>()));
  EXPECT_GE(c["detail"]["copies"].size(), 4u);
  EXPECT_EQ(j["timing"], "back-to-back");
}

TEST(Cli, BenchTimingModeIsChosenAndRecorded) {
  const std::string path = test::temp_dir() + "/bench-isolated.json";
  std::string out;
  ASSERT_EQ(test::run_cli("bench ceilings --quiet --runs 3 --copy-mib 4 --timing isolated --json " + path, &out), 0)
      << out;
  EXPECT_NE(out.find("timing: isolated"), std::string::npos) << out;
  std::ifstream f(path);
  const auto j = nlohmann::json::parse(f);
  EXPECT_EQ(j["timing"], "isolated");
  EXPECT_GT(j["ceilings"]["copy_gbs"].get<double>(), 0.0);
  EXPECT_NE(test::run_cli("bench ceilings --quiet --runs 1 --timing sometimes", &out), 0) << out;
  EXPECT_NE(out.find("--timing"), std::string::npos) << out;
}

TEST(Cli, BadOptionsAreRefused) {
  std::string out;
  EXPECT_NE(test::run_cli("bench --runs 0", &out), 0) << out;
  EXPECT_NE(test::run_cli("frobnicate", &out), 0) << out;
  // Refused before anything is measured.
  EXPECT_NE(test::run_cli("bench --json /nonexistent-dir/x.json --quiet --runs 1 --copy-mib 1", &out), 0) << out;
  EXPECT_NE(out.find("--json: cannot write /nonexistent-dir/x.json"), std::string::npos) << out;
  EXPECT_EQ(out.find("optune bench on"), std::string::npos) << out;
}

TEST(Cli, BenchElementwiseReportsEveryOperator) {
  const std::string path = test::temp_dir() + "/bench-ew.json";
  std::string out;
  ASSERT_EQ(test::run_cli("bench elementwise --runs 2 --copy-mib 4 --max-log2 12 --json " + path, &out), 0) << out;
  std::ifstream f(path);
  const auto j = nlohmann::json::parse(f);
  const auto& rows = j["operators"]["elementwise"];
  std::set<std::string> ops;
  for (const auto& r : rows) {
    ops.insert(r["op"].get<std::string>());
    EXPECT_GT(r["gbs"].get<double>(), 0.0);
    EXPECT_GT(r["fraction_of_copy_ceiling"].get<double>(), 0.0);
  }
  EXPECT_EQ(ops, (std::set<std::string>{"relu f32", "gelu f32", "gelu f16", "add f32", "where f32", "cast f32->f16"}));
  EXPECT_EQ(rows.size(), 6u * 2u);  // 2^10 and 2^12
}

// The conv suite's quick set: the three f32 cases in both layouts, each with
// the candidate the routine chose and its sampled outputs correct.
TEST(Cli, BenchConvQuickRunsEveryCase) {
  const std::string path = test::temp_dir() + "/bench-conv.json";
  std::string out;
  ASSERT_EQ(test::run_cli("bench conv --conv-quick --runs 1 --copy-mib 4 --json " + path, &out), 0) << out;
  std::ifstream f(path);
  const auto j = nlohmann::json::parse(f);
  std::map<std::string, std::string> chosen;
  for (const auto& r : j["operators"]["conv"]) {
    chosen[r["case"].get<std::string>()] = r["candidate"].get<std::string>();
    EXPECT_TRUE(r["correct"].get<bool>()) << r.dump();
    EXPECT_GT(r["median_us"].get<double>(), 0.0);
    // The reference (CLBlast's convgemm on OpenCL, cuDNN on CUDA) runs and
    // agrees, or says why not: convgemm takes NCHW with groups 1 only, and a
    // missing library is "not installed" / "not available".
    const auto& ref = r["reference"];
    const bool convgemm_takes = r["layout"] == "nchw" && r["groups"] == 1;
    if (ref["available"].get<bool>()) {
      EXPECT_GT(ref["speed_ratio"].get<double>(), 0.0) << r.dump();
      EXPECT_LE(ref["max_sampled_error"].get<double>(), 1e-5) << r.dump();
      if (!ref["max_relative_difference"].is_null())
        EXPECT_LE(ref["max_relative_difference"].get<double>(), 1e-5) << r.dump();
      if (j["device"]["backend"] == "opencl") EXPECT_TRUE(convgemm_takes) << r.dump();
    } else {
      const std::string why = ref["reason"].get<std::string>();
      if (why.rfind("not ", 0) != 0) {
        EXPECT_EQ(why, "CLBlast convgemm: NCHW, groups 1 and symmetric padding only") << r.dump();
        EXPECT_FALSE(convgemm_takes) << r.dump();
      }
    }
  }
  for (const char* l : {" nchw f32", " nhwc f32"}) {
    EXPECT_EQ(chosen[std::string("dw3x3") + l], "depthwise");
    EXPECT_EQ(chosen[std::string("conv3x3") + l], "winograd");
    EXPECT_EQ(chosen[std::string("conv1x1") + l], "pointwise");
  }
  EXPECT_EQ(chosen.size(), 6u);
}

// --fix holds parameters at a value: the baseline and every candidate carry
// it; a name the family lacks or a value that is not an integer is refused.
TEST(Cli, TuneFixHoldsParameters) {
  const nlohmann::json r = tune_one_bucket("copy --sizes 'n<=2^16' --fix WGS=64,VW=2 --strategy random --candidates 3");
  ASSERT_FALSE(r.is_null());
  std::string out;
  for (const char* key : {"default_params", "best_params", "fastest_params"}) {
    EXPECT_EQ(r[key]["WGS"], 64) << key << " " << r.dump();
    EXPECT_EQ(r[key]["VW"], 2) << key << " " << r.dump();
  }
  EXPECT_EQ(test::run_cli("tune copy --fix WGS=sixty", &out), 2) << out;
  EXPECT_NE(out.find("not an integer"), std::string::npos) << out;
  EXPECT_EQ(test::run_cli("tune copy --fix NOPE=1", &out), 2) << out;
  EXPECT_NE(out.find("NOPE=1"), std::string::npos) << out;
  EXPECT_EQ(test::run_cli("tune copy --fix WGS", &out), 2) << out;
}

// OPTUNE_BUILD_OPTIONS reaches the compiler of either back end: an option it
// does not know fails the build with an error naming it; a harmless one builds.
TEST(Cli, BuildOptionsReachTheCompiler) {
  std::string out;
  EXPECT_NE(test::run_cli("bench ceilings --quiet --runs 1 --copy-mib 1", &out,
                          "OPTUNE_CACHE=off OPTUNE_BUILD_OPTIONS=-optune-no-such-option"),
            0)
      << out;
  EXPECT_NE(out.find("optune-no-such-option"), std::string::npos) << out;
  EXPECT_EQ(test::run_cli("bench ceilings --quiet --runs 1 --copy-mib 1", &out,
                          "OPTUNE_CACHE=off OPTUNE_BUILD_OPTIONS=-DOPTUNE_UNUSED_MARK=1"),
            0)
      << out;
}

// The blas suite: axpy, dot (dotc) and nrm2 in f32, f64 (with fp64), c32 and
// f16, timed; where a reference library ran, its nrm2 agrees with optune's.
TEST(Cli, BenchBlasRunsEveryCase) {
  const std::string path = test::temp_dir() + "/bench-blas.json";
  std::string out;
  ASSERT_EQ(test::run_cli("bench blas --runs 1 --copy-mib 4 --json " + path, &out), 0) << out;
  std::ifstream f(path);
  const auto j = nlohmann::json::parse(f);
  const auto& rows = j["operators"]["blas"]["rows"];
  // Level 1 (axpy, dot, nrm2; also in f16) and the triangular level 2 (trmv,
  // trsv), per type.
  EXPECT_EQ(rows.size(), test::device().caps().fp64 ? 18u : 13u) << j.dump();
  for (const auto& r : rows) {
    EXPECT_GT(r["median_us"].get<double>(), 0.0) << r.dump();
    EXPECT_GT(r["fraction_of_copy_ceiling"].get<double>(), 0.0) << r.dump();
    const auto& ref = r["reference"];
    if (ref["available"].get<bool>() && r["dtype"] != "f16" &&
        (r["op"] == "nrm2" || r["op"] == "trmv" || r["op"] == "trsv"))
      EXPECT_LT(ref["relative_difference"].get<double>(), 1e-4) << r.dump();
  }
  // The h rows (level 1 and 2): a reference's results within the h
  // tolerance, or a reason that names why there is none (PoCL: no
  // cl_khr_fp16 for CLBlast's half routines).
  std::vector<nlohmann::json> half_rows;
  for (const auto* list : {&rows, &j["operators"]["blas"]["level2"]["rows"]})
    for (const auto& r : *list)
      if (r["dtype"] == "f16") half_rows.push_back(r);
  EXPECT_EQ(half_rows.size(), 7u) << j.dump();
  for (const auto& r : half_rows) {
    const auto& ref = r["reference"];
    if (!ref["available"].get<bool>()) {
      EXPECT_FALSE(ref["reason"].get<std::string>().empty()) << r.dump();
      if (!test::device().caps().fp16 && test::device().backend() == Backend::OpenCL &&
          j["operators"]["blas"]["reference_available"].get<bool>())
        EXPECT_NE(ref["reason"].get<std::string>().find("cl_khr_fp16"), std::string::npos) << r.dump();
    } else if (ref.contains("relative_difference")) {
      EXPECT_LE(ref["relative_difference"].get<double>(), ref["tolerance"].get<double>()) << r.dump();
      EXPECT_TRUE(ref["within_tolerance"].get<bool>()) << r.dump();
    }
  }
  const auto& level3 = j["operators"]["blas"]["level3"];
  EXPECT_EQ(level3.size(), 2u) << j.dump();
  for (const auto& r : level3) {
    EXPECT_GT(r["tflops"].get<double>(), 0.0) << r.dump();
    const auto& ref = r["reference"];
    if (ref["available"].get<bool>()) EXPECT_LT(ref["relative_difference"].get<double>(), 1e-4) << r.dump();
  }
  EXPECT_NE(test::run_cli("bench blas --only nope --runs 1", &out), 0);
  EXPECT_NE(out.find("axpy-f32"), std::string::npos) << out;  // the refusal lists the cases
}

// The blas_tri and blas_extra families tune through their cases: every
// candidate that runs gives the default's results (blas_extra's im2col and
// col2im buckets run those routines; f16 runs its half storage).
TEST(Cli, TuneBlasTriAndExtra) {
  for (const std::string& args : {std::string("blas_tri --dtype f32 --sizes 'mv/n<=256'"),
                                  std::string("blas_extra --dtype c32 --sizes 'n<=2^16'"),
                                  std::string("blas_extra --dtype f32 --sizes 'im2col/n<=2^16'"),
                                  std::string("blas_extra --dtype f64 --sizes 'col2im/n<=2^16'"),
                                  std::string("blas_tri --dtype f16 --sizes 'sv/n<=256'"),
                                  std::string("blas_extra --dtype f16 --sizes 'n<=2^16'")}) {
    const nlohmann::json r = tune_one_bucket(args + " --strategy random --candidates 3");
    ASSERT_FALSE(r.is_null());
    for (const auto& bad : r["invalid"]) EXPECT_NE(bad["stage"], "verify") << bad.dump();
  }
}

// The blas1 family tunes through its case: every candidate that runs gives
// the default's results (complex reductions keep VW 1: only the element-wise
// routines read complex vectors by packs).
TEST(Cli, TuneBlas1) {
  const nlohmann::json r = tune_one_bucket("blas1 --dtype c32 --sizes 'reduce/n<=2^16' --strategy random --candidates 4");
  ASSERT_FALSE(r.is_null());
  EXPECT_EQ(r["best_params"]["VW"], 1) << r.dump();
  for (const auto& bad : r["invalid"]) EXPECT_NE(bad["stage"], "verify") << bad.dump();
}

// A GEMM transpose pair tunes as a bucket of its own (small/nt: the small
// example stored NT), every candidate checked against the default; a pair
// that is not a refinement (nn) is refused.
TEST(Cli, TuneGemmTransposePair) {
  const nlohmann::json r = tune_one_bucket("gemm_tiled --dtype f32 --sizes small/nt --strategy random --candidates 1");
  ASSERT_FALSE(r.is_null());
  EXPECT_EQ(r["bucket"], "small/nt") << r.dump();
  for (const auto& bad : r["invalid"]) EXPECT_NE(bad["stage"], "verify") << bad.dump();
  std::string out;
  EXPECT_EQ(test::run_cli("tune gemm_tiled --dtype f32 --sizes small/nn --candidates 1", &out), 2) << out;
  EXPECT_NE(out.find("has no bucket 'small/nn'"), std::string::npos) << out;
}
