#pragma once
// Typed errors. Every user-facing failure is one of these; the CLI prints
// `error: <message>` on one line and exits non-zero. Messages carry their
// context (file:line, SQL position, table and column names) themselves.
#include <stdexcept>
#include <string>

#include <fmt/format.h>

namespace raydb {

enum class ErrorKind {
  kInvalidInput,  // bad flags, bad arguments
  kParse,         // malformed SQL (message carries line:column)
  kBinder,        // unknown table/column, type mismatch, misuse of aggregates
  kExecution,     // division by zero, overflow at run time
  kIO,            // missing files, failed writes
  kLoad,          // malformed .tbl / CSV rows (message carries file:line)
  kCatalog,       // not a database, corrupted manifest, table exists/missing
  kOutOfMemory,   // an allocation the engine could not satisfy
  kNotImplemented,
  kCancelled,     // the user cancelled the statement (Ctrl-C, CancelRequest): common/cancel.h
  kInternal,
};

const char* error_kind_name(ErrorKind kind);

class Error : public std::runtime_error {
 public:
  Error(ErrorKind kind, std::string message) : std::runtime_error(std::move(message)), kind_(kind) {}
  ErrorKind kind() const { return kind_; }

 private:
  ErrorKind kind_;
};

// raydb::fail(kind, "fmt {}", args...) throws an Error with a formatted message.
template <typename... Args>
[[noreturn]] void fail(ErrorKind kind, fmt::format_string<Args...> f, Args&&... args) {
  throw Error(kind, fmt::format(f, std::forward<Args>(args)...));
}

}  // namespace raydb
