#include "common/settings.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <optional>

#include "common/error.h"
#include "common/machine_info.h"

namespace raydb {

namespace {

// The order of this table is the order of Settings::entries_.
const std::vector<SettingInfo> kSettings = {
    {"index_paths", "RAYDB_INDEX_PATHS", "cost, force or off",
     "index scans and index joins: chosen by the cost model, wherever an index applies, or never"},
    {"rt_scan_method", "RAYDB_RT_SCAN_METHOD", "auto, rt, cpu-scan, cpu-sieve, gpu-scan or gpu-sieve",
     "RT scan index paths: the method by the cost model, or only this one (benchmarks and tests)"},
    {"rt_scan_adaptive_margin", "RAYDB_RT_SCAN_ADAPTIVE_MARGIN", "a fraction from 0 to 10 (default 0.5; 0: off)",
     "RT scan index paths: time every method whose estimate is within this fraction of the pick's, "
     "and keep the fastest measured method"},
    {"rt_view_accumulate", "RAYDB_RT_VIEW_ACCUMULATE", "per_ray or per_hit",
     "RT views: per-ray partials (default) or RTCUDB's atomic per hit (benchmarks of the contention fix)"},
    {"cuda_join", "RAYDB_CUDA_JOIN", "hash or sort", "CUDA general path: equi-joins through a hash table or sorted keys"},
    {"cuda_group", "RAYDB_CUDA_GROUP", "hash or sort", "CUDA general path: GROUP BY through a hash table or a sort"},
    {"cpu_order_stats", "RAYDB_CPU_ORDER_STATS", "auto, histograms, segments or collect",
     "CPU order statistics over a root column: read in place with per-group histograms or a segmented select "
     "(auto: by group count), or collect (group, value) pairs (benchmarks and tests)"},
    {"gpu_memory_limit", "RAYDB_GPU_MEMORY_LIMIT", "a size such as 512M or 8G (0: 90% of free memory)",
     "device memory the CUDA backend may use"},
    {"cpu_memory_limit", "RAYDB_CPU_MEMORY_LIMIT", "a size such as 512M or 8G (0: half the memory available at query start)",
     "host memory one query's CPU executor may hold in group tables, join tables and result rows"},
    {"cuda_narrow_lookup", "RAYDB_CUDA_NARROW_LOOKUP", "on or off", "star kernels: 1-2 byte dimension lookups"},
    {"cuda_dimension_cache", "RAYDB_CUDA_DIMENSION_CACHE", "on or off",
     "star kernels: keep dimension lookup arrays on the device for later statements with the same dimension "
     "filters and group keys"},
    {"cuda_join_cache", "RAYDB_CUDA_JOIN_CACHE", "on or off",
     "general path: keep the hash table of a join built over a whole table on plain integer key columns on the "
     "device for later statements"},
    {"cuda_scan_pass", "RAYDB_CUDA_SCAN_PASS", "on or off",
     "general path: a table scan's filters in one pass over its rows (off: one pass per conjunct, each "
     "compacting the rows, as before; for comparisons)"},
    {"cuda_scan_terms", "RAYDB_CUDA_SCAN_TERMS", "on or off",
     "general path: a table scan's simple conjuncts (column op constant, column op column, column IN a set) "
     "tested straight from the columns in one pass, without the expression interpreter"},
    {"cuda_unique_probe", "RAYDB_CUDA_UNIQUE_PROBE", "on or off",
     "general path: a hash join whose build side has one row per key writes each probe row's slot and selects "
     "the rows that found one (off: count, scan and write passes over every probe row)"},
    {"cuda_smem_lookup", "RAYDB_CUDA_SMEM_LOOKUP", "on or off", "star kernels: dimension lookups in shared memory"},
    {"cuda_rowshape", "RAYDB_CUDA_ROWSHAPE", "on or off", "star kernels: row-shaped tiles"},
    {"cuda_fast_decode", "RAYDB_CUDA_FAST_DECODE", "on or off",
     "star kernels: decode large results with the fast host steps (exec/cuda/star_decode_fast; off: the "
     "general steps, kept as their reference)"},
    {"cuda_layout", "RAYDB_CUDA_LAYOUT", "blocked or striped", "star kernels: tile layout"},
    {"cuda_tile_aggregate", "RAYDB_CUDA_TILE_AGGREGATE", "on or off",
     "star kernels: one group's column aggregates folded per dense tile from vector loads"},
    {"cuda_filter_passes", "RAYDB_CUDA_FILTER_PASSES", "on or off",
     "star kernels: boolean trees and long IN sets evaluated by passes before the fused kernel (off: inside it)"},
    {"cuda_few_groups", "RAYDB_CUDA_FEW_GROUPS", "a group count from 0 to 15 (0: never)",
     "star kernels: GROUP BY results of at most this many group ids (default 8) aggregated per warp, without a "
     "shared-memory atomic per row"},
    {"cuda_perfect_set_min", "RAYDB_CUDA_PERFECT_SET_MIN", "a key count from 0 to 128 (0: never)",
     "star kernels: IN lists of at least this many keys (default 4) looked up by a perfect hash in shared memory"},
    {"cuda_compression", "RAYDB_CUDA_COMPRESSION", "off, auto or on",
     "star kernels: read resident fact columns bit-packed where their statistics say it pays (auto), wherever "
     "the kernels can decode the width (on), or never (off, the default until measured)"},
    {"cuda_stream", "RAYDB_CUDA_STREAM", "auto, on or off",
     "star kernels: stream the fact columns through the GPU in chunks when they do not fit the memory budget "
     "(on: always, for tests and benchmarks; off: never, the query is refused)"},
    {"cuda_stream_chunk_rows", "RAYDB_CUDA_STREAM_CHUNK_ROWS", "a row count (0: sized from the memory budget)",
     "star kernels: fact rows per streamed chunk, rounded up to the kernel's 4096-row tile"},
    {"cuda_profile", "RAYDB_CUDA_PROFILE", "on or off", "star path: per-phase device times on stderr"},
    {"cuda_disable", "RAYDB_CUDA_DISABLE", "on or off", "hide CUDA devices (read once per process)"},
    {"transfer_cost", "RAYDB_TRANSFER_COST", "on or off",
     "auto backend: count moving columns to the GPU, so one-shot queries may run on the CPU (raydb serve: off)"},
    {"device_warmup", "RAYDB_DEVICE_WARMUP", "on or off",
     "raydb query and shell: start the GPU's driver and context on a background thread at start when the "
     "backend may use the GPU (off: when the first query needs them)"},
    {"fast_load", "RAYDB_FAST_LOAD", "on or off",
     "CUDA backend: read columns' narrowed files into pinned buffers, verified while copied (off: map, verify, "
     "narrow per process)"},
    {"warmup_kernels", "RAYDB_WARMUP_KERNELS", "on or off",
     "GPU warm-up: once the context exists, load the fused fact kernels on the warm-up thread while the query "
     "reads its columns (off: loaded at their first launch)"},
    {"plan_cache", "RAYDB_PLAN_CACHE", "on or off",
     "reuse the parsed, bound and planned form of a SELECT run again with the same text, until the catalog or "
     "its data change (off: plan every statement)"},
    {"upload_chunk", "RAYDB_UPLOAD_CHUNK", "a size such as 16M (whole MiB, 1M to 1G)",
     "CUDA backend: bytes per pinned staging buffer of the fast load path (two are pinned per process)"},
    {"prefetch", "RAYDB_PREFETCH", "on or off",
     "CUDA backend with fast_load: read and verify the narrowed files a query will upload on several threads as "
     "soon as it is planned (while the GPU context is made), then copy them up on upload_streams streams (off: "
     "read, verify and copy one chunk at a time once the context exists)"},
    {"upload_streams", "RAYDB_UPLOAD_STREAMS", "a count from 1 to 64 (default 8)",
     "CUDA backend, prefetch: threads and streams copying read-ahead columns through pinned buffers to the device"},
    {"upload_staging", "RAYDB_UPLOAD_STAGING", "a size such as 32M (1M to 1G; default 32M)",
     "CUDA backend, prefetch: pinned bytes in all, two buffers per upload stream (pinning costs about 0.5 ms per MiB)"},
};

// A fraction in [0, 10], the whole text a number.
std::optional<double> parse_margin(std::string_view v) {
  const std::string text(v);
  char* end = nullptr;
  const double x = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || !(x >= 0 && x <= 10)) return std::nullopt;
  return x;
}

// A whole non-negative number of rows, the whole text digits.
std::optional<uint64_t> parse_count(std::string_view v) {
  if (v.empty() || v.size() > 18 || v.find_first_not_of("0123456789") != std::string_view::npos) return std::nullopt;
  return std::stoull(std::string(v));
}

size_t slot(std::string_view name) {
  for (size_t i = 0; i < kSettings.size(); i++)
    if (name == kSettings[i].name) return i;
  std::string known;
  for (auto& s : kSettings) known += std::string(known.empty() ? "" : ", ") + s.name;
  fail(ErrorKind::kInvalidInput, "unknown setting '{}' (settings: {})", name, known);
}

bool parse_switch(std::string_view v, bool* out) {
  if (v == "on" || v == "true" || v == "1") return *out = true, true;
  if (v == "off" || v == "false" || v == "0") return *out = false, true;
  return false;
}

// The process defaults: the environment, read once per process, then whatever
// set_default changed. Guarded: connections may be made on several threads.
struct Defaults {
  std::mutex mutex;
  std::vector<std::string> values;
  std::vector<bool> from_env;
};

Defaults& defaults() {
  static Defaults* d = [] {
    auto* r = new Defaults();
    for (auto& s : kSettings) {
      const char* e = std::getenv(s.env);
      r->values.emplace_back(e ? e : "");
      r->from_env.push_back(e && *e);
    }
    return r;
  }();
  return *d;
}

}  // namespace

