// The host-side pieces of the CUDA general path's newer instructions, against the CPU
// executor's own functions (no device needed):
//   - civil_date.h (kPDatePart's arithmetic, compiled for host and device) against
//     exec::date_function for every field, over a wide sweep of days and both int32 ends;
//   - InSet (kPInSet's sorted set) against the evaluator's `x IN (...)`;
//   - bitmap_set_contains (kPInBitmap) against a key set's own membership test;
//   - DictionaryFunction (string functions mapped per dictionary code) against the
//     evaluator row by row.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "common/error.h"
#include "exec/core/expression_evaluator.h"
#include "exec/core/scalar_functions.h"
#include "exec/cuda/general/bitmap_set.h"
#include "exec/cuda/general/civil_date.h"
#include "exec/cuda/general/dictionary_function.h"
#include "exec/cuda/general/expression_compiler.h"
#include "exec/cuda/general/in_set.h"
#include "exec/cuda/general/scan_terms.h"
#include "plan/logical/key_set.h"
#include "storage/column.h"

namespace raydb::exec {
namespace {

using cuda::general::DatePart;
using plan::Expr;
using plan::ExprPtr;
using plan::ScalarFunc;

// The CPU's date_function for `f` over `days`.
std::vector<int64_t> cpu_date_function(ScalarFunc f, const std::vector<int64_t>& days) {
  const bool to_date = f == ScalarFunc::kTruncYear || f == ScalarFunc::kTruncQuarter || f == ScalarFunc::kTruncMonth;
  ExprPtr e = Expr::function(f, {Expr::constant(Value::date(0))}, to_date ? Type::date() : Type::bigint());
  std::vector<Vector> args;
  args.emplace_back(Type::date(), days.size());
  args[0].ints = days;
  return date_function(*e, args, days.size()).ints;
}

TEST(CivilDate, EveryFieldEqualsTheCpuDateFunctions) {
  std::vector<int64_t> days;
  for (int64_t d = -500000; d <= 500000; d++) days.push_back(d);  // years 601 .. 3338, every day
  for (int64_t d = 0; d < 2000; d++) {
    days.push_back(int64_t(INT32_MIN) + d);
    days.push_back(int64_t(INT32_MAX) - d);
  }
  const std::pair<ScalarFunc, DatePart> fields[] = {
      {ScalarFunc::kYear, cuda::general::kDateYear},
      {ScalarFunc::kMonth, cuda::general::kDateMonth},
      {ScalarFunc::kDay, cuda::general::kDateDay},
      {ScalarFunc::kQuarter, cuda::general::kDateQuarter},
      {ScalarFunc::kDayOfWeek, cuda::general::kDateDayOfWeek},
      {ScalarFunc::kDayOfYear, cuda::general::kDateDayOfYear},
      {ScalarFunc::kTruncYear, cuda::general::kDateTruncYear},
      {ScalarFunc::kTruncQuarter, cuda::general::kDateTruncQuarter},
      {ScalarFunc::kTruncMonth, cuda::general::kDateTruncMonth},
  };
  for (auto [f, part] : fields) {
    const std::vector<int64_t> want = cpu_date_function(f, days);
    size_t wrong = 0;
    for (size_t i = 0; i < days.size(); i++) {
      const int64_t got = cuda::general::date_part(int32_t(days[i]), part);
      if (got != want[i] && wrong++ < 5)
        ADD_FAILURE() << plan::scalar_func_name(f) << " of day " << days[i] << ": " << got << " vs " << want[i];
    }
    EXPECT_EQ(wrong, 0u) << plan::scalar_func_name(f);
  }
}

// x IN (items) evaluated by the CPU: 1, 0, or -1 for NULL.
int cpu_in(const Value& x, const std::vector<ExprPtr>& items, bool negated) {
  ExprPtr e = Expr::in_list(Expr::constant(x), items, negated);
  EvalContext ctx;
  ctx.n = 1;
  Vector r = evaluate(*e, ctx);
  return r.is_null(0) ? -1 : int(r.ints[0] != 0);
}

// The same through an InSet, as kPInSet answers (program_interpreter.cuh op_in_set).
int set_in(const cuda::general::InSet& s, int64_t x, bool negated) {
  const bool found = std::binary_search(s.values.begin(), s.values.end(), x);
  if (!found && s.has_null) return -1;
  return int(found != negated);
}

TEST(InSet, IntegersAnswerAsTheCpuComparesThem) {
  std::mt19937_64 rng(12);
  const Type x_types[] = {Type::integer(), Type::bigint(), Type::decimal(10, 2), Type::decimal(18, 4), Type::date()};
  for (int round = 0; round < 30; round++) {
    const Type xt = x_types[rng() % 5];
    // Items of mixed exact types: integers, decimals of scales 0..5, some NULLs.
    std::vector<ExprPtr> items;
    const int count = 65 + int(rng() % 40);
    for (int k = 0; k < count; k++) {
      const int64_t v = int64_t(rng() % 4001) - 2000;
      switch (rng() % 6) {
        case 0: items.push_back(Expr::constant(Value::null(Type::integer()))); break;
        case 1: items.push_back(Expr::constant(Value::bigint(v * 1000003))); break;
        case 2: items.push_back(Expr::constant(Value::decimal(v, 12, int(rng() % 6)))); break;
        default: items.push_back(Expr::constant(Value::integer(int32_t(v / 10)))); break;
      }
    }
    if (xt.id == TypeId::kDate)  // DATE compares with DATE items only
      for (auto& it : items)
        if (!it->value.is_null()) it = Expr::constant(Value::date(int32_t(it->value.as_int() % 100000)));
    ExprPtr e = Expr::in_list(Expr::constant(Value::null(xt)), items, false);
    auto set = cuda::general::InSet::integers(*e, xt);
    ASSERT_TRUE(set);
    ASSERT_TRUE(std::is_sorted(set->values.begin(), set->values.end()));
    const int sx = xt.id == TypeId::kDecimal ? xt.scale : 0;
    for (int64_t stored = -2500; stored <= 2500; stored += 1 + int64_t(rng() % 5)) {
      const Value x = xt.id == TypeId::kDecimal ? Value::decimal(stored, xt.precision, sx)
                      : xt.id == TypeId::kDate  ? Value::date(int32_t(stored))
                      : xt.id == TypeId::kBigint ? Value::bigint(stored)
                                                 : Value::integer(int32_t(stored));
      for (bool negated : {false, true})
        ASSERT_EQ(set_in(*set, stored, negated), cpu_in(x, items, negated))
            << x.to_string() << (negated ? " NOT IN" : " IN") << " of " << e->to_string();
    }
  }
  // Not constants, or not exact numbers: no set.
  ExprPtr x = Expr::constant(Value::integer(1));
  EXPECT_FALSE(cuda::general::InSet::integers(*Expr::in_list(x, {Expr::constant(Value::float64(1.0))}, false),
                                              Type::integer()));
  EXPECT_FALSE(cuda::general::InSet::integers(*Expr::in_list(x, {Expr::column(0, 0, Type::integer(), "c")}, false),
                                              Type::integer()));
}

TEST(InSet, StringsKeepTheirTextsAndNulls) {
  ExprPtr x = Expr::constant(Value::varchar("a"));
  auto s = cuda::general::InSet::strings(*Expr::in_list(
      x, {Expr::constant(Value::varchar("b")), Expr::constant(Value::null(Type::varchar()))}, false));
  ASSERT_TRUE(s);
  EXPECT_EQ(s->texts, std::vector<std::string>{"b"});
  EXPECT_TRUE(s->has_null);
  EXPECT_FALSE(cuda::general::InSet::strings(*Expr::in_list(x, {Expr::constant(Value::integer(3))}, false)));
}

class DictionaryFunctionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ColumnBuilder b("s", Type::varchar());
    for (const char* w : {"apple", "Zoë", "日本語", "", "a%b", "apple", "  pad  ", "Émile", "bob_x"}) b.append_string(w);
    q.tables.push_back({"t", "t", std::make_shared<Table>("t", std::vector<ColumnPtr>{b.finish()})});
    col = Expr::column(0, 0, Type::varchar(), "s");
  }
  // Row by row: the CPU evaluator's value vs the map's (through `results` for strings).
  void expect_rows_equal(const ExprPtr& e) {
    auto f = cuda::general::DictionaryFunction::evaluate(*e, q);
    ASSERT_TRUE(f) << e->to_string();
    const size_t n = q.tables[0].table->row_count();
    std::vector<uint32_t> rows(n);
    for (size_t i = 0; i < n; i++) rows[i] = uint32_t(i);
    BatchRows batch;
    batch.n = n;
    batch.rows = {rows.data()};
    EvalContext ctx;
    ctx.query = &q;
    ctx.batch = &batch;
    ctx.n = n;
    Vector want = evaluate(*e, ctx);
    const Vector codes = evaluate(*col, ctx);  // the rows' dictionary codes
    ASSERT_EQ(codes.kind, VectorKind::kCode);
    // The per-code table, shared with the cache (HostLookup::shared).
    ASSERT_TRUE(f->map.shared);
    const cuda::general::HostLookup& map = *f->map.shared;
    ASSERT_EQ(map.values.size(), size_t(f->column ? codes.dict->size() : 0));
    for (size_t i = 0; i < n; i++) {
      const size_t code = size_t(codes.ints[i]);
      ASSERT_EQ(map.nulls[code] != 0, want.is_null(i)) << e->to_string() << " row " << i;
      if (want.is_null(i)) continue;
      if (e->type.id == TypeId::kVarchar)
        EXPECT_EQ(f->results->at(uint32_t(map.values[code])), want.string_at(i)) << e->to_string() << " row " << i;
      else
        EXPECT_EQ(map.values[code], want.int_at(i)) << e->to_string() << " row " << i;
    }
  }

