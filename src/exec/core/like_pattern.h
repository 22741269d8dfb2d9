#pragma once
// A LIKE pattern analysed once for matching many strings (a dictionary's entries, a
// batch of run-time strings). Patterns of ASCII literals and % only (most LIKEs, e.g.
// '%special%requests%') are matched by their pieces: the text starts with the piece
// before the first %, ends with the one after the last, and holds the pieces between
// them in order (memmem; the leftmost find of each is as good as any later one).
// Other patterns (_, escapes, non-ASCII bytes) use like_match.
// required_literal() is a byte string every matching text contains (the longest run of
// literal characters): a scan of many strings stored back to back (a dictionary)
// searches it once over all of them and tests only the strings that hold it.
#include <string>
#include <string_view>
#include <vector>

namespace raydb::exec {

class LikePattern {
 public:
  explicit LikePattern(std::string pattern);
  bool matches(std::string_view text) const;
  // The longest run of literal characters (escapes resolved), empty when none: every
  // text that matches holds it (like_match matches literals byte for byte, in order).
  const std::string& required_literal() const { return required_; }

 private:
  std::string pattern_;
  bool pieces_only_ = false;  // literals and % only
  bool has_percent_ = false;
  std::string head_, tail_;          // before the first %, after the last
  std::vector<std::string> middle_;  // non-empty pieces between them, in order
  std::string required_;
};

}  // namespace raydb::exec