uint64_t parse_byte_size(std::string_view text, std::string_view what) {
  const std::string t(text);
  char* end = nullptr;
  double v = std::strtod(t.c_str(), &end);
  if (end == t.c_str() || v < 0) fail(ErrorKind::kInvalidInput, "{} '{}' is not a size", what, t);
  switch (*end) {
    case 'k': case 'K': v *= 1024.0; break;
    case 'm': case 'M': v *= 1024.0 * 1024; break;
    case 'g': case 'G': v *= 1024.0 * 1024 * 1024; break;
    case '\0': break;
    default: fail(ErrorKind::kInvalidInput, "{} '{}' is not a size (K, M, G suffixes)", what, t);
  }
  return uint64_t(v);
}

namespace {

// Staging buffers hold whole checksum blocks (1 MiB) of a narrowed file.
uint64_t checked_upload_chunk(uint64_t bytes, std::string_view what) {
  constexpr uint64_t kMiB = uint64_t(1) << 20;
  if (bytes < kMiB || bytes > (kMiB << 10) || bytes % kMiB != 0)
    fail(ErrorKind::kInvalidInput, "{}: {} bytes is not a whole number of MiB from 1M to 1G", what, bytes);
  return bytes;
}

// upload_streams: 1 to 64 copying threads.
std::optional<uint64_t> parse_streams(std::string_view v) {
  const std::optional<uint64_t> n = parse_count(v);
  if (!n || *n < 1 || *n > 64) return std::nullopt;
  return n;
}

// upload_staging: at least 1 MiB (two buffers per stream share it), at most 1 GiB.
uint64_t checked_upload_staging(uint64_t bytes, std::string_view what) {
  constexpr uint64_t kMiB = uint64_t(1) << 20;
  if (bytes < kMiB || bytes > (kMiB << 10))
    fail(ErrorKind::kInvalidInput, "{}: {} bytes is not a size from 1M to 1G", what, bytes);
  return bytes;
}

}  // namespace

