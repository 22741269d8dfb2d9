#pragma once
// The engine's knobs, in one place. A Settings object belongs to a connection (the
// CLI's --set name=value, the shell's and SQL's SET name = value); its starting values
// are the process defaults, which come from RAYDB_* environment variables read once,
// here and nowhere else. An environment value that does not parse is kept and raises
// its one-line error where the setting is first used (as it always did), so a bad
// variable for a GPU knob never stops a CPU-only command; SET checks at once.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace raydb {

enum class IndexPathsMode { kCost, kForce, kOff };  // index_paths
enum class CudaJoinAlgo { kHash, kSort };           // cuda_join
enum class CudaGroupAlgo { kHash, kSort };          // cuda_group
enum class CpuOrderStats { kAuto, kHistograms, kSegments, kCollect };  // cpu_order_stats

struct SettingInfo {
  const char* name;         // as SET and --set spell it
  const char* env;          // the environment variable giving its process default ("" for none)
  const char* values;       // what it accepts, for errors and `raydb settings`
  const char* description;  // one line
};

class Settings {
 public:
  Settings();  // the process defaults
  // Changes the process default that connections made from now on start with
  // (embedders, tests); reset_default goes back to the environment's value.
  static void set_default(std::string_view name, std::string_view value);
  static void reset_default(std::string_view name);
  static const std::vector<SettingInfo>& all();

  // kInvalidInput (one line) for an unknown name or a value the setting rejects.
  void set(std::string_view name, std::string_view value);
  void reset(std::string_view name);  // back to the process default
  std::string get(std::string_view name) const;  // the value as text ("" = default)
  bool is_explicit(std::string_view name) const;  // given by set() (not the environment or built-in default)

  IndexPathsMode index_paths() const;  // access paths: cost model, force indexes, or none
  std::string rt_scan_method() const;  // RT scan paths: "" (cost model) or the one method allowed
  double rt_scan_adaptive_margin() const;  // RT scan paths: near-tie margin for measured choice (0: off)
  CudaJoinAlgo cuda_join() const;      // general-path equi-joins: hash table or sort
  CudaGroupAlgo cuda_group() const;    // general-path GROUP BY: hash table or sort
  CpuOrderStats cpu_order_stats() const;  // CPU order statistics: in place (how) or collected
  uint64_t gpu_memory_limit() const;   // device memory budget in bytes; 0 = 90% of free
  uint64_t cpu_memory_limit() const;   // a CPU query's budget in bytes (default: half of MemAvailable)
  bool cuda_narrow_lookup() const;     // star kernels: 1-2 byte lookup arrays
  bool cuda_dimension_cache() const;   // star kernels: dimension arrays kept between statements
  bool cuda_join_cache() const;        // general path: whole-table join builds kept between statements
  bool cuda_filter_passes() const;     // star kernels: trees and long sets as passes before the kernel
  bool cuda_scan_terms() const;        // general path: a scan's simple conjuncts without the interpreter
  bool cuda_unique_probe() const;      // general path: joins to one-row-per-key builds by slots and a selection
  bool cuda_scan_pass() const;         // general path: a scan's filters in one pass (off: per conjunct)
  bool cuda_smem_lookup() const;       // star kernels: lookups in shared memory
  bool cuda_rowshape() const;          // star kernels: row-shaped tiles
  bool cuda_fast_decode() const;       // star kernels: the host decode's fast steps (default on)
  bool cuda_blocked_layout() const;    // star kernels: blocked (else striped) tiles
  bool cuda_profile() const;           // star path: per-phase device times on stderr
  bool cuda_disabled() const;          // hide CUDA devices (tests of the CPU fallback)
  bool fast_load() const;              // CUDA uploads from narrowed files, verified in the same pass
  bool device_warmup() const;          // the CLI makes the GPU context on a background thread at start
  bool warmup_kernels() const;         // the warm-up also loads the fused fact kernels once the context exists
  uint64_t upload_chunk() const;       // bytes per pinned staging buffer of the fast load path (default 16 MiB)
  bool prefetch() const;               // fast load: narrowed files read ahead on several threads, uploaded on several streams
  int upload_streams() const;          // prefetch: copying threads and streams (default 8)
  uint64_t upload_staging() const;     // prefetch: pinned staging bytes in all (default 32 MiB)

 private:
  struct Entry {
    std::string text;    // the value; "" = the built-in default
    bool from_env = false;
  };
  const Entry& entry(std::string_view name) const;
  std::vector<Entry> entries_;  // parallel to all()
};

// Where `raydb calibrate` stores its measurements and the cost model reads them:
// $RAYDB_CALIBRATION, else $XDG_CONFIG_HOME/raydb/calibration.json, else
// ~/.config/raydb/calibration.json. Read at each call (the model reloads on demand).
std::string calibration_file_path();
// RAYDB_QUIET: no progress lines on stderr (the process default).
bool quiet_from_environment();

// Parses "123", "64K", "512M", "2G" into bytes; kInvalidInput naming `what` otherwise.
uint64_t parse_byte_size(std::string_view text, std::string_view what);

}  // namespace raydb
