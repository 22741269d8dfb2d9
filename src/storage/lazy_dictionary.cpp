#include "storage/lazy_dictionary.h"

#include "common/stage_times.h"

namespace raydb {

void LazyDictionary::load() const {
  // Not std::call_once: a throwing callable can leave libstdc++'s once_flag stuck.
  std::lock_guard<std::mutex> lock(mutex_);
  if (loaded_.load(std::memory_order_relaxed)) return;
  // Reading catalog files is the open stage's work, wherever it happens now.
  StageScope stage(Stage::kOpen);
  dict_ = loader_();
  loaded_.store(true, std::memory_order_release);
}

}  // namespace raydb