  plan::LogicalQuery q;
  ExprPtr col;
};

TEST_F(DictionaryFunctionTest, MapsEveryEntryAsTheCpu) {
  auto i = [](int32_t v) { return Expr::constant(Value::integer(v)); };
  auto s = [](const char* v) { return Expr::constant(Value::varchar(v)); };
  expect_rows_equal(Expr::function(ScalarFunc::kSubstr, {col, i(1), i(2)}, Type::varchar()));
  expect_rows_equal(Expr::function(ScalarFunc::kSubstr, {col, i(2)}, Type::varchar()));
  expect_rows_equal(Expr::function(ScalarFunc::kSubstr, {col, i(-1), i(3)}, Type::varchar()));
  expect_rows_equal(Expr::function(ScalarFunc::kUpper, {col}, Type::varchar()));
  expect_rows_equal(Expr::function(ScalarFunc::kLength, {col}, Type::integer()));
  expect_rows_equal(Expr::function(ScalarFunc::kStrpos, {col, s("p")}, Type::integer()));
  expect_rows_equal(Expr::function(ScalarFunc::kBtrim, {col, s(" a")}, Type::varchar()));
  expect_rows_equal(Expr::function(ScalarFunc::kReplace, {col, s("p"), s("PP")}, Type::varchar()));
  expect_rows_equal(Expr::function(ScalarFunc::kConcat, {col, Expr::constant(Value::null(Type::varchar()))},
                                   Type::varchar()));  // NULL for every row
}

