// Hashed group ids for keys that come in runs (the previous row's group is reused)
// and in any order, one and two words wide, against a map of the distinct keys.
#include <gtest/gtest.h>

#include <map>
#include <random>

#include "exec/core/group_table.h"

namespace raydb::exec {
namespace {

TEST(GroupTable, HashedIdsMatchDistinctKeysWithRuns) {
  std::mt19937_64 rng(5);
  for (int width = 1; width <= 2; width++)
    for (int runs = 0; runs < 2; runs++) {
      GroupTable table(width, false, 0);
      std::map<std::vector<int64_t>, uint32_t> seen;
      std::vector<int64_t> words;
      std::vector<int64_t> key(static_cast<size_t>(width));
      for (int batch = 0; batch < 20; batch++) {
        words.clear();
        const size_t n = 1 + rng() % 3000;
        for (size_t i = 0; i < n; i++) {
          if (!(runs && i > 0 && rng() % 4))  // runs: most rows repeat the previous key
            for (auto& k : key) k = int64_t(rng() % 700) - 350;
          words.insert(words.end(), key.begin(), key.end());
        }
        std::vector<uint32_t> gids(n);
        table.find_or_insert(words.data(), n, gids.data());
        for (size_t i = 0; i < n; i++) {
          std::vector<int64_t> k(words.begin() + long(i) * width, words.begin() + long(i + 1) * width);
          auto [it, inserted] = seen.emplace(k, gids[i]);
          ASSERT_EQ(it->second, gids[i]) << "width " << width << " row " << i;  // same key, same group
          if (inserted) ASSERT_EQ(gids[i], seen.size() - 1);                   // new key, next id
        }
      }
      EXPECT_EQ(table.group_count(), seen.size());
      std::vector<int64_t> back(static_cast<size_t>(width));
      for (auto& [k, g] : seen) {
        table.key_words(g, back.data());
        EXPECT_EQ(back, k);
      }
    }
}

}  // namespace
}  // namespace raydb::exec
