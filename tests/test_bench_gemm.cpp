// `optune bench gemm`, run as a user would: its rows, the reference library in
// the same run, and a missing library reported instead of failing the run.
// Nothing here judges speed (DESIGN.md section 7); only that the numbers exist
// and the results agree.
#include <fstream>
#include <sstream>
#include <nlohmann/json.hpp>

#include "gemm_check.hpp"
#include "reference_blas.hpp"
#include "support/test_support.hpp"

using namespace optune;

namespace {

nlohmann::json gemm_suite(const std::string& args, const std::string& env, std::string* out) {
  const std::string path = test::temp_dir() + "/bench-gemm.json";
  std::remove(path.c_str());
  const int rc = test::run_cli("bench gemm --runs 1 --copy-mib 8 --json " + path + " " + args, out, env);
  EXPECT_EQ(rc, 0) << *out;
  std::ifstream f(path);
  if (!f) return nullptr;
  return nlohmann::json::parse(f)["operators"]["gemm"];
}

bool reference_expected() {
  return test::device().backend() == Backend::CUDA ? tool::probe_cublas().loaded : tool::probe_clblast().loaded;
}

}  // namespace

TEST(BenchGemm, QuickRunHasEveryColumnAndAgreesWithTheReference) {
  std::string out;
  const nlohmann::json g = gemm_suite("--gemm-quick", "", &out);
  ASSERT_TRUE(g.is_object()) << out;
  EXPECT_EQ(g["quick"], true);
  EXPECT_EQ(g["scaled_down"], test::device().caps().type == DeviceType::CPU);
  ASSERT_GE(g["rows"].size(), 2u) << out;
  bool batched = false;
  for (const auto& row : g["rows"]) {
    SCOPED_TRACE(row.dump());
    ASSERT_FALSE(row.contains("error"));
    EXPECT_GT(row["gflops"].get<double>(), 0.0);
    EXPECT_GT(row["fraction_of_fma_ceiling"].get<double>(), 0.0);
    // f16, bf16 and tf32 rows against the tensor cores where they exist
    // (CUDA sm_80+: bench ceilings measured them), else none.
    const std::string type = row["dtype"].get<std::string>();
    const Capabilities& caps = test::device().caps();
    const bool tensor = caps.backend == Backend::CUDA && caps.compute_capability_major >= 8 &&
                        (type == "f16" || type == "bf16" || type == "tf32");
    EXPECT_EQ(row["fraction_of_tensor_ceiling"].get<double>() > 0.0, tensor);
    EXPECT_LE(row["spot_check_error"].get<double>(), row["tolerance"].get<double>());
    EXPECT_FALSE(row["flagged"].get<bool>());
    batched |= row["batch"].get<std::int64_t>() > 1;
    const auto& ref = row["reference"];
    EXPECT_EQ(ref["available"].get<bool>(), reference_expected()) << out;
    if (ref["available"].get<bool>()) {
      EXPECT_GT(ref["gflops"].get<double>(), 0.0);
      EXPECT_GT(ref["speed_ratio"].get<double>(), 0.0);
      EXPECT_LE(ref["max_relative_difference"].get<double>(), row["tolerance"].get<double>());
    }
  }
  EXPECT_TRUE(batched);
  EXPECT_NE(out.find("reference: "), std::string::npos) << out;
  EXPECT_EQ(out.find("MISMATCH"), std::string::npos) << out;
  // Rows and their parameter lines fit 120 columns.
  std::istringstream lines(out);
  int rows = 0, params = 0;
  for (std::string line; std::getline(lines, line);) {
    const bool row = line.starts_with("square ") || line.starts_with("batched ");
    rows += row;
    params += line.starts_with("    params:");
    if (row || line.starts_with("    ")) EXPECT_LE(line.size(), 120u) << line;
  }
  EXPECT_EQ(rows, int(g["rows"].size())) << out;
  EXPECT_EQ(params, rows) << out;
}