Settings::Settings() {
  Defaults& d = defaults();
  std::lock_guard<std::mutex> g(d.mutex);
  for (size_t i = 0; i < d.values.size(); i++) entries_.push_back({d.values[i], d.from_env[i]});
}

void Settings::set_default(std::string_view name, std::string_view value) {
  Settings check;
  check.set(name, value);  // validates
  Defaults& d = defaults();
  std::lock_guard<std::mutex> g(d.mutex);
  d.values[slot(name)] = std::string(value);
  d.from_env[slot(name)] = false;
}

void Settings::reset_default(std::string_view name) {
  const size_t i = slot(name);
  const char* e = std::getenv(kSettings[i].env);
  Defaults& d = defaults();
  std::lock_guard<std::mutex> g(d.mutex);
  d.values[i] = e ? e : "";
  d.from_env[i] = e && *e;
}

const std::vector<SettingInfo>& Settings::all() { return kSettings; }

const Settings::Entry& Settings::entry(std::string_view name) const { return entries_[slot(name)]; }

void Settings::set(std::string_view name, std::string_view value) {
  const size_t i = slot(name);
  const SettingInfo& info = kSettings[i];
  auto bad = [&]() {
    fail(ErrorKind::kInvalidInput, "invalid value '{}' for setting {} (expected {})", value, info.name, info.values);
  };
  const std::string_view n = info.name;
  bool b = false;
  if (n == "index_paths") {
    if (value != "cost" && value != "force" && value != "off") bad();
  } else if (n == "rt_scan_method") {
    if (value != "auto" && value != "rt" && value != "cpu-scan" && value != "cpu-sieve" && value != "gpu-scan" &&
        value != "gpu-sieve")
      bad();
  } else if (n == "rt_scan_adaptive_margin") {
    if (!parse_margin(value)) bad();
  } else if (n == "rt_view_accumulate") {
    if (value != "per_ray" && value != "per_hit") bad();
  } else if (n == "cuda_join" || n == "cuda_group") {
    if (value != "hash" && value != "sort") bad();
  } else if (n == "cpu_order_stats") {
    if (value != "auto" && value != "histograms" && value != "segments" && value != "collect") bad();
  } else if (n == "cuda_layout") {
    if (value != "blocked" && value != "striped") bad();
  } else if (n == "cuda_few_groups") {
    const std::string t(value);
    if (t.empty() || t.size() > 2 || t.find_first_not_of("0123456789") != std::string::npos || std::stoi(t) > 15)
      bad();  // the fact kernel's kMaxFewGroups (exec/cuda/kernel_params.h)
  } else if (n == "cuda_perfect_set_min") {
    const std::string t(value);
    if (t.empty() || t.size() > 3 || t.find_first_not_of("0123456789") != std::string::npos || std::stoi(t) > 128)
      bad();
  } else if (n == "cuda_stream" || n == "cuda_compression") {
    if (value != "auto" && value != "on" && value != "off") bad();
  } else if (n == "cuda_stream_chunk_rows") {
    if (!parse_count(value)) bad();
  } else if (n == "gpu_memory_limit" || n == "cpu_memory_limit") {
    parse_byte_size(value, fmt::format("setting {}", n));
  } else if (n == "upload_streams") {
    if (!parse_streams(value)) bad();
  } else if (n == "upload_staging") {
    checked_upload_staging(parse_byte_size(value, "setting upload_staging"), "setting upload_staging");
  } else if (n == "upload_chunk") {
    checked_upload_chunk(parse_byte_size(value, "setting upload_chunk"), "setting upload_chunk");
  } else if (!parse_switch(value, &b)) {
    bad();
  }
  entries_[i] = {std::string(value), false};
}

