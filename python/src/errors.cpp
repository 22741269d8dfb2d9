#include "errors.h"

#include <exception>
#include <string>

namespace nb = nanobind;

namespace raydb::python {

namespace {

struct KindClass {
  ErrorKind kind;
  const char* name;
};
constexpr KindClass kKinds[] = {
    {ErrorKind::kInvalidInput, "InvalidInputException"}, {ErrorKind::kParse, "ParserException"},
    {ErrorKind::kBinder, "BinderException"},             {ErrorKind::kExecution, "ExecutionException"},
    {ErrorKind::kIO, "IOException"},                     {ErrorKind::kLoad, "LoadException"},
    {ErrorKind::kCatalog, "CatalogException"},           {ErrorKind::kOutOfMemory, "OutOfMemoryException"},
    {ErrorKind::kNotImplemented, "NotImplementedException"}, {ErrorKind::kCancelled, "InterruptException"},
    {ErrorKind::kInternal, "InternalException"},
};
constexpr size_t kKindCount = sizeof(kKinds) / sizeof(kKinds[0]);

// New references kept for the life of the process: the interpreter may tear the
// module down before any C++ static destructor could release them safely.
PyObject* g_base = nullptr;
PyObject* g_connection = nullptr;
PyObject* g_classes[kKindCount] = {};

PyObject* new_class(nb::module_& m, const char* name, PyObject* base) {
  const std::string qualified = std::string("raydb.") + name;
  PyObject* cls = PyErr_NewException(qualified.c_str(), base, nullptr);
  if (!cls) throw nb::python_error();
  m.attr(name) = nb::handle(cls);
  return cls;
}

}  // namespace

PyObject* exception_class(ErrorKind kind) {
  for (size_t i = 0; i < kKindCount; i++)
    if (kKinds[i].kind == kind) return g_classes[i];
  return g_base;
}

PyObject* connection_exception() { return g_connection; }

void register_errors(nb::module_& m) {
  g_base = new_class(m, "Error", PyExc_Exception);
  for (size_t i = 0; i < kKindCount; i++) g_classes[i] = new_class(m, kKinds[i].name, g_base);
  g_connection = new_class(m, "ConnectionException", g_base);
  nb::register_exception_translator([](const std::exception_ptr& p, void*) {
    try {
      std::rethrow_exception(p);
    } catch (const Error& e) {
      PyErr_SetString(exception_class(e.kind()), e.what());
    } catch (const std::bad_alloc&) {
      PyErr_SetString(exception_class(ErrorKind::kOutOfMemory), "out of memory");
    }
  });
}

}  // namespace raydb::python
