#include "storage/pack_choice.h"

#include <algorithm>
#include <bit>

#include "common/error.h"

namespace raydb {

PackMode parse_pack_mode(std::string_view text) {
  if (text.empty() || text == "off") return PackMode::kOff;
  if (text == "auto") return PackMode::kAuto;
  if (text == "on") return PackMode::kOn;
  fail(ErrorKind::kInvalidInput, "cuda_compression '{}' (expected off, auto or on)", text);
}

int choose_pack_bits(uint64_t stored_range, int width, uint64_t rows, PackMode mode) {
  if (mode == PackMode::kOff || stored_range == 0) return 0;
  const int bits = std::max(1, int(std::bit_width(stored_range - 1)));
  const int stored_bits = width * 8;
  if (bits > 32 || bits >= stored_bits) return 0;
  if (mode == PackMode::kOn) return bits;
  if (rows < kPackMinRows || bits * 4 > stored_bits * 3) return 0;
  return bits;
}

}  // namespace raydb
