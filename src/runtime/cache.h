// Content-addressed on-disk cache shared by every backend: generated source and compiled
// binaries, stored under a key that hashes everything the bytes depend on.
//
// Keys are XXH3-128 digests (32 lowercase hex digits) of length-prefixed parts, e.g.
//   content_hash({"cpu-so", source, compiler_identity, flags, TRITIUM_VERSION})
// so that ("ab", "c") and ("a", "bc") never collide.
//
// Layout: ROOT/<key[0:2]>/<key>.<name> holds an entry's bytes followed by a one-line
// trailer "\n// tritium-cache-entry xxh3-128=<32 hex> size=<n>\n" (harmless after an ELF
// object, which dlopen maps by its own headers, and a comment after generated source).
// Each entry is written to a temporary file in the same directory and renamed into place,
// so a concurrent reader (thread or process) never sees a partial file and concurrent
// writers leave one complete entry. A reader verifies size and digest; a missing,
// truncated or corrupted entry is a miss (never an error), and the next write replaces it.
//
// ROOT is $TRITIUM_CACHE_DIR, else $XDG_CACHE_HOME/tritium, else $HOME/.cache/tritium, else
// /tmp/tritium-cache-<uid>.
#pragma once
#include <filesystem>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

namespace tritium::runtime {

/// XXH3-128 digest of the parts (each prefixed by its length), as 32 lowercase hex digits.
std::string content_hash(std::initializer_list<std::string_view> parts);

/// XXH3-128 digest of one byte string, as 32 lowercase hex digits (no length prefix).
std::string digest_hex(std::string_view bytes);

/// A cache directory. All methods are safe to call from several threads and processes.
class DiskCache {
 public:
  /// A cache rooted at `root` (created on first write).
  explicit DiskCache(std::filesystem::path root);

  /// The default root from the environment (see the file comment).
  static std::filesystem::path default_root();
  /// The process-wide cache at default_root(), resolved on first use.
  static DiskCache& global();

  /// The root directory.
  const std::filesystem::path& root() const { return root_; }
  /// Where entry (`key`, `name`) lives (whether or not it exists). `name` is a short
  /// suffix such as "so" or "cpp".
  std::filesystem::path entry_path(const std::string& key, const std::string& name) const;

  /// The path of entry (`key`, `name`) when it exists and its checksum verifies (the file
  /// holds the bytes plus the trailer).
  std::optional<std::filesystem::path> find(const std::string& key, const std::string& name) const;
  /// The verified bytes of entry (`key`, `name`) without the trailer, or nullopt (missing or
  /// corrupt).
  std::optional<std::string> read(const std::string& key, const std::string& name) const;
  /// Stores `bytes` as entry (`key`, `name`) atomically and returns its path. Throws
  /// std::runtime_error when the directory cannot be written.
  std::filesystem::path write(const std::string& key, const std::string& name, std::string_view bytes) const;

  /// Creates a fresh private directory under ROOT/tmp for building an entry; the caller
  /// removes it when done.
  std::filesystem::path make_scratch_dir() const;

 private:
  std::filesystem::path root_;
};

/// Writes `bytes` to `path` atomically: a unique temporary file in the same directory,
/// then rename. Throws std::runtime_error on failure.
void write_file_atomic(const std::filesystem::path& path, std::string_view bytes);

/// Reads a whole file; nullopt when it cannot be opened.
std::optional<std::string> read_file_bytes(const std::filesystem::path& path);

}  // namespace tritium::runtime
