// Source buffers and diagnostics formatting.
#include "frontend/source.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace tritium::frontend {

std::string_view SrcLoc::filename() const {
  return file ? std::string_view(file->name()) : std::string_view("<unknown>");
}

Source::Source(std::string text, std::string name) : text_(std::move(text)), name_(std::move(name)) {
  line_starts_.push_back(0);
  // Lines end at "\n", "\r\n" or a lone "\r", as Python reads them (the lexer does too).
  for (uint32_t i = 0; i < text_.size(); ++i)
    if (text_[i] == '\n' || (text_[i] == '\r' && (i + 1 == text_.size() || text_[i + 1] != '\n')))
      line_starts_.push_back(i + 1);
  // A trailing line end does not open a new (empty) line for diagnostics purposes.
  if (line_starts_.size() > 1 && line_starts_.back() == text_.size()) line_starts_.pop_back();
}

SourceRef Source::from_file(const std::string& path) {
  std::error_code ec;
  const std::string what = "cannot read kernel source '" + path + "': ";
  if (std::filesystem::is_directory(path, ec)) throw std::runtime_error(what + "it is a directory, not a .py file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(what + std::strerror(errno));
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) throw std::runtime_error(what + "read error");
  return std::make_shared<const Source>(ss.str(), path);
}

SourceRef Source::from_string(std::string text, std::string name) {
  return std::make_shared<const Source>(std::move(text), std::move(name));
}

uint32_t Source::line_start(uint32_t line) const {
  if (line == 0) return 0;
  if (line > line_starts_.size()) return static_cast<uint32_t>(text_.size());
  return line_starts_[line - 1];
}

std::string_view Source::line_text(uint32_t line) const {
  if (line == 0 || line > line_starts_.size()) return {};
  uint32_t b = line_starts_[line - 1];
  uint32_t e = line < line_starts_.size() ? line_starts_[line] : static_cast<uint32_t>(text_.size());
  if (e > b && text_[e - 1] == '\n') --e;
  if (e > b && text_[e - 1] == '\r') --e;
  return std::string_view(text_).substr(b, e - b);
}

SrcLoc Source::loc_at(uint32_t offset) const {
  offset = std::min<uint32_t>(offset, static_cast<uint32_t>(text_.size()));
  auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset);
  uint32_t line = static_cast<uint32_t>(it - line_starts_.begin());  // ≥ 1
  SrcLoc loc;
  loc.file = this;
  loc.line = line;
  loc.col = offset - line_starts_[line - 1] + 1;
  loc.offset = offset;
  return loc;
}

std::string_view Source::slice(uint32_t begin, uint32_t end) const {
  uint32_t n = static_cast<uint32_t>(text_.size());
  begin = std::min(begin, n);
  end = std::min(std::max(end, begin), n);
  return std::string_view(text_).substr(begin, end - begin);
}

namespace {

// The caret line: whitespace matching the display position of byte column `col` in `line`
// (tabs are copied, UTF-8 continuation bytes take no column), then '^'.
std::string caret_line(std::string_view line, uint32_t col) {
  std::string out;
  size_t upto = std::min<size_t>(col > 0 ? col - 1 : 0, line.size());
  for (size_t i = 0; i < upto; ++i) {
    unsigned char c = static_cast<unsigned char>(line[i]);
    if ((c & 0xC0) == 0x80) continue;  // continuation byte of a multi-byte character
    out += (c == '\t') ? '\t' : ' ';
  }
  // A column past the end of the line (e.g. an error at end of line) still gets its caret.
  if (col > 0 && col - 1 > line.size()) out.append(col - 1 - line.size(), ' ');
  out += '^';
  return out;
}

std::string format_impl(const Source* src, SrcLoc loc, std::string_view msg) {
  std::string out;
  out += src ? std::string_view(src->name()) : loc.filename();
  if (loc.valid()) {
    out += ':' + std::to_string(loc.line) + ':' + std::to_string(loc.col);
  }
  out += ": error: ";
  out += msg;
  if (src && loc.valid() && loc.line <= src->num_lines()) {
    std::string_view line = src->line_text(loc.line);
    out += "\n    ";
    // A NUL would end the message wherever it is read as a C string (what()), losing the
    // rest of the line and the caret: shown as '?' (one column, so the caret stays aligned).
    for (char c : line) out += c == '\0' ? '?' : c;
    out += "\n    ";
    out += caret_line(line, loc.col);
  }
  return out;
}

}  // namespace

std::string format_diagnostic(const Source& src, SrcLoc loc, std::string_view msg) {
  return format_impl(&src, loc, msg);
}

std::string format_diagnostic(SrcLoc loc, std::string_view msg) {
  return format_impl(loc.file, loc, msg);
}

namespace {
// The owning handle of a source, when it is owned by a shared_ptr (always, via from_*).
SourceRef owner_of(const Source* src) {
  return src ? src->weak_from_this().lock() : nullptr;
}
}  // namespace

CompileError::CompileError(const Source& src, SrcLoc loc, std::string msg)
    : std::runtime_error(format_diagnostic(src, loc, msg)),
      source_(owner_of(&src)),
      loc_(loc),
      message_(std::move(msg)) {
  if (!loc_.file) loc_.file = &src;
}

CompileError::CompileError(const SourceRef& src, SrcLoc loc, std::string msg)
    : std::runtime_error(src ? format_diagnostic(*src, loc, msg) : format_diagnostic(loc, msg)),
      source_(src ? src : owner_of(loc.file)),
      loc_(loc),
      message_(std::move(msg)) {
  if (!loc_.file && src) loc_.file = src.get();
}

CompileError::CompileError(SrcLoc loc, std::string msg)
    : std::runtime_error(format_diagnostic(loc, msg)),
      source_(owner_of(loc.file)),
      loc_(loc),
      message_(std::move(msg)) {}

}  // namespace tritium::frontend
