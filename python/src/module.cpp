// raydb._core: the native half of the Python package (python/raydb/ is the other).
#include <nanobind/nanobind.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "errors.h"
#include "native_connection.h"
#include "native_result.h"
#include "raydb/admin.h"
#include "raydb/arrow_export.h"
#include "raydb/build_config.h"

namespace nb = nanobind;
using raydb::python::NativeConnection;
using raydb::python::NativeResult;

NB_MODULE(_core, m) {
  m.doc() = "raydb's engine, bound for Python (use the raydb package, not this module)";
  raydb::python::register_errors(m);
  m.attr("__version__") = RAYDB_VERSION;

  nb::class_<NativeResult>(m, "NativeResult")
      .def_prop_ro("row_count", &NativeResult::row_count)
      .def_prop_ro("column_names", &NativeResult::column_names)
      .def_prop_ro("column_types", &NativeResult::column_types)
      .def_prop_ro("backend", &NativeResult::backend)
      .def_prop_ro("elapsed_ms", &NativeResult::elapsed_ms)
      .def_prop_ro("plan_cached", &NativeResult::plan_cached)
      .def("rows", &NativeResult::rows, nb::arg("begin"), nb::arg("end"))
      .def("__arrow_c_array__", [](const NativeResult& r, nb::object) { return r.arrow_c_array(); },
           nb::arg("requested_schema") = nb::none())
      .def("device_array", &NativeResult::device_array, nb::arg("device"))
      .def("device_stream", &NativeResult::device_stream, nb::arg("device"));
  // "" when results can be exported to `device` ("cpu" or "cuda") here, else why not.
  m.def("arrow_device_unavailable", [](const std::string& device) {
    return raydb::arrow_device_unavailable(raydb::python::device_type(device));
  });

  nb::class_<NativeConnection>(m, "NativeConnection")
      .def(nb::init<const std::string&, bool>(), nb::arg("path"), nb::arg("create"))
      .def("cursor", &NativeConnection::cursor, nb::rv_policy::take_ownership)
      .def("configure", &NativeConnection::configure)
      .def("query", &NativeConnection::query, nb::arg("sql"), nb::arg("keep_on_device") = false)
      .def("register_arrow", &NativeConnection::register_arrow)
      .def("unregister", &NativeConnection::unregister)
      .def("create_table_arrow", &NativeConnection::create_table_arrow)
      .def("load_csv", &NativeConnection::load_csv)
      .def("stored_tables", &NativeConnection::stored_tables)
      .def_prop_ro("path", &NativeConnection::path)
      .def("close", &NativeConnection::close);

  // SSB data without the CLI (a machine that has only the Python package, e.g. a Ray
  // worker image); returns the rows written over all five tables.
  m.def("generate_ssb", [](const std::string& path, double sf, uint64_t seed, int threads, const std::string& sort_by) {
    raydb::admin::SsbGenOptions o;
    o.scale_factor = sf;
    o.seed = seed;
    o.threads = threads;
    o.sort_by = sort_by;
    nb::gil_scoped_release release;
    return raydb::admin::generate_ssb(path, o).rows;
  }, nb::arg("path"), nb::arg("sf"), nb::arg("seed"), nb::arg("threads"), nb::arg("sort_by"));
  // The fact table split by contiguous row ranges into new shard databases (the other
  // tables copied whole), in the engine: no SQL or Arrow round trip for large tables.
  m.def("split_by_rows", [](const std::string& source, const std::string& fact, const std::vector<std::string>& shards) {
    nb::gil_scoped_release release;
    return raydb::admin::split_by_rows(source, fact, shards);
  }, nb::arg("source"), nb::arg("fact"), nb::arg("shard_paths"));
}
