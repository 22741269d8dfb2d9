#pragma once
// Base of the sorted methods: a lookup's result is a run [begin, end) of positions in
// SortedKeys. Subclasses only find the run (binary search, hash probe, rays);
// aggregation and materialization (count, prefix sum, write) are shared.
#include <atomic>
#include <exception>

#include "access/rt_index/sorted_keys.h"

namespace raydb::access {

struct Run {
  uint32_t begin = 0, end = 0;
};

// The order in which a batch is processed: identity, or sorted by lower bound
// ("sorted probes": neighbouring lookups walk the same paths). The permutation is
// applied on the fly; results are always written in the caller's order.
std::vector<uint32_t> probe_order(std::span<const KeyRange> lookups);

class RunIndex : public KeyIndex {
 public:
  size_t size() const override { return sk_.keys.size(); }
  const IndexStats& stats() const override { return stats_; }
  void aggregate(std::span<const KeyRange> lookups, AggregateResult& out) const override;
  void materialize(std::span<const KeyRange> lookups, RowIdLists& out) const override;
  const SortedKeys& sorted_keys() const { return sk_; }

 protected:
  virtual Run find_run(const KeyRange& q) const = 0;

  // Runs fn(lookup index) over the batch, in sorted order when sorted_probes_.
  // An exception inside the parallel loop is carried out and rethrown here (one
  // escaping an OpenMP region would terminate the process).
  template <typename Fn>
  void for_each_lookup(std::span<const KeyRange> lookups, Fn&& fn) const {
    const size_t n = lookups.size();
    std::exception_ptr error;
    std::atomic<bool> failed{false};
    auto guarded = [&](size_t i) {
      if (failed.load(std::memory_order_relaxed)) return;
      try {
        fn(i);
      } catch (...) {
#pragma omp critical(raydb_lookup_error)
        if (!error) error = std::current_exception();
        failed = true;
      }
    };
    if (sorted_probes_ && n > 1) {
      const std::vector<uint32_t> order = probe_order(lookups);
#pragma omp parallel for schedule(dynamic, 1024)
      for (size_t j = 0; j < n; ++j) guarded(order[j]);
    } else {
#pragma omp parallel for schedule(dynamic, 1024)
      for (size_t i = 0; i < n; ++i) guarded(i);
    }
    if (error) std::rethrow_exception(error);
  }

  SortedKeys sk_;
  IndexStats stats_;
  bool sorted_probes_ = false;
};

}  // namespace raydb::access
