#include "access/rt_scan/scan_index_config.h"

#include <algorithm>
#include <cctype>
#include <charconv>

#include "common/error.h"

namespace raydb::access::rt_scan {

namespace {

std::string lower(std::string s) {
  for (auto& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t");
  return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

bool parse_bool(const std::string& name, const std::string& v) {
  std::string l = lower(v);
  if (l == "true" || l == "on" || l == "1") return true;
  if (l == "false" || l == "off" || l == "0") return false;
  fail(ErrorKind::kInvalidInput, "index option {} takes true or false, got '{}'", name, v);
}

int64_t parse_int(const std::string& name, const std::string& v, int64_t lo, int64_t hi) {
  int64_t x = 0;
  auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), x);
  if (ec != std::errc() || p != v.data() + v.size() || x < lo || x > hi)
    fail(ErrorKind::kInvalidInput, "index option {} takes an integer from {} to {}, got '{}'", name, lo, hi, v);
  return x;
}

SieveMode parse_sieve(const std::string& v) {
  std::string l = lower(v);
  if (l == "nearest") return SieveMode::kNearest;
  if (l == "positive") return SieveMode::kPositive;
  if (l == "negative") return SieveMode::kNegative;
  if (l == "off") return SieveMode::kOff;
  fail(ErrorKind::kInvalidInput, "index option sieve takes nearest, positive, negative or off, got '{}'", v);
}

// 'a, b; c' -> {{0, 1}, {2}}; columns not named get groups of their own, in order.
std::vector<std::vector<uint32_t>> parse_groups(const std::string& v, const std::vector<std::string>& columns) {
  std::vector<std::vector<uint32_t>> groups;
  std::vector<bool> used(columns.size(), false);
  size_t start = 0;
  while (start <= v.size()) {
    size_t end = v.find(';', start);
    if (end == std::string::npos) end = v.size();
    std::vector<uint32_t> g;
    size_t s = start;
    while (s <= end) {
      size_t e = std::min(v.find(',', s), end);
      std::string name = lower(trim(v.substr(s, e - s)));
      auto it = std::find_if(columns.begin(), columns.end(), [&](const std::string& c) { return lower(c) == name; });
      if (it == columns.end())
        fail(ErrorKind::kInvalidInput, "index option groups names '{}', which is not an indexed column", name);
      const size_t c = size_t(it - columns.begin());
      if (used[c]) fail(ErrorKind::kInvalidInput, "index option groups names column {} twice", columns[c]);
      used[c] = true;
      g.push_back(uint32_t(c));
      s = e + 1;
    }
    if (g.size() > 3) fail(ErrorKind::kInvalidInput, "index option groups: a group holds 1 to 3 columns, got {}", g.size());
    groups.push_back(std::move(g));
    start = end + 1;
  }
  for (size_t c = 0; c < columns.size(); c++)
    if (!used[c]) groups.push_back({uint32_t(c)});
  return groups;
}

}  // namespace

RtScanOptions parse_scan_index_options(const std::vector<std::pair<std::string, std::string>>& options,
                                       const std::vector<std::string>& columns) {
  RtScanOptions o;
  std::vector<std::string> seen;
  for (auto& [raw_name, value] : options) {
    const std::string name = lower(raw_name);
    if (std::find(seen.begin(), seen.end(), name) != seen.end())
      fail(ErrorKind::kInvalidInput, "index option {} is given twice", name);
    seen.push_back(name);
    if (name == "bins") o.bins = uint32_t(parse_int(name, value, 1, 65536));
    else if (name == "groups") o.groups = parse_groups(value, columns);
    else if (name == "sieve") o.sieve = parse_sieve(value);
    else if (name == "segment_cells") o.segment_cells = uint32_t(parse_int(name, value, 1, 1024));
    else if (name == "cell_shift") o.cell_shift = int(parse_int(name, value, -1, 20));
    else if (name == "rt") o.build_rt = parse_bool(name, value);
    else if (name == "sieve_refine") o.sieve_refine = parse_bool(name, value);
    else
      fail(ErrorKind::kInvalidInput,
           "unknown option '{}' for an rtscan index (it takes: bins, groups, sieve, segment_cells, cell_shift, rt, "
           "sieve_refine)",
           raw_name);
  }
  return o;
}

}  // namespace raydb::access::rt_scan
