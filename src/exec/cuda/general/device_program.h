#pragma once
// An expression compiled for the GPU (expression_compiler.h): a postfix program that
// one thread runs per joined row over a stack of (int128 value, NULL flag). Plain
// structs shared by the host compiler and the device interpreter; no CUDA headers.
//
// Every value is the stored integer form of its SQL type (scaled decimals, day
// numbers, dictionary codes, 0/1 booleans) held in int128, so one interpreter does
// INTEGER, BIGINT, HUGEINT and DECIMAL arithmetic exactly, with the CPU evaluator's
// overflow bounds per result type (the compiler writes them into each instruction).
#include <cstdint>

#include "exec/cuda/kernel_params.h"

namespace raydb::exec::cuda::general {

constexpr int kStackDepth = 16;

enum ProgOp : uint8_t {
  kPLoad,    // push column `slot` at the row of its table
  kPConst,   // push k (NULL when flag)
  kPLookup,  // pop x; push lookups[slot][x - base] (NULL outside the table or where marked)
  kPArith,   // pop y, x; sub = ArithOp; x *= fa, y *= fb (add-like ops align scales); result in [lo, hi]
  kPNeg,     // pop x; push -x; flag: 0 = int64 kind (sub 1: INTEGER), 1 = int128 kind
  kPCmp,     // pop y, x; sub = CompareOp; compares x * fa with y * fb; when flag and a product
             // leaves int128, compares x / lo and y / hi as doubles (the evaluator's fallback)
  kPAnd,     // pop two, three-valued AND
  kPOr,      // pop two, three-valued OR
  kPNot,     // pop x; NOT x (NULL stays NULL)
  kPIsNull,  // pop x; push (x IS NULL) != flag
  kPCast,    // pop x; sub 0: exact numeric (x * fa, or x / fb rounded half away from zero), range [lo, hi];
             //        sub 1: to BOOLEAN (x != 0)
  // CASE runs as a fold in the CPU's branch order over two slots [decided, result]
  // (pushed as constants 0 and NULL), so its stack need does not grow with the number
  // of branches: kPCaseWhen pops (condition, value) and takes the value when nothing
  // was decided and the condition is true; kPCaseEnd pops, when flag, an ELSE value
  // (taken when nothing was decided) and leaves the result in place of the pair.
  kPCaseWhen,
  kPCaseEnd,
  kPSwap,    // swap the top two values (binary operators whose right operand was emitted first)
  // DOUBLE values travel as their 8 bits in the low word; IEEE operations rounded to
  // nearest one at a time, as the CPU's SSE arithmetic.
  kPToDouble,  // pop x (exact integer, scaled by fb); push double(x) / double(fb) when fb > 1;
               // flag: x may exceed int64 (converted from int128, rounded to nearest even)
  kPDArith,    // pop y, x (doubles); sub = ArithOp (/ and % by zero raise)
  kPDCmp,      // pop y, x (doubles); sub = CompareOp
  kPDNeg,      // pop x (double); push -x
  // pop x (double); push round(x * P) computed as the CPU's x87 long double does:
  // P = k * 2^slot (k the 64-bit significand of (long double)10^scale), the product
  // rounded to 64 significant bits (nearest even), then to an integer (half away from
  // zero; flag: half to even, for INTEGER/BIGINT/HUGEINT targets); raises a cast error for NaN/Inf or a magnitude above fa (positive values)
  // or fb (negative values), the (long double) bounds as unsigned 128-bit magnitudes.
  kPCastDouble,
  kPDatePart,  // pop x (DATE days); push date_part(int32(x), sub) (civil_date.h); NULL stays NULL
  // pop x; x IN the set lookups[slot].values (sorted ascending, size entries), three-valued
  // as the CPU's eval_in_list: NULL x gives NULL; not found gives NULL when flag (the
  // list holds a NULL), else FALSE; sub = 1 negates (NOT IN), NULL staying NULL.
  kPInSet,
  // pop x; x IN a dense key set: bit x - base of the words lookups[slot].values (size
  // words; bitmap_set.h), three-valued and negated as kPInSet.
  kPInBitmap,
};

// Error codes a program can raise (the first one wins; the host turns it into the CPU
// evaluator's message for the expression at `instr`).
enum ProgError : int32_t { kErrNone = 0, kErrOverflow = 1, kErrDivZero = 2, kErrCast = 3 };

struct ProgInstr {
  uint8_t op = kPConst, sub = 0, flag = 0, pad = 0;
  int32_t slot = 0;
  __int128 k = 0, fa = 1, fb = 1, lo = 0, hi = 0;
};

// A column a program reads: its device form and the query table whose row ids index it.
// `raw` (DOUBLE columns): the 8-byte values as stored, loaded as their bits.
struct ProgColumn {
  DevColumn col;
  const int64_t* raw = nullptr;
  int32_t table = 0;
  int32_t pad = 0;
};

// values[x - base] for x in [base, base + size); nulls[i] != 0 marks NULL.
struct ProgLookup {
  const int64_t* values = nullptr;
  const uint8_t* nulls = nullptr;
  int64_t base = 0;
  uint64_t size = 0;
};

struct DevProgram {
  const ProgInstr* ins = nullptr;
  const ProgColumn* cols = nullptr;
  const ProgLookup* lookups = nullptr;
  int32_t n = 0;
  int32_t pad = 0;
};

// Errors: a first pass marks `code` and keeps the smallest failing row (as ~row, so a
// zeroed slot means none); the host then reruns that row alone with `report` set, which
// stops at the row's first failing instruction and fills instr and value. So the
// error is the one of the first row in the input order, as on the CPU for one batch.
// A table scan's filters (scan_kernels.h) key a row's error by conjunct, then row
// ((conjunct << 32) | position): the first conjunct that fails on a row its earlier
// conjuncts kept, at its first such row, as when each conjunct ran as its own pass.
struct DevError {
  int32_t code = 0;
  int32_t instr = 0;
  long long value_lo = 0, value_hi = 0;  // the offending value (casts)
  unsigned long long first_row_inv = 0;
  int32_t report = 0;
  int32_t pad = 0;
};

}  // namespace raydb::exec::cuda::general
