#include "plan/physical/calibration.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include "common/error.h"
#include "common/settings.h"

namespace raydb::plan {

namespace {

constexpr int kFormat = 1;  // bump when the meaning of a stored number changes
constexpr const char* kWorkloadNames[IndexCurves::kWorkloads] = {"point", "range16", "range256", "point_miss"};
constexpr ProbeOrder kOrders[3] = {ProbeOrder::kUnsorted, ProbeOrder::kIndexSorts, ProbeOrder::kPresorted};
constexpr IndexKind kKinds[3] = {IndexKind::kRt, IndexKind::kSorted, IndexKind::kHash};
constexpr ExecDevice kDevices[2] = {ExecDevice::kCpu, ExecDevice::kGpu};

// Least-squares a + b * x over the measured points: stored next to the curves for
// people reading the file (the model interpolates the points themselves, because
// the cost per lookup is not linear in x: it steps up where the index outgrows a
// cache level). x is IndexCurves::axis: log2(keys) for unsorted batches,
// log2(keys / lookups) for sorted ones.
std::pair<double, double> fit_line(const std::vector<double>& x, const std::vector<double>& y) {
  const size_t n = std::min(x.size(), y.size());
  if (n == 0) return {0, 0};
  if (n == 1) return {y[0], 0};
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (size_t i = 0; i < n; ++i) sx += x[i], sy += y[i], sxx += x[i] * x[i], sxy += x[i] * y[i];
  const double d = double(n) * sxx - sx * sx;
  const double b = d == 0 ? 0 : (double(n) * sxy - sx * sy) / d;
  return {(sy - b * sx) / double(n), b};
}

double number(const nlohmann::json& j, const char* key, const std::string& where, bool required = false) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) {
    if (required) fail(ErrorKind::kInvalidInput, "{}: missing '{}'", where, key);
    return 0;
  }
  if (!it->is_number()) fail(ErrorKind::kInvalidInput, "{}: '{}' is not a number", where, key);
  const double v = it->get<double>();
  if (!std::isfinite(v) || v < 0) fail(ErrorKind::kInvalidInput, "{}: '{}' is not a finite value >= 0", where, key);
  return v;
}

std::vector<double> numbers(const nlohmann::json& j, const std::string& where) {
  if (!j.is_array()) fail(ErrorKind::kInvalidInput, "{}: not an array of numbers", where);
  std::vector<double> v;
  for (const auto& e : j) {
    if (!e.is_number() || !std::isfinite(e.get<double>()) || e.get<double>() < 0)
      fail(ErrorKind::kInvalidInput, "{}: not an array of numbers >= 0", where);
    v.push_back(e.get<double>());
  }
  return v;
}

