#include "exec/cuda/prefetch_registry.h"

#include <utility>

namespace raydb::exec::cuda {

PrefetchTicket::~PrefetchTicket() {
  if (batch) PrefetchRegistry::instance().withdraw(batch);
}

PrefetchRegistry& PrefetchRegistry::instance() {
  static PrefetchRegistry* r = new PrefetchRegistry();  // never destroyed: tickets may outlive main
  return *r;
}

std::shared_ptr<PrefetchTicket> PrefetchRegistry::offer(const std::vector<ColumnPtr>& columns, int threads,
                                                        uint64_t chunk_bytes) {
  std::vector<ColumnPtr> kept;
  std::vector<std::shared_ptr<persist::NarrowedPrefetch>> files;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    std::unordered_map<const Column*, bool> seen;
    for (const ColumnPtr& c : columns)
      if (!entries_.count(c.get()) && c->narrowed() && seen.emplace(c.get(), true).second) kept.push_back(c);
  }
  // Opening and mapping happen here, the reading on the batch's threads.
  for (const ColumnPtr& c : kept) files.push_back(std::make_shared<persist::NarrowedPrefetch>(*c->narrowed(), chunk_bytes));
  if (files.empty()) return nullptr;
  auto batch = std::make_shared<persist::PrefetchBatch>(files, threads);
  auto ticket = std::make_shared<PrefetchTicket>();
  ticket->batch = batch.get();
  std::lock_guard<std::mutex> lock(mutex_);
  for (size_t i = 0; i < kept.size(); i++) entries_.emplace(kept[i].get(), Entry{kept[i], Taken{batch, files[i]}});
  return ticket;
}

std::optional<PrefetchRegistry::Taken> PrefetchRegistry::take(const Column* c) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = entries_.find(c);
  if (it == entries_.end()) return std::nullopt;
  Taken t = std::move(it->second.taken);
  entries_.erase(it);
  return t;
}

void PrefetchRegistry::withdraw(const persist::PrefetchBatch* batch) {
  std::vector<Entry> dropped;  // destroyed after the lock: the last one joins the batch's threads
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto it = entries_.begin(); it != entries_.end();) {
      if (it->second.taken.batch.get() == batch) {
        dropped.push_back(std::move(it->second));
        it = entries_.erase(it);
      } else {
        ++it;
      }
    }
  }
}

bool PrefetchRegistry::offered(const Column* c) {
  std::lock_guard<std::mutex> lock(mutex_);
  return entries_.count(c) > 0;
}

}  // namespace raydb::exec::cuda
