#pragma once
// A table scan's simple conjuncts tested straight from the columns, without the program
// interpreter: `column op constant`, `column op column` and `column [NOT] IN` a set or
// a key-set bitmap, and ANDs of them. The interpreter keeps an int128 value stack per
// thread in local memory; over TPC-H SF 20's 120 M lineitem rows its scans took 3-6 ms
// where these loads and compares take a fraction of one (scan_kernels.h).
//
// Exactness: a column's loaded value is never NULL (stored NULLs are read through a CASE
// over the indicator column, which does not match here), so each term is TRUE or not,
// and an AND of terms keeps a row exactly when the program's three-valued AND is TRUE.
// `column * f op K` is rewritten as an inclusive range of the column's int64 value by
// exact integer floor/ceiling division (f > 0), so no row compares differently.
// Plain structs shared with the device; the matcher is host code.
#include <cstdint>
#include <optional>
#include <vector>

#include "common/host_device.h"
#include "exec/cuda/general/device_program.h"

namespace raydb::exec::cuda::general {

struct CompiledProgram;

enum ScanTermKind : int32_t {
  kTermRange,    // lo <= a <= hi (negate: outside)
  kTermColumns,  // a * fa (sub: CompareOp) b * fb, in int128 (the interpreter's kPCmp without its double fallback)
  kTermBitmap,   // a in the bitmap lookups[slot] (bitmap_set.h)
  kTermSet,      // a in the sorted values lookups[slot] (kPInSet's), or in `values` (a short IN list)
};

// A term before binding: program column slots and lookup slots.
struct TermShape {
  ScanTermKind kind = kTermRange;
  int32_t a = 0, b = 0;       // column slots
  int32_t sub = 0;            // kTermColumns' CompareOp
  int32_t slot = 0;           // kTermBitmap / kTermSet: the lookup
  bool negate = false;        // kTermRange: keep values outside [lo, hi]
  bool keep_found = true;     // sets: keep a value found in the set ...
  bool keep_absent = false;   // ... or one not found (NOT IN without a NULL in the list)
  int64_t lo = 0, hi = 0;     // kTermRange
  int64_t fa = 1, fb = 1;     // kTermColumns
  bool own_values = false;    // kTermSet: `values` (sorted, distinct), not a program lookup
  std::vector<int64_t> values;
};

// The bound term the scan kernel tests (columns and tables on the device).
struct ScanTerm {
  ProgColumn a, b;
  ProgLookup set;
  int32_t kind = kTermRange, sub = 0;
  int32_t negate = 0, keep_found = 1, keep_absent = 0, pad = 0;
  int64_t lo = 0, hi = 0, fa = 1, fb = 1;
};

// The conjunct's terms when the whole program is an AND of simple terms over non-DOUBLE
// columns (a short IN list compiles to ORs of equalities, a NOT IN to their NOT: both
// become one set term); nullopt otherwise.
std::optional<std::vector<TermShape>> match_scan_terms(const CompiledProgram& p);

// A conjunct for the term pass with its terms, as match_scan_terms found them.
struct TermConjunct {
  const CompiledProgram* program = nullptr;
  std::vector<TermShape> terms;
};

// Whether running the program can raise an error (overflow, division by zero, a cast):
// a scan may test other conjuncts before it only where it cannot.
bool may_raise(const CompiledProgram& p);

// The inclusive int64 range of x with x * f (op) k, op a CompareOp other than != (= and
// the orderings), f > 0; empty as lo > hi. Exposed for tests.
void compare_range(int op, __int128 k, __int128 f, int64_t& lo, int64_t& hi);

}  // namespace raydb::exec::cuda::general
