#include "server/sql_error.h"

#include <string_view>

namespace raydb::server {

namespace {

bool says(std::string_view message, std::string_view what) { return message.find(what) != std::string_view::npos; }

std::string code_for(ErrorKind kind, std::string_view m) {
  switch (kind) {
    case ErrorKind::kInvalidInput: return "22023";  // invalid_parameter_value
    case ErrorKind::kParse: return "42601";  // syntax_error
    case ErrorKind::kBinder:
      if (says(m, "unknown table")) return "42P01";  // undefined_table
      if (says(m, "column")) return "42703";  // undefined_column (and other column misuse)
      return "42804";  // datatype_mismatch: what the binder reports otherwise (types, aggregates)
    case ErrorKind::kExecution:
      if (says(m, "division by zero")) return "22012";
      if (says(m, "overflow") || says(m, "out of range")) return "22003";  // numeric_value_out_of_range
      return "22000";  // data_exception
    case ErrorKind::kIO:
      // COPY's file confinement (api/file_access.cpp): insufficient_privilege.
      if (says(m, "--allow-dir")) return "42501";
      return "58030";  // io_error
    case ErrorKind::kLoad: return "22P04";  // bad_copy_file_format
    case ErrorKind::kCatalog:
      if (says(m, "already exists")) return "42P07";  // duplicate_table
      if (says(m, "does not exist")) return "42P01";
      return "55000";  // object_not_in_prerequisite_state
    case ErrorKind::kOutOfMemory: return "53200";  // out_of_memory
    case ErrorKind::kNotImplemented: return "0A000";  // feature_not_supported
    case ErrorKind::kCancelled: return "57014";  // query_canceled
    case ErrorKind::kInternal: return "XX000";
  }
  return "XX000";
}

}  // namespace

SqlError sql_error_for(const Error& e) {
  // PostgreSQL's wording, which clients and people recognize.
  if (e.kind() == ErrorKind::kCancelled) return SqlError{"57014", "canceling statement due to user request"};
  return SqlError{code_for(e.kind(), e.what()), e.what()};
}

}  // namespace raydb::server
