#include "gen/tpch/streams.h"

#include <array>
#include <cstddef>

#include "gen/ssb/random.h"

namespace raydb::tpch {

namespace {

struct StreamDef {
  int64_t kit_seed;  // the first value of dbgen's stream for this column
  int64_t draws;     // values each row consumes (dbgen's boundary)
};

constexpr int64_t kMaxLines = 7;       // lines per order: the line streams draw for 7 every order
constexpr int64_t kSuppliersPerPart = 4;

// In Column order; the values are the kit's (dbgen's seed table), for identical output.
constexpr std::array<StreamDef, size_t(Column::kCount)> kStreams = {{
    {1, 1},                                  // p_mfgr
    {46831694, 1},                           // p_brand
    {1841581359, 1},                         // p_type
    {1193163244, 1},                         // p_size
    {727633698, 1},                          // p_container
    {933588178, 0},                          // the text pool, drawn once in sequence
    {804159733, 2},                          // p_comment: offset and length
    {1671059989, kSuppliersPerPart},         // ps_availqty, per part
    {1051288424, kSuppliersPerPart},         // ps_supplycost
    {1961692154, 2 * kSuppliersPerPart},     // ps_comment
    {1171034773, 1},                         // o_clerk
    {276090261, 2},                          // o_comment
    {1066728069, 1},                         // o_orderdate
    {591449447, 1},                          // o_orderpriority
    {851767375, 1},                          // o_custkey
    {1434868289, 1},                         // lines per order
    {209208115, kMaxLines},                  // l_quantity, per order
    {554590007, kMaxLines},                  // l_discount
    {721958466, kMaxLines},                  // l_tax
    {1371272478, kMaxLines},                 // l_shipinstruct
    {675466456, kMaxLines},                  // l_shipmode
    {1808217256, kMaxLines},                 // l_partkey
    {2095021727, kMaxLines},                 // l_suppkey (which of the part's 4)
    {1769349045, kMaxLines},                 // l_shipdate
    {904914315, kMaxLines},                  // l_commitdate
    {373135028, kMaxLines},                  // l_receiptdate
    {717419739, kMaxLines},                  // l_returnflag
    {1095462486, 2 * kMaxLines},             // l_comment
    {881155353, 9},                          // c_address: length and 8 draws of 5 letters
    {1489529863, 1},                         // c_nationkey
    {1521138112, 3},                         // c_phone
    {298370230, 1},                          // c_acctbal
    {1140279430, 1},                         // c_mktsegment
    {1335826707, 2},                         // c_comment
    {706178559, 9},                          // s_address
    {110356601, 1},                          // s_nationkey
    {884434366, 3},                          // s_phone
    {962338209, 1},                          // s_acctbal
    {1341315363, 2},                         // s_comment
    {263032577, 1},                          // gap between "Customer " and the complaint word
    {753643799, 1},                          // complaint or recommendation
    {202794285, 1},                          // whether s_comment carries one
    {715851524, 1},                          // where it starts
    {709314158, 92},                         // p_name: a shuffle of the 92 colors
    {606179079, 2},                          // n_comment
    {1500869201, 2},                         // r_comment
}};

}  // namespace

int64_t stream_seed(Column column, uint64_t seed) {
  const int64_t kit = kStreams[size_t(column)].kit_seed;
  if (seed == 0) return kit;
  // Any value in [1, 2^31 - 2] is a valid Park-Miller state.
  const uint64_t h = ssb::mix64(ssb::mix64(seed) ^ (uint64_t(kit) * 0x9E3779B97F4A7C15ull));
  return int64_t(1 + h % uint64_t(kParkMillerModulus - 1));
}

int64_t draws_per_row(Column column) { return kStreams[size_t(column)].draws; }

}  // namespace raydb::tpch