void Settings::reset(std::string_view name) { entries_[slot(name)] = Settings().entries_[slot(name)]; }

std::string Settings::get(std::string_view name) const { return entry(name).text; }

bool Settings::is_explicit(std::string_view name) const {
  const Entry& e = entry(name);
  return !e.text.empty() && !e.from_env;
}

IndexPathsMode Settings::index_paths() const {
  const std::string& v = entry("index_paths").text;
  if (v.empty() || v == "cost") return IndexPathsMode::kCost;
  if (v == "force") return IndexPathsMode::kForce;
  if (v == "off") return IndexPathsMode::kOff;
  fail(ErrorKind::kInvalidInput, "RAYDB_INDEX_PATHS='{}' (expected force, off or cost)", v);
}

std::string Settings::rt_scan_method() const {
  const std::string& v = entry("rt_scan_method").text;
  if (v.empty() || v == "auto") return "";
  for (const char* m : {"rt", "cpu-scan", "cpu-sieve", "gpu-scan", "gpu-sieve"})
    if (v == m) return v;
  fail(ErrorKind::kInvalidInput, "RAYDB_RT_SCAN_METHOD='{}' (expected auto, rt, cpu-scan, cpu-sieve, gpu-scan or gpu-sieve)", v);
}

double Settings::rt_scan_adaptive_margin() const {
  const std::string& v = entry("rt_scan_adaptive_margin").text;
  // Offline on three H100 sweeps 0.25 gave 120 of 120 strict (0.15: 118-120); on the
  // H200 (session 15) the model missed one query by 31% and 0.35 was needed.
  if (v.empty()) return 0.5;
  if (auto m = parse_margin(v)) return *m;
  fail(ErrorKind::kInvalidInput, "RAYDB_RT_SCAN_ADAPTIVE_MARGIN='{}' (expected a fraction from 0 to 10)", v);
}

