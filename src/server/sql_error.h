#pragma once
// Errors as the protocol reports them: a SQLSTATE code and raydb's one-line message.
#include <string>

#include "common/error.h"

namespace raydb::server {

struct SqlError {
  std::string code;  // SQLSTATE, e.g. "42601"
  std::string message;
  bool fatal = false;  // FATAL (the session ends) rather than ERROR
};

// The SQLSTATE of a raydb error kind, refined by what the message says where one kind
// covers several PostgreSQL classes (unknown table vs. unknown column, ...).
SqlError sql_error_for(const Error& e);

}  // namespace raydb::server
