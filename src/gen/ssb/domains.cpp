#include "gen/ssb/domains.h"

namespace raydb::ssb::domains {

const std::array<std::string_view, kNations> kNationNames = {
    "ALGERIA", "ARGENTINA",    "BRAZIL",  "CANADA",  "EGYPT",          "ETHIOPIA",     "FRANCE",
    "GERMANY", "INDIA",        "INDONESIA", "IRAN",  "IRAQ",           "JAPAN",        "JORDAN",
    "KENYA",   "MOROCCO",      "MOZAMBIQUE", "PERU", "CHINA",          "ROMANIA",      "SAUDI ARABIA",
    "VIETNAM", "RUSSIA",       "UNITED KINGDOM",     "UNITED STATES"};

const std::array<int, kNations> kNationRegion = {0, 1, 1, 1, 4, 0, 3, 3, 2, 2, 4, 4, 2,
                                                 4, 0, 0, 0, 1, 2, 3, 4, 2, 3, 3, 1};

const std::array<std::string_view, kRegions> kRegionNames = {"AFRICA", "AMERICA", "ASIA", "EUROPE", "MIDDLE EAST"};

std::string city_name(int nation, int digit) {
  std::string s(kNationNames[size_t(nation)].substr(0, 9));
  s.resize(9, ' ');
  s.push_back(char('0' + digit));
  return s;
}

const std::array<std::string_view, 5> kMktSegments = {"AUTOMOBILE", "BUILDING", "FURNITURE", "HOUSEHOLD",
                                                       "MACHINERY"};
const std::array<std::string_view, 5> kOrderPriorities = {"1-URGENT", "2-HIGH", "3-MEDIUM", "4-NOT SPECIFIED",
                                                           "5-LOW"};
const std::array<std::string_view, 7> kShipModes = {"REG AIR", "AIR", "RAIL", "TRUCK", "MAIL", "FOB", "SHIP"};

const std::array<std::string_view, kColors> kColorNames = {
    "almond",    "antique",   "aquamarine", "azure",    "beige",     "bisque",   "black",     "blanched",
    "blue",      "blush",     "brown",      "burlywood", "burnished", "chartreuse", "chiffon", "chocolate",
    "coral",     "cornflower", "cornsilk",  "cream",    "cyan",      "dark",     "deep",      "dim",
    "dodger",    "drab",      "firebrick",  "floral",   "forest",    "frosted",  "gainsboro", "ghost",
    "goldenrod", "green",     "grey",       "honeydew", "hot",       "indian",   "ivory",     "khaki",
    "lace",      "lavender",  "lawn",       "lemon",    "light",     "lime",     "linen",     "magenta",
    "maroon",    "medium",    "metallic",   "midnight", "mint",      "misty",    "moccasin",  "navajo",
    "navy",      "olive",     "orange",     "orchid",   "pale",      "papaya",   "peach",     "peru",
    "pink",      "plum",      "powder",     "puff",     "purple",    "red",      "rose",      "rosy",
    "royal",     "saddle",    "salmon",     "sandy",    "seashell",  "sienna",   "sky",       "slate",
    "smoke",     "snow",      "spring",     "steel",    "tan",       "thistle",  "tomato",    "turquoise",
    "violet",    "wheat",     "white",      "yellow"};

const std::array<std::string_view, 6> kTypeSizes = {"STANDARD", "SMALL", "MEDIUM", "LARGE", "ECONOMY", "PROMO"};
const std::array<std::string_view, 5> kTypeFinishes = {"ANODIZED", "BURNISHED", "PLATED", "POLISHED", "BRUSHED"};
const std::array<std::string_view, 5> kTypeMetals = {"TIN", "NICKEL", "BRASS", "STEEL", "COPPER"};

std::string type_name(int type) {
  std::string s(kTypeSizes[size_t(type / 25)]);
  s += ' ';
  s += kTypeFinishes[size_t(type / 5 % 5)];
  s += ' ';
  s += kTypeMetals[size_t(type % 5)];
  return s;
}

const std::array<std::string_view, 5> kContainerSizes = {"SM", "LG", "MED", "JUMBO", "WRAP"};
const std::array<std::string_view, 8> kContainerKinds = {"CASE", "BOX", "BAG", "JAR", "PACK", "PKG", "CAN", "DRUM"};

std::string container_name(int container) {
  std::string s(kContainerSizes[size_t(container / 8)]);
  s += ' ';
  s += kContainerKinds[size_t(container % 8)];
  return s;
}

const std::array<std::string_view, 12> kMonthNames = {"January", "February", "March",     "April",
                                                      "May",     "June",     "July",      "August",
                                                      "September", "October", "November", "December"};
const std::array<std::string_view, 7> kWeekdayNames = {"Sunday",   "Monday", "Tuesday", "Wednesday",
                                                       "Thursday", "Friday", "Saturday"};

}  // namespace raydb::ssb::domains