TEST(BenchGemm, MissingReferenceLibraryIsReportedNotFatal) {
  std::string out;
  const nlohmann::json g =
      gemm_suite("--gemm-cases square --gemm-sizes 64 --gemm-types f32",
                 "OPTUNE_CLBLAST_LIBRARY=/nonexistent/libclblast.so.1 OPTUNE_CUBLAS_LIBRARY=/nonexistent/libcublas.so.13",
                 &out);
  ASSERT_TRUE(g.is_object()) << out;
  EXPECT_EQ(g["reference_available"], false);
  EXPECT_NE(g["reference"].get<std::string>().find("not available: "), std::string::npos) << g["reference"];
  EXPECT_NE(g["reference"].get<std::string>().find("/nonexistent/"), std::string::npos) << g["reference"];
  ASSERT_EQ(g["rows"].size(), 1u);
  const auto& row = g["rows"][0];
  EXPECT_EQ(row["m"], 64);
  EXPECT_GT(row["gflops"].get<double>(), 0.0);
  EXPECT_FALSE(row["reference"]["available"].get<bool>());
  EXPECT_NE(out.find("reference: not available: "), std::string::npos) << out;
}

TEST(BenchGemm, RejectsAnUnknownCaseGroup) {
  std::string out;
  EXPECT_NE(test::run_cli("bench gemm --gemm-cases cubes", &out), 0) << out;
  EXPECT_NE(out.find("cubes"), std::string::npos) << out;
}

TEST(BenchGemm, ChecksCatchOneWrongElement) {
  // The bench's own checks, on the host: a product computed here passes, the
  // same product with one element off fails both the cross-check and (where
  // the sample hits it) the spot check.
  tool::GemmShape s;
  s.trans_b = Transpose::Yes;
  s.m = 7;
  s.n = 5;
  s.k = 300;
  s.batch = 2;
  const auto a = tool::random_matrix<float>(std::size_t(s.size_a() * s.batch), 1);
  const auto b = tool::random_matrix<float>(std::size_t(s.size_b() * s.batch), 2);
  std::vector<float> c(std::size_t(s.size_c() * s.batch));
  for (std::int64_t p = 0; p < s.batch; ++p)
    for (std::int64_t i = 0; i < s.m; ++i)
      for (std::int64_t j = 0; j < s.n; ++j) {
        double sum = 0;
        for (std::int64_t l = 0; l < s.k; ++l)
          sum += double(a[std::size_t(p * s.size_a() + i * s.lda() + l)]) *
                 double(b[std::size_t(p * s.size_b() + j * s.ldb() + l)]);
        c[std::size_t(p * s.size_c() + i * s.ldc() + j)] = float(sum);
      }
  const double tol = tool::gemm_tolerance(DType::F32, s.k);
  EXPECT_LE(tool::spot_check(s, a, b, c, 64), tol);
  EXPECT_EQ(tool::max_relative_difference(c, c), 0.0);
  std::vector<float> wrong = c;
  for (float& x : wrong) x += 1.0f;  // every element off: any sample sees it
  EXPECT_GT(tool::spot_check(s, a, b, wrong), tol);
  wrong = c;
  wrong[13] += 10.0f;  // |c| stays below 30 for k = 300 values in [-1, 1)
  EXPECT_GT(tool::max_relative_difference(wrong, c), tol);
  wrong[13] = NAN;
  EXPECT_TRUE(std::isinf(tool::max_relative_difference(wrong, c)));
  EXPECT_NE(tool::random_matrix<float>(8, 1), tool::random_matrix<float>(8, 2));
  for (float x : a) EXPECT_TRUE(x >= -1.0f && x < 1.0f);
}

