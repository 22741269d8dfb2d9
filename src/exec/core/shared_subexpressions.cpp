#include "exec/core/shared_subexpressions.h"

#include <algorithm>

namespace raydb::exec {

namespace {

// Pairwise comparison is quadratic: past this many nodes sharing is not looked for.
constexpr size_t kMaxNodes = 256;

struct Node {
  const plan::Expr* e;
  int parent;     // index in the node list, -1 for a root
  int cls = -1;   // equivalence class (same_expr)
};

void collect(const plan::Expr& e, int parent, std::vector<Node>& out) {
  const int me = int(out.size());
  out.push_back({&e, parent});
  if (out.size() > kMaxNodes) return;
  for (auto& c : e.children) collect(*c, me, out);
}

}  // namespace

SharedSubexpressions::SharedSubexpressions(const std::vector<const plan::Expr*>& roots) {
  std::vector<Node> nodes;
  for (const plan::Expr* r : roots)
    if (r) collect(*r, -1, nodes);
  if (nodes.size() > kMaxNodes) return;
  std::vector<int> count;  // per class: occurrences
  for (size_t i = 0; i < nodes.size(); i++) {
    for (size_t j = 0; j < i && nodes[i].cls < 0; j++)
      if (plan::same_expr(*nodes[j].e, *nodes[i].e)) nodes[i].cls = nodes[j].cls;
    if (nodes[i].cls < 0) {
      nodes[i].cls = int(count.size());
      count.push_back(0);
    }
    count[size_t(nodes[i].cls)]++;
  }
  // A class is worth a slot when at least two of its occurrences are not inside a
  // repeated parent (those are computed once with their parent). Constants are cheap.
  std::vector<int> free_uses(count.size(), 0);
  for (const Node& n : nodes)
    if (n.parent < 0 || count[size_t(nodes[size_t(n.parent)].cls)] < 2) free_uses[size_t(n.cls)]++;
  std::vector<int> slot_of(count.size(), -1);
  for (const Node& n : nodes) {
    const size_t c = size_t(n.cls);
    if (free_uses[c] < 2 || n.e->kind == plan::ExprKind::kConstant) continue;
    if (slot_of[c] < 0) slot_of[c] = int(values_.size()), values_.emplace_back();
    nodes_.push_back({n.e, slot_of[c]});
  }
  std::sort(nodes_.begin(), nodes_.end());
  valid_.assign(values_.size(), 0);
}

void SharedSubexpressions::clear() { std::fill(valid_.begin(), valid_.end(), 0); }

int SharedSubexpressions::slot(const plan::Expr& e) const {
  auto it = std::lower_bound(nodes_.begin(), nodes_.end(), std::make_pair(&e, -1));
  return it != nodes_.end() && it->first == &e ? it->second : -1;
}

void SharedSubexpressions::store(int slot, const Vector& v) {
  values_[size_t(slot)] = v;
  valid_[size_t(slot)] = 1;
}

}  // namespace raydb::exec