// Any value but "sort" keeps the hash join (the variable's meaning before settings).
CudaJoinAlgo Settings::cuda_join() const {
  return entry("cuda_join").text == "sort" ? CudaJoinAlgo::kSort : CudaJoinAlgo::kHash;
}

CudaGroupAlgo Settings::cuda_group() const {
  const std::string& v = entry("cuda_group").text;
  if (v.empty() || v == "hash") return CudaGroupAlgo::kHash;
  if (v == "sort") return CudaGroupAlgo::kSort;
  fail(ErrorKind::kInvalidInput, "RAYDB_CUDA_GROUP='{}' (expected hash or sort)", v);
}

CpuOrderStats Settings::cpu_order_stats() const {
  const std::string& v = entry("cpu_order_stats").text;
  if (v.empty() || v == "auto") return CpuOrderStats::kAuto;
  if (v == "histograms") return CpuOrderStats::kHistograms;
  if (v == "segments") return CpuOrderStats::kSegments;
  if (v == "collect") return CpuOrderStats::kCollect;
  fail(ErrorKind::kInvalidInput, "RAYDB_CPU_ORDER_STATS='{}' (expected auto, histograms, segments or collect)", v);
}

uint64_t Settings::gpu_memory_limit() const {
  const Entry& e = entry("gpu_memory_limit");
  if (e.text.empty()) return 0;
  return parse_byte_size(e.text, e.from_env ? "RAYDB_GPU_MEMORY_LIMIT" : "setting gpu_memory_limit");
}

uint64_t Settings::cpu_memory_limit() const {
  const Entry& e = entry("cpu_memory_limit");
  uint64_t v = e.text.empty() ? 0 : parse_byte_size(e.text, e.from_env ? "RAYDB_CPU_MEMORY_LIMIT" : "setting cpu_memory_limit");
  if (v == 0) {
    // Half of the memory available when the query starts (MemAvailable), else of the
    // physical memory: the budget counts the executor's main structures, not every
    // copy, so it stays well below what the kernel would kill the process for.
    v = available_memory_bytes() / 2;
  }
  return v;
}

namespace {
// Environment switches kept their old reading: off only when the value starts with
// `off` ('0'); SET values are on/off words.
// From the environment "on"/"off" (and true/false/1/0) mean what they say, as in SET;
// any other value keeps the older rule (off only when it starts with `off`'s letter).
// Before, RAYDB_CUDA_TILE_AGGREGATE=off read 'o' != '0' and left the switch on.
bool switch_value(const std::string& v, bool from_env, bool dflt, char off = '0') {
  if (v.empty()) return dflt;
  bool b = dflt;
  if (parse_switch(v, &b)) return b;
  if (from_env) return v[0] != off;
  return b;
}
}  // namespace

