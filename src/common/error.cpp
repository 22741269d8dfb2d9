#include "common/error.h"

namespace raydb {

const char* error_kind_name(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::kInvalidInput: return "invalid input";
    case ErrorKind::kParse: return "parse error";
    case ErrorKind::kBinder: return "binder error";
    case ErrorKind::kExecution: return "execution error";
    case ErrorKind::kIO: return "I/O error";
    case ErrorKind::kLoad: return "load error";
    case ErrorKind::kCatalog: return "catalog error";
    case ErrorKind::kOutOfMemory: return "out of memory";
    case ErrorKind::kNotImplemented: return "not implemented";
    case ErrorKind::kCancelled: return "cancelled";
    case ErrorKind::kInternal: return "internal error";
  }
  return "error";
}

}  // namespace raydb
