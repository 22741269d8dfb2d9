// The rule choosing which resident fact columns the CUDA star kernels read bit-packed
// (storage/pack_choice.h): properties checked over stored ranges at every power of two
// up to 2^34 and their neighbours, every stored width and mode, and the choices for
// SSB's lineorder columns at SF 20.
#include <gtest/gtest.h>

#include <cstdint>

#include "common/error.h"
#include "common/settings.h"
#include "storage/pack_choice.h"

namespace raydb {
namespace {

TEST(PackChoice, ParsesTheSetting) {
  EXPECT_EQ(parse_pack_mode(""), PackMode::kOff);
  EXPECT_EQ(parse_pack_mode("off"), PackMode::kOff);
  EXPECT_EQ(parse_pack_mode("auto"), PackMode::kAuto);
  EXPECT_EQ(parse_pack_mode("on"), PackMode::kOn);
  EXPECT_THROW(parse_pack_mode("yes"), Error);
  EXPECT_THROW(parse_pack_mode("ON"), Error);
  Settings s;  // the setting takes the same words and rejects others
  EXPECT_THROW(s.set("cuda_compression", "yes"), Error);
  s.set("cuda_compression", "auto");
  EXPECT_EQ(parse_pack_mode(s.get("cuda_compression")), PackMode::kAuto);
}

// Every choice holds all stored values in the fewest bits (at least 1), is narrower
// than the stored width, and auto packs a subset of what on packs.
TEST(PackChoice, PropertiesOverRanges) {
  const uint64_t rows_big = uint64_t(1) << 24;
  for (int p = 0; p <= 34; p++) {
    for (int64_t d = -1; d <= 1; d++) {
      const int64_t r = int64_t(uint64_t(1) << p) + d;
      if (r <= 0) continue;
      const uint64_t range = uint64_t(r), top = range - 1;  // the largest stored value
      for (int width : {1, 2, 4, 8}) {
        if (width < 8 && top >= (uint64_t(1) << (8 * width))) continue;  // not a stored width for it
        EXPECT_EQ(choose_pack_bits(range, width, rows_big, PackMode::kOff), 0);
        const int on = choose_pack_bits(range, width, rows_big, PackMode::kOn);
        const int aut = choose_pack_bits(range, width, rows_big, PackMode::kAuto);
        int fewest = 1;  // brute force: the fewest bits (>= 1) holding top
        while (fewest < 64 && (top >> fewest) != 0) fewest++;
        if (fewest < 8 * width && fewest <= 32) {
          EXPECT_EQ(on, fewest) << range << " at " << width;
        } else {
          EXPECT_EQ(on, 0) << range << " at " << width;
        }
        if (aut != 0) {
          EXPECT_EQ(aut, on);
          EXPECT_LE(aut * 4, width * 8 * 3);  // saves at least a quarter
        } else if (on != 0) {
          EXPECT_GT(on * 4, width * 8 * 3);  // auto leaves only small savings
        }
        // Small tables stay unpacked under auto, not under on.
        EXPECT_EQ(choose_pack_bits(range, width, 1000, PackMode::kAuto), 0);
        EXPECT_EQ(choose_pack_bits(range, width, 1000, PackMode::kOn), on);
      }
    }
  }
  EXPECT_EQ(choose_pack_bits(0, 4, rows_big, PackMode::kOn), 0);  // empty domain
  EXPECT_EQ(choose_pack_bits(1, 1, rows_big, PackMode::kOn), 1);  // one value: 1 bit, never 0
}

// SSB lineorder at SF 20 (120M rows): the stored domains the narrowing gives.
TEST(PackChoice, SsbColumns) {
  const uint64_t rows = 120'000'000;
  EXPECT_EQ(choose_pack_bits(11, 1, rows, PackMode::kAuto), 4);           // lo_discount 0..10
  EXPECT_EQ(choose_pack_bits(50, 1, rows, PackMode::kAuto), 6);           // lo_quantity 1..50
  EXPECT_EQ(choose_pack_bits(61130, 2, rows, PackMode::kAuto), 0);        // lo_orderdate as YYYYMMDD offsets
  EXPECT_EQ(choose_pack_bits(600'000, 4, rows, PackMode::kAuto), 20);     // lo_custkey
  EXPECT_EQ(choose_pack_bits(40'000, 2, rows, PackMode::kAuto), 0);       // lo_suppkey: 16 bits already
  EXPECT_EQ(choose_pack_bits(10'400'000, 4, rows, PackMode::kAuto), 24);  // lo_extendedprice
  EXPECT_EQ(choose_pack_bits(100, 1, rows, PackMode::kAuto), 0);          // 7 of 8 bits: too little
  EXPECT_EQ(choose_pack_bits(100, 1, rows, PackMode::kOn), 7);
  EXPECT_EQ(choose_pack_bits(200, 1, rows, PackMode::kOn), 0);            // 8 bits: nothing to save
}

}  // namespace
}  // namespace raydb