bool Settings::cuda_narrow_lookup() const {
  const Entry& e = entry("cuda_narrow_lookup");
  return switch_value(e.text, e.from_env, true);
}
bool Settings::cuda_dimension_cache() const {
  const Entry& e = entry("cuda_dimension_cache");
  return switch_value(e.text, e.from_env, true);
}
bool Settings::cuda_join_cache() const {
  const Entry& e = entry("cuda_join_cache");
  return switch_value(e.text, e.from_env, true);
}
bool Settings::cuda_filter_passes() const {
  const Entry& e = entry("cuda_filter_passes");
  return switch_value(e.text, e.from_env, true);
}
bool Settings::cuda_scan_pass() const {
  const Entry& e = entry("cuda_scan_pass");
  return switch_value(e.text, e.from_env, true);
}
bool Settings::cuda_scan_terms() const {
  const Entry& e = entry("cuda_scan_terms");
  return switch_value(e.text, e.from_env, true);
}
bool Settings::cuda_unique_probe() const {
  const Entry& e = entry("cuda_unique_probe");
  return switch_value(e.text, e.from_env, true);
}
bool Settings::cuda_smem_lookup() const {
  const Entry& e = entry("cuda_smem_lookup");
  return switch_value(e.text, e.from_env, true);
}
bool Settings::cuda_fast_decode() const {
  const Entry& e = entry("cuda_fast_decode");
  return switch_value(e.text, e.from_env, true);
}
bool Settings::cuda_rowshape() const {
  const Entry& e = entry("cuda_rowshape");
  return switch_value(e.text, e.from_env, true);
}
bool Settings::cuda_blocked_layout() const {
  const std::string& v = entry("cuda_layout").text;
  return v.empty() || v[0] != 's';
}
bool Settings::cuda_profile() const {
  const Entry& e = entry("cuda_profile");
  return switch_value(e.text, e.from_env, false);
}
bool Settings::fast_load() const {
  const Entry& e = entry("fast_load");
  return switch_value(e.text, e.from_env, true);
}
bool Settings::device_warmup() const {
  const Entry& e = entry("device_warmup");
  return switch_value(e.text, e.from_env, true);
}
bool Settings::warmup_kernels() const {
  const Entry& e = entry("warmup_kernels");
  return switch_value(e.text, e.from_env, true);
}
uint64_t Settings::upload_chunk() const {
  const Entry& e = entry("upload_chunk");
  if (e.text.empty()) return uint64_t(16) << 20;
  const char* what = e.from_env ? "RAYDB_UPLOAD_CHUNK" : "setting upload_chunk";
  return checked_upload_chunk(parse_byte_size(e.text, what), what);
}
bool Settings::prefetch() const {
  const Entry& e = entry("prefetch");
  return switch_value(e.text, e.from_env, true);
}
int Settings::upload_streams() const {
  const Entry& e = entry("upload_streams");
  if (e.text.empty()) return 8;
  if (auto n = parse_streams(e.text)) return int(*n);
  fail(ErrorKind::kInvalidInput, "{}='{}' (expected a count from 1 to 64)",
       e.from_env ? "RAYDB_UPLOAD_STREAMS" : "setting upload_streams", e.text);
}
uint64_t Settings::upload_staging() const {
  const Entry& e = entry("upload_staging");
  if (e.text.empty()) return uint64_t(32) << 20;
  const char* what = e.from_env ? "RAYDB_UPLOAD_STAGING" : "setting upload_staging";
  return checked_upload_staging(parse_byte_size(e.text, what), what);
}
bool Settings::cuda_disabled() const {
  const Entry& e = entry("cuda_disable");
  return switch_value(e.text, e.from_env, false);
}


std::string calibration_file_path() {
  if (const char* p = std::getenv("RAYDB_CALIBRATION"); p && *p) return p;
  if (const char* x = std::getenv("XDG_CONFIG_HOME"); x && *x) return std::string(x) + "/raydb/calibration.json";
  const char* home = std::getenv("HOME");
  return std::string(home ? home : ".") + "/.config/raydb/calibration.json";
}

bool quiet_from_environment() { return std::getenv("RAYDB_QUIET") != nullptr; }

}  // namespace raydb
