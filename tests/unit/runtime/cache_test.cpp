// The content-addressed disk cache: keys, round trips, corruption detection, and atomic
// replacement under concurrent writers (threads and processes).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <set>
#include <thread>

#include "runtime/cache.h"

namespace tritium::runtime {
namespace {
namespace fs = std::filesystem;

/// A fresh directory under the system temp dir, removed at the end of the test.
struct TempDir {
  fs::path path;
  TempDir() {
    path = fs::temp_directory_path() /
           ("tritium-cache-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter()++));
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  static int& counter() {
    static int c = 0;
    return c;
  }
};

TEST(DiskCache, KeysAreLengthPrefixedAndStable) {
  std::string k1 = content_hash({"ab", "c"});
  std::string k2 = content_hash({"a", "bc"});
  EXPECT_EQ(k1.size(), 32u);
  EXPECT_NE(k1, k2);
  EXPECT_EQ(k1, content_hash({"ab", "c"}));
  EXPECT_NE(content_hash({"x"}), content_hash({"x", ""}));
  for (char c : k1) EXPECT_TRUE(std::isxdigit(static_cast<unsigned char>(c)) && !std::isupper(c)) << k1;
  EXPECT_NE(digest_hex("hello"), digest_hex("hellp"));
}

TEST(DiskCache, RoundTripAndMiss) {
  TempDir d;
  DiskCache cache(d.path);
  const std::string key = content_hash({"round", "trip"});
  EXPECT_FALSE(cache.read(key, "so"));
  EXPECT_FALSE(cache.find(key, "so"));
  std::string payload(100000, '\0');
  for (size_t i = 0; i < payload.size(); ++i) payload[i] = static_cast<char>((i * 131) ^ (i >> 7));
  fs::path p = cache.write(key, "so", payload);
  EXPECT_TRUE(fs::exists(p));
  EXPECT_EQ(p, cache.entry_path(key, "so"));
  auto back = cache.read(key, "so");
  ASSERT_TRUE(back);
  EXPECT_EQ(*back, payload);
  EXPECT_EQ(cache.find(key, "so"), p);
  EXPECT_FALSE(cache.read(key, "cpp"));  // names are separate entries
}

TEST(DiskCache, TruncatedOrCorruptedEntryIsAMissAndIsRebuilt) {
  TempDir d;
  DiskCache cache(d.path);
  const std::string key = content_hash({"corrupt"});
  const std::string payload(4096, 'x');
  fs::path p = cache.write(key, "so", payload);
  // Truncate the data file.
  fs::resize_file(p, 1000);
  EXPECT_FALSE(cache.read(key, "so"));
  EXPECT_FALSE(cache.find(key, "so"));
  // Rewriting restores it.
  cache.write(key, "so", payload);
  ASSERT_TRUE(cache.read(key, "so"));
  // Flip one byte in the middle (same size).
  {
    std::fstream f(p, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(2000);
    f.put('y');
  }
  EXPECT_FALSE(cache.read(key, "so"));
  cache.write(key, "so", payload);
  EXPECT_EQ(*cache.read(key, "so"), payload);
  // Garbage appended after the trailer, or a file that never had one, is a miss as well.
  { std::ofstream(p, std::ios::app | std::ios::binary) << "x"; }
  EXPECT_FALSE(cache.read(key, "so"));
  { std::ofstream(p, std::ios::trunc | std::ios::binary) << payload; }
  EXPECT_FALSE(cache.read(key, "so"));
  // The bytes come back without the trailer, even when they end like one.
  const std::string tricky = "abc\n// tritium-cache-entry xxh3-128=";
  cache.write(key, "cpp", tricky);
  EXPECT_EQ(*cache.read(key, "cpp"), tricky);
}

/// Payload number `i`: distinct contents and sizes, self-describing so a torn mix shows.
std::string payload_of(int i) {
  std::string s(20000 + 997 * i, static_cast<char>('a' + i));
  s.replace(0, 8, "payload" + std::to_string(i % 10));
  return s;
}

TEST(DiskCache, ConcurrentWritersNeverExposePartialEntries) {
  TempDir d;
  DiskCache cache(d.path);
  const std::string key = content_hash({"contended"});
  const int kWriters = 4, kRounds = 50;
  std::set<std::string> valid;
  for (int i = 0; i < kWriters; ++i) valid.insert(payload_of(i));
  std::atomic<bool> stop{false};
  std::atomic<int> reads{0}, bad{0};
  std::thread reader([&] {
    while (!stop.load()) {
      // Once the entry exists, every read sees one complete payload.
      if (read_file_bytes(cache.entry_path(key, "so"))) {
        auto v = cache.read(key, "so");
        if (!v) { ++bad; continue; }
        ++reads;
        if (!valid.count(*v)) ++bad;
      }
    }
  });
  std::vector<std::thread> writers;
  for (int w = 0; w < kWriters; ++w)
    writers.emplace_back([&, w] {
      for (int r = 0; r < kRounds; ++r) cache.write(key, "so", payload_of(w));
    });
  for (auto& t : writers) t.join();
  stop = true;
  reader.join();
  EXPECT_EQ(bad.load(), 0);
  EXPECT_GT(reads.load(), 0);
  auto final_v = cache.read(key, "so");
  ASSERT_TRUE(final_v);
  EXPECT_TRUE(valid.count(*final_v));
  // No temporary files are left behind.
  for (auto& e : fs::recursive_directory_iterator(d.path))
    EXPECT_EQ(e.path().string().find(".tmp."), std::string::npos) << e.path();
}

TEST(DiskCache, ConcurrentWriterProcesses) {
  TempDir d;
  const std::string key = content_hash({"processes"});
  const int kProcs = 3;
  std::vector<pid_t> kids;
  for (int p = 0; p < kProcs; ++p) {
    pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {  // child: write 30 times, then leave without running atexit handlers
      DiskCache c(d.path);
      for (int r = 0; r < 30; ++r) c.write(key, "so", payload_of(p));
      ::_exit(0);
    }
    kids.push_back(pid);
  }
  DiskCache cache(d.path);
  std::set<std::string> valid;
  for (int i = 0; i < kProcs; ++i) valid.insert(payload_of(i));
  int bad = 0;
  for (int r = 0; r < 2000; ++r)
    if (read_file_bytes(cache.entry_path(key, "so"))) {
      auto v = cache.read(key, "so");
      if (!v || !valid.count(*v)) ++bad;
    }
  for (pid_t k : kids) {
    int status = 0;
    ::waitpid(k, &status, 0);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  EXPECT_EQ(bad, 0);
  auto v = cache.read(key, "so");
  ASSERT_TRUE(v);
  EXPECT_TRUE(valid.count(*v));
}

TEST(DiskCache, DefaultRootFollowsTheEnvironment) {
  const char* old = std::getenv("TRITIUM_CACHE_DIR");
  std::string saved = old ? old : "";
  ::setenv("TRITIUM_CACHE_DIR", "/tmp/somewhere-else", 1);
  EXPECT_EQ(DiskCache::default_root(), fs::path("/tmp/somewhere-else"));
  ::unsetenv("TRITIUM_CACHE_DIR");
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  std::string saved_xdg = xdg ? xdg : "";
  ::setenv("XDG_CACHE_HOME", "/tmp/xdg", 1);
  EXPECT_EQ(DiskCache::default_root(), fs::path("/tmp/xdg/tritium"));
  if (xdg) ::setenv("XDG_CACHE_HOME", saved_xdg.c_str(), 1);
  else ::unsetenv("XDG_CACHE_HOME");
  if (old) ::setenv("TRITIUM_CACHE_DIR", saved.c_str(), 1);
}

}  // namespace
}  // namespace tritium::runtime
