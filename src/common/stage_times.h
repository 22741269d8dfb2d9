#pragma once
// Where a query's end-to-end time goes, stage by stage (`raydb query --timing`): each
// layer wraps its part in a StageScope, and the process-wide StageTimes adds them up
// with the page faults (getrusage minflt/majflt) taken meanwhile and the bytes moved.
// Scopes nest; a stage's time excludes the stages nested in it on the same thread, so
// the stages never sum to more than the wall time. Process-wide: concurrent queries
// (the server) would mix their stages, so only one-shot runs print them.
#include <array>
#include <cstdint>
#include <mutex>

namespace raydb {

enum class Stage {
  kStartup,        // process start (exec) to the database open
  kOpen,           // manifest, dictionaries, validity bitmaps, column files mapped
  kPlan,           // parse, bind, plan, and the backends' admission and access paths
  kReadVerify,     // first read of each column file (page faults) with its checksum
  kDeviceInit,     // CUDA driver and context
  kNarrow,         // columns narrowed and encoded for the device (host passes, allocation)
  kPinnedStaging,  // page-locked staging buffers allocated
  kHostToDevice,   // waiting for host-to-device copies (the part not overlapped)
  kPrefetchWait,   // waiting for column files read ahead (setting prefetch): read+verify not hidden
  kUpload,         // read-ahead columns copied to the device on several streams (staging copies, DMA)
  kExecute,        // the backend's execution: kernels or CPU operators, less the above
  kFormat,         // printing the result
  kCount
};
const char* stage_name(Stage s);

enum class ByteCount {
  kReadAtOpen,      // manifest, validity and zone map files read whole at open, dictionaries at first use
  kColumnFileRead,  // column file bytes read for the first time in this process
  kNeeded,          // stored bytes of the columns the query reads
  kToDevice,        // bytes copied host to device
  kPrefetched,      // column file bytes given to the read-ahead threads (counted in column_files_read when read)
  kCount
};
const char* byte_count_name(ByteCount b);

// Work on background threads, hidden behind the stages (the query's thread records
// its waits for it as stages): wall milliseconds, for the --timing report.
enum class Background {
  kPrefetch,       // read-ahead threads: first start to last chunk read and hashed
  kStagingPinned,  // pinned upload buffers made on the GPU warm-up thread after the context
  kCount
};
const char* background_name(Background b);

struct StageTotals {
  std::array<double, size_t(Stage::kCount)> ms{};
  std::array<int64_t, size_t(Stage::kCount)> minflt{}, majflt{};
  std::array<uint64_t, size_t(ByteCount::kCount)> bytes{};
  std::array<double, size_t(Background::kCount)> background_ms{};
  double ms_of(Stage s) const { return ms[size_t(s)]; }
  uint64_t bytes_of(ByteCount b) const { return bytes[size_t(b)]; }
  double sum_ms() const;
};

class StageTimes {
 public:
  static StageTimes& instance();
  void add(Stage s, double ms, int64_t minflt, int64_t majflt);
  void add_bytes(ByteCount b, uint64_t n);
  void add_background(Background b, double ms);
  StageTotals snapshot() const;
  void reset();

 private:
  mutable std::mutex mutex_;
  StageTotals totals_;
};

// Times one stage on the calling thread; pauses the enclosing scope meanwhile.
class StageScope {
 public:
  explicit StageScope(Stage s);
  ~StageScope();
  StageScope(const StageScope&) = delete;
  StageScope& operator=(const StageScope&) = delete;

 private:
  void pause();
  void resume();
  Stage stage_;
  bool muted_ = false;
  StageScope* parent_;
  double start_ms_ = 0;
  int64_t start_minflt_ = 0, start_majflt_ = 0;
};

// Scopes on the calling thread record nothing from now on: for a background thread
// whose work overlaps the query (the GPU warm-up), where the thread that waits for it
// records the wait, so the stages still never sum past the wall time.
void mute_stages_on_this_thread();

// Milliseconds on the monotonic clock (the scopes' clock).
double monotonic_ms();
// The monotonic time at which this process started (from /proc/self/stat: resolution
// of one clock tick, 10 ms); the current time when it cannot be read.
double process_start_ms();

}  // namespace raydb
