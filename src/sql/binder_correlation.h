#pragma once
// The FROM items a correlated subquery's names resolve against (binder_correlated*.cpp).
#include <string>
#include <utility>
#include <vector>

#include "sql/binder.h"

namespace raydb::sql {

enum class CorrelationSide { kInner, kOuter, kUnknown };
using Side = CorrelationSide;

// The FROM items a subquery's names resolve against: its own (inner) and the
// enclosing block's (outer). `complete` is false when an inner item's columns are not
// known before binding (a derived table): then nothing is taken as correlated.
struct Binder::Correlation {
  std::vector<std::pair<std::string, TempTable>> inner;
  const Binder* outer = nullptr;
  bool complete = true;

  Side side(const AstExpr& c) const {
    auto in_inner = [&](const std::string& q) {
      for (auto& [alias, t] : inner)
        if ((q.empty() || iequals(alias, q)) && t.find_column(c.name) >= 0) return true;
      return false;
    };
    if (!c.qualifier.empty()) {
      for (auto& [alias, t] : inner)
        if (iequals(alias, c.qualifier)) return Side::kInner;
    } else if (in_inner("")) {
      return Side::kInner;
    }
    for (size_t i = 0; i < outer->q_.tables.size(); i++) {
      if ((c.qualifier.empty() || iequals(outer->q_.tables[i].alias, c.qualifier)) &&
          outer->shapes_[i].find_column(c.name) >= 0)
        return Side::kOuter;
      // An item inside an outer join's rows (TempTable::qualifiers), as bind_column sees it.
      if (!c.qualifier.empty() && outer->shapes_[i].has_qualifier(c.qualifier) &&
          outer->shapes_[i].find_qualified(c.qualifier, c.name) >= 0)
        return Side::kOuter;
    }
    return Side::kUnknown;
  }
  // Whether e (not looking into nested subqueries) reads outer, or inner, columns.
  void sides(const AstExpr& e, bool& reads_inner, bool& reads_outer) const {
    if (e.kind == AstKind::kColumn) {
      Side s = side(e);
      reads_inner = reads_inner || s == Side::kInner;
      reads_outer = reads_outer || s == Side::kOuter;
    }
    if (e.kind == AstKind::kStar && !e.qualifier.empty()) reads_inner = true;
    for (auto& c : e.children) sides(*c, reads_inner, reads_outer);
  }
  bool reads_outer(const AstPtr& e) const {
    bool i = false, o = false;
    if (e) sides(*e, i, o);
    return o;
  }
};

// Whether a subquery nested in e names a column of the outer block (aliases `outer`)
// by its qualifier: a correlation two levels deep. `shadow` holds the aliases of the
// levels in between; `depth` is 0 at the subquery's own level.
bool nested_outer_ref(const AstExpr& e, const std::vector<std::string>& outer, std::vector<std::string>& shadow,
                      int depth);

}  // namespace raydb::sql
