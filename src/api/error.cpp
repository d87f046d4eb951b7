// tritium::Error / CompileError and the translation of internal exceptions into them.
#include <new>
#include <stdexcept>
#include <string>

#include "api/api_internal.h"

namespace tritium {

std::string version() { return TRITIUM_VERSION; }

Error::Error(ErrorKind kind, const std::string& message) : std::runtime_error(message), kind_(kind) {}

CompileError::CompileError(const std::string& diagnostic, std::string file, int line, int col, std::string message)
    : Error(ErrorKind::Compile, diagnostic),
      file_(std::move(file)),
      line_(line),
      col_(col),
      message_(std::move(message)) {}

namespace detail {

CompileError to_api_error(const frontend::CompileError& e) {
  const frontend::SrcLoc& loc = e.loc();
  return CompileError(e.what(), std::string(loc.filename()), static_cast<int>(loc.line), static_cast<int>(loc.col),
                      e.message());
}

void rethrow_as_error(ErrorKind fallback, const std::string& context) {
  auto prefixed = [&](const char* what) { return context.empty() ? std::string(what) : context + ": " + what; };
  try {
    throw;
  } catch (const Error&) {
    throw;
  } catch (const frontend::CompileError& e) {
    throw to_api_error(e);
  } catch (const std::bad_alloc&) {
    throw Error(ErrorKind::Device, prefixed("out of memory"));
  } catch (const std::logic_error& e) {
    throw Error(ErrorKind::Internal, prefixed((std::string("internal error: ") + e.what()).c_str()));
  } catch (const std::exception& e) {
    throw Error(fallback, prefixed(e.what()));
  } catch (...) {
    throw Error(ErrorKind::Internal, prefixed("unknown exception"));
  }
}

}  // namespace detail
}  // namespace tritium