std::string text(const nlohmann::json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

IndexCurves curves_from_json(const nlohmann::json& j, const std::string& where) {
  if (!j.is_object()) fail(ErrorKind::kInvalidInput, "{}: not an object", where);
  IndexCurves c;
  c.setup_ns = number(j, "setup_ns", where, true);
  c.sort_setup_ns = number(j, "sort_setup_ns", where);
  c.log2_lookups = number(j, "log2_lookups", where);
  if (!j.contains("log2_keys")) fail(ErrorKind::kInvalidInput, "{}: missing 'log2_keys'", where);
  c.log2_keys = numbers(j["log2_keys"], where + ".log2_keys");
  if (c.log2_keys.empty()) fail(ErrorKind::kInvalidInput, "{}: 'log2_keys' is empty", where);
  for (size_t i = 1; i < c.log2_keys.size(); ++i)
    if (c.log2_keys[i] <= c.log2_keys[i - 1]) fail(ErrorKind::kInvalidInput, "{}: 'log2_keys' not ascending", where);
  for (int w = 0; w < IndexCurves::kWorkloads; ++w) {
    auto it = j.find(kWorkloadNames[w]);
    if (it == j.end()) continue;
    for (ProbeOrder o : kOrders) {
      auto jt = it->find(probe_order_name(o));
      if (jt == it->end()) continue;
      const std::string at = where + "." + kWorkloadNames[w] + "." + probe_order_name(o);
      std::vector<double> v = numbers(*jt, at);
      if (v.size() != c.log2_keys.size())
        fail(ErrorKind::kInvalidInput, "{}: {} values for {} key counts", at, v.size(), c.log2_keys.size());
      c.ns[size_t(w)][size_t(o)] = std::move(v);
    }
    if (auto jt = it->find("unsorted_fixed_ns"); jt != it->end()) {
      const std::string at = where + "." + kWorkloadNames[w] + ".unsorted_fixed_ns";
      std::vector<double> v = numbers(*jt, at);
      if (v.size() != c.log2_keys.size())
        fail(ErrorKind::kInvalidInput, "{}: {} values for {} key counts", at, v.size(), c.log2_keys.size());
      c.unsorted_fixed_ns[size_t(w)] = std::move(v);
    }
  }
  if (c.at(IndexCurves::kPoint, ProbeOrder::kUnsorted).empty() && c.at(IndexCurves::kRange16, ProbeOrder::kUnsorted).empty())
    fail(ErrorKind::kInvalidInput, "{}: no unsorted lookups measured", where);
  return c;
}

nlohmann::ordered_json curves_to_json(const IndexCurves& c) {
  nlohmann::ordered_json j;
  j["setup_ns"] = c.setup_ns;
  j["sort_setup_ns"] = c.sort_setup_ns;
  j["log2_lookups"] = c.log2_lookups;
  j["log2_keys"] = c.log2_keys;
  for (int w = 0; w < IndexCurves::kWorkloads; ++w) {
    nlohmann::ordered_json jw;
    for (ProbeOrder o : kOrders) {
      const auto& v = c.at(w, o);
      if (v.empty()) continue;
      jw[probe_order_name(o)] = v;
      const auto [a, b] = fit_line(c.axis(o), v);
      jw[std::string("fit_") + probe_order_name(o)] = {
          {"x", o == ProbeOrder::kUnsorted ? "log2(keys)" : "log2(keys/lookups)"}, {"a_ns", a}, {"b_ns", b}};
    }
    if (!c.unsorted_fixed_ns[size_t(w)].empty()) jw["unsorted_fixed_ns"] = c.unsorted_fixed_ns[size_t(w)];
    if (!jw.empty()) j[kWorkloadNames[w]] = jw;
  }
  return j;
}

}  // namespace

const char* exec_device_name(ExecDevice d) { return d == ExecDevice::kCpu ? "cpu" : "gpu"; }

const char* probe_order_name(ProbeOrder o) {
  switch (o) {
    case ProbeOrder::kUnsorted: return "unsorted";
    case ProbeOrder::kIndexSorts: return "index_sorts";
    case ProbeOrder::kPresorted: return "presorted";
  }
  return "?";
}

std::string Calibration::default_path() { return calibration_file_path(); }

