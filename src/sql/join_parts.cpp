#include "sql/join_parts.h"

#include <vector>

#include "common/error.h"
#include "sql/column_words.h"

namespace raydb::sql {

namespace {

void names_in(const AstPtr& e, std::set<std::string>& names, bool& star) {
  if (!e) return;
  if (e->kind == AstKind::kColumn) names.insert(to_lower(e->name));
  if (e->kind == AstKind::kStar) star = true;
  if (e->subquery) statement_names(*e->subquery, names, star);
  for (auto& c : e->children) names_in(c, names, star);
}

}  // namespace

void statement_names(const SelectStatement& s, std::set<std::string>& names, bool& star) {
  for (auto& w : s.with) statement_names(*w.select, names, star);
  if (s.left) statement_names(*s.left, names, star);
  if (s.right) statement_names(*s.right, names, star);
  for (auto& i : s.select) names_in(i.expr, names, star);
  for (auto& t : s.from) {
    names_in(t.on, names, star);
    if (t.subquery) statement_names(*t.subquery, names, star);
  }
  names_in(s.where, names, star);
  names_in(s.having, names, star);
  for (auto& g : s.group_by) names_in(g, names, star);
  for (auto& o : s.order_by) names_in(o.expr, names, star);
}

void append_part_column(TempTableBuilder& b, const TempTable& part, size_t c) {
  const Column& col = part.table->column(c);
  const uint64_t n = part.rows();
  const Type t = part.type(c);
  const bool ints = !col.has_nulls() && t.id != TypeId::kVarchar && t.id != TypeId::kDouble &&
                    t.id != TypeId::kHugeint && col.type().id != TypeId::kVarchar && col.type().id != TypeId::kDouble;
  if (ints) {
    std::vector<int64_t> values;
    std::vector<uint8_t> nulls;
    read_column_words(col, n, values);
    if (part.nullable(c)) {
      std::vector<int64_t> flags;
      read_column_words(part.table->column(size_t(part.null_flag[c])), n, flags);
      nulls.resize(n);
      for (uint64_t r = 0; r < n; r++) nulls[r] = flags[r] != 0;
    }
    if (b.append_ints(c, values.data(), nulls, n)) return;
  }
  for (uint64_t row = 0; row < n; row++) b.append(c, part.value(row, c));
}

}  // namespace raydb::sql
