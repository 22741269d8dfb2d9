#include "exec/cuda/general/dictionary_function_cache.h"

#include <mutex>
#include <vector>

namespace raydb::exec::cuda::general {

namespace {

struct Entry {
  std::weak_ptr<const Dictionary> dict;
  std::string key;
  std::shared_ptr<const DictionaryFunctionCache::Tables> tables;
};

constexpr size_t kEntries = 4;
// Larger tables are not kept (9 bytes a code: 150 MB at 2^24 codes; TPC-H's c_phone has
// 3 M at SF 20).
constexpr size_t kMaxCodes = size_t(1) << 24;

std::mutex& cache_mutex() {
  static std::mutex m;
  return m;
}

std::vector<Entry>& entries() {
  static auto* e = new std::vector<Entry>();
  return *e;
}

}  // namespace

std::shared_ptr<const DictionaryFunctionCache::Tables> DictionaryFunctionCache::find(
    const std::shared_ptr<const Dictionary>& dict, const std::string& key) {
  std::lock_guard<std::mutex> lock(cache_mutex());
  for (const Entry& e : entries()) {
    std::shared_ptr<const Dictionary> alive = e.dict.lock();
    if (alive && alive.get() == dict.get() && e.key == key) return e.tables;
  }
  return nullptr;
}

void DictionaryFunctionCache::store(const std::shared_ptr<const Dictionary>& dict, const std::string& key,
                                    std::shared_ptr<const Tables> tables) {
  if (!dict || !tables || tables->map.values.size() > kMaxCodes) return;
  std::lock_guard<std::mutex> lock(cache_mutex());
  std::vector<Entry>& all = entries();
  std::erase_if(all, [](const Entry& e) { return e.dict.expired(); });
  if (all.size() == kEntries) all.erase(all.begin());  // the oldest
  all.push_back({dict, key, std::move(tables)});
}

}  // namespace raydb::exec::cuda::general
