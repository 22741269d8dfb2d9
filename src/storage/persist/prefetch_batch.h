#pragma once
// A few threads that read narrowed files ahead (narrowed_prefetch.h): the files' chunks
// in order, file after file, each thread taking the next chunk, so the first file is
// complete first and its upload may start while later ones are read. Page-cache reads
// are memory-bandwidth work that scales with cores; the threads end when every chunk
// is taken. The threads record no --timing stage (they overlap the query's thread);
// the batch's wall time and bytes go to StageTimes as background work.
#include <atomic>
#include <memory>
#include <thread>
#include <utility>
#include <vector>

#include "storage/persist/narrowed_prefetch.h"

namespace raydb::persist {

class PrefetchBatch {
 public:
  // Starts min(threads, chunks) threads (at least one when there is a chunk).
  PrefetchBatch(std::vector<std::shared_ptr<NarrowedPrefetch>> files, int threads);
  // Stops handing out chunks, joins the threads, and fails the chunks never read, so
  // no consumer waits for them.
  ~PrefetchBatch();
  PrefetchBatch(const PrefetchBatch&) = delete;
  PrefetchBatch& operator=(const PrefetchBatch&) = delete;

  const std::vector<std::shared_ptr<NarrowedPrefetch>>& files() const { return files_; }
  int threads() const { return int(threads_.size()); }

 private:
  void work();
  std::vector<std::shared_ptr<NarrowedPrefetch>> files_;
  std::vector<std::pair<size_t, uint64_t>> jobs_;  // (file, chunk) in reading order
  std::atomic<size_t> next_{0};
  std::atomic<bool> stop_{false};
  std::atomic<int> running_{0};
  double start_ms_ = 0;
  std::vector<std::thread> threads_;
};

}  // namespace raydb::persist
