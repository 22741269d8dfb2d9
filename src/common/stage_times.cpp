#include "common/stage_times.h"

#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>

namespace raydb {

namespace {

thread_local StageScope* current_scope = nullptr;
thread_local bool stages_muted = false;  // mute_stages_on_this_thread

void faults(int64_t& minflt, int64_t& majflt) {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  minflt = u.ru_minflt;
  majflt = u.ru_majflt;
}

}  // namespace

const char* stage_name(Stage s) {
  switch (s) {
    case Stage::kStartup: return "startup";
    case Stage::kOpen: return "open";
    case Stage::kPlan: return "plan";
    case Stage::kReadVerify: return "read+verify";
    case Stage::kDeviceInit: return "device_init";
    case Stage::kNarrow: return "narrow";
    case Stage::kPinnedStaging: return "pinned_staging";
    case Stage::kHostToDevice: return "host_to_device";
    case Stage::kPrefetchWait: return "prefetch_wait";
    case Stage::kUpload: return "upload";
    case Stage::kExecute: return "execute";
    case Stage::kFormat: return "format";
    case Stage::kCount: break;
  }
  return "?";
}

const char* byte_count_name(ByteCount b) {
  switch (b) {
    case ByteCount::kReadAtOpen: return "read_at_open";
    case ByteCount::kColumnFileRead: return "column_files_read";
    case ByteCount::kNeeded: return "needed";
    case ByteCount::kToDevice: return "to_device";
    case ByteCount::kPrefetched: return "prefetched";
    case ByteCount::kCount: break;
  }
  return "?";
}

const char* background_name(Background b) {
  switch (b) {
    case Background::kPrefetch: return "prefetch";
    case Background::kStagingPinned: return "staging_pinned";
    case Background::kCount: break;
  }
  return "?";
}

double StageTotals::sum_ms() const {
  double s = 0;
  for (double v : ms) s += v;
  return s;
}

StageTimes& StageTimes::instance() {
  static StageTimes* t = new StageTimes();  // never destroyed: scopes may run at exit
  return *t;
}

void StageTimes::add(Stage s, double ms, int64_t minflt, int64_t majflt) {
  std::lock_guard<std::mutex> g(mutex_);
  totals_.ms[size_t(s)] += ms;
  totals_.minflt[size_t(s)] += minflt;
  totals_.majflt[size_t(s)] += majflt;
}

void StageTimes::add_bytes(ByteCount b, uint64_t n) {
  std::lock_guard<std::mutex> g(mutex_);
  totals_.bytes[size_t(b)] += n;
}

void StageTimes::add_background(Background b, double ms) {
  std::lock_guard<std::mutex> g(mutex_);
  totals_.background_ms[size_t(b)] += ms;
}

StageTotals StageTimes::snapshot() const {
  std::lock_guard<std::mutex> g(mutex_);
  return totals_;
}

void StageTimes::reset() {
  std::lock_guard<std::mutex> g(mutex_);
  totals_ = StageTotals{};
}

void mute_stages_on_this_thread() { stages_muted = true; }

StageScope::StageScope(Stage s) : stage_(s), muted_(stages_muted), parent_(current_scope) {
  if (muted_) return;
  if (parent_) parent_->pause();
  current_scope = this;
  resume();
}

StageScope::~StageScope() {
  if (muted_) return;
  pause();
  current_scope = parent_;
  if (parent_) parent_->resume();
}

void StageScope::pause() {
  int64_t mn = 0, mj = 0;
  faults(mn, mj);
  StageTimes::instance().add(stage_, monotonic_ms() - start_ms_, mn - start_minflt_, mj - start_majflt_);
}

void StageScope::resume() {
  faults(start_minflt_, start_majflt_);
  start_ms_ = monotonic_ms();
}

double monotonic_ms() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) / 1e6;
}

double process_start_ms() {
  // Field 22 of /proc/self/stat: start time in clock ticks after boot. CLOCK_BOOTTIME
  // counts from boot too; its offset to CLOCK_MONOTONIC (time suspended) is applied.
  std::ifstream f("/proc/self/stat");
  std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  const auto close = text.rfind(')');  // the command name may hold spaces
  const double now = monotonic_ms();
  if (close == std::string::npos) return now;
  std::istringstream rest(text.substr(close + 2));
  std::string field;
  unsigned long long start_ticks = 0;
  for (int i = 3; i <= 22 && rest >> field; i++)
    if (i == 22) start_ticks = std::stoull(field);
  const long hz = sysconf(_SC_CLK_TCK);
  if (start_ticks == 0 || hz <= 0) return now;
  timespec boot{};
  clock_gettime(CLOCK_BOOTTIME, &boot);
  const double boot_ms = double(boot.tv_sec) * 1e3 + double(boot.tv_nsec) / 1e6;
  const double start_boot_ms = double(start_ticks) * 1e3 / double(hz);
  const double start = now - (boot_ms - start_boot_ms);
  return start < now ? start : now;
}

}  // namespace raydb
