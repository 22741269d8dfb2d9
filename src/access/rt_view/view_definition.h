#pragma once
// What an RT view (RTCUDB) is made of: a star join of a fact table with dimensions
// (fact foreign key -> unique dimension key, inner join), the filter attributes that
// go into Z, the group attributes whose occurring tuples become Y, and the aggregate
// inputs (integer expressions over the joined row) that go into X or side arrays.
#include <cstdint>
#include <string>
#include <vector>

namespace raydb::rtview {

struct ViewJoin {
  std::string dimension;  // dimension table
  std::string fact_key;   // fact column (foreign key)
  std::string dim_key;    // dimension column, unique
};

// A column of the joined row: table is the fact table, a joined dimension, or empty
// (the fact table first, then the dimensions in join order).
struct AttrRef {
  std::string table;
  std::string column;
};

// An integer expression over the joined row, evaluated exactly (128-bit, must fit in
// 64 bits) on the stored integers (DECIMAL as scaled integers, DATE as days).
struct AggExpr {
  enum class Op { kColumn, kConst, kAdd, kSub, kMul };
  Op op = Op::kConst;
  AttrRef column;           // kColumn
  int64_t constant = 0;     // kConst
  std::vector<AggExpr> args;  // two for kAdd, kSub, kMul

  static AggExpr col(std::string column, std::string table = "") {
    AggExpr e;
    e.op = Op::kColumn;
    e.column = AttrRef{std::move(table), std::move(column)};
    return e;
  }
  static AggExpr lit(int64_t v) {
    AggExpr e;
    e.constant = v;
    return e;
  }
  static AggExpr binary(Op op, AggExpr a, AggExpr b) {
    AggExpr e;
    e.op = op;
    e.args = {std::move(a), std::move(b)};
    return e;
  }
  std::string to_string() const;
};

struct AggInputDef {
  std::string name;  // e.g. "lo_revenue - lo_supplycost"
  AggExpr expr;
};

struct ViewDefinition {
  std::string name;
  std::string fact;
  std::vector<ViewJoin> joins;
  // Z digits, most significant first (the layout keeps this order; see
  // choose_digit_order in view_layout.h for a workload-driven order).
  std::vector<AttrRef> filters;
  std::vector<AttrRef> groups;  // the group tuple order: results come sorted by it
  std::vector<AggInputDef> inputs;
};

// The persisted form (the catalog keeps it as text: storage/rt_view_entry.h).
// definition_from_json throws kCatalog with one line on malformed text.
std::string definition_to_json(const ViewDefinition& d);
ViewDefinition definition_from_json(const std::string& text);

}  // namespace raydb::rtview
