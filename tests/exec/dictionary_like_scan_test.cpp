// LIKE over dictionaries: LikePattern and like_match against a brute-force reference
// matcher on random patterns and texts, and dictionary_like_ranges (the literal search
// over a dictionary's bytes, in blocks) against testing every entry one by one.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "exec/core/dictionary_like_scan.h"
#include "exec/core/expression_evaluator.h"
#include "exec/core/like_pattern.h"
#include "exec/core/literal_search.h"

namespace raydb::exec {
namespace {

size_t utf8_len(unsigned char c) {
  return c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 1;
}

// LIKE by its definition, by exhaustive recursion: % any run of whole characters, _ one
// UTF-8 character, a backslash makes the next byte literal (a last one is itself).
class ReferenceLike {
 public:
  ReferenceLike(std::string_view text, std::string_view pattern) : s_(text), p_(pattern) {}
  bool match() { return at(0, 0); }

 private:
  bool at(size_t si, size_t pi) {
    auto key = std::make_pair(si, pi);
    if (auto it = memo_.find(key); it != memo_.end()) return it->second;
    bool r = false;
    if (pi == p_.size()) {
      r = si == s_.size();
    } else if (p_[pi] == '%') {
      for (size_t k = si;; k += std::min(utf8_len(static_cast<unsigned char>(s_[k])), s_.size() - k)) {
        if (at(k, pi + 1)) r = true;
        if (r || k >= s_.size()) break;
      }
    } else if (p_[pi] == '_') {
      r = si < s_.size() && at(si + std::min(utf8_len(static_cast<unsigned char>(s_[si])), s_.size() - si), pi + 1);
    } else {
      const size_t lit = p_[pi] == '\\' && pi + 1 < p_.size() ? pi + 1 : pi;
      r = si < s_.size() && s_[si] == p_[lit] && at(si + 1, lit + 1);
    }
    memo_[key] = r;
    return r;
  }
  std::string_view s_, p_;
  std::map<std::pair<size_t, size_t>, bool> memo_;
};

// Random pieces: texts of valid UTF-8 (with % _ and backslashes as plain characters),
// patterns of wildcards, escapes, literals and non-ASCII characters.
const std::vector<std::string> kTextChars = {"a", "b", "c", "s", "p", "%", "_", "\\", "\xc3\xa9", "\xe2\x82\xac",
                                             "\xf0\x9f\x98\x80"};
const std::vector<std::string> kPatternPieces = {"a",   "b",   "c",    "sp",  "ab",       "%",           "%%", "_",
                                                 "__",  "\\%", "\\_", "\\\\", "\\a", "\xc3\xa9", "\xe2\x82\xac", "ba"};

std::string random_text(std::mt19937& rng, const std::vector<std::string>& chars, int max_len) {
  std::string s;
  const int len = int(rng() % uint32_t(max_len + 1));
  for (int i = 0; i < len; i++) s += chars[rng() % chars.size()];
  return s;
}

std::string random_pattern(std::mt19937& rng) {
  std::string p = random_text(rng, kPatternPieces, 6);
  if (rng() % 10 == 0) p += "\\";  // a last backslash is a literal one
  return p;
}

TEST(LikeMatchers, AgreeWithTheReferenceOnValidUtf8) {
  std::mt19937 rng(12345);
  for (int i = 0; i < 20000; i++) {
    const std::string pattern = random_pattern(rng);
    const std::string text = random_text(rng, kTextChars, 10);
    const bool want = ReferenceLike(text, pattern).match();
    ASSERT_EQ(like_match(text, pattern), want) << "text '" << text << "' pattern '" << pattern << "'";
    ASSERT_EQ(LikePattern(pattern).matches(text), want) << "text '" << text << "' pattern '" << pattern << "'";
  }
}

TEST(LikeMatchers, RequiredLiteralIsInEveryMatch) {
  EXPECT_EQ(LikePattern("%special%requests%").required_literal(), "requests");
  EXPECT_EQ(LikePattern("%").required_literal(), "");
  EXPECT_EQ(LikePattern("a_bc").required_literal(), "bc");
  EXPECT_EQ(LikePattern("x\\%yz%").required_literal(), "x%yz");  // escapes resolved
  EXPECT_EQ(LikePattern("ab\\").required_literal(), "ab\\");
  std::mt19937 rng(777);
  for (int i = 0; i < 20000; i++) {
    const std::string pattern = random_pattern(rng);
    const std::string text = random_text(rng, kTextChars, 10);
    const LikePattern like(pattern);
    if (like.matches(text))
      ASSERT_NE(text.find(like.required_literal()), std::string::npos) << "text '" << text << "' pattern '" << pattern;
  }
}

TEST(FindLiteral, EqualsMemmem) {
  // Small alphabets so needles occur, at every offset and near both ends; needles up to
  // 40 bytes (longer than a vector step); high bytes and NULs included.
  std::mt19937 rng(4242);
  const std::string alphabet = std::string("ab\0\xff\x80", 5);
  for (int i = 0; i < 20000; i++) {
    std::string hay(rng() % 200, 'a'), needle(rng() % 41, 'a');
    for (char& c : hay) c = alphabet[rng() % (i % 2 ? 2 : alphabet.size())];
    for (char& c : needle) c = alphabet[rng() % (i % 2 ? 2 : alphabet.size())];
    if (rng() % 4 == 0 && needle.size() <= hay.size()) {  // plant it, often at the very end
      const size_t room = hay.size() - needle.size();
      hay.replace(rng() % 2 ? room : rng() % (room + 1), needle.size(), needle);
    }
    const size_t from = hay.empty() ? 0 : rng() % (hay.size() + 1);  // a start inside the buffer
    const char* want =
        static_cast<const char*>(memmem(hay.data() + from, hay.size() - from, needle.data(), needle.size()));
    ASSERT_EQ(find_literal(hay.data() + from, hay.size() - from, needle), want)
        << "hay size " << hay.size() << " from " << from << " needle size " << needle.size();
#if defined(__x86_64__)
    ASSERT_EQ(find_literal_sse2(hay.data() + from, hay.size() - from, needle), want)
        << "SSE2: hay size " << hay.size() << " from " << from << " needle size " << needle.size();
#endif
  }
}

// The codes that match, one entry at a time (the loop the scan replaces).
CodeRanges one_by_one(const Dictionary& d, const LikePattern& like, bool negated) {
  CodeRanges r;
  for (uint32_t c = 0; c < d.size(); c++) {
    if (like.matches(d.at(c)) == negated) continue;
    if (!r.empty() && r.back().second + 1 == c)
      r.back().second = c;
    else
      r.push_back({c, c});
  }
  return r;
}

Dictionary random_dictionary(std::mt19937& rng, const std::vector<std::string>& chars, size_t entries, int max_len) {
  std::set<std::string> s;
  while (s.size() < entries) s.insert(random_text(rng, chars, max_len));  // the empty string included
  return Dictionary(std::vector<std::string>(s.begin(), s.end()));
}

TEST(DictionaryLikeScan, EqualsTestingEveryEntryForAnyBlockCount) {
  std::mt19937 rng(2024);
  // Any bytes, invalid UTF-8 included: the scan must agree with the entry-by-entry
  // test of the same matcher whatever the bytes are.
  std::vector<std::string> chars = kTextChars;
  chars.push_back("\xff");
  chars.push_back("\xc3");
  for (int round = 0; round < 300; round++) {
    const Dictionary d = random_dictionary(rng, chars, 1 + rng() % 200, 8);
    for (int k = 0; k < 10; k++) {
      const LikePattern like(random_pattern(rng));
      for (bool negated : {false, true}) {
        const CodeRanges want = one_by_one(d, like, negated);
        for (int blocks : {0, 1, 2, 3, 7, int(d.size()), int(d.size()) + 5})
          ASSERT_EQ(dictionary_like_ranges(d, like, negated, blocks), want) << "blocks " << blocks;
      }
    }
  }
}

TEST(DictionaryLikeScan, LiteralAcrossEntriesIsNoMatch) {
  // "spe|cial": the bytes hold "special" across the boundary of two entries.
  const Dictionary d(std::vector<std::string>{"a special", "b spe", "cial", "d", "especial", "special"});
  const LikePattern like("%special%");
  EXPECT_EQ(dictionary_like_ranges(d, like, false, 1), (CodeRanges{{0, 0}, {4, 5}}));
  EXPECT_EQ(dictionary_like_ranges(d, like, true, 1), (CodeRanges{{1, 3}}));
  const LikePattern exact("special");
  EXPECT_EQ(dictionary_like_ranges(d, exact, false, 2), (CodeRanges{{5, 5}}));
}

TEST(DictionaryLikeScan, LargeDictionaryInParallelEqualsSerial) {
  // Comment-like entries, a few with the Q13 words in order, some in the other order.
  std::mt19937 rng(99);
  const std::vector<std::string> words = {"special ", "requests ", "carefully ", "final ", "deposits ", "ironic ",
                                          "sp", "ecial", "request"};
  const Dictionary d = random_dictionary(rng, words, 200000, 8);
  for (const char* p : {"%special%requests%", "%requests%special%", "%ecial%", "special%", "%ts ", "%", "_%x",
                        "%sp_cial%"}) {
    const LikePattern like(p);
    for (bool negated : {false, true}) {
      const CodeRanges want = one_by_one(d, like, negated);
      EXPECT_EQ(dictionary_like_ranges(d, like, negated), want) << p;
      EXPECT_EQ(dictionary_like_ranges(d, like, negated, 1), want) << p;
      EXPECT_EQ(dictionary_like_ranges(d, like, negated, 64), want) << p;
    }
  }
}

TEST(DictionaryLikeScan, EmptyDictionary) {
  const Dictionary d(std::vector<std::string>{});
  EXPECT_TRUE(dictionary_like_ranges(d, LikePattern("%a%"), false).empty());
  EXPECT_TRUE(dictionary_like_ranges(d, LikePattern("%a%"), true).empty());
  EXPECT_TRUE(dictionary_like_ranges(d, LikePattern("%"), false).empty());
}

}  // namespace
}  // namespace raydb::exec
