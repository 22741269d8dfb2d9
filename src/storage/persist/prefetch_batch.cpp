#include "storage/persist/prefetch_batch.h"

#include <algorithm>

#include "common/stage_times.h"

namespace raydb::persist {

PrefetchBatch::PrefetchBatch(std::vector<std::shared_ptr<NarrowedPrefetch>> files, int threads)
    : files_(std::move(files)) {
  uint64_t bytes = 0;
  for (size_t f = 0; f < files_.size(); f++) {
    for (uint64_t c = 0; c < files_[f]->chunks(); c++) jobs_.emplace_back(f, c);
    bytes += files_[f]->file().bytes();
  }
  StageTimes::instance().add_bytes(ByteCount::kPrefetched, bytes);
  const size_t n = std::min<size_t>(size_t(std::max(threads, 1)), jobs_.size());
  start_ms_ = monotonic_ms();
  running_.store(int(n));
  try {
    for (size_t i = 0; i < n; i++) threads_.emplace_back(&PrefetchBatch::work, this);
  } catch (const std::system_error&) {
    // Fewer threads than asked: those started take every chunk; with none, the
    // destructor fails the chunks and the consumer reads the file itself.
    running_.fetch_sub(int(n - threads_.size()));
  }
}

PrefetchBatch::~PrefetchBatch() {
  stop_.store(true);
  for (auto& t : threads_) t.join();
  for (auto& f : files_) f->abandon("the read-ahead of narrowed column file " + f->file().path + " was stopped");
}

void PrefetchBatch::work() {
  mute_stages_on_this_thread();  // background work: the query's thread records its waits
  for (size_t j; !stop_.load() && (j = next_.fetch_add(1)) < jobs_.size();) {
    auto& [f, c] = jobs_[j];
    if (files_[f]->read_chunk(c))
      StageTimes::instance().add_bytes(ByteCount::kColumnFileRead,
                                       std::min(files_[f]->chunk_bytes(), files_[f]->file().bytes() - c * files_[f]->chunk_bytes()));
  }
  // The last thread out records the batch's wall time (hidden behind the query's stages).
  if (running_.fetch_sub(1) == 1) StageTimes::instance().add_background(Background::kPrefetch, monotonic_ms() - start_ms_);
}

}  // namespace raydb::persist
