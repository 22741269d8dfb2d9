#include "exec/cuda/general/scan_terms.h"

#include <algorithm>
#include <limits>

#include "exec/cuda/general/expression_compiler.h"

namespace raydb::exec::cuda::general {

namespace {

using i128 = __int128;

constexpr i128 kI64Min = std::numeric_limits<int64_t>::min();
constexpr i128 kI64Max = std::numeric_limits<int64_t>::max();

bool fits64(i128 x) { return x >= kI64Min && x <= kI64Max; }

// Floor and ceiling of a / b for b > 0 (C++ division truncates toward zero).
i128 floor_div(i128 a, i128 b) { return a / b - ((a % b != 0 && a < 0) ? 1 : 0); }
i128 ceil_div(i128 a, i128 b) { return a / b + ((a % b != 0 && a > 0) ? 1 : 0); }

// The CompareOp with its operands swapped (k op x -> x op' k).
int mirrored(int op) {
  switch (op) {
    case 2: return 4;  // <  -> >
    case 3: return 5;  // <= -> >=
    case 4: return 2;
    case 5: return 3;
    default: return op;  // = and != are symmetric
  }
}

// One value of the postfix program as the matcher sees it.
struct Node {
  enum Kind { kColumn, kConstant, kTerms } kind;
  int32_t slot = 0;               // kColumn
  i128 k = 0;                     // kConstant
  std::vector<TermShape> terms;   // kTerms: an AND of these
};

// x * f op K for the column x, as a range term; false when the constants leave the
// exact domain (the interpreter would compare them the same way, but this rewrite
// bounds its arithmetic to int128 with room).
bool range_term(int32_t slot, int op, i128 k, i128 fk, i128 f, TermShape& t) {
  const i128 klim = i128(1) << 64, flim = i128(1) << 60;
  if (f <= 0 || f > flim || k > klim || k < -klim || fk <= 0 || fk > flim) return false;
  const i128 K = k * fk;  // |K| <= 2^124
  t = TermShape{};
  t.kind = kTermRange;
  t.a = slot;
  t.negate = op == 1;
  compare_range(op == 1 ? 0 : op, K, f, t.lo, t.hi);
  return true;
}

std::optional<TermShape> compare_term(const Node& x, const Node& y, const ProgInstr& in) {
  if (in.flag) return std::nullopt;  // products may leave int128: the double fallback stays in the interpreter
  if (x.kind == Node::kColumn && y.kind == Node::kConstant) {
    TermShape t;
    if (!range_term(x.slot, in.sub, y.k, in.fb, in.fa, t)) return std::nullopt;
    return t;
  }
  if (x.kind == Node::kConstant && y.kind == Node::kColumn) {
    TermShape t;
    if (!range_term(y.slot, mirrored(in.sub), x.k, in.fa, in.fb, t)) return std::nullopt;
    return t;
  }
  if (x.kind == Node::kColumn && y.kind == Node::kColumn) {
    // The compiler guarantees int64 * f stays in int128 here (flag 0); f fits int64.
    if (!fits64(in.fa) || !fits64(in.fb)) return std::nullopt;
    TermShape t;
    t.kind = kTermColumns;
    t.a = x.slot;
    t.b = y.slot;
    t.sub = in.sub;
    t.fa = int64_t(in.fa);
    t.fb = int64_t(in.fb);
    return t;
  }
  return std::nullopt;
}

// One term that is x = v for a single v of the column (or matches nothing), or a set of
// such values: the operands an OR of equalities merges.
bool equality_values(const Node& n, int32_t& slot, std::vector<int64_t>& out) {
  if (n.kind != Node::kTerms || n.terms.size() != 1) return false;
  const TermShape& t = n.terms[0];
  if (t.kind == kTermRange && !t.negate && (t.lo == t.hi || t.lo > t.hi)) {
    if (t.lo == t.hi) out.push_back(t.lo);
  } else if (t.kind == kTermSet && t.own_values && t.keep_found && !t.keep_absent) {
    out.insert(out.end(), t.values.begin(), t.values.end());
  } else {
    return false;
  }
  slot = t.a;
  return true;
}

// x = v1 OR x = v2 ... over one column as one set term (values are never NULL, so the
// OR is TRUE exactly when x is among them).
bool merge_or(const Node& l, const Node& r, Node& out) {
  int32_t ls = 0, rs = 0;
  std::vector<int64_t> values;
  if (!equality_values(l, ls, values) || !equality_values(r, rs, values) || ls != rs) return false;
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  TermShape t;
  t.kind = kTermSet;
  t.a = ls;
  t.own_values = true;
  t.values = std::move(values);
  out = Node{Node::kTerms, 0, 0, {t}};
  return true;
}

// NOT of one range or set term (a definite TRUE or FALSE: no NULL can reach it).
bool negate_term(Node& n) {
  if (n.kind != Node::kTerms || n.terms.size() != 1) return false;
  TermShape& t = n.terms[0];
  if (t.kind == kTermRange) {
    t.negate = !t.negate;
    return true;
  }
  if (t.kind == kTermSet && t.own_values) {
    std::swap(t.keep_found, t.keep_absent);
    return true;
  }
  return false;
}

}  // namespace

void compare_range(int op, i128 K, i128 f, int64_t& lo, int64_t& hi) {
  i128 l = kI64Min, h = kI64Max;
  switch (op) {
    case 0:  // x * f = K
      if (K % f != 0) {
        l = 1, h = 0;
      } else {
        l = h = K / f;
      }
      break;
    case 2: h = ceil_div(K, f) - 1; break;  // <
    case 3: h = floor_div(K, f); break;     // <=
    case 4: l = floor_div(K, f) + 1; break; // >
    default: l = ceil_div(K, f); break;     // >=
  }
  if (l < kI64Min) l = kI64Min;
  if (h > kI64Max) h = kI64Max;
  if (l > h || l > kI64Max || h < kI64Min) {
    lo = 1, hi = 0;  // empty
    return;
  }
  lo = int64_t(l);
  hi = int64_t(h);
}

std::optional<std::vector<TermShape>> match_scan_terms(const CompiledProgram& p) {
  std::vector<Node> st;
  for (const ProgInstr& in : p.ins) {
    switch (in.op) {
      case kPLoad: {
        const auto& c = p.columns[size_t(in.slot)];
        if (c.column->type().id == TypeId::kDouble) return std::nullopt;
        st.push_back(Node{Node::kColumn, in.slot, 0, {}});
        break;
      }
      case kPConst:
        if (in.flag) return std::nullopt;  // NULL constant
        st.push_back(Node{Node::kConstant, 0, in.k, {}});
        break;
      case kPSwap:
        if (st.size() < 2) return std::nullopt;
        std::swap(st[st.size() - 1], st[st.size() - 2]);
        break;
      case kPCmp: {
        if (st.size() < 2) return std::nullopt;
        Node y = std::move(st.back());
        st.pop_back();
        Node x = std::move(st.back());
        st.pop_back();
        std::optional<TermShape> t = compare_term(x, y, in);
        if (!t) return std::nullopt;
        st.push_back(Node{Node::kTerms, 0, 0, {*t}});
        break;
      }
      case kPInSet:
      case kPInBitmap: {
        if (st.empty() || st.back().kind != Node::kColumn) return std::nullopt;
        TermShape t;
        t.kind = in.op == kPInSet ? kTermSet : kTermBitmap;
        t.a = st.back().slot;
        t.slot = in.slot;
        // The interpreter: found != sub is TRUE, except NULL when not found and the
        // list holds a NULL (flag); a filter keeps TRUE only.
        t.keep_found = in.sub == 0;
        t.keep_absent = in.sub != 0 && !in.flag;
        st.back() = Node{Node::kTerms, 0, 0, {t}};
        break;
      }
      case kPOr: {
        if (st.size() < 2) return std::nullopt;
        Node merged{Node::kTerms, 0, 0, {}};
        if (!merge_or(st[st.size() - 2], st.back(), merged)) return std::nullopt;
        st.pop_back();
        st.back() = std::move(merged);
        break;
      }
      case kPNot:
        if (st.empty() || !negate_term(st.back())) return std::nullopt;
        break;
      case kPAnd: {
        if (st.size() < 2 || st.back().kind != Node::kTerms || st[st.size() - 2].kind != Node::kTerms)
          return std::nullopt;
        std::vector<TermShape> right = std::move(st.back().terms);
        st.pop_back();
        st.back().terms.insert(st.back().terms.end(), right.begin(), right.end());
        break;
      }
      default: return std::nullopt;
    }
  }
  if (st.size() != 1 || st[0].kind != Node::kTerms) return std::nullopt;
  return std::move(st[0].terms);
}

bool may_raise(const CompiledProgram& p) {
  for (const ProgInstr& in : p.ins)
    if (in.op == kPArith || in.op == kPNeg || in.op == kPCast || in.op == kPCastDouble || in.op == kPDArith) return true;
  return false;
}

}  // namespace raydb::exec::cuda::general
