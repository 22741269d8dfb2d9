#include "exec/core/in_list_cache.h"

#include <algorithm>
#include <array>

namespace raydb::exec {

using plan::Expr;
using plan::ExprKind;
using plan::ExprPtr;

namespace {

int scale_of(const Type& t) { return t.id == TypeId::kDecimal ? t.scale : 0; }

struct Entry {
  const Expr* owner = nullptr;
  std::vector<ExprPtr> items;  // keeps the constants (and their addresses) alive
  bool strings = false;
  int scale = 0;
  bool usable = false;
  InListItems prepared;
};

bool same_items(const Entry& en, const Expr& e) {
  if (en.owner != &e || en.items.size() + 1 != e.children.size()) return false;
  for (size_t k = 0; k < en.items.size(); k++)
    if (en.items[k].get() != e.children[k + 1].get()) return false;
  return true;
}

void prepare(Entry& en, const Expr& e, const Vector& x) {
  en.owner = &e;
  en.items.assign(e.children.begin() + 1, e.children.end());
  en.strings = x.kind != VectorKind::kInt;
  en.scale = scale_of(x.type);
  en.usable = true;
  InListItems& p = en.prepared;
  p = InListItems{};
  p.strings = en.strings;
  for (const ExprPtr& c : en.items) {
    if (c->kind != ExprKind::kConstant || c->value.is_null()) {
      en.usable = false;
      return;
    }
    if (en.strings) {
      if (c->type.id != TypeId::kVarchar) {
        en.usable = false;
        return;
      }
      p.texts.push_back(c->value.as_string());
    } else {
      if (kind_of(c->type) != VectorKind::kInt || scale_of(c->type) != en.scale) {
        en.usable = false;
        return;
      }
      p.words.push_back(Vector::constant(c->value, c->type, 1).ints[0]);
    }
  }
  std::sort(p.words.begin(), p.words.end());
  std::sort(p.texts.begin(), p.texts.end());
}

// A few lists per thread, replaced round-robin: a query's filters alternate between
// their lists batch by batch.
thread_local std::array<Entry, 4> entries;
thread_local size_t next = 0;

}  // namespace

bool InListCache::items_known_non_null(const Expr& e) {
  if (e.children.size() <= kMinItems) return false;
  for (const Entry& en : entries)
    if (en.usable && same_items(en, e)) return true;
  return false;
}

const InListItems* InListCache::find(const Expr& e, const Vector& x) {
  if (e.children.size() <= kMinItems) return nullptr;
  const bool strings = x.kind == VectorKind::kString || x.kind == VectorKind::kCode;
  if (!strings && x.kind != VectorKind::kInt) return nullptr;
  for (Entry& en : entries)
    if (same_items(en, e) && en.strings == strings && (strings || en.scale == scale_of(x.type)))
      return en.usable ? &en.prepared : nullptr;
  Entry& en = entries[next];
  next = (next + 1) % entries.size();
  prepare(en, e, x);
  return en.usable ? &en.prepared : nullptr;
}

}  // namespace raydb::exec
