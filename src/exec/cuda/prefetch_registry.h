#pragma once
// The narrowed files being read ahead for queries about to run on the GPU (setting
// prefetch), by column: a query's planning offers them (offer), the column cache takes
// the one it uploads (take), and what the query did not take is withdrawn when its
// plan is dropped (the Ticket), so a plan that ends up elsewhere (an index path, a
// fallback to the CPU, an error) leaves no read-ahead memory behind.
#include <memory>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <vector>

#include "storage/column.h"
#include "storage/persist/prefetch_batch.h"

namespace raydb::exec::cuda {

// Defined here for the plan analysis, which holds one per planned query.
struct PrefetchTicket {
  const persist::PrefetchBatch* batch = nullptr;
  ~PrefetchTicket();  // withdraws what is still offered
};

class PrefetchRegistry {
 public:
  struct Taken {
    std::shared_ptr<persist::PrefetchBatch> batch;  // keeps the reading threads' state alive
    std::shared_ptr<persist::NarrowedPrefetch> file;
  };

  static PrefetchRegistry& instance();
  // Reads `columns`' narrowed files ahead on `threads` threads in `chunk_bytes` chunks
  // (columns already offered are left out); null when none is left.
  std::shared_ptr<PrefetchTicket> offer(const std::vector<ColumnPtr>& columns, int threads, uint64_t chunk_bytes);
  // The read-ahead of `c`'s narrowed file, removed from the registry; nullopt if none.
  std::optional<Taken> take(const Column* c);
  void withdraw(const persist::PrefetchBatch* batch);  // drops the batch's files not taken
  bool offered(const Column* c);

 private:
  struct Entry {
    ColumnPtr owner;  // keeps the key's Column alive while offered
    Taken taken;
  };
  std::mutex mutex_;
  std::unordered_map<const Column*, Entry> entries_;
};

}  // namespace raydb::exec::cuda
