// DictionaryLikeCache: entries are found for the same live dictionary, pattern and
// negation only, and never for a dictionary that has been freed.
#include <gtest/gtest.h>

#include "exec/core/dictionary_like_cache.h"

namespace raydb::exec {
namespace {

std::shared_ptr<const Dictionary> dict(std::vector<std::string> s) { return std::make_shared<Dictionary>(s); }

TEST(DictionaryLikeCache, FindsOnlyTheSameDictionaryPatternAndNegation) {
  auto a = dict({"apple", "banana", "cherry"});
  auto b = dict({"apple", "banana", "cherry"});
  const DictionaryLikeCache::Ranges codes = {{0, 1}};
  DictionaryLikeCache::store(a, "%an%", false, codes);
  ASSERT_TRUE(DictionaryLikeCache::find(a, "%an%", false).has_value());
  EXPECT_EQ(*DictionaryLikeCache::find(a, "%an%", false), codes);
  EXPECT_FALSE(DictionaryLikeCache::find(a, "%an%", true).has_value());
  EXPECT_FALSE(DictionaryLikeCache::find(a, "%a%", false).has_value());
  EXPECT_FALSE(DictionaryLikeCache::find(b, "%an%", false).has_value());  // equal content, another object
}

TEST(DictionaryLikeCache, FreedDictionaryIsNeverFound) {
  auto a = dict({"x", "y"});
  const Dictionary* old = a.get();
  DictionaryLikeCache::store(a, "x%", false, {{0, 0}});
  a.reset();
  // A new dictionary, possibly at the freed address, must not see the old entry.
  for (int i = 0; i < 64; i++) {
    auto c = dict({"x", "y", "z" + std::to_string(i)});
    EXPECT_FALSE(DictionaryLikeCache::find(c, "x%", false).has_value()) << (c.get() == old ? "same address" : "");
  }
}

TEST(DictionaryLikeCache, KeepsAFewRecentEntries) {
  auto a = dict({"p", "q"});
  for (int i = 0; i < 10; i++) DictionaryLikeCache::store(a, "p" + std::to_string(i) + "%", false, {{i, i}});
  EXPECT_TRUE(DictionaryLikeCache::find(a, "p9%", false).has_value());
  EXPECT_FALSE(DictionaryLikeCache::find(a, "p0%", false).has_value());
}

}  // namespace
}  // namespace raydb::exec