TEST_F(DictionaryFunctionTest, OtherShapesAreNotMappedAndErrorsAreTheCpus) {
  auto i = [](int32_t v) { return Expr::constant(Value::integer(v)); };
  // Two columns, or a column under another expression: not one column and constants.
  EXPECT_FALSE(cuda::general::DictionaryFunction::evaluate(
      *Expr::function(ScalarFunc::kConcat, {col, col}, Type::varchar()), q));
  auto inner = Expr::function(ScalarFunc::kUpper, {col}, Type::varchar());
  EXPECT_FALSE(cuda::general::DictionaryFunction::evaluate(
      *Expr::function(ScalarFunc::kLength, {inner}, Type::integer()), q));
  // A date function is not a string function.
  EXPECT_FALSE(cuda::general::DictionaryFunction::evaluate(
      *Expr::function(ScalarFunc::kYear, {Expr::constant(Value::date(0))}, Type::bigint()), q));
  // The CPU's error for a negative length, raised while mapping (the emitter declines).
  EXPECT_THROW(cuda::general::DictionaryFunction::evaluate(
                   *Expr::function(ScalarFunc::kSubstr, {col, i(1), i(-1)}, Type::varchar()), q),
               Error);
}

// A second evaluation (another compile of the same block, or another block of the
// statement) reads the cached tables: the same per-code values and result strings, and
// still the CPU's row by row; other constants or another dictionary are not confused.
TEST_F(DictionaryFunctionTest, RepeatedEvaluationReadsTheSameTables) {
  auto i = [](int32_t v) { return Expr::constant(Value::integer(v)); };
  auto e = Expr::function(ScalarFunc::kSubstr, {col, i(1), i(2)}, Type::varchar());
  auto first = cuda::general::DictionaryFunction::evaluate(*e, q);
  auto second = cuda::general::DictionaryFunction::evaluate(*e, q);
  ASSERT_TRUE(first && second);
  // The same cached table, not a copy of it.
  ASSERT_TRUE(first->map.shared);
  EXPECT_EQ(first->map.shared, second->map.shared);
  EXPECT_TRUE(first->map.values.empty());
  ASSERT_EQ(first->results->size(), second->results->size());
  for (uint32_t c = 0; c < first->results->size(); c++) EXPECT_EQ(first->results->at(c), second->results->at(c));
  // Distinct results, sorted: codes order like the strings ("apple" twice gives one "ap").
  for (uint32_t c = 1; c < first->results->size(); c++) EXPECT_LT(first->results->at(c - 1), first->results->at(c));
  expect_rows_equal(e);
  expect_rows_equal(Expr::function(ScalarFunc::kSubstr, {col, i(1), i(3)}, Type::varchar()));
  // The same expression over another table's dictionary maps that dictionary.
  ColumnBuilder b("s", Type::varchar());
  for (const char* w : {"zz", "yy", "zz"}) b.append_string(w);
  q.tables[0].table = std::make_shared<Table>("t", std::vector<ColumnPtr>{b.finish()});
  expect_rows_equal(e);
}

