// Source buffers, source locations and the compile-error exception of the frontend.
//
// A Source owns the text of one file (or string) and is always held through a
// std::shared_ptr<const Source> (SourceRef), so anything that outlives parsing — the AST, the
// code generator, a cached kernel — can still print the offending line of a diagnostic.
//
// Every diagnostic tritium prints has the form
//
//     FILE:LINE:COL: error: MESSAGE
//         <source line>
//         <caret under COL>
//
// with LINE and COL 1-based (COL counts bytes of the UTF-8 line; the caret line is aligned by
// characters, and tabs of the source line are copied so the caret lines up in a terminal).
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace tritium::frontend {

class Source;
/// Shared, immutable handle to a source buffer.
using SourceRef = std::shared_ptr<const Source>;

/// A position in a source buffer. `file` is a non-owning pointer to the Source (kept alive by
/// whoever owns the AST, e.g. Module::source); it may be null for synthesized locations.
/// `line` and `col` are 1-based (0 means "unknown"); `offset` is the 0-based byte offset.
struct SrcLoc {
  const Source* file = nullptr;
  uint32_t line = 0;
  uint32_t col = 0;
  uint32_t offset = 0;

  /// True when the location points into a real source (line > 0).
  bool valid() const { return line != 0; }
  /// The file name of the source, or "<unknown>" when `file` is null.
  std::string_view filename() const;
};

/// An immutable source text with a name (file path or "<string>") and a line index.
/// Always owned by a shared_ptr (from_file / from_string), so a raw `const Source*` in a SrcLoc
/// can be turned back into a SourceRef with `weak_from_this().lock()`.
class Source : public std::enable_shared_from_this<Source> {
 public:
  /// Reads a file into a Source named by `path`. Throws std::runtime_error if it cannot be read.
  static SourceRef from_file(const std::string& path);
  /// Wraps a string as a Source; `name` is what diagnostics print as the file name.
  static SourceRef from_string(std::string text, std::string name = "<string>");

  /// The name given at construction (the path for files).
  const std::string& name() const { return name_; }
  /// The full text, byte for byte as read.
  const std::string& text() const { return text_; }
  /// Number of lines (a final line without '\n' counts; an empty source has 1 line).
  uint32_t num_lines() const { return static_cast<uint32_t>(line_starts_.size()); }
  /// Text of 1-based line `line` without its line terminator ("\n" or "\r\n"); empty if out of range.
  std::string_view line_text(uint32_t line) const;
  /// Byte offset of the first character of 1-based line `line`.
  uint32_t line_start(uint32_t line) const;
  /// The location (line, col, offset, file=this) of byte offset `offset` (clamped to the text).
  SrcLoc loc_at(uint32_t offset) const;
  /// The text between byte offsets [begin, end) (clamped to the text).
  std::string_view slice(uint32_t begin, uint32_t end) const;

  // Use from_file / from_string; the constructor is public only for std::make_shared.
  Source(std::string text, std::string name);

 private:
  std::string text_;
  std::string name_;
  std::vector<uint32_t> line_starts_;
};

/// Formats a diagnostic "FILE:LINE:COL: error: MSG\n    <line>\n    <caret>" for `loc` in `src`.
/// If `loc` is not valid the source-line part is left out.
std::string format_diagnostic(const Source& src, SrcLoc loc, std::string_view msg);
/// Same as above but takes the source from `loc.file`; without a file prints "<unknown>:L:C: ...".
std::string format_diagnostic(SrcLoc loc, std::string_view msg);

/// The exception every frontend (and code generator) error is reported with. what() returns
/// the full formatted diagnostic; message() the bare message; loc() the location.
class CompileError : public std::runtime_error {
 public:
  /// Error at `loc` in `src`.
  CompileError(const Source& src, SrcLoc loc, std::string msg);
  /// Error at `loc` in the shared source `src` (may be null: then `loc.file` is used).
  CompileError(const SourceRef& src, SrcLoc loc, std::string msg);
  /// Error at `loc`; the source line is taken from `loc.file` when it is set.
  CompileError(SrcLoc loc, std::string msg);

  /// Where the error is.
  const SrcLoc& loc() const { return loc_; }
  /// The message without location or source line.
  const std::string& message() const { return message_; }
  /// The source the error points into (kept alive by the exception, so loc().file stays
  /// valid while the exception lives); null if unknown.
  const SourceRef& source() const { return source_; }

 private:
  SourceRef source_;
  SrcLoc loc_;
  std::string message_;
};

}  // namespace tritium::frontend
