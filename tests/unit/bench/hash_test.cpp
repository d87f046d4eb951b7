// Tests of `tritium hash`'s pieces (bench/hash.h): SHA-256 against the FIPS 180-2 test
// vectors, ulp distances on hand-built bit patterns, and whole runs on the cpu and interp
// backends — a correct kernel agrees, with each output's hash the SHA-256 of the bytes the
// launch wrote; a wrong kernel fails the run (exit 1); usage errors exit 2.
#include "bench/hash.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "bench/exec.h"

namespace {

using namespace tritium::bench;

std::vector<unsigned char> bytes_of(const std::string& s) { return {s.begin(), s.end()}; }

std::vector<unsigned char> f32s(std::initializer_list<float> v) {
  std::vector<unsigned char> b(v.size() * 4);
  size_t i = 0;
  for (float f : v) std::memcpy(b.data() + 4 * i++, &f, 4);
  return b;
}

std::vector<unsigned char> u16s(std::initializer_list<uint16_t> v) {
  std::vector<unsigned char> b(v.size() * 2);
  size_t i = 0;
  for (uint16_t h : v) std::memcpy(b.data() + 2 * i++, &h, 2);
  return b;
}

TEST(Hash, Sha256MatchesTheFipsTestVectors) {
  EXPECT_EQ(sha256_hex(bytes_of("abc")), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256_hex({}), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256_hex(bytes_of("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

TEST(Hash, UlpDistances) {
  const float one = 1.0f, next = std::nextafter(1.0f, 2.0f), next3 = std::nextafter(std::nextafter(next, 2.0f), 2.0f);
  EXPECT_EQ(max_ulp_distance(f32s({one, 2.0f}), f32s({one, 2.0f}), "fp32"), 0);
  EXPECT_EQ(max_ulp_distance(f32s({one, 2.0f}), f32s({next, 2.0f}), "fp32"), 1);
  EXPECT_EQ(max_ulp_distance(f32s({one, 2.0f}), f32s({next3, 2.0f}), "fp32"), 3);
  EXPECT_EQ(max_ulp_distance(f32s({0.0f}), f32s({-0.0f}), "fp32"), 0);
  const float tiny = std::nextafter(0.0f, 1.0f);
  EXPECT_EQ(max_ulp_distance(f32s({tiny}), f32s({-tiny}), "fp32"), 2);  // across zero
  EXPECT_EQ(max_ulp_distance(f32s({NAN}), f32s({NAN}), "fp32"), 0);
  EXPECT_EQ(max_ulp_distance(f32s({NAN}), f32s({one}), "fp32"), -1);
  EXPECT_EQ(max_ulp_distance(f32s({one}), f32s({one, one}), "fp32"), -1);
  // fp16: 1.0 = 0x3C00, 0x3C05 five ulp above; 0x7E00 a NaN. bf16: 1.0 = 0x3F80; 0x7FC0 NaN.
  EXPECT_EQ(max_ulp_distance(u16s({0x3C00}), u16s({0x3C05}), "fp16"), 5);
  EXPECT_EQ(max_ulp_distance(u16s({0x3C00}), u16s({0x7E00}), "fp16"), -1);
  EXPECT_EQ(max_ulp_distance(u16s({0x3F80}), u16s({0xBF80}), "bf16"), 2 * 0x3F80);
  EXPECT_EQ(max_ulp_distance(u16s({0x7FC0}), u16s({0x3F80}), "bf16"), -1);
}

TEST(Hash, NormwiseRelativeErrors) {
  // max |a - b| / max |a|: 0.5 off in an output whose largest magnitude is 4.
  EXPECT_DOUBLE_EQ(max_normwise_rel_error(f32s({4.0f, -1.0f}), f32s({4.0f, -1.5f}), "fp32"), 0.125);
  EXPECT_EQ(max_normwise_rel_error(f32s({1.0f, 2.0f}), f32s({1.0f, 2.0f}), "fp32"), 0.0);
  // Near zero: 1e-7 against -1e-7 is ~2e9 ulp but a tiny normwise difference.
  EXPECT_NEAR(max_normwise_rel_error(f32s({1.0f, 1e-7f}), f32s({1.0f, -1e-7f}), "fp32"), 2e-7, 1e-12);
  EXPECT_EQ(max_normwise_rel_error(f32s({NAN, 1.0f}), f32s({NAN, 1.0f}), "fp32"), 0.0);
  EXPECT_EQ(max_normwise_rel_error(f32s({NAN}), f32s({1.0f}), "fp32"), -1);
  EXPECT_EQ(max_normwise_rel_error(f32s({INFINITY}), f32s({1.0f}), "fp32"), -1);
  EXPECT_EQ(max_normwise_rel_error(f32s({0.0f}), f32s({1.0f}), "fp32"), -1);
  EXPECT_EQ(max_normwise_rel_error(f32s({1.0f}), f32s({1.0f, 1.0f}), "fp32"), -1);
  // fp16 0x4000 = 2, 0x4001 = 2 + 2^-9; bf16 0x4080 = 4, 0x4081 = 4 + 2^-5.
  EXPECT_DOUBLE_EQ(max_normwise_rel_error(u16s({0x4000}), u16s({0x4001}), "fp16"), 0x1p-10);
  EXPECT_DOUBLE_EQ(max_normwise_rel_error(u16s({0x4080}), u16s({0x4081}), "bf16"), 0x1p-7);
  EXPECT_EQ(max_normwise_rel_error(u16s({0x7C00}), u16s({0x7BFF}), "fp16"), -1);  // Inf vs 65504
  EXPECT_EQ(max_normwise_rel_error(u16s({0x7C00, 0x3C00}), u16s({0x7C00, 0x3C00}), "fp16"), 0.0);
  // fp16 subnormal: 0x0001 = 2^-24 against 0x0003.
  EXPECT_DOUBLE_EQ(max_normwise_rel_error(u16s({0x0003}), u16s({0x0001}), "fp16"), 2.0 / 3.0);
}

std::string temp_dir(const char* tag) {
  auto d = std::filesystem::temp_directory_path() / (std::string("tritium-hash-") + tag + "-" + std::to_string(getpid()));
  std::filesystem::create_directories(d);
  return d.string();
}

TEST(Hash, RunsAgreeAndEachHashIsTheOutputsSha256) {
  HashOptions o;
  o.backends = {"cpu", "interp"};
  o.filter = "vector_add/fp32";
  o.json_path = temp_dir("agree") + "/h.json";
  o.no_progress = true;
  ASSERT_EQ(run_hash(o), 0);
  std::ifstream in(o.json_path);
  const nlohmann::json j = nlohmann::json::parse(in);
  ASSERT_TRUE(j["all_agree"].get<bool>());
  ASSERT_EQ(j["cases"].size(), 1u);
  const nlohmann::json& out = j["cases"][0]["outputs"][0];
  const std::string cpu = out["sha256"]["cpu"], interp = out["sha256"]["interp"];
  EXPECT_EQ(cpu, interp);
  // The same case run here: the hash is of the bytes the launch wrote.
  tritium::Device dev = tritium::Device::get("interp");
  ExecContext ctx;
  ctx.device = &dev;
  ctx.kernels_dir = default_kernels_dir();
  ctx.time = false;
  ctx.options.portable_numerics = true;
  std::vector<unsigned char> wrote;
  ctx.on_output = [&](const HostArray& a) { wrote = a.bytes; };
  const std::vector<Case> cases = select_cases(all_cases(), true, "vector_add/fp32");
  ASSERT_EQ(cases.size(), 1u);
  ASSERT_TRUE(run_case(cases[0], ctx).passed);
  EXPECT_EQ(sha256_hex(wrote), cpu);
  // Not the poison: an unwritten output would hash as all 0xFF bytes.
  EXPECT_NE(sha256_hex(std::vector<unsigned char>(wrote.size(), 0xFF)), cpu);
}

TEST(Hash, AWrongKernelFailsTheRunAndUsageErrorsExit2) {
  // vector_add.py with the add replaced by a subtraction: outside every tolerance.
  const std::string dir = temp_dir("wrong");
  std::ifstream src(default_kernels_dir() + "/vector_add.py");
  std::string text((std::istreambuf_iterator<char>(src)), std::istreambuf_iterator<char>());
  const size_t at = text.rfind("x + y");  // the store, not the docstring
  ASSERT_NE(at, std::string::npos);
  text.replace(at, 5, "x - y");
  std::ofstream(dir + "/vector_add.py") << text;
  HashOptions o;
  o.backends = {"cpu", "interp"};
  o.filter = "vector_add/fp32";
  o.kernels_dir = dir;
  o.no_progress = true;
  EXPECT_EQ(run_hash(o), 1);
  o.kernels_dir.clear();
  o.filter = "no-such-case";
  EXPECT_EQ(run_hash(o), 2);
  o.filter = "vector_add/fp32";
  o.backends = {"cpu", "no-such-backend"};
  EXPECT_EQ(run_hash(o), 2);
}

}  // namespace