nlohmann::ordered_json Calibration::to_json() const {
  nlohmann::ordered_json j;
  j["format"] = kFormat;
  j["cpu"] = cpu;
  j["cpu_threads"] = cpu_threads;
  j["cpu_read_gbs"] = cpu_read_gbs;
  if (!gpu.empty()) {
    j["gpu"] = gpu;
    j["gpu_read_gbs"] = gpu_read_gbs;
    j["host_to_device_gbs"] = host_to_device_gbs;
    if (gpu_first_use_ms > 0) j["gpu_first_use_ms"] = gpu_first_use_ms;
  }
  j["timestamp"] = timestamp;
  nlohmann::ordered_json ix;
  for (ExecDevice d : kDevices) {
    nlohmann::ordered_json jd;
    for (IndexKind k : kKinds)
      if (!curves(d, k).empty()) jd[index_kind_name(k)] = curves_to_json(curves(d, k));
    if (jd.empty()) continue;
    jd["sort_ns_per_lookup"] = d == ExecDevice::kCpu ? cpu_sort_ns_per_lookup : gpu_sort_ns_per_lookup;
    if (d == ExecDevice::kCpu) jd["threads"] = cpu_index_threads;
    ix[exec_device_name(d)] = jd;
  }
  if (!ix.empty()) j["index"] = ix;
  nlohmann::ordered_json views;
  for (ExecDevice d : kDevices)
    if (view_ray_ns[size_t(d)] > 0 || view_hit_ns[size_t(d)] > 0)
      views[exec_device_name(d)] = {{"ray_ns", view_ray_ns[size_t(d)]},       {"hit_ns", view_hit_ns[size_t(d)]},
                                    {"group_ns", view_group_ns[size_t(d)]},   {"launch_ns", view_launch_ns[size_t(d)]},
                                    {"star_scale", view_star_scale[size_t(d)]},
                                    {"star_fixed_ns", view_star_fixed_ns[size_t(d)]}};
  if (!views.empty()) {
    if (!view_source.empty()) views["source"] = view_source;
    j["rt_view"] = views;
  }
  for (auto [key, r] : {std::pair{"rt_scan_cpu", &rt_scan_cpu}, std::pair{"rt_scan_gpu", &rt_scan_gpu}})
    if (r->measured)
      j[key] = {{"scan_ns_per_row_predicate", r->scan_ns_per_row_predicate},
                {"sieve_ns_per_row_vector", r->sieve_ns_per_row_vector},
                {"sieve_refine_ns_per_row", r->sieve_refine_ns_per_row},
                {"sieve_refine_job_ns", r->sieve_refine_job_ns},
                {"rt_refine_ns_per_row", r->rt_refine_ns_per_row},
                {"rt_ns_per_job", r->rt_ns_per_job},
                {"fixed_ns", r->fixed_ns},
                {"sieve_fixed_ns", r->sieve_fixed_ns},
                {"sieve_pass_ns_per_row", r->sieve_pass_ns_per_row},
                {"sieve_job_ns", r->sieve_job_ns},
                {"sieve_refine_ns_per_sector", r->sieve_refine_ns_per_sector},
                {"rt_slab_ns_per_row", r->rt_slab_ns_per_row}};
  return j;
}

