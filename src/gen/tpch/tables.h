#pragma once
// The per-table generators behind tpch::generate and the helpers that turn their
// arrays into storage columns (internal to gen/tpch).
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "gen/tpch/generator.h"
#include "gen/tpch/streams.h"
#include "gen/tpch/text.h"
#include "storage/column.h"

namespace raydb::tpch {

struct TableJob {
  RowCounts counts;
  uint64_t seed;  // 0: dbgen's streams (streams.h)
  int threads;  // > 0
  bool progress;
  const TextPool* text;
};

// Calendar of the specification (clause 4.2.3): orders from STARTDATE to
// ENDDATE - 151 days; CURRENTDATE decides return flags and line status.
int32_t start_date();    // 1992-01-01, days since 1970-01-01
int32_t end_date();      // 1998-12-31
int32_t current_date();  // 1995-06-17

// The supplier of the i-th (0..3) partsupp row of `partkey` (clause 4.2.3), so
// that every (l_partkey, l_suppkey) of lineitem is a partsupp row.
int32_t part_supplier(int64_t partkey, int i, int64_t suppliers);
// p_retailprice of `partkey` in cents (clause 4.2.3).
int64_t retail_price_cents(int64_t partkey);

// Calls body(begin, end) for blocks of rows of [0, rows) in parallel: each block
// positions its own streams at `begin`, so any split gives the same rows.
template <typename Body>
void for_each_block(uint64_t rows, uint64_t block_rows, int threads, Body&& body) {
  const uint64_t blocks = (rows + block_rows - 1) / block_rows;
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
  for (uint64_t b = 0; b < blocks; b++) body(b * block_rows, std::min(rows, (b + 1) * block_rows));
}

ColumnPtr int_column(std::string name, const std::vector<int32_t>& values);
ColumnPtr money_column(std::string name, const std::vector<int64_t>& cents);  // DECIMAL(15,2)
ColumnPtr date_column(std::string name, const std::vector<int32_t>& days);
ColumnPtr text_column(std::string name, const std::vector<std::string>& values);  // VARCHAR
// Orders `columns` as tpch::schema() lists them, checking names and types.
TablePtr assemble_table(const std::string& table, std::vector<ColumnPtr> columns);

TablePtr generate_nation(const TableJob& job);
TablePtr generate_region(const TableJob& job);
TablePtr generate_supplier(const TableJob& job);
TablePtr generate_customer(const TableJob& job);
TablePtr generate_part(const TableJob& job);
TablePtr generate_partsupp(const TableJob& job);
// orders and lineitem together (o_totalprice and o_orderstatus come from the lines).
std::vector<TablePtr> generate_orders_lineitem(const TableJob& job);

}  // namespace raydb::tpch
