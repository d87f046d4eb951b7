#include "runtime/cpu/host_services.h"

#include <atomic>
#include <cstdio>
#include <mutex>
#include <string_view>

#include <fmt/format.h>

namespace tritium::runtime::cpu {
namespace {

std::mutex g_mu;
std::optional<std::string> g_failure;  // message of the lowest failing program
int64_t g_failed_program = 0;          // its linear program id
std::array<int32_t, 3> g_grid{};       // grid of the running launch
std::atomic<bool> g_failed{false};

void print_line(const char* line) {
  std::lock_guard<std::mutex> lk(g_mu);
  std::fputs(line, stdout);
  std::fputc('\n', stdout);
  std::fflush(stdout);
}

void assert_fail(const char* message, const char* file, int line, const char* func, int64_t x, int64_t y, int64_t z) {
  // Same text as the interpreter: "device_assert failed: <msg> at <file>:<line> in <kernel>,
  // program (x, y, z)"; run-time errors of generated code pass a message "error: ...".
  std::lock_guard<std::mutex> lk(g_mu);
  const int64_t linear = x + int64_t{g_grid[0]} * (y + int64_t{g_grid[1]} * z);
  if (g_failure && g_failed_program <= linear) return;  // keep the lowest program's first failure
  std::string_view msg(message);
  std::string what = msg.rfind("error: ", 0) == 0 ? std::string(msg.substr(7)) : "device_assert failed: " + std::string(msg);
  g_failure = fmt::format("{} at {}:{} in {}, program ({}, {}, {})", what, file, line, func, x, y, z);
  g_failed_program = linear;
  g_failed.store(true, std::memory_order_relaxed);
}

}  // namespace

std::mutex& launch_mutex() {
  static std::mutex mu;
  return mu;
}

tritium_host& host_services() {
  static tritium_host host = {&print_line, &assert_fail, -1, nullptr};
  return host;
}

void begin_launch(const std::array<int32_t, 3>& grid) {
  std::lock_guard<std::mutex> lk(g_mu);
  g_failure.reset();
  g_grid = grid;
  g_failed.store(false);
}

bool launch_failed() { return g_failed.load(std::memory_order_relaxed); }

std::optional<std::string> end_launch() {
  std::lock_guard<std::mutex> lk(g_mu);
  std::optional<std::string> f = std::move(g_failure);
  g_failure.reset();
  return f;
}

}  // namespace tritium::runtime::cpu
