#include "runtime/cache.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include <fmt/format.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

namespace tritium::runtime {
namespace fs = std::filesystem;

namespace {

std::string hex128(XXH128_hash_t h) {
  char buf[33];
  std::snprintf(buf, sizeof buf, "%016llx%016llx", static_cast<unsigned long long>(h.high64),
                static_cast<unsigned long long>(h.low64));
  return buf;
}

constexpr std::string_view kTrailerHead = "\n// tritium-cache-entry xxh3-128=";

/// The trailer appended to an entry's bytes (see cache.h).
std::string trailer(std::string_view bytes) {
  return fmt::format("{}{} size={}\n", kTrailerHead, digest_hex(bytes), bytes.size());
}

/// Splits a stored file into its payload when the trailer verifies.
std::optional<std::string> verified_payload(std::string&& file) {
  if (file.empty() || file.back() != '\n') return std::nullopt;
  const size_t head = file.rfind(kTrailerHead);
  if (head == std::string::npos) return std::nullopt;
  std::string_view payload(file.data(), head);
  if (std::string_view(file).substr(head) != trailer(payload)) return std::nullopt;
  file.resize(head);
  return std::move(file);
}

/// A name unique across threads and processes for temporary files.
std::string unique_suffix() {
  static std::atomic<unsigned long> counter{0};
  auto now = std::chrono::steady_clock::now().time_since_epoch().count();
  return std::to_string(::getpid()) + "." + std::to_string(counter.fetch_add(1)) + "." +
         std::to_string(static_cast<unsigned long long>(now));
}

bool write_all(int fd, std::string_view bytes) {
  size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    done += static_cast<size_t>(n);
  }
  return true;
}

}  // namespace

std::string digest_hex(std::string_view bytes) { return hex128(XXH3_128bits(bytes.data(), bytes.size())); }

std::string content_hash(std::initializer_list<std::string_view> parts) {
  XXH3_state_t* st = XXH3_createState();
  if (!st) throw std::bad_alloc();
  XXH3_128bits_reset(st);
  for (std::string_view p : parts) {
    uint64_t n = p.size();
    XXH3_128bits_update(st, &n, sizeof n);
    XXH3_128bits_update(st, p.data(), p.size());
  }
  std::string out = hex128(XXH3_128bits_digest(st));
  XXH3_freeState(st);
  return out;
}

std::optional<std::string> read_file_bytes(const fs::path& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  std::string out;
  char buf[1 << 16];
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR) continue;
      ::close(fd);
      return std::nullopt;
    }
    if (n == 0) break;
    out.append(buf, static_cast<size_t>(n));
  }
  ::close(fd);
  return out;
}

void write_file_atomic(const fs::path& path, std::string_view bytes) {
  std::error_code ec;
  fs::create_directories(path.parent_path(), ec);
  fs::path tmp = path;
  tmp += std::string(".tmp.") += unique_suffix();
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0)
    throw std::runtime_error("cache: cannot create " + tmp.string() + ": " + std::strerror(errno));
  bool ok = write_all(fd, bytes);
  ok = (::close(fd) == 0) && ok;
  if (!ok || ::rename(tmp.c_str(), path.c_str()) != 0) {
    int err = errno;
    ::unlink(tmp.c_str());
    throw std::runtime_error("cache: cannot write " + path.string() + ": " + std::strerror(err));
  }
}

DiskCache::DiskCache(fs::path root) : root_(std::move(root)) {}

fs::path DiskCache::default_root() {
  auto env = [](const char* name) -> std::string {
    const char* v = std::getenv(name);
    return v ? std::string(v) : std::string();
  };
  if (auto d = env("TRITIUM_CACHE_DIR"); !d.empty()) return fs::path(d);
  if (auto d = env("XDG_CACHE_HOME"); !d.empty()) return fs::path(d) / "tritium";
  if (auto d = env("HOME"); !d.empty()) return fs::path(d) / ".cache" / "tritium";
  return fs::path("/tmp") / ("tritium-cache-" + std::to_string(::getuid()));
}

DiskCache& DiskCache::global() {
  static DiskCache cache(default_root());
  return cache;
}

fs::path DiskCache::entry_path(const std::string& key, const std::string& name) const {
  std::string shard = key.size() >= 2 ? key.substr(0, 2) : std::string("00");
  return root_ / shard / (key + "." + name);
}

std::optional<std::string> DiskCache::read(const std::string& key, const std::string& name) const {
  auto file = read_file_bytes(entry_path(key, name));
  if (!file) return std::nullopt;
  return verified_payload(std::move(*file));  // truncated or corrupted: a miss
}

std::optional<fs::path> DiskCache::find(const std::string& key, const std::string& name) const {
  if (!read(key, name)) return std::nullopt;
  return entry_path(key, name);
}

fs::path DiskCache::write(const std::string& key, const std::string& name, std::string_view bytes) const {
  fs::path p = entry_path(key, name);
  std::string file;
  file.reserve(bytes.size() + 96);
  file.append(bytes).append(trailer(bytes));
  write_file_atomic(p, file);
  return p;
}

fs::path DiskCache::make_scratch_dir() const {
  fs::path base = root_ / "tmp";
  std::error_code ec;
  fs::create_directories(base, ec);
  for (int attempt = 0; attempt < 100; ++attempt) {
    fs::path d = base / (std::string("build.") += unique_suffix());
    if (::mkdir(d.c_str(), 0700) == 0) return d;
    if (errno != EEXIST)
      throw std::runtime_error("cache: cannot create " + d.string() + ": " + std::strerror(errno));
  }
  throw std::runtime_error("cache: cannot create a scratch directory under " + base.string());
}

}  // namespace tritium::runtime