// kPInBitmap reads a key set's bitmap as the set answers membership, for every value
// in and around its span, negative bases and int128 values beyond int64 included.
TEST(BitmapSet, AnswersAsTheKeySet) {
  std::mt19937_64 rng(16);
  for (int64_t lo : {int64_t(-5000), int64_t(0), int64_t(1) << 40, INT64_MAX - 70000}) {
    std::vector<int64_t> words;
    for (int i = 0; i < 3000; i++) words.push_back(lo + int64_t(rng() % 60000));
    auto set = plan::KeySet::make(Type::bigint(), words, false);
    ASSERT_FALSE(set->bitmap().empty());
    std::vector<int64_t> table(set->bitmap().begin(), set->bitmap().end());  // as the program's lookup holds it
    for (int64_t v = lo - 200; v < lo + 60200; v++)
      ASSERT_EQ(cuda::general::bitmap_set_contains(table.data(), table.size(), set->bitmap_base(), v), set->contains(v)) << v;
    for (__int128 far : {__int128(INT64_MIN) - 1, __int128(INT64_MAX) + 1, __int128(INT64_MIN), __int128(INT64_MAX)})
      EXPECT_EQ(cuda::general::bitmap_set_contains(table.data(), table.size(), set->bitmap_base(), far),
                far >= INT64_MIN && far <= INT64_MAX && set->contains(int64_t(far)));
  }
}

}  // namespace
}  // namespace raydb::exec

