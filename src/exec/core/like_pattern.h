#pragma once
// A LIKE pattern analysed once for matching many strings (a dictionary's entries, a
// batch of run-time strings). Patterns of ASCII literals and % only (most LIKEs, e.g.
// '%special%requests%') are matched by their pieces: the text starts with the piece
// before the first %, ends with the one after the last, and holds the pieces between
// them in order (memmem; the leftmost find of each is as good as any later one).
// Other patterns (_, escapes, non-ASCII bytes) use like_match.
#include <string>
#include <string_view>
#include <vector>

namespace raydb::exec {

class LikePattern {
 public:
  explicit LikePattern(std::string pattern);
  bool matches(std::string_view text) const;

 private:
  std::string pattern_;
  bool pieces_only_ = false;  // literals and % only
  bool has_percent_ = false;
  std::string head_, tail_;          // before the first %, after the last
  std::vector<std::string> middle_;  // non-empty pieces between them, in order
};

}  // namespace raydb::exec
