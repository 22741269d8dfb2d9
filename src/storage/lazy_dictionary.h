#pragma once
// A VARCHAR column's dictionary read from its file the first time it is used, not when
// the database opens: a one-shot query then reads only the dictionaries of the columns
// it touches (SSB's customer names, addresses and phones are most of a catalog's bytes
// and no SSB query reads them). The loader's checks (size, order, checksum) run at that
// first use and throw their one-line error there, and again on every later use until a
// load succeeds, so a damaged file never yields a dictionary.
#include <atomic>
#include <functional>
#include <memory>
#include <mutex>

#include "storage/dictionary.h"

namespace raydb {

class LazyDictionary {
 public:
  using Loader = std::function<std::shared_ptr<const Dictionary>()>;
  explicit LazyDictionary(Loader loader) : loader_(std::move(loader)) {}

  // The dictionary, loaded on the first call (thread-safe); throws the loader's error.
  const std::shared_ptr<const Dictionary>& get() const {
    if (!loaded_.load(std::memory_order_acquire)) load();
    return dict_;
  }

 private:
  void load() const;
  Loader loader_;
  mutable std::shared_ptr<const Dictionary> dict_;
  mutable std::atomic<bool> loaded_{false};
  mutable std::mutex mutex_;
};

}  // namespace raydb
