#pragma once
// The materialized rows of an RT view: the star join resolved once, every row's
// filter codes, group id and aggregate inputs as plain arrays. This is what the
// catalog persists (save/load); the encodings (view_layout.h) and the BVH are derived
// from it.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "access/rt_view/view_definition.h"
#include "raydb/types.h"
#include "raydb/value.h"
#include "storage/dictionary.h"
#include "storage/table.h"

namespace raydb::rtview {

// Dense codes of one attribute: code = stored integer - min (integers, dates,
// decimals), or the order-preserving dictionary code (VARCHAR). Codes keep the
// value order, so value ranges are code ranges.
struct AttrDomain {
  std::string name;
  Type type;
  int64_t min = 0;
  uint32_t size = 0;  // codes 0 .. size-1
  std::shared_ptr<const Dictionary> dict;

  Value decode(uint32_t code) const;
  // Codes c with lo <= value(c) <= hi (stored integers); empty: nullopt.
  std::optional<std::pair<uint32_t, uint32_t>> int_range(int64_t lo, int64_t hi) const;
  std::optional<uint32_t> string_code(std::string_view s) const;  // VARCHAR
};

struct ViewRows {
  std::string name;
  uint64_t rows = 0;
  std::vector<AttrDomain> filter_domains;
  std::vector<std::vector<uint32_t>> filter_codes;  // [attribute][row]
  std::vector<AttrDomain> group_domains;
  // The group tuples that occur, sorted lexicographically by codes (so by values):
  // tuple g is group_tuples[g * group attributes + k].
  uint32_t group_count = 0;
  std::vector<uint32_t> group_tuples;
  std::vector<uint32_t> group_ids;  // [row]
  std::vector<std::string> input_names;
  std::vector<std::vector<int64_t>> inputs;  // [input][row]
  // Derived when materialized or loaded, not persisted (view_group_prune.h): per filter
  // attribute, the code every row of group g shares ([attribute][g]), or empty when
  // some group mixes codes. Such an attribute is decided by the group alone.
  std::vector<std::vector<uint32_t>> group_filter_codes;
  // And per such attribute its groups by code (counting sort): groups of code c are
  // groups[offsets[c] .. offsets[c + 1]); empty when not decided.
  struct GroupsByCode {
    std::vector<uint32_t> offsets, groups;
  };
  std::vector<GroupsByCode> groups_by_code;

  size_t host_bytes() const;
  uint32_t group_code(uint32_t g, size_t k) const { return group_tuples[g * group_domains.size() + k]; }
};

using TableResolver = std::function<TablePtr(std::string_view name)>;

// Resolves the join (dense key arrays, inner join: fact rows without a partner are
// not in the view) and encodes every row. Throws kInvalidInput / kBinder with one line
// on unknown tables or columns, duplicate dimension keys, unsupported types or
// domains too large for codes, and expressions that overflow 64 bits.
std::shared_ptr<ViewRows> materialize_view(const ViewDefinition& def, const TableResolver& tables);

// Persistence: save writes every array and a small metadata file into a new
// directory `<dir>.new`, fsyncs them, then renames it over `dir` (the old one goes to
// `<dir>.old` first and is removed after), so a crash leaves the old or the new view.
void save_view_rows(const ViewRows& v, const std::string& dir);
std::shared_ptr<ViewRows> load_view_rows(const std::string& dir);

}  // namespace raydb::rtview
