#pragma once
// raydb's errors as Python exceptions: one class per ErrorKind under a common base
// raydb.Error, named as DuckDB's Python API names its own (ParserException, ...), with
// the engine's one-line message unchanged.
#include <nanobind/nanobind.h>

#include "common/error.h"

namespace raydb::python {

// Creates the classes in `m` and registers the translator of raydb::Error.
void register_errors(nanobind::module_& m);
// The class for `kind`, and the one for use of a closed connection.
PyObject* exception_class(ErrorKind kind);
PyObject* connection_exception();

}  // namespace raydb::python
