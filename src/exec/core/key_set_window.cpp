#include "exec/core/key_set_window.h"

#include <algorithm>

namespace raydb::exec {

using plan::Expr;
using plan::ExprKind;

KeySetWindow::KeySetWindow(const plan::KeySet& set, bool negated, int64_t min, int64_t max)
    : set_(&set), runs_(set.runs().data()), negated_(negated), min_(min), max_(max) {
  if (min > max) return;
  const auto& runs = set.runs();
  first_ = size_t(std::lower_bound(runs.begin(), runs.end(), min,
                                   [](const plan::KeyRun& r, int64_t v) { return r.second < v; }) -
                  runs.begin());
  end_ = size_t(std::upper_bound(runs.begin() + long(first_), runs.end(), max,
                                 [](int64_t v, const plan::KeyRun& r) { return v < r.first; }) -
                runs.begin());
  const size_t k = end_ - first_;
  if (!negated) {
    size_ = k;
    return;
  }
  if (k == 0) {
    size_ = 1;  // the whole window
    return;
  }
  // The gaps between the runs, and before the first and after the last where the runs
  // leave part of [min, max] uncovered.
  lead_ = runs[first_].first > min;
  const bool trail = runs[end_ - 1].second < max;
  size_ = k - 1 + size_t(lead_) + size_t(trail);
}

double KeySetWindow::coverage() const {
  if (min_ > max_) return 0;
  // The set's words inside [min, max] (runs are made of words): what the ranges cover,
  // or with negated what they leave out. Exact integers in long double, as the sum of
  // range widths ColumnPredicate::coverage takes.
  const auto& w = set_->words();
  const long double in = (long double)(std::upper_bound(w.begin(), w.end(), max_) -
                                       std::lower_bound(w.begin(), w.end(), min_));
  const long double total = (long double)max_ - (long double)min_ + 1;
  return double((negated_ ? total - in : in) / total);
}

std::vector<std::pair<int64_t, int64_t>> KeySetWindow::ranges() const {
  std::vector<std::pair<int64_t, int64_t>> out(size_);
  for (size_t i = 0; i < size_; i++) out[i] = at(i);
  return out;
}

std::optional<KeySetPredicate> match_key_set_predicate(const Expr& e, const plan::LogicalQuery& q) {
  const Expr* k = &e;
  bool negated = e.negated;
  if (e.kind == ExprKind::kNot) {
    k = e.children[0].get();
    negated = !k->negated;
  }
  if (k->kind != ExprKind::kInKeySet) return std::nullopt;
  const Expr& c = *k->children[0];
  // A NULL in the set makes "not found" unknown, which ranges cannot say.
  if (c.kind != ExprKind::kColumnRef || k->key_set->has_null() || c.table_index < 0) return std::nullopt;
  const Column& col = q.tables[size_t(c.table_index)].table->column(size_t(c.column_index));
  if (!k->key_set->comparable_with(col.type())) return std::nullopt;
  return KeySetPredicate{c.table_index, c.column_index, k->key_set, negated};
}

}  // namespace raydb::exec