namespace raydb::exec {
namespace {

using cuda::general::TermShape;

bool compare_i128(int op, __int128 x, __int128 y) {
  switch (op) {
    case 0: return x == y;
    case 2: return x < y;
    case 3: return x <= y;
    case 4: return x > y;
    default: return x >= y;
  }
}

// A scan term's column comparison as a range (scan_terms.h): lo <= x <= hi exactly when
// x * f (op) K, for x around K / f and at the int64 ends, K of both signs, multiples
// of f and not, and K beyond what any int64 times f reaches.
TEST(ScanTerms, CompareRangeIsTheComparison) {
  const __int128 big = __int128(1) << 100;
  for (__int128 f : {__int128(1), __int128(10), __int128(7), __int128(100), __int128(1000000007)}) {
    std::vector<__int128> ks = {0, 1, -1, 5, -5, f, -f, 3 * f, -3 * f, 3 * f + 1, -3 * f - 1, big, -big,
                                __int128(INT64_MAX) * f, __int128(INT64_MIN) * f, __int128(INT64_MAX) * f + 1};
    for (__int128 K : ks)
      for (int op : {0, 2, 3, 4, 5}) {
        int64_t lo, hi;
        cuda::general::compare_range(op, K, f, lo, hi);
        std::vector<int64_t> xs = {INT64_MIN, INT64_MIN + 1, INT64_MAX, INT64_MAX - 1, 0};
        const __int128 q = K / f;
        for (int d = -3; d <= 3; d++)
          if (q + d >= INT64_MIN && q + d <= INT64_MAX) xs.push_back(int64_t(q + d));
        for (int64_t x : xs)
          EXPECT_EQ(x >= lo && x <= hi, compare_i128(op, __int128(x) * f, K))
              << "op " << op << " f " << int64_t(f) << " K " << double(K) << " x " << x;
      }
  }
}

// Conjuncts compiled for the GPU over INTEGER, DECIMAL, DATE and BIGINT columns: the
// matcher takes ANDs of simple comparisons and IN lists, and its terms applied to the
// columns' stored values keep exactly the rows where the CPU evaluator gives TRUE; it
// declines ORs, arithmetic and NULL constants.
TEST(ScanTerms, MatchedConjunctsKeepTheCpuRows) {
  plan::LogicalQuery q;
  ColumnBuilder ca("a", Type::integer()), cm("m", Type::decimal(8, 2)), cd("d", Type::date()), cb("b", Type::bigint());
  const int n = 3000;
  for (int i = 0; i < n; i++) {
    ca.append_int(i % 13 - 6);
    cm.append_int((i * 37) % 2001 - 1000);  // -10.00 .. 10.00
    cd.append_int(9000 + i % 400);
    cb.append_int(i % 2 ? INT64_MAX - i : INT64_MIN + i);
  }
  q.tables.push_back({"t", "t", std::make_shared<Table>("t", std::vector<ColumnPtr>{ca.finish(), cm.finish(), cd.finish(), cb.finish()})});
  const ExprPtr a = Expr::column(0, 0, Type::integer(), "a"), m = Expr::column(0, 1, Type::decimal(8, 2), "m"),
                d = Expr::column(0, 2, Type::date(), "d"), b = Expr::column(0, 3, Type::bigint(), "b");
  auto i = [](int v) { return Expr::constant(Value::integer(v)); };
  auto dec = [](int64_t s, int scale) { return Expr::constant(Value::decimal(s, 18, scale)); };
  using plan::CompareOp;
  const std::vector<ExprPtr> matched = {
      Expr::compare(CompareOp::kLt, a, i(3)), Expr::compare(CompareOp::kGt, i(3), a),
      Expr::compare(CompareOp::kNe, a, i(0)), Expr::compare(CompareOp::kEq, m, dec(25, 1)),
      Expr::compare(CompareOp::kGe, m, dec(-3005, 3)), Expr::compare(CompareOp::kLe, a, dec(25, 1)),
      Expr::compare(CompareOp::kEq, a, dec(25, 1)), Expr::compare(CompareOp::kGt, m, a),
      Expr::compare(CompareOp::kLt, a, d), Expr::compare(CompareOp::kGe, d, Expr::constant(Value::date(9200))),
      Expr::compare(CompareOp::kGt, b, Expr::constant(Value::bigint(INT64_MAX - 1500))),
      Expr::between(a, i(-2), i(4), false),
      Expr::conjunction(true, {Expr::compare(CompareOp::kGt, m, dec(0, 0)), Expr::compare(CompareOp::kNe, a, i(2))}),
      Expr::in_list(a, {i(1), i(3), i(-5)}, false), Expr::in_list(a, {i(1), i(3)}, true),
      Expr::in_list(a, {i(1), dec(25, 1), i(-5), i(1)}, false),
      Expr::conjunction(false, {Expr::compare(CompareOp::kEq, a, i(2)), Expr::compare(CompareOp::kEq, a, i(-6))}),
      Expr::logical_not(Expr::compare(CompareOp::kLt, m, dec(15, 1))),
  };
  const std::vector<ExprPtr> declined = {
      Expr::in_list(a, {i(1), Expr::constant(Value::null(Type::integer()))}, true),
      Expr::conjunction(false, {Expr::compare(CompareOp::kEq, a, i(2)), Expr::compare(CompareOp::kEq, m, dec(1, 0))}),
      Expr::conjunction(false, {Expr::compare(CompareOp::kLt, a, i(0)), Expr::compare(CompareOp::kGt, a, i(3))}),
      Expr::compare(CompareOp::kGt, Expr::arith(plan::ArithOp::kAdd, a, i(1), Type::integer()), i(3)),
      Expr::compare(CompareOp::kEq, a, Expr::constant(Value::null(Type::integer()))),
  };
  std::vector<uint32_t> rows(n);
  for (int r = 0; r < n; r++) rows[size_t(r)] = uint32_t(r);
  BatchRows batch;
  batch.n = size_t(n);
  batch.rows = {rows.data()};
  EvalContext ctx;
  ctx.query = &q;
  ctx.batch = &batch;
  ctx.n = size_t(n);
  cuda::general::ExpressionCompiler compiler(q);
  for (const ExprPtr& e : matched) {
    SCOPED_TRACE(e->to_string());
    auto compiled = compiler.compile(*e);
    ASSERT_TRUE(std::holds_alternative<cuda::general::CompiledProgram>(compiled)) << std::get<std::string>(compiled);
    const auto& p = std::get<cuda::general::CompiledProgram>(compiled);
    EXPECT_FALSE(cuda::general::may_raise(p));
    const auto terms = cuda::general::match_scan_terms(p);
    ASSERT_TRUE(terms);
    const Vector want = evaluate(*e, ctx);
    for (int r = 0; r < n; r++) {
      bool keep = true;
      for (const TermShape& t : *terms) {
        const Table& tab = *q.tables[0].table;
        auto value = [&](int slot) {
          const auto& c = p.columns[size_t(slot)].column;
          (void)tab;
          return c->get_int(uint64_t(r));
        };
        const int64_t x = value(t.a);
        switch (t.kind) {
          case cuda::general::kTermRange: keep &= (x >= t.lo && x <= t.hi) != t.negate; break;
          case cuda::general::kTermColumns:
            keep &= compare_i128(t.sub == 1 ? 0 : t.sub, __int128(x) * t.fa, __int128(value(t.b)) * t.fb) != (t.sub == 1);
            break;
          default: {
            const auto& vals = t.own_values ? t.values : p.lookups[size_t(t.slot)].values;
            const bool found = t.kind == cuda::general::kTermSet
                                   ? std::binary_search(vals.begin(), vals.end(), x)
                                   : cuda::general::bitmap_set_contains(vals.data(), vals.size(),
                                                                        p.lookups[size_t(t.slot)].base, x);
            keep &= found ? t.keep_found : t.keep_absent;
          }
        }
      }
      EXPECT_EQ(keep, !want.is_null(size_t(r)) && want.int_at(size_t(r)) != 0) << "row " << r;
    }
  }
  for (const ExprPtr& e : declined) {
    auto compiled = compiler.compile(*e);
    ASSERT_TRUE(std::holds_alternative<cuda::general::CompiledProgram>(compiled)) << e->to_string();
    EXPECT_FALSE(cuda::general::match_scan_terms(std::get<cuda::general::CompiledProgram>(compiled))) << e->to_string();
  }
  // Arithmetic may overflow: such a conjunct may raise, so terms after it wait for it.
  auto arith = compiler.compile(
      *Expr::compare(CompareOp::kGt, Expr::arith(plan::ArithOp::kAdd, a, i(1), Type::integer()), i(3)));
  EXPECT_TRUE(cuda::general::may_raise(std::get<cuda::general::CompiledProgram>(arith)));
}

}  // namespace
}  // namespace raydb::exec
