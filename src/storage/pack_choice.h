#pragma once
// Which resident fact columns the CUDA star kernels read bit-packed
// (storage/packed_layout.h), chosen per column from its statistics at upload time:
// the stored values (value - base, or dictionary ranks) at the fewest bits holding
// the largest (block/load.cuh decodes any width 1..32 with shifts and masks).
#include <cstdint>
#include <string_view>

namespace raydb {

// Setting cuda_compression: off (today's narrowed columns only), auto (pack where the
// rule below expects a gain), on (pack whenever it saves any bytes).
enum class PackMode { kOff, kAuto, kOn };

// Parses the setting's text; "" is the default (off until the packed kernels are
// measured on the device). Throws kInvalidInput on anything else.
PackMode parse_pack_mode(std::string_view text);

// auto packs only columns of at least this many rows: below, the bytes saved are too
// few to pay for the packing pass and the second resident copy.
inline constexpr uint64_t kPackMinRows = uint64_t(1) << 20;

// The packed width for a narrowed column of `rows` rows whose stored values lie in
// [0, stored_range) at `width` bytes each (1, 2, 4 or 8), or 0: read it unpacked.
// The width is bit_width(stored_range - 1), at least 1 (0 marks an unpacked column).
//   off:  never.
//   on:   whenever that is narrower than the stored width.
//   auto: when it also saves at least a quarter of the column's bytes (a memory-bound
//         kernel's time falls with its bytes; the decode is a few integer operations
//         per value) and the column has at least kPackMinRows rows.
int choose_pack_bits(uint64_t stored_range, int width, uint64_t rows, PackMode mode);

}  // namespace raydb
