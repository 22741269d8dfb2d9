#pragma once
// The per-column random streams of TPC-H generation: their first values and the
// number of draws each row consumes follow the TPC-H kit's dbgen (its seed table),
// so that raydb's rows equal dbgen's. Streams are shared where dbgen shares them:
// orders and lineitem draw their line values from the same streams, so that
// o_totalprice and o_orderstatus agree with the lines.
#include <cstdint>

#include "gen/tpch/random.h"

namespace raydb::tpch {

enum class Column : int {
  kPartMfgr, kPartBrand, kPartType, kPartSize, kPartContainer, kTextPool, kPartComment,
  kPsAvailQty, kPsSupplyCost, kPsComment,
  kOrderClerk, kOrderComment, kOrderDate, kOrderPriority, kOrderCustomer, kOrderLines,
  kLineQuantity, kLineDiscount, kLineTax, kLineInstruct, kLineShipMode, kLinePart, kLineSupplier,
  kLineShipDate, kLineCommitDate, kLineReceiptDate, kLineReturnFlag, kLineComment,
  kCustAddress, kCustNation, kCustPhone, kCustAcctbal, kCustSegment, kCustComment,
  kSuppAddress, kSuppNation, kSuppPhone, kSuppAcctbal, kSuppComment,
  kSuppBbbJunk, kSuppBbbType, kSuppBbbComment, kSuppBbbOffset,
  kPartName, kNationComment, kRegionComment,
  kCount
};

// The first value of `column`'s stream: dbgen's seed when `seed` is 0, otherwise a
// value derived from (seed, column), so that another seed changes every stream.
int64_t stream_seed(Column column, uint64_t seed);
// Draws per row of `column` (dbgen's boundary; 0 for the text pool's stream).
int64_t draws_per_row(Column column);

// `column`'s stream at the start of row `first_row` (0-based) of its table.
inline ColumnStream stream_at(Column column, uint64_t seed, uint64_t first_row) {
  return ColumnStream(stream_seed(column, seed), draws_per_row(column), first_row);
}

}  // namespace raydb::tpch