// --gemm-product M,N,K runs that one product (every type asked for); the thin
// group reports each row against the copy ceiling for reading the operands once.
TEST(BenchGemm, OneProductAndTheThinGroup) {
  std::string out;
  nlohmann::json g = gemm_suite("--gemm-product 3,70,41 --gemm-types f32 --no-reference", "", &out);
  ASSERT_TRUE(g.is_object()) << out;
  ASSERT_EQ(g["rows"].size(), 1u) << out;
  const nlohmann::json& r = g["rows"][0];
  EXPECT_EQ(r["group"], "product");
  EXPECT_EQ(r["m"], 3);
  EXPECT_EQ(r["n"], 70);
  EXPECT_EQ(r["k"], 41);
  EXPECT_FALSE(r["flagged"].get<bool>()) << out;
  EXPECT_DOUBLE_EQ(r["operand_bytes"].get<double>(), 4.0 * (3 * 41 + 41 * 70 + 3 * 70));
  EXPECT_NE(test::run_cli("bench gemm --gemm-product 3,70", &out), 0) << out;
  // bf16 products too (storage on devices without it), checked like the others.
  g = gemm_suite("--gemm-product 3,70,41 --gemm-types bf16,f32 --no-reference", "", &out);
  ASSERT_TRUE(g.is_object()) << out;
  ASSERT_EQ(g["rows"].size(), 2u) << out;
  EXPECT_EQ(g["rows"][1]["dtype"], "bf16");
  EXPECT_FALSE(g["rows"][1]["flagged"].get<bool>()) << out;
  EXPECT_DOUBLE_EQ(g["rows"][1]["operand_bytes"].get<double>(), 2.0 * (3 * 41 + 41 * 70 + 3 * 70));
  // Several triples, with --gemm-trans; a count that is not a multiple of 3,
  // or an unknown transpose pair, is refused.
  g = gemm_suite("--gemm-product 3,70,41,66,5,17 --gemm-trans NT --gemm-types f32 --no-reference", "", &out);
  ASSERT_TRUE(g.is_object()) << out;
  ASSERT_EQ(g["rows"].size(), 2u) << out;
  EXPECT_EQ(g["rows"][1]["m"], 66);
  EXPECT_EQ(g["rows"][1]["n"], 5);
  EXPECT_EQ(g["rows"][1]["k"], 17);
  for (const nlohmann::json& row : g["rows"]) {
    EXPECT_EQ(row["trans"], "NT");
    EXPECT_FALSE(row["flagged"].get<bool>()) << row.dump();
  }
  EXPECT_NE(test::run_cli("bench gemm --gemm-product 3,70,41,5 --no-reference", &out), 0) << out;
  EXPECT_NE(out.find("M,N,K triples: 4 values given"), std::string::npos) << out;
  EXPECT_NE(test::run_cli("bench gemm --gemm-product 3,70,41 --gemm-trans NX", &out), 0) << out;
  // One pair per product (in either case); another count of pairs is refused.
  g = gemm_suite("--gemm-product 3,70,41,66,5,17 --gemm-trans tn,Nt --gemm-types f32 --no-reference", "", &out);
  ASSERT_TRUE(g.is_object()) << out;
  ASSERT_EQ(g["rows"].size(), 2u) << out;
  EXPECT_EQ(g["rows"][0]["trans"], "TN");
  EXPECT_EQ(g["rows"][1]["trans"], "NT");
  EXPECT_NE(test::run_cli("bench gemm --gemm-product 3,70,41,66,5,17 --gemm-trans NT,NT,NN --no-reference", &out), 0)
      << out;
  EXPECT_NE(out.find("one per product: 3 given for 2 products"), std::string::npos) << out;

  // NN rows for M = 1, 8, 16, 32, 128 and NT (x W^T) rows for 1, 8, 16.
  g = gemm_suite("--gemm-cases thin --gemm-types f32 --no-reference", "", &out);
  ASSERT_TRUE(g.is_object()) << out;
  ASSERT_EQ(g["rows"].size(), 8u) << out;
  int nt = 0;
  for (const nlohmann::json& row : g["rows"]) {
    nt += row["trans"] == "NT";
    EXPECT_EQ(row["group"], "thin");
    EXPECT_GT(row["fraction_of_copy_ceiling"].get<double>(), 0.0);
    // The same bytes copied once, timed alike: a positive time and its ratio.
    EXPECT_GT(row["same_size_copy_us"].get<double>(), 0.0) << row.dump();
    EXPECT_NEAR(row["fraction_of_same_size_copy"].get<double>(),
                row["same_size_copy_us"].get<double>() / row["median_us"].get<double>(), 1e-9)
        << row.dump();
    EXPECT_FALSE(row["flagged"].get<bool>()) << row.dump();
  }
  EXPECT_EQ(nt, 3) << out;
  EXPECT_NE(out.find("copy ceiling, for reading A and B and writing C once"), std::string::npos) << out;
}
