#pragma once
// The codes of a dictionary that a LIKE pattern matches, found without testing every
// entry: the entries are stored back to back (Dictionary::chars), so the pattern's
// required literal is searched once over their bytes (find_literal over long spans) and only
// the entries holding it are tested with the pattern. TPC-H Q13's
// '%special%requests%' over 1.5 M o_comments per SF tests about 1% of them. Patterns
// without a literal ('%', '_%') test every entry. Blocks of codes run in parallel on
// the OpenMP team (host work shared by every backend).
#include <cstdint>
#include <utility>
#include <vector>

#include "exec/core/like_pattern.h"
#include "storage/dictionary.h"

namespace raydb::exec {

using CodeRanges = std::vector<std::pair<int64_t, int64_t>>;  // inclusive, sorted, disjoint, apart

// The codes whose entry `like` matches (negated: does not match). `blocks` splits the
// codes into that many parts (0: by size and the OpenMP team); any count gives the
// same ranges.
CodeRanges dictionary_like_ranges(const Dictionary& dict, const LikePattern& like, bool negated, int blocks = 0);

}  // namespace raydb::exec