Calibration Calibration::from_json(const nlohmann::json& j) {
  if (!j.is_object()) fail(ErrorKind::kInvalidInput, "not a JSON object");
  if (auto it = j.find("format"); it != j.end() && (!it->is_number_integer() || it->get<int>() != kFormat))
    fail(ErrorKind::kInvalidInput, "format {} (this raydb reads {}; run raydb calibrate again)", it->dump(), kFormat);
  Calibration c;
  c.cpu = text(j, "cpu");
  c.gpu = text(j, "gpu");
  c.cpu_threads = int(number(j, "cpu_threads", "calibration"));
  c.cpu_read_gbs = number(j, "cpu_read_gbs", "calibration");
  c.gpu_read_gbs = number(j, "gpu_read_gbs", "calibration");
  c.host_to_device_gbs = number(j, "host_to_device_gbs", "calibration");
  c.gpu_first_use_ms = number(j, "gpu_first_use_ms", "calibration");  // absent in older files: 0
  c.timestamp = int64_t(number(j, "timestamp", "calibration"));
  if (auto ix = j.find("index"); ix != j.end()) {
    if (!ix->is_object()) fail(ErrorKind::kInvalidInput, "index: not an object");
    for (ExecDevice d : kDevices) {
      auto jd = ix->find(exec_device_name(d));
      if (jd == ix->end()) continue;
      const std::string where = std::string("index.") + exec_device_name(d);
      if (!jd->is_object()) fail(ErrorKind::kInvalidInput, "{}: not an object", where);
      for (IndexKind k : kKinds)
        if (auto jk = jd->find(index_kind_name(k)); jk != jd->end())
          c.curves(d, k) = curves_from_json(*jk, where + "." + index_kind_name(k));
      const double sort = number(*jd, "sort_ns_per_lookup", where);
      (d == ExecDevice::kCpu ? c.cpu_sort_ns_per_lookup : c.gpu_sort_ns_per_lookup) = sort;
      if (d == ExecDevice::kCpu) c.cpu_index_threads = int(number(*jd, "threads", where));
    }
  }
  if (auto jv = j.find("rt_view"); jv != j.end()) {
    if (!jv->is_object()) fail(ErrorKind::kInvalidInput, "rt_view: not an object");
    for (ExecDevice d : kDevices) {
      auto jd = jv->find(exec_device_name(d));
      if (jd == jv->end()) continue;
      const std::string where = std::string("rt_view.") + exec_device_name(d);
      if (!jd->is_object()) fail(ErrorKind::kInvalidInput, "{}: not an object", where);
      c.view_ray_ns[size_t(d)] = number(*jd, "ray_ns", where);
      c.view_hit_ns[size_t(d)] = number(*jd, "hit_ns", where);
      // Absent in files written before session 9: 0.
      c.view_group_ns[size_t(d)] = number(*jd, "group_ns", where);
      c.view_launch_ns[size_t(d)] = number(*jd, "launch_ns", where);
      c.view_star_scale[size_t(d)] = number(*jd, "star_scale", where);
      c.view_star_fixed_ns[size_t(d)] = number(*jd, "star_fixed_ns", where);
    }
    if (auto src = jv->find("source"); src != jv->end()) {
      if (!src->is_string()) fail(ErrorKind::kInvalidInput, "rt_view.source: not a string");
      c.view_source = src->get<std::string>();
    }
  }
  // Absent in files written before them (rt_scan_gpu and fixed_ns: before session 7;
  // sieve_refine_job_ns: before session 12; the memory terms: after it).
  for (auto [key, r] : {std::pair{"rt_scan_cpu", &c.rt_scan_cpu}, std::pair{"rt_scan_gpu", &c.rt_scan_gpu}}) {
    auto rs = j.find(key);
    if (rs == j.end()) continue;
    if (!rs->is_object()) fail(ErrorKind::kInvalidInput, "{}: not an object", key);
    r->measured = true;
    r->scan_ns_per_row_predicate = number(*rs, "scan_ns_per_row_predicate", key, true);
    r->sieve_ns_per_row_vector = number(*rs, "sieve_ns_per_row_vector", key, true);
    r->sieve_refine_ns_per_row = number(*rs, "sieve_refine_ns_per_row", key, true);
    r->rt_refine_ns_per_row = number(*rs, "rt_refine_ns_per_row", key, true);
    r->rt_ns_per_job = number(*rs, "rt_ns_per_job", key, true);
    if (rs->contains("fixed_ns")) r->fixed_ns = number(*rs, "fixed_ns", key, true);
    if (rs->contains("sieve_refine_job_ns")) r->sieve_refine_job_ns = number(*rs, "sieve_refine_job_ns", key, true);
    // The memory terms (after session 12): absent means 0, the per-vector model.
    for (auto [name, field] : {std::pair{"sieve_fixed_ns", &r->sieve_fixed_ns},
                               std::pair{"sieve_pass_ns_per_row", &r->sieve_pass_ns_per_row},
                               std::pair{"sieve_job_ns", &r->sieve_job_ns},
                               std::pair{"sieve_refine_ns_per_sector", &r->sieve_refine_ns_per_sector},
                               std::pair{"rt_slab_ns_per_row", &r->rt_slab_ns_per_row}})
      if (rs->contains(name)) *field = number(*rs, name, key, true);
  }
  return c;
}

std::optional<Calibration> Calibration::load(const std::string& path, std::string* error) {
  error->clear();
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return std::nullopt;
  std::ifstream in(path);
  if (!in) {
    *error = "cannot read " + path;
    return std::nullopt;
  }
  std::stringstream ss;
  ss << in.rdbuf();
  nlohmann::json j = nlohmann::json::parse(ss.str(), nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) {
    *error = path + ": not valid JSON";
    return std::nullopt;
  }
  try {
    return from_json(j);
  } catch (const Error& e) {
    *error = path + ": " + e.what();
    return std::nullopt;
  }
}

void Calibration::save(const std::string& path) const {
  const std::filesystem::path p(path);
  std::error_code ec;
  if (p.has_parent_path()) std::filesystem::create_directories(p.parent_path(), ec);
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::trunc);
    if (!out) fail(ErrorKind::kIO, "cannot write {}", tmp);
    out << to_json().dump(2) << "\n";
    out.flush();
    if (!out) fail(ErrorKind::kIO, "cannot write {}", tmp);
  }
  std::filesystem::rename(tmp, p, ec);
  if (ec) {
    std::filesystem::remove(tmp, ec);
    fail(ErrorKind::kIO, "cannot write {}", path);
  }
}

}  // namespace raydb::plan
