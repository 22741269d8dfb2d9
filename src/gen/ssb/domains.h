#pragma once
// Value domains of the Star Schema Benchmark as the specification (O'Neil et al.)
// and the reference dbgen define them. Every list is uniform: dbgen draws each of
// these with equal weights.
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace raydb::ssb::domains {

constexpr int kNations = 25;
constexpr int kRegions = 5;
// The 25 TPC nations in dbgen's order; index + 10 is the phone country code.
extern const std::array<std::string_view, kNations> kNationNames;
// Region index of each nation (AFRICA, AMERICA, ASIA, EUROPE, MIDDLE EAST).
extern const std::array<int, kNations> kNationRegion;
extern const std::array<std::string_view, kRegions> kRegionNames;

// Cities are "<nation padded or cut to 9 chars><digit>", e.g. "UNITED KI1".
constexpr int kCitiesPerNation = 10;
std::string city_name(int nation, int digit);

extern const std::array<std::string_view, 5> kMktSegments;
extern const std::array<std::string_view, 5> kOrderPriorities;
extern const std::array<std::string_view, 7> kShipModes;

// p_color and p_name draw from these 92 color words.
constexpr int kColors = 92;
extern const std::array<std::string_view, kColors> kColorNames;
// p_type is "<size> <finish> <metal>": 6 x 5 x 5 = 150 values.
extern const std::array<std::string_view, 6> kTypeSizes;
extern const std::array<std::string_view, 5> kTypeFinishes;
extern const std::array<std::string_view, 5> kTypeMetals;
constexpr int kTypes = 150;
std::string type_name(int type);  // type in [0, 150)
// p_container is "<size> <kind>": 5 x 8 = 40 values.
extern const std::array<std::string_view, 5> kContainerSizes;
extern const std::array<std::string_view, 8> kContainerKinds;
constexpr int kContainers = 40;
std::string container_name(int container);  // container in [0, 40)

constexpr int kMfgrs = 5;             // MFGR#1..MFGR#5
constexpr int kCategoriesPerMfgr = 5;  // MFGR#11..MFGR#55
constexpr int kBrandsPerCategory = 40;  // MFGR#111..MFGR#5540

extern const std::array<std::string_view, 12> kMonthNames;
extern const std::array<std::string_view, 7> kWeekdayNames;  // Sunday first

// dbgen's retail price in cents of part `partkey` (90,000 .. 200,899).
inline int64_t retail_price(int64_t partkey) {
  return 90000 + (partkey / 10) % 20001 + 100 * (partkey % 1000);
}

// Orders are dated 1992-01-01 plus 0 .. kOrderDateSpan-1 days: dbgen keeps the
// last 151 days of the 2,557-day calendar free for ship and receipt dates.
constexpr int kCalendarDays = 2557;   // 1992-01-01 .. 1998-12-31
constexpr int kDateTableDays = 2556;  // dbgen's date table stops at 1998-12-30
constexpr int kOrderDateSpan = kCalendarDays - 151;
constexpr int kCommitMinDays = 30, kCommitMaxDays = 90;

}  // namespace raydb::ssb::domains
