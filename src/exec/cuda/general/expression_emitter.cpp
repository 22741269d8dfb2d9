#include "exec/cuda/general/expression_emitter.h"

#include <algorithm>
#include <cstring>

#include "common/error.h"
#include "common/expression_depth.h"
#include "exec/core/column_predicate.h"
#include "exec/core/expression_evaluator.h"
#include "exec/cuda/general/civil_date.h"
#include "exec/cuda/general/dictionary_function.h"
#include "exec/cuda/general/in_set.h"
#include "exec/cuda/range_bitmap.h"

namespace raydb::exec::cuda::general {

using plan::ArithOp;
using plan::CompareOp;
using plan::Expr;
using plan::ExprKind;

namespace {

Operand boolean_result() { return Operand{Type::boolean(), VectorKind::kInt, nullptr}; }

bool has_null_constant(const Expr& e) {
  ExpressionDepthGuard depth_guard;
  if (e.kind == ExprKind::kConstant && e.value.is_null()) return true;
  for (auto& c : e.children)
    if (has_null_constant(*c)) return true;
  return false;
}

// The single column an expression reads, or nullptr (none or several).
const Expr* single_column(const Expr& e) {
  ExpressionDepthGuard depth_guard;
  if (e.kind == ExprKind::kColumnRef) return &e;
  const Expr* found = nullptr;
  for (auto& c : e.children) {
    const Expr* x = single_column(*c);
    if (!x) {
      if (c->kind == ExprKind::kConstant) continue;
      return nullptr;
    }
    if (found && (found->table_index != x->table_index || found->column_index != x->column_index)) return nullptr;
    found = x;
  }
  return found;
}

}  // namespace

int ExpressionEmitter::height(const Expr& e) {
  if (auto it = heights_.find(&e); it != heights_.end()) return it->second;
  ExpressionDepthGuard depth_guard;
  int h = 0;
  for (auto& c : e.children) h = std::max(h, height(*c));
  heights_.emplace(&e, h + 1);
  return h + 1;
}

std::optional<Operand> ExpressionEmitter::emit(const Expr& e) {
  ExpressionDepthGuard depth_guard;  // one level of recursion (issue 14)
  if (!b_.check_depth()) return std::nullopt;
  switch (e.kind) {
    case ExprKind::kColumnRef: return column(e);
    case ExprKind::kConstant: return constant(e);
    case ExprKind::kArith: return arith(e);
    case ExprKind::kNegate: return negate(e);
    case ExprKind::kCompare: {
      if (auto t = column_table(e)) return t;
      if (!why().empty()) return std::nullopt;
      return compare(e, e.compare_op, *e.children[0], *e.children[1]);
    }
    case ExprKind::kAnd:
    case ExprKind::kOr: return and_or(e);
    case ExprKind::kNot: return not_(e);
    case ExprKind::kBetween: return between(e);
    case ExprKind::kInList: return in_list(e);
    case ExprKind::kInKeySet: return in_key_set(e);
    case ExprKind::kLike: return like(e);
    case ExprKind::kIsNull: return is_null(e);
    case ExprKind::kCast: return cast(e);
    case ExprKind::kCase: return case_(e);
    case ExprKind::kFunction: return function(e);
    case ExprKind::kGroupRef:
    case ExprKind::kAggregateRef:
    case ExprKind::kOutputRef: return b_.fail("a post-aggregation reference in a row expression");
    case ExprKind::kWindowRef: return b_.fail("window functions");
  }
  return b_.fail("unknown expression kind");
}

std::optional<Operand> ExpressionEmitter::column(const Expr& e) {
  const Column& c = b_.query().tables[size_t(e.table_index)].table->column(size_t(e.column_index));
  Operand o{c.type(), kind_of(c.type()), nullptr};
  if (c.type().id == TypeId::kDouble) {
    o.kind = VectorKind::kDouble;
  } else if (c.type().id == TypeId::kVarchar) {
    o.kind = VectorKind::kCode;
    o.dict = c.dictionary();
  }
  ProgInstr in;
  in.op = kPLoad;
  in.slot = b_.column_slot(e);
  if (o.kind == VectorKind::kCode) strings_.add_column(b_.program().ins.size(), o.dict);
  b_.push(e, in, 0, 1);
  return o;
}

std::optional<Operand> ExpressionEmitter::constant(const Expr& e) {
  ProgInstr in;
  in.op = kPConst;
  if (e.value.is_null()) {
    in.flag = 1;
    b_.push(e, in, 0, 1);
    return Operand{e.type, e.type.id == TypeId::kVarchar ? VectorKind::kCode : kind_of(e.type), nullptr};
  }
  if (e.type.id == TypeId::kVarchar) {
    // Its rank in the domain, set by finish().
    strings_.add_constant(b_.program().ins.size(), e.value.as_string());
    b_.push(e, in, 0, 1);
    return Operand{e.type, VectorKind::kCode, nullptr};
  }
  Vector v = Vector::constant(e.value, e.type, 1);
  if (v.kind == VectorKind::kDouble) {
    int64_t bits;
    std::memcpy(&bits, &v.doubles[0], 8);
    in.k = bits;
    b_.push(e, in, 0, 1);
    return Operand{e.type, VectorKind::kDouble, nullptr};
  }
  if (v.kind != VectorKind::kInt && v.kind != VectorKind::kHuge) return b_.fail("constant " + e.to_string());
  in.k = v.int_at(0);
  b_.push(e, in, 0, 1);
  return Operand{e.type, v.kind, nullptr};
}

std::optional<Operand> ExpressionEmitter::negate(const Expr& e) {
  auto a = emit(*e.children[0]);
  if (!a) return std::nullopt;
  ProgInstr in;
  if (e.type.id == TypeId::kDouble) {
    if (!conv_.to_double(e, *a)) return std::nullopt;
    in.op = kPDNeg;
    b_.push(e, in, 1, 1);
    return Operand{e.type, VectorKind::kDouble, nullptr};
  }
  if (!is_numeric(*a)) return b_.fail("negation of a non-numeric value");
  if (!(a->type == e.type) && !conv_.cast(e, *a, e.type)) return std::nullopt;
  in.op = kPNeg;
  in.flag = kind_of(e.type) == VectorKind::kHuge ? 1 : 0;
  in.sub = e.type.id == TypeId::kInteger ? 1 : 0;
  b_.push(e, in, 1, 1);
  return Operand{e.type, kind_of(e.type), nullptr};
}

std::optional<Operand> ExpressionEmitter::arith(const Expr& e) {
  ProgInstr in;
  in.sub = uint8_t(e.arith_op);
  if (e.type.id == TypeId::kDouble) {
    // arith_double: both operands as doubles (double_at), one IEEE operation.
    auto [a, b] = operands(*e.children[0], *e.children[1], [&](const Operand& o) { return conv_.to_double(e, o); });
    if (!a || !b) return std::nullopt;
    in.op = kPDArith;
    b_.push(e, in, 2, 1);
    return Operand{e.type, VectorKind::kDouble, nullptr};
  }
  auto [a, b] = operands(*e.children[0], *e.children[1], [](const Operand&) { return true; });
  if (!a || !b) return std::nullopt;
  if (!is_numeric(*a) || !is_numeric(*b)) return b_.fail("arithmetic on non-numeric values in " + e.to_string());
  in.op = kPArith;
  const int rs = scale_of(e.type), sa = scale_of(a->type), sb = scale_of(b->type);
  const bool add_like = e.arith_op == ArithOp::kAdd || e.arith_op == ArithOp::kSub || e.arith_op == ArithOp::kMod;
  if (add_like && (rs < sa || rs < sb)) return b_.fail("decimal arithmetic that lowers a scale");
  in.fa = add_like ? pow10_i128(rs - sa) : 1;
  in.fb = add_like ? pow10_i128(rs - sb) : 1;
  ValueConversions::arith_bounds(e.type, in.lo, in.hi);
  b_.push(e, in, 2, 1);
  return Operand{e.type, kind_of(e.type), nullptr};
}

// The taller operand goes first (then a swap), so a right-deep expression needs a stack
// of about log2(its size) values rather than its depth (Sethi-Ullman order). Only
// which of two failing operands reports first can differ from the CPU's
// operator-at-a-time order.
template <class Convert>
std::pair<std::optional<Operand>, std::optional<Operand>> ExpressionEmitter::operands(const Expr& l, const Expr& r,
                                                                                      Convert convert) {
  std::optional<Operand> a, b;
  if (height(r) > height(l)) {
    if (!(b = emit(r)) || !convert(*b)) return {};
    if (!(a = emit(l)) || !convert(*a)) return {};
    ProgInstr sw;
    sw.op = kPSwap;
    b_.push(l, sw, 2, 2);
  } else {
    if (!(a = emit(l)) || !convert(*a)) return {};
    if (!(b = emit(r)) || !convert(*b)) return {};
  }
  return {a, b};
}

std::optional<Operand> ExpressionEmitter::compare(const Expr& e, CompareOp op, const Expr& l, const Expr& r) {
  ProgInstr in;
  in.sub = uint8_t(op);
  if (l.type.id == TypeId::kDouble || r.type.id == TypeId::kDouble) {
    // compare_vectors: a DOUBLE operand compares both as doubles.
    auto [a, b] = operands(l, r, [&](const Operand& o) { return conv_.to_double(e, o); });
    if (!a || !b) return std::nullopt;
    in.op = kPDCmp;
    b_.push(e, in, 2, 1);
    return boolean_result();
  }
  auto [a, b] = operands(l, r, [](const Operand&) { return true; });
  if (!a || !b) return std::nullopt;
  in.op = kPCmp;
  if (is_string(*a) || is_string(*b)) {
    // Codes of the program's one domain order like their strings (finish()).
    if (!is_string(*a) || !is_string(*b)) return b_.fail("a comparison of a string with a non-string: " + e.to_string());
  } else {
    if (!is_numeric(*a) || !is_numeric(*b)) return b_.fail("a comparison of non-numeric values: " + e.to_string());
    const int sa = scale_of(a->type), sb = scale_of(b->type), s = std::max(sa, sb);
    in.fa = pow10_i128(s - sa);
    in.fb = pow10_i128(s - sb);
    // int64 values times 10^18 stay inside int128; wider ones might not, and the CPU
    // then compares both as doubles (the interpreter does the same, flag).
    if ((a->kind == VectorKind::kHuge && sa != s) || (b->kind == VectorKind::kHuge && sb != s)) {
      in.flag = 1;
      in.lo = pow10_i128(sa);
      in.hi = pow10_i128(sb);
    }
  }
  b_.push(e, in, 2, 1);
  return boolean_result();
}

std::optional<Operand> ExpressionEmitter::and_or(const Expr& e) {
  if (auto t = column_table(e)) return t;
  for (size_t i = 0; i < e.children.size(); i++) {
    if (!emit(*e.children[i])) return std::nullopt;
    if (i > 0) b_.push_logic(e, e.kind == ExprKind::kAnd ? kPAnd : kPOr, 2);
  }
  return boolean_result();
}

std::optional<Operand> ExpressionEmitter::not_(const Expr& e) {
  if (auto t = column_table(e)) return t;
  if (!emit(*e.children[0])) return std::nullopt;
  b_.push_logic(e, kPNot, 1);
  return boolean_result();
}

// x BETWEEN a AND b == (x >= a AND x <= b), three-valued; NOT BETWEEN negates it.
std::optional<Operand> ExpressionEmitter::between(const Expr& e) {
  if (auto t = column_table(e)) return t;
  if (!compare(e, CompareOp::kGe, *e.children[0], *e.children[1])) return std::nullopt;
  if (!compare(e, CompareOp::kLe, *e.children[0], *e.children[2])) return std::nullopt;
  b_.push_logic(e, kPAnd, 2);
  if (e.negated) b_.push_logic(e, kPNot, 1);
  return boolean_result();
}

// x IN (a, b, ...) == x = a OR x = b OR ..., three-valued (as the evaluator).
std::optional<Operand> ExpressionEmitter::in_list(const Expr& e) {
  if (auto t = column_table(e)) return t;
  if (!why().empty()) return std::nullopt;
  // A subquery's values can make the list long: one compare per value would cost the
  // list's length per row, so such lists become one set instruction. So do strings
  // against constants (a table over the domain), which emits the value once instead of
  // once per item (substr(c_phone, 1, 2) IN (7 codes) in TPC-H Q22).
  if (e.children.size() > 65 || (e.children[0]->type.id == TypeId::kVarchar && InSet::strings(e))) return in_set(e);
  for (size_t k = 1; k < e.children.size(); k++) {
    if (!compare(e, CompareOp::kEq, *e.children[0], *e.children[k])) return std::nullopt;
    if (k > 1) b_.push_logic(e, kPOr, 2);
  }
  if (e.negated) b_.push_logic(e, kPNot, 1);
  return boolean_result();
}

// x IN <a subquery's keys>: one instruction over the KeySet, copied once into the
// program's lookup table (no constant per key to compile): its bitmap when it has one
// (kPInBitmap), else its sorted words (kPInSet).
std::optional<Operand> ExpressionEmitter::in_key_set(const Expr& e) {
  auto x = emit(*e.children[0]);
  if (!x) return std::nullopt;
  if (x->kind != VectorKind::kInt || !e.key_set->comparable_with(x->type))
    return b_.fail("a key set tested against a value of another kind");
  const plan::KeySet& set = *e.key_set;
  CompiledProgram& p = b_.program();
  ProgInstr in;
  in.slot = int(p.lookups.size());
  in.flag = set.has_null() ? 1 : 0;
  in.sub = e.negated ? 1 : 0;
  HostLookup t;
  if (!set.bitmap().empty()) {  // dense: one load per row
    in.op = kPInBitmap;
    t.values.assign(set.bitmap().begin(), set.bitmap().end());
    t.base = set.bitmap_base();
  } else {
    in.op = kPInSet;
    t.values.assign(set.words().begin(), set.words().end());
  }
  p.lookups.push_back(std::move(t));
  b_.push(e, in, 1, 1);
  return boolean_result();
}

// A long list of constants: one set instruction (integers: binary search of a sorted
// array; strings: a table over the program's domain) instead of a compare per value.
std::optional<Operand> ExpressionEmitter::in_set(const Expr& e) {
  const char* why = "an IN list of more than 64 values that are not all constants of the value's kind";
  auto x = emit(*e.children[0]);
  if (!x) return std::nullopt;
  CompiledProgram& p = b_.program();
  ProgInstr in;
  in.slot = int(p.lookups.size());
  if (is_string(*x)) {
    auto set = InSet::strings(e);
    if (!set) return b_.fail(why);
    in.op = kPLookup;
    p.lookups.emplace_back();
    strings_.add_in_set(in.slot, std::move(set->texts), e.negated, set->has_null);
    b_.push(e, in, 1, 1);
    return boolean_result();
  }
  // int64 values only (the set's type); HUGEINT and DOUBLE lists stay on the CPU.
  if (x->kind != VectorKind::kInt || x->type.id == TypeId::kDouble) return b_.fail(why);
  auto set = InSet::integers(e, x->type);
  if (!set) return b_.fail(why);
  in.op = kPInSet;
  in.flag = set->has_null ? 1 : 0;
  in.sub = e.negated ? 1 : 0;
  HostLookup t;
  t.values = std::move(set->values);
  p.lookups.push_back(std::move(t));
  b_.push(e, in, 1, 1);
  return boolean_result();
}

std::optional<Operand> ExpressionEmitter::function(const Expr& e) {
  switch (e.func) {
    case plan::ScalarFunc::kYear: return date_part(e, kDateYear);
    case plan::ScalarFunc::kMonth: return date_part(e, kDateMonth);
    case plan::ScalarFunc::kDay: return date_part(e, kDateDay);
    case plan::ScalarFunc::kQuarter: return date_part(e, kDateQuarter);
    case plan::ScalarFunc::kDayOfWeek: return date_part(e, kDateDayOfWeek);
    case plan::ScalarFunc::kDayOfYear: return date_part(e, kDateDayOfYear);
    case plan::ScalarFunc::kTruncYear: return date_part(e, kDateTruncYear);
    case plan::ScalarFunc::kTruncQuarter: return date_part(e, kDateTruncQuarter);
    case plan::ScalarFunc::kTruncMonth: return date_part(e, kDateTruncMonth);
    default: break;
  }
  if (auto o = dictionary_function(e)) return o;
  if (!why().empty()) return std::nullopt;
  // Other scalar functions run on the CPU only for now: declined, so `auto` falls back.
  return b_.fail(std::string("the scalar function ") + plan::scalar_func_name(e.func));
}

// date_function over the DATE's day number, computed on the device (civil_date.h).
std::optional<Operand> ExpressionEmitter::date_part(const Expr& e, uint8_t part) {
  if (e.children.size() != 1 || e.children[0]->type.id != TypeId::kDate)
    return b_.fail(std::string("the scalar function ") + plan::scalar_func_name(e.func) + " over a non-DATE value");
  auto a = emit(*e.children[0]);
  if (!a) return std::nullopt;
  if (a->kind != VectorKind::kInt) return b_.fail("a DATE value of another kind: " + e.to_string());
  ProgInstr in;
  in.op = kPDatePart;
  in.sub = part;
  b_.push(e, in, 1, 1);
  return Operand{e.type, kind_of(e.type), nullptr};
}

// A string function of one VARCHAR column and constants: the column's codes mapped
// through a table the host computed per dictionary entry (dictionary_function.h).
std::optional<Operand> ExpressionEmitter::dictionary_function(const Expr& e) {
  std::optional<DictionaryFunction> f;
  try {
    f = DictionaryFunction::evaluate(e, b_.query());
  } catch (const Error& err) {
    // An entry raised the CPU's error (e.g. a negative substring length): the CPU
    // reports it at run time, so the whole expression stays there.
    return b_.fail(std::string("the scalar function ") + plan::scalar_func_name(e.func) + " (" + err.what() + ")");
  }
  if (!f) return std::nullopt;
  if (!b_.check_depth()) return std::nullopt;
  ProgInstr load;
  load.op = kPLoad;
  load.slot = b_.column_slot(*f->column);
  b_.push(*f->column, load, 0, 1);
  CompiledProgram& p = b_.program();
  ProgInstr map;
  map.op = kPLookup;
  map.slot = int(p.lookups.size());
  p.lookups.push_back(std::move(f->map));
  if (e.type.id != TypeId::kVarchar) {
    b_.push(e, map, 1, 1);
    return Operand{e.type, kind_of(e.type), nullptr};
  }
  strings_.add_derived(p.ins.size(), f->results);  // the map's codes join the domain
  b_.push(e, map, 1, 1);
  return Operand{e.type, VectorKind::kCode, nullptr};
}

// eval_like: like_match per string, NULL stays NULL; a table over the domain.
std::optional<Operand> ExpressionEmitter::like(const Expr& e) {
  if (auto t = column_table(e)) return t;
  if (!why().empty()) return std::nullopt;
  auto a = emit(*e.children[0]);
  if (!a) return std::nullopt;
  if (!is_string(*a)) return b_.fail("LIKE over a non-string value: " + e.to_string());
  CompiledProgram& p = b_.program();
  ProgInstr lk;
  lk.op = kPLookup;
  lk.slot = int(p.lookups.size());
  p.lookups.emplace_back();
  strings_.add_like(lk.slot, e.value.as_string(), e.negated);
  b_.push(e, lk, 1, 1);
  return boolean_result();
}

std::optional<Operand> ExpressionEmitter::is_null(const Expr& e) {
  if (!emit(*e.children[0])) return std::nullopt;
  ProgInstr in;
  in.op = kPIsNull;
  in.flag = e.negated ? 1 : 0;
  b_.push(e, in, 1, 1);
  return boolean_result();
}

std::optional<Operand> ExpressionEmitter::cast(const Expr& e) {
  auto a = emit(*e.children[0]);
  if (!a) return std::nullopt;
  if (!conv_.cast(e, *a, e.type)) return std::nullopt;
  Operand o{e.type, kind_of(e.type), nullptr};
  if (a->kind == VectorKind::kCode && e.type.id == TypeId::kVarchar) o = *a;
  if (a->kind == VectorKind::kDouble && e.type.id == TypeId::kDouble) o.kind = VectorKind::kDouble;
  return o;
}

// Every branch is evaluated (as the vectorized evaluator does) and converted to the
// CASE's type; string values are codes of the program's domain. Stack: [decided,
// result], each WHEN folding its [condition, value] into them.
std::optional<Operand> ExpressionEmitter::case_(const Expr& e) {
  const size_t pairs = (e.children.size() - (e.has_else ? 1 : 0)) / 2;
  const bool text = e.type.id == TypeId::kVarchar;
  auto value = [&](const Expr& x) -> bool {
    auto v = emit(x);
    if (!v) return false;
    if (text) return is_string(*v) || v->type.id == TypeId::kNull ? true : b_.reject("a CASE mixing strings and numbers");
    return conv_.cast(e, *v, e.type);
  };
  ProgInstr decided, result, when, end;
  decided.op = kPConst;  // 0: no branch taken yet
  result.op = kPConst;
  result.flag = 1;  // NULL until a branch is taken
  if (!b_.check_depth()) return std::nullopt;
  b_.push(e, decided, 0, 1);
  if (!b_.check_depth()) return std::nullopt;
  b_.push(e, result, 0, 1);
  when.op = kPCaseWhen;
  for (size_t i = 0; i < pairs; i++) {
    if (!emit(*e.children[2 * i])) return std::nullopt;
    if (!value(*e.children[2 * i + 1])) return std::nullopt;
    b_.push(e, when, 2, 0);
  }
  if (e.has_else && !value(*e.children.back())) return std::nullopt;
  end.op = kPCaseEnd;
  end.flag = e.has_else ? 1 : 0;
  b_.push(e, end, e.has_else ? 3 : 2, 1);
  if (text) return Operand{e.type, VectorKind::kCode, nullptr};
  return Operand{e.type, e.type.id == TypeId::kDouble ? VectorKind::kDouble : kind_of(e.type), nullptr};
}

std::optional<Operand> ExpressionEmitter::column_table(const Expr& e) {
  if (e.type.id != TypeId::kBoolean || has_null_constant(e)) return std::nullopt;
  const Expr* col = single_column(e);
  if (!col || col->type.id != TypeId::kVarchar) return std::nullopt;
  const plan::LogicalQuery& q = b_.query();
  auto pred = ColumnPredicate::compile(e, q);
  if (!pred) return std::nullopt;
  const Dictionary* dict = q.tables[size_t(col->table_index)].table->column(size_t(col->column_index)).dictionary();
  // The codes that pass, as a bitmap over the dictionary (kPInBitmap: a NULL code stays
  // NULL, every code lies inside): filled from the predicate's code ranges a word at a
  // time. Over TPC-H's 4 M part names at SF 20 a table of one int64 and one NULL flag
  // per code (36 MB) was built per code and uploaded per run.
  HostLookup t;
  t.values.assign((uint64_t(dict->size()) + 63) / 64, 0);
  for (auto [lo, hi] : pred->ranges()) {
    const int64_t a = std::max<int64_t>(lo, 0), b = std::min<int64_t>(hi, int64_t(dict->size()) - 1);
    if (a <= b) set_bit_range<false>(reinterpret_cast<uint64_t*>(t.values.data()), uint64_t(a), uint64_t(b));
  }
  ProgInstr load;
  load.op = kPLoad;
  load.slot = b_.column_slot(*col);
  b_.push(*col, load, 0, 1);
  CompiledProgram& p = b_.program();
  ProgInstr in;
  in.op = kPInBitmap;
  in.slot = int(p.lookups.size());
  p.lookups.push_back(std::move(t));
  b_.push(e, in, 1, 1);
  return boolean_result();
}

}  // namespace raydb::exec::cuda::general
