// The host decode of star results (exec/cuda/star_groups.h), no device needed: the fast
// steps against the general ones (the path the GPU tests hold to the CPU backend) on
// randomized synthetic results of every key shape, aggregate kind and group count, and
// both against a brute-force decode of the simplest shapes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <string>

#include "bench/star_result_synth.h"
#include "exec/cuda/group_keep.h"
#include "exec/cuda/star_decode_steps.h"
#include "common/error.h"

namespace raydb::exec::cuda {
namespace {

using bench::SynthAgg;
using bench::SynthShape;
using bench::SynthStarResult;

struct Decoded {
  ResultTable table;
  std::string error;  // the error's message, when decoding failed
};

Decoded decode(const SynthStarResult& s, DecodeMode mode) {
  GroupIds present = s.present;
  GroupFields fields = s.fields;
  StarGroups g = s.view(&present, &fields);
  Decoded d;
  d.table.interner = std::make_shared<StringInterner>();
  try {
    decode_star_groups(g, d.table, mode);
  } catch (const std::exception& e) {
    d.error = e.what();
  }
  return d;
}

// Equal column by column, row by row: type, kind, NULLs and the payload.
void expect_same(const ResultTable& a, const ResultTable& b, const std::string& what) {
  ASSERT_EQ(a.rows, b.rows) << what;
  ASSERT_EQ(a.columns.size(), b.columns.size()) << what;
  for (size_t c = 0; c < a.columns.size(); c++) {
    const Vector& x = a.columns[c];
    const Vector& y = b.columns[c];
    ASSERT_TRUE(x.type == y.type) << what << " column " << c;
    ASSERT_EQ(int(x.kind), int(y.kind)) << what << " column " << c;
    ASSERT_EQ(x.size, y.size) << what << " column " << c;
    ASSERT_EQ(x.dict, y.dict) << what << " column " << c;
    for (size_t i = 0; i < a.rows; i++) {
      ASSERT_EQ(x.is_null(i), y.is_null(i)) << what << " column " << c << " row " << i;
      if (x.is_null(i)) continue;
      switch (x.kind) {
        case VectorKind::kInt:
        case VectorKind::kCode: ASSERT_EQ(x.ints[i], y.ints[i]) << what << " column " << c << " row " << i; break;
        case VectorKind::kHuge: ASSERT_TRUE(x.huge[i] == y.huge[i]) << what << " column " << c << " row " << i; break;
        case VectorKind::kDouble:
          ASSERT_EQ(std::memcmp(&x.doubles[i], &y.doubles[i], 8), 0) << what << " column " << c << " row " << i;
          break;
        case VectorKind::kString: ASSERT_EQ(x.strings[i], y.strings[i]) << what; break;
      }
    }
  }
}

void expect_fast_equals_general(const SynthShape& shape, const std::string& what) {
  const SynthStarResult s = bench::make_synth_star_result(shape);
  const Decoded general = decode(s, DecodeMode::kGeneral);
  const Decoded fast = decode(s, DecodeMode::kFast);
  ASSERT_EQ(fast.error, general.error) << what;
  if (general.error.empty()) expect_same(general.table, fast.table, what);
}

std::string describe(const SynthShape& s) {
  return "groups " + std::to_string(s.groups) + " root " + std::to_string(s.root_range) + " dim " +
         std::to_string(s.dim_codes) + "/" + std::to_string(s.dim_local) + (s.dim_first ? " dim first" : " root first") +
         (s.dictionary_root ? " dictionary" : "") + (s.shuffled ? " shuffled" : " ascending") +
         (s.having ? " having" : "") + (s.having_more ? " and more" : "") + (s.having_pair ? " and a pair" : "") + " aggs " + std::to_string(s.aggs.size()) + " seed " + std::to_string(s.seed);
}

TEST(StarDecode, FastEqualsGeneralOnRandomResults) {
  const std::vector<SynthAgg> kinds = {SynthAgg::kCountStar, SynthAgg::kCount,  SynthAgg::kSumInt,
                                       SynthAgg::kSumWide,   SynthAgg::kSumDecimal, SynthAgg::kAvg,
                                       SynthAgg::kMin,       SynthAgg::kMax};
  const std::vector<uint64_t> group_counts = {0, 1, 2, 7, 300, 5000, 70000};
  std::mt19937_64 rng(2026);
  for (int t = 0; t < 240; t++) {
    SynthShape s;
    s.seed = rng();
    s.groups = group_counts[size_t(t) % group_counts.size()];
    const int keys = int(rng() % 5);  // none, root, dim, dim + root, root + dim
    s.root_range = keys == 2 || keys == 0 ? 0 : s.groups + rng() % (s.groups * 20 + 10);
    if (keys >= 2) {
      s.dim_codes = 1 + rng() % 40;
      s.dim_local = s.dim_codes + rng() % 50;
      s.dim_first = keys != 4;
    }
    if (keys == 2) s.groups = std::min(s.groups, s.dim_codes);
    if (keys == 3 || keys == 4) s.root_range = std::max<uint64_t>(1, s.groups / s.dim_codes + rng() % 100);
    s.dictionary_root = rng() % 3 == 0;
    s.shuffled = rng() % 4 != 0;
    s.having = rng() % 3 == 0;
    s.having_more = rng() % 2 == 0;
    s.having_pair = rng() % 2 == 0;
    s.aggs = {rng() % 2 ? SynthAgg::kCountStar : SynthAgg::kCount};
    const int more = int(rng() % 4);
    for (int a = 0; a < more; a++) s.aggs.push_back(kinds[rng() % kinds.size()]);
    expect_fast_equals_general(s, describe(s));
    if (HasFatalFailure()) return;
  }
}

// Millions of groups out of a wide range (the TPC-H blocks' shape), each key shape.
TEST(StarDecode, FastEqualsGeneralAtBlockSizes) {
  SynthShape s;
  s.groups = 300000;
  s.root_range = 30000000;
  s.aggs = {SynthAgg::kCountStar, SynthAgg::kSumInt, SynthAgg::kSumDecimal, SynthAgg::kAvg};
  expect_fast_equals_general(s, "one root key");
  s.having = true;
  expect_fast_equals_general(s, "one root key, HAVING");
  s.having_more = true;  // AND sum(x) > 0: a narrow term beside the count's
  expect_fast_equals_general(s, "one root key, HAVING on two aggregates");
  s.aggs = {SynthAgg::kCountStar, SynthAgg::kSumDecimal, SynthAgg::kAvg};  // a wide term
  expect_fast_equals_general(s, "one root key, HAVING on a wide sum");
  s.aggs = {SynthAgg::kCountStar, SynthAgg::kAvg, SynthAgg::kSumInt};  // not a term: the evaluator
  expect_fast_equals_general(s, "one root key, HAVING on an average");
  s.having = false;
  s.having_more = false;
  s.aggs = {SynthAgg::kCountStar, SynthAgg::kSumInt, SynthAgg::kSumDecimal, SynthAgg::kAvg};
  s.dim_codes = 25;
  s.dim_local = 30;
  s.root_range = 1000000;
  expect_fast_equals_general(s, "dimension and root keys");
  s.dim_first = false;
  expect_fast_equals_general(s, "root and dimension keys");
}

// HAVING terms the compaction applied on the device (StarGroups::device_kept_terms):
// groups filtered by the same terms (group_kept, as the compaction kernel tests them)
// decode to the rows the unfiltered groups give, and the host does not test them again
// (unfiltered groups marked as kept on the device keep rows that fail HAVING).
TEST(StarDecode, HavingKeptOnTheDeviceIsNotTestedAgain) {
  size_t skipped_work = 0;
  for (uint64_t seed = 1; seed <= 40; seed++) {
    SynthShape shape;
    shape.seed = seed;
    shape.groups = 70000 + seed * 97;  // past kHavingFirstMinGroups: HAVING decided before the keys
    shape.root_range = shape.groups * 7;
    shape.having = true;
    shape.having_more = seed % 2 == 0;
    shape.having_pair = seed % 3 == 0;
    shape.shuffled = seed % 4 != 0;
    shape.aggs = {SynthAgg::kCountStar, SynthAgg::kSumInt};
    const SynthStarResult s = bench::make_synth_star_result(shape);
    const Decoded want = decode(s, DecodeMode::kFast);
    ASSERT_TRUE(want.error.empty()) << want.error;
    // The device's filter: the keep terms over each present group's fields.
    GroupIds present = s.present;
    GroupFields fields = s.fields;
    StarGroups g = s.view(&present, &fields);
    const DevGroupKeep keep = compile_group_keep(*g.q, *g.sp, g.lo_field, g.hi_field);
    if (keep.nterms == 0) continue;
    std::vector<const unsigned long long*> f;
    for (auto& v : fields) f.push_back(v.data());
    GroupIds kept_present;
    GroupFields kept_fields(fields.size());
    for (size_t i = 0; i < present.size(); i++) {
      if (!group_kept(keep, f.data(), i)) continue;
      kept_present.push_back(present[i]);
      for (size_t c = 0; c < fields.size(); c++) kept_fields[c].push_back(fields[c][i]);
    }
    StarGroups k = s.view(&kept_present, &kept_fields);
    k.device_kept_terms = keep.nterms;
    Decoded got;
    got.table.interner = std::make_shared<StringInterner>();
    decode_star_groups(k, got.table, DecodeMode::kFast);
    expect_same(want.table, got.table, "seed " + std::to_string(seed));
    if (kept_present.size() == present.size()) continue;
    // Marked as kept but not filtered: the failing groups stay (no second test).
    GroupIds all_present = s.present;
    GroupFields all_fields = s.fields;
    StarGroups u = s.view(&all_present, &all_fields);
    u.device_kept_terms = keep.nterms;
    Decoded unfiltered;
    unfiltered.table.interner = std::make_shared<StringInterner>();
    decode_star_groups(u, unfiltered.table, DecodeMode::kFast);
    if (unfiltered.table.rows > want.table.rows) skipped_work++;
  }
  EXPECT_GT(skipped_work, 10u);
}

// Only keys read after a device-side HAVING (TPC-H Q21's semi and anti join blocks):
// fields_unread holds, and the groups decoded with their fields left on the device
// (none on the host, stand-in aggregates) equal those decoded with every field. It does
// not hold when an output reads an aggregate or HAVING was not applied on the device.
TEST(StarDecode, KeysOnlyNeedNoFieldsAfterDeviceHaving) {
  size_t checked = 0;
  for (uint64_t seed = 1; seed <= 24; seed++) {
    SynthShape shape;
    shape.seed = seed;
    shape.groups = 300000 + seed * 131;  // past kHavingFirstMinGroups after HAVING
    shape.root_range = shape.groups * 5;
    shape.having = seed % 3 != 0;
    shape.having_more = seed % 2 == 0;
    shape.shuffled = seed % 4 == 0;
    shape.aggs = {SynthAgg::kCountStar, SynthAgg::kSumInt};
    SynthStarResult s = bench::make_synth_star_result(shape);
    const SynthStarResult with_aggregates = s;
    // SELECT the group keys only.
    std::vector<plan::ExprPtr> select;
    std::vector<std::string> names;
    for (size_t i = 0; i < s.q.select.size(); i++)
      if (s.q.select[i]->kind == plan::ExprKind::kGroupRef) {
        select.push_back(s.q.select[i]);
        names.push_back(s.q.output_names[i]);
      }
    ASSERT_FALSE(select.empty());
    s.q.select = select;
    s.q.output_names = names;
    s.q.order_by.clear();
    // The device's compaction: the keep terms over each present group's fields.
    GroupIds present = s.present;
    GroupFields fields = s.fields;
    int kept_terms = 0;
    if (shape.having) {
      StarGroups g = s.view(&present, &fields);
      const DevGroupKeep keep = compile_group_keep(*g.q, *g.sp, g.lo_field, g.hi_field);
      ASSERT_GT(keep.nterms, 0);
      kept_terms = keep.nterms;
      std::vector<const unsigned long long*> f;
      for (auto& v : fields) f.push_back(v.data());
      GroupIds kept_present;
      GroupFields kept_fields(fields.size());
      for (size_t i = 0; i < present.size(); i++) {
        if (!group_kept(keep, f.data(), i)) continue;
        kept_present.push_back(present[i]);
        for (size_t c = 0; c < fields.size(); c++) kept_fields[c].push_back(fields[c][i]);
      }
      present = kept_present;
      fields = kept_fields;
    }
    const std::string what = "seed " + std::to_string(seed);
    Decoded want;
    {
      GroupIds p = present;
      GroupFields f = fields;
      StarGroups g = s.view(&p, &f);
      g.device_kept_terms = kept_terms;
      want.table.interner = std::make_shared<StringInterner>();
      decode_star_groups(g, want.table, DecodeMode::kFast);
    }
    GroupIds p = present;
    GroupFields none(fields.size());
    StarGroups g = s.view(&p, &none);
    g.device_kept_terms = kept_terms;
    ASSERT_TRUE(fields_unread(g, p.size())) << what;
    g.fields_left_on_device = true;
    Decoded got;
    got.table.interner = std::make_shared<StringInterner>();
    decode_star_groups(g, got.table, DecodeMode::kFast);
    expect_same(want.table, got.table, what);
    checked += got.table.rows;
    // Reading an aggregate, or HAVING left to the host, needs the fields.
    GroupIds p2 = present;
    GroupFields f2 = fields;
    StarGroups a = with_aggregates.view(&p2, &f2);
    a.device_kept_terms = kept_terms;
    EXPECT_FALSE(fields_unread(a, p2.size())) << what;
    if (shape.having) {
      g.device_kept_terms = 0;
      EXPECT_FALSE(fields_unread(g, p.size())) << what;
    }
  }
  EXPECT_GT(checked, 0u);
}

// The decode against a brute-force one: keys straight from each id's digits, the count
// and the sum as the fields hold them, rows ordered by the last key, then the first.
TEST(StarDecode, BothEqualBruteForce) {
  for (int shape = 0; shape < 3; shape++) {
    SynthShape s;
    s.groups = 20000;
    s.root_range = shape == 1 ? 0 : 50000;
    s.dim_codes = shape == 0 ? 0 : 12;
    s.dim_local = 20;
    s.dim_first = shape != 2;
    s.aggs = {SynthAgg::kCountStar, SynthAgg::kSumInt};
    s.seed = 77 + uint64_t(shape);
    if (shape == 1) s.groups = 12;
    const SynthStarResult r = bench::make_synth_star_result(s);
    std::vector<std::vector<int64_t>> want;  // k0 [, k1], count, sum
    for (size_t i = 0; i < r.present.size(); i++) {
      const uint64_t id = r.present[i];
      std::vector<int64_t> row;
      const uint64_t dim_digit = s.dim_codes ? id % s.dim_codes : 0;
      const uint64_t root_digit = s.dim_codes ? id / s.dim_codes : id;
      const int64_t dim_value = s.dim_codes ? 1 + int64_t(r.inv[dim_digit]) : 0;
      const int64_t root_value = 1 + int64_t(root_digit);
      if (shape == 0) row = {root_value};
      if (shape == 1) row = {dim_value};
      if (shape == 2) row = {root_value, dim_value};
      row.push_back(int64_t(r.fields[0][i]));
      row.push_back(int64_t(r.fields[1][i]));
      want.push_back(row);
    }
    const size_t nkeys = shape == 2 ? 2 : 1;
    std::sort(want.begin(), want.end(), [&](const auto& a, const auto& b) {
      for (size_t k = nkeys; k-- > 0;)
        if (a[k] != b[k]) return a[k] < b[k];
      return false;
    });
    for (DecodeMode mode : {DecodeMode::kGeneral, DecodeMode::kFast}) {
      const Decoded d = decode(r, mode);
      ASSERT_EQ(d.error, "");
      ASSERT_EQ(d.table.rows, want.size());
      for (size_t i = 0; i < want.size(); i++)
        for (size_t c = 0; c < want[i].size(); c++)
          ASSERT_EQ(d.table.columns[c].ints[i], want[i][c]) << "shape " << shape << " row " << i << " column " << c;
    }
  }
}

// The compacted groups as the staging buffer holds them (each field's words, then the
// ids) read back by read_staged_groups: every id and word where the staging had it,
// across the parallel copy's chunks (32768 words), and no fields when they stay on the
// device. Stale contents of the target vectors must not survive.
TEST(StarDecode, StagedGroupsReadBackInFull) {
  for (uint64_t groups : {uint64_t(0), uint64_t(1), uint64_t(32767), uint64_t(32768), uint64_t(32769), uint64_t(200003)}) {
    SynthShape shape;
    shape.groups = groups;
    shape.root_range = groups * 3 + 1;
    shape.aggs = {SynthAgg::kCountStar, SynthAgg::kSumWide};
    shape.seed = 9 + groups;
    const SynthStarResult s = bench::make_synth_star_result(shape);
    const uint64_t n = s.present.size();
    const int nfields = int(s.fields.size());
    ASSERT_EQ(nfields, 3);  // the count, the wide sum's two words
    std::vector<unsigned long long> staged;
    for (auto& f : s.fields) staged.insert(staged.end(), f.begin(), f.end());
    staged.insert(staged.end(), s.present.begin(), s.present.end());
    for (bool with_fields : {true, false}) {
      GroupIds present(5, 7);
      GroupFields fields(size_t(nfields + 2), FillVector<unsigned long long>(4, 1));
      read_staged_groups(staged.data(), n, nfields, with_fields, present, fields);
      const std::string what = std::to_string(groups) + " groups" + (with_fields ? "" : ", fields left");
      ASSERT_TRUE(std::equal(present.begin(), present.end(), s.present.begin(), s.present.end())) << what;
      ASSERT_EQ(fields.size(), size_t(nfields)) << what;
      for (int f = 0; f < nfields; f++) {
        if (!with_fields) {
          EXPECT_TRUE(fields[size_t(f)].empty()) << what << " field " << f;
          continue;
        }
        ASSERT_TRUE(std::equal(fields[size_t(f)].begin(), fields[size_t(f)].end(), s.fields[size_t(f)].begin(),
                               s.fields[size_t(f)].end()))
            << what << " field " << f;
      }
    }
  }
}

}  // namespace
}  // namespace raydb::exec::cuda
