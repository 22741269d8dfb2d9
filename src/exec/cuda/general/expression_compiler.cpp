#include "exec/cuda/general/expression_compiler.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>

#include "exec/core/column_predicate.h"
#include "exec/core/expression_evaluator.h"
#include "exec/cuda/general/string_domain.h"

namespace raydb::exec::cuda::general {

using plan::ArithOp;
using plan::CompareOp;
using plan::Expr;
using plan::ExprKind;

namespace {

constexpr __int128 kI128Max = std::numeric_limits<__int128>::max();
constexpr __int128 kI128Min = std::numeric_limits<__int128>::min();

int scale_of(const Type& t) { return t.id == TypeId::kDecimal ? t.scale : 0; }

// What one compiled sub-expression leaves on the stack.
struct Operand {
  Type type;
  VectorKind kind = VectorKind::kInt;
  const Dictionary* dict = nullptr;
};

bool has_null_constant(const Expr& e) {
  if (e.kind == ExprKind::kConstant && e.value.is_null()) return true;
  for (auto& c : e.children)
    if (has_null_constant(*c)) return true;
  return false;
}

// The single column an expression reads, or nullptr (none or several).
const Expr* single_column(const Expr& e) {
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

bool is_string(const Operand& o) { return o.kind == VectorKind::kCode || o.type.id == TypeId::kVarchar; }

struct Emitter {
  Emitter(const plan::LogicalQuery& query, CompiledProgram& program) : q(query), p(program) {}
  const plan::LogicalQuery& q;
  CompiledProgram& p;
  int depth = 0;
  std::string why;
  // String values are emitted as codes of one domain per program, fixed in finish():
  // a column's own dictionary when it is the only source, else the merged domain.
  struct StringLeaf {
    size_t ins = 0;                     // the load or constant instruction
    const Dictionary* dict = nullptr;   // column leaves
    std::string constant;               // constant leaves
  };
  std::vector<StringLeaf> leaves;
  struct DomainLike {
    int slot = 0;
    std::string pattern;
    bool negated = false;
  };
  std::vector<DomainLike> likes;  // LIKE over string values: tables over the domain

  bool reject(std::string reason) {
    if (why.empty()) why = std::move(reason);
    return false;
  }

  void push(const Expr& src, ProgInstr in, int pops, int pushes, Type cast_from = Type()) {
    p.ins.push_back(in);
    p.source.push_back(&src);
    p.cast_from.push_back(cast_from);
    depth += pushes - pops;
  }
  // A logical operator over the top `pops` booleans (AND/OR: 2, NOT: 1).
  void push_logic(const Expr& src, ProgOp op, int pops) {
    ProgInstr in;
    in.op = op;
    push(src, in, pops, 1);
  }
  // Checked before each sub-expression: its first push must still fit the stack
  // (operators pop their operands before pushing, so leaves reach the maximum).
  bool check_depth() {
    return depth + 1 <= kStackDepth ? true : reject("an expression nested too deeply for the GPU interpreter");
  }

  int column_slot(const Expr& e) {
    const ColumnPtr& c = q.tables[size_t(e.table_index)].table->column_ptr(size_t(e.column_index));
    for (size_t i = 0; i < p.columns.size(); i++)
      if (p.columns[i].column == c && p.columns[i].table == e.table_index) return int(i);
    p.columns.push_back({e.table_index, c});
    p.tables |= uint64_t(1) << e.table_index;
    return int(p.columns.size() - 1);
  }

  // A boolean predicate over one VARCHAR column and non-NULL constants: a table over
  // the dictionary's codes, each entry decided by the CPU's ColumnPredicate.
  std::optional<Operand> column_table(const Expr& e) {
    if (e.type.id != TypeId::kBoolean || has_null_constant(e)) return std::nullopt;
    const Expr* col = single_column(e);
    if (!col || col->type.id != TypeId::kVarchar) return std::nullopt;
    auto pred = ColumnPredicate::compile(e, q);
    if (!pred) return std::nullopt;
    const Dictionary* dict = q.tables[size_t(col->table_index)].table->column(size_t(col->column_index)).dictionary();
    HostLookup t;
    t.values.resize(dict->size());
    t.nulls.assign(dict->size(), 0);
    for (uint32_t c = 0; c < dict->size(); c++) t.values[c] = pred->test(int64_t(c)) ? 1 : 0;
    ProgInstr load;
    load.op = kPLoad;
    load.slot = column_slot(*col);
    push(*col, load, 0, 1);
    ProgInstr lk;
    lk.op = kPLookup;
    lk.slot = int(p.lookups.size());
    p.lookups.push_back(std::move(t));
    push(e, lk, 1, 1);
    return Operand{Type::boolean(), VectorKind::kInt, nullptr};
  }

  std::optional<Operand> emit(const Expr& e) {
    if (!check_depth()) return std::nullopt;
    switch (e.kind) {
      case ExprKind::kColumnRef: {
        const Column& c = q.tables[size_t(e.table_index)].table->column(size_t(e.column_index));
        Operand o{c.type(), kind_of(c.type()), nullptr};
        if (c.type().id == TypeId::kDouble) {
          o.kind = VectorKind::kDouble;
        } else if (c.type().id == TypeId::kVarchar) {
          o.kind = VectorKind::kCode;
          o.dict = c.dictionary();
        }
        ProgInstr in;
        in.op = kPLoad;
        in.slot = column_slot(e);
        if (o.kind == VectorKind::kCode) leaves.push_back({p.ins.size(), o.dict, {}});
        push(e, in, 0, 1);
        return o;
      }
      case ExprKind::kConstant: {
        ProgInstr in;
        in.op = kPConst;
        if (e.value.is_null()) {
          in.flag = 1;
          push(e, in, 0, 1);
          return Operand{e.type, e.type.id == TypeId::kVarchar ? VectorKind::kCode : kind_of(e.type), nullptr};
        }
        if (e.type.id == TypeId::kVarchar) {
          // Its rank in the domain, set by finish().
          leaves.push_back({p.ins.size(), nullptr, e.value.as_string()});
          push(e, in, 0, 1);
          return Operand{e.type, VectorKind::kCode, nullptr};
        }
        Vector v = Vector::constant(e.value, e.type, 1);
        if (v.kind == VectorKind::kDouble) {
          int64_t bits;
          std::memcpy(&bits, &v.doubles[0], 8);
          in.k = bits;
          push(e, in, 0, 1);
          return Operand{e.type, VectorKind::kDouble, nullptr};
        }
        if (v.kind != VectorKind::kInt && v.kind != VectorKind::kHuge) return fail("constant " + e.to_string());
        in.k = v.int_at(0);
        push(e, in, 0, 1);
        return Operand{e.type, v.kind, nullptr};
      }
      case ExprKind::kArith: return arith(e);
      case ExprKind::kNegate: {
        auto a = emit(*e.children[0]);
        if (!a) return std::nullopt;
        if (e.type.id == TypeId::kDouble) {
          if (!to_double(e, *a)) return std::nullopt;
          ProgInstr in;
          in.op = kPDNeg;
          push(e, in, 1, 1);
          return Operand{e.type, VectorKind::kDouble, nullptr};
        }
        if (!numeric(*a)) return fail("negation of a non-numeric value");
        if (!(a->type == e.type) && !cast(e, *a, e.type)) return std::nullopt;
        ProgInstr in;
        in.op = kPNeg;
        in.flag = kind_of(e.type) == VectorKind::kHuge ? 1 : 0;
        in.sub = e.type.id == TypeId::kInteger ? 1 : 0;
        push(e, in, 1, 1);
        return Operand{e.type, kind_of(e.type), nullptr};
      }
      case ExprKind::kCompare: {
        if (auto t = column_table(e)) return t;
        if (!why.empty()) return std::nullopt;
        return compare(e, e.compare_op, *e.children[0], *e.children[1]);
      }
      case ExprKind::kAnd:
      case ExprKind::kOr: {
        if (auto t = column_table(e)) return t;
        for (size_t i = 0; i < e.children.size(); i++) {
          if (!emit(*e.children[i])) return std::nullopt;
          if (i > 0) push_logic(e, e.kind == ExprKind::kAnd ? kPAnd : kPOr, 2);
        }
        return Operand{Type::boolean(), VectorKind::kInt, nullptr};
      }
      case ExprKind::kNot: {
        if (auto t = column_table(e)) return t;
        if (!emit(*e.children[0])) return std::nullopt;
        push_logic(e, kPNot, 1);
        return Operand{Type::boolean(), VectorKind::kInt, nullptr};
      }
      case ExprKind::kBetween: {
        if (auto t = column_table(e)) return t;
        // x BETWEEN a AND b == (x >= a AND x <= b), three-valued; NOT BETWEEN negates it.
        if (!compare(e, CompareOp::kGe, *e.children[0], *e.children[1])) return std::nullopt;
        if (!compare(e, CompareOp::kLe, *e.children[0], *e.children[2])) return std::nullopt;
        push_logic(e, kPAnd, 2);
        if (e.negated) push_logic(e, kPNot, 1);
        return Operand{Type::boolean(), VectorKind::kInt, nullptr};
      }
      case ExprKind::kInList: {
        if (auto t = column_table(e)) return t;
        // x IN (a, b, ...) == x = a OR x = b OR ..., three-valued (as the evaluator).
        for (size_t k = 1; k < e.children.size(); k++) {
          if (!compare(e, CompareOp::kEq, *e.children[0], *e.children[k])) return std::nullopt;
          if (k > 1) push_logic(e, kPOr, 2);
        }
        if (e.negated) push_logic(e, kPNot, 1);
        return Operand{Type::boolean(), VectorKind::kInt, nullptr};
      }
      case ExprKind::kLike: {
        if (auto t = column_table(e)) return t;
        if (!why.empty()) return std::nullopt;
        // eval_like: like_match per string, NULL stays NULL; a table over the domain.
        auto a = emit(*e.children[0]);
        if (!a) return std::nullopt;
        if (!is_string(*a)) return fail("LIKE over a non-string value: " + e.to_string());
        ProgInstr lk;
        lk.op = kPLookup;
        lk.slot = int(p.lookups.size());
        p.lookups.emplace_back();
        likes.push_back({lk.slot, e.value.as_string(), e.negated});
        push(e, lk, 1, 1);
        return Operand{Type::boolean(), VectorKind::kInt, nullptr};
      }
      case ExprKind::kIsNull: {
        if (!emit(*e.children[0])) return std::nullopt;
        ProgInstr in;
        in.op = kPIsNull;
        in.flag = e.negated ? 1 : 0;
        push(e, in, 1, 1);
        return Operand{Type::boolean(), VectorKind::kInt, nullptr};
      }
      case ExprKind::kCast: {
        auto a = emit(*e.children[0]);
        if (!a) return std::nullopt;
        if (!cast(e, *a, e.type)) return std::nullopt;
        Operand o{e.type, kind_of(e.type), nullptr};
        if (a->kind == VectorKind::kCode && e.type.id == TypeId::kVarchar) o = *a;
        if (a->kind == VectorKind::kDouble && e.type.id == TypeId::kDouble) o.kind = VectorKind::kDouble;
        return o;
      }
      case ExprKind::kCase: {
        const size_t pairs = (e.children.size() - (e.has_else ? 1 : 0)) / 2;
        const bool text = e.type.id == TypeId::kVarchar;
        // Every branch is evaluated (as the vectorized evaluator does) and converted to
        // the CASE's type; string values are codes of the program's domain.
        auto value = [&](const Expr& x) -> bool {
          auto v = emit(x);
          if (!v) return false;
          if (text) return is_string(*v) || v->type.id == TypeId::kNull ? true : reject("a CASE mixing strings and numbers");
          return cast(e, *v, e.type);
        };
        ProgInstr decided, result, when, end;
        decided.op = kPConst;  // 0: no branch taken yet
        result.op = kPConst;
        result.flag = 1;  // NULL until a branch is taken
        if (!check_depth()) return std::nullopt;
        push(e, decided, 0, 1);
        if (!check_depth()) return std::nullopt;
        push(e, result, 0, 1);
        when.op = kPCaseWhen;
        for (size_t i = 0; i < pairs; i++) {
          if (!emit(*e.children[2 * i])) return std::nullopt;
          if (!value(*e.children[2 * i + 1])) return std::nullopt;
          push(e, when, 2, 0);
        }
        if (e.has_else && !value(*e.children.back())) return std::nullopt;
        end.op = kPCaseEnd;
        end.flag = e.has_else ? 1 : 0;
        push(e, end, e.has_else ? 3 : 2, 1);
        if (text) return Operand{e.type, VectorKind::kCode, nullptr};
        return Operand{e.type, e.type.id == TypeId::kDouble ? VectorKind::kDouble : kind_of(e.type), nullptr};
      }
      case ExprKind::kGroupRef:
      case ExprKind::kAggregateRef:
      case ExprKind::kOutputRef: return fail("a post-aggregation reference in a row expression");
    }
    return fail("unknown expression kind");
  }

  std::nullopt_t fail(std::string reason) {
    reject(std::move(reason));
    return std::nullopt;
  }

  static bool numeric(const Operand& o) { return o.kind == VectorKind::kInt || o.kind == VectorKind::kHuge; }

  // The evaluator's result bounds for arithmetic of type t (arith_exact).
  static void arith_bounds(const Type& t, __int128& lo, __int128& hi) {
    switch (t.id) {
      case TypeId::kInteger:
      case TypeId::kDate: hi = INT32_MAX; break;
      case TypeId::kBigint: hi = INT64_MAX; break;
      case TypeId::kDecimal: hi = t.precision > 18 ? pow10_i128(38) - 1 : __int128(999999999999999999LL); break;
      default: hi = kI128Max; break;
    }
    lo = t.id == TypeId::kDecimal ? -hi : (t.id == TypeId::kHugeint ? kI128Min : -hi - 1);
  }

  std::optional<Operand> arith(const Expr& e) {
    if (e.type.id == TypeId::kDouble) {
      // arith_double: both operands as doubles (double_at), one IEEE operation.
      auto [a, b] = operands(*e.children[0], *e.children[1], [&](const Operand& o) { return to_double(e, o); });
      if (!a || !b) return std::nullopt;
      ProgInstr in;
      in.op = kPDArith;
      in.sub = uint8_t(e.arith_op);
      push(e, in, 2, 1);
      return Operand{e.type, VectorKind::kDouble, nullptr};
    }
    auto [a, b] = operands(*e.children[0], *e.children[1], [](const Operand&) { return true; });
    if (!a || !b) return std::nullopt;
    if (!numeric(*a) || !numeric(*b)) return fail("arithmetic on non-numeric values in " + e.to_string());
    ProgInstr in;
    in.op = kPArith;
    in.sub = uint8_t(e.arith_op);
    const int rs = scale_of(e.type), sa = scale_of(a->type), sb = scale_of(b->type);
    const bool add_like = e.arith_op == ArithOp::kAdd || e.arith_op == ArithOp::kSub || e.arith_op == ArithOp::kMod;
    if (add_like && (rs < sa || rs < sb)) return fail("decimal arithmetic that lowers a scale");
    in.fa = add_like ? pow10_i128(rs - sa) : 1;
    in.fb = add_like ? pow10_i128(rs - sb) : 1;
    arith_bounds(e.type, in.lo, in.hi);
    push(e, in, 2, 1);
    return Operand{e.type, kind_of(e.type), nullptr};
  }

  static int height(const Expr& e) {
    int h = 0;
    for (auto& c : e.children) h = std::max(h, height(*c));
    return h + 1;
  }

  // The two operands of a binary operator, each followed by `convert`. The taller one
  // goes first (then a swap), so a right-deep expression needs a stack of about
  // log2(its size) values rather than its depth (Sethi-Ullman order). Only which of
  // two failing operands reports first can differ from the CPU's operator-at-a-time
  // order.
  template <class Convert>
  std::pair<std::optional<Operand>, std::optional<Operand>> operands(const Expr& l, const Expr& r, Convert convert) {
    std::optional<Operand> a, b;
    if (height(r) > height(l)) {
      if (!(b = emit(r)) || !convert(*b)) return {};
      if (!(a = emit(l)) || !convert(*a)) return {};
      ProgInstr sw;
      sw.op = kPSwap;
      push(l, sw, 2, 2);
    } else {
      if (!(a = emit(l)) || !convert(*a)) return {};
      if (!(b = emit(r)) || !convert(*b)) return {};
    }
    return {a, b};
  }

  std::optional<Operand> compare(const Expr& e, CompareOp op, const Expr& l, const Expr& r) {
    if (l.type.id == TypeId::kDouble || r.type.id == TypeId::kDouble) {
      // compare_vectors: a DOUBLE operand compares both as doubles.
      auto [a, b] = operands(l, r, [&](const Operand& o) { return to_double(e, o); });
      if (!a || !b) return std::nullopt;
      ProgInstr in;
      in.op = kPDCmp;
      in.sub = uint8_t(op);
      push(e, in, 2, 1);
      return Operand{Type::boolean(), VectorKind::kInt, nullptr};
    }
    auto [a, b] = operands(l, r, [](const Operand&) { return true; });
    if (!a || !b) return std::nullopt;
    ProgInstr in;
    in.op = kPCmp;
    in.sub = uint8_t(op);
    if (is_string(*a) || is_string(*b)) {
      // Codes of the program's one domain order like their strings (finish()).
      if (!is_string(*a) || !is_string(*b)) return fail("a comparison of a string with a non-string: " + e.to_string());
    } else {
      if (!numeric(*a) || !numeric(*b)) return fail("a comparison of non-numeric values: " + e.to_string());
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
    push(e, in, 2, 1);
    return Operand{Type::boolean(), VectorKind::kInt, nullptr};
  }

  // The top of the stack as a double (Vector::double_at): integers converted, decimals
  // then divided by 10^scale. NULL constants stay NULL.
  bool to_double(const Expr& e, const Operand& o) {
    if (o.kind == VectorKind::kDouble || o.type.id == TypeId::kNull) return true;
    if (o.kind != VectorKind::kInt && o.kind != VectorKind::kHuge)
      return reject("a conversion to DOUBLE of a non-numeric value: " + e.to_string());
    ProgInstr in;
    in.op = kPToDouble;
    in.flag = o.kind == VectorKind::kHuge ? 1 : 0;
    in.fb = o.type.id == TypeId::kDecimal ? pow10_i128(o.type.scale) : 1;
    push(e, in, 1, 1);
    return true;
  }

  // convert(v, to) of the evaluator, for exact types.
  bool cast(const Expr& e, const Operand& from, const Type& to) {
    if (from.type == to) return true;
    if (from.type.id == TypeId::kNull) return true;  // stays NULL
    // The binder converts only constants between strings, dates and numbers, so these
    // reach no executor from SQL.
    if (to.id == TypeId::kVarchar || is_string(from)) return reject("a cast to or from VARCHAR: " + e.to_string());
    if (to.id == TypeId::kDouble) return to_double(e, from);
    if (from.kind == VectorKind::kDouble) return cast_double(e, from, to);
    if (to.id == TypeId::kDate) return reject("a cast to DATE from " + from.type.to_string());
    ProgInstr in;
    in.op = kPCast;
    if (to.id == TypeId::kBoolean) {
      in.sub = 1;
      push(e, in, 1, 1);
      return true;
    }
    if (to.id == TypeId::kNull) return reject("a cast to NULL");
    switch (to.id) {
      case TypeId::kInteger: in.hi = INT32_MAX; break;
      case TypeId::kBigint: in.hi = INT64_MAX; break;
      case TypeId::kDecimal: in.hi = pow10_i128(to.precision) - 1; break;
      default: in.hi = kI128Max; break;
    }
    in.lo = to.id == TypeId::kDecimal ? -in.hi : (to.id == TypeId::kHugeint ? kI128Min : -in.hi - 1);
    const int ts = scale_of(to), fs = scale_of(from.type);
    in.fa = ts >= fs ? pow10_i128(ts - fs) : 1;
    in.fb = ts >= fs ? 1 : pow10_i128(fs - ts);
    push(e, in, 1, 1, from.type);
    return true;
  }

  // convert() of a DOUBLE to an exact type: the factor 10^scale and the bounds as the
  // CPU's long double holds them (program_interpreter.cuh, cast_double_exact).
  bool cast_double(const Expr& e, const Operand& from, const Type& to) {
    if (to.id == TypeId::kBoolean || to.id == TypeId::kDate || to.id == TypeId::kNull)
      return reject("a cast from DOUBLE to " + to.to_string() + ": " + e.to_string());
    __int128 hi;
    switch (to.id) {
      case TypeId::kInteger: hi = INT32_MAX; break;
      case TypeId::kBigint: hi = INT64_MAX; break;
      case TypeId::kDecimal: hi = pow10_i128(to.precision) - 1; break;
      default: hi = kI128Max; break;
    }
    const __int128 lo = to.id == TypeId::kDecimal ? -hi : (to.id == TypeId::kHugeint ? kI128Min : -hi - 1);
    // Integer magnitudes of (long double)hi and (long double)lo: integers of at most
    // 64 significant bits, at most 2^127, so exact in unsigned 128 bits.
    auto magnitude = [](long double x) {
      x = std::fabs(x);
      int ex = 0;
      const long double m = std::frexp(x, &ex);  // x = m * 2^ex, m in [0.5, 1)
      const unsigned __int128 sig = (unsigned __int128)(uint64_t)std::ldexp(m, 64);
      return ex >= 64 ? sig << (ex - 64) : sig >> (64 - ex);
    };
    int pe = 0;
    const long double pm = std::frexp((long double)pow10_i128(to.id == TypeId::kDecimal ? to.scale : 0), &pe);
    ProgInstr in;
    in.op = kPCastDouble;
    in.k = __int128(uint64_t(std::ldexp(pm, 64)));
    in.slot = pe - 64;
    in.fa = __int128(magnitude((long double)hi));
    in.fb = __int128(magnitude((long double)lo));
    push(e, in, 1, 1, from.type);
    return true;
  }

  // Fixes the string domain once the whole program is emitted: the one dictionary its
  // string values come from, or (constants, several dictionaries) the merged domain,
  // each column's codes translated by a lookup right after its load.
  const Dictionary* finish() {
    std::vector<const Dictionary*> dicts;
    std::vector<std::string> constants;
    for (auto& l : leaves) {
      if (l.dict && std::find(dicts.begin(), dicts.end(), l.dict) == dicts.end()) dicts.push_back(l.dict);
      if (!l.dict) constants.push_back(l.constant);
    }
    const Dictionary* domain = dicts.size() == 1 && constants.empty() ? dicts[0] : nullptr;
    if (!domain && !leaves.empty()) {
      p.domain = StringDomain::merge(dicts, constants);
      domain = p.domain.get();
    }
    for (auto& l : likes) {
      HostLookup& t = p.lookups[size_t(l.slot)];
      const uint32_t n = domain ? domain->size() : 0;
      t.values.resize(n);
      t.nulls.assign(n, 0);
      for (uint32_t c = 0; c < n; c++) t.values[c] = like_match(domain->at(c), l.pattern) != l.negated;
    }
    if (!p.domain) return domain;
    std::vector<int> slot_of(dicts.size());
    for (size_t d = 0; d < dicts.size(); d++) {
      HostLookup t;
      StringDomain::translate(*dicts[d], *p.domain, t.values, t.nulls);
      slot_of[d] = int(p.lookups.size());
      p.lookups.push_back(std::move(t));
    }
    std::vector<int> after(p.ins.size(), -1);  // instruction -> translation slot
    for (auto& l : leaves) {
      if (l.dict) {
        after[l.ins] = slot_of[size_t(std::find(dicts.begin(), dicts.end(), l.dict) - dicts.begin())];
      } else {
        p.ins[l.ins].k = *p.domain->find(l.constant);
      }
    }
    CompiledProgram out;
    for (size_t i = 0; i < p.ins.size(); i++) {
      out.ins.push_back(p.ins[i]);
      out.source.push_back(p.source[i]);
      out.cast_from.push_back(p.cast_from[i]);
      if (after[i] < 0) continue;
      ProgInstr lk;
      lk.op = kPLookup;
      lk.slot = after[i];
      out.ins.push_back(lk);
      out.source.push_back(p.source[i]);
      out.cast_from.push_back(Type());
    }
    p.ins = std::move(out.ins);
    p.source = std::move(out.source);
    p.cast_from = std::move(out.cast_from);
    return domain;
  }
};

}  // namespace

std::variant<CompiledProgram, std::string> ExpressionCompiler::compile(const plan::Expr& e) const {
  CompiledProgram p;
  Emitter em(q_, p);
  auto o = em.emit(e);
  if (!o) return em.why.empty() ? std::string("expression ") + e.to_string() : em.why;
  const Dictionary* domain = em.finish();
  p.type = o->type.id == TypeId::kNull ? e.type : o->type;
  if (e.type.id != TypeId::kNull && !(p.type == e.type) && o->kind != VectorKind::kCode) p.type = e.type;
  p.kind = o->kind;
  p.dict = nullptr;
  if (is_string(*o)) {
    p.kind = VectorKind::kCode;
    p.dict = domain;
    if (!domain) {
      // Only NULL strings: an empty domain keeps the codes' dictionary defined.
      p.domain = StringDomain::merge({}, {});
      p.dict = p.domain.get();
    }
  }
  return p;
}

std::variant<CompiledProgram, std::string> ExpressionCompiler::compile_join_probe(const plan::Expr& e,
                                                                                   const Dictionary* build_dict) const {
  auto r = compile(e);
  if (!build_dict || std::holds_alternative<std::string>(r)) return r;
  CompiledProgram& p = std::get<CompiledProgram>(r);
  if (p.kind != VectorKind::kCode) return std::string("a string join key of another kind: ") + e.to_string();
  if (p.dict == build_dict) return r;
  // Both dictionaries are sorted: merge them once (as the CPU's join codec does).
  HostLookup t;
  StringDomain::translate(*p.dict, *build_dict, t.values, t.nulls);
  ProgInstr lk;
  lk.op = kPLookup;
  lk.slot = int(p.lookups.size());
  p.lookups.push_back(std::move(t));
  p.ins.push_back(lk);
  p.source.push_back(&e);
  p.cast_from.push_back(Type());
  p.dict = build_dict;
  return r;
}

}  // namespace raydb::exec::cuda::general
