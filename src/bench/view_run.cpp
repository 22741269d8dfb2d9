#include "bench/view_run.h"

#include <regex>

namespace raydb::bench {

ViewRun parse_view_run(const std::string& explain) {
  ViewRun v;
  std::smatch m;
  static const std::regex star(R"(star path ([0-9.]+) ms)");
  if (std::regex_search(explain, m, star)) v.star_model_ms = std::stod(m[1]);
  const size_t actual = explain.find("actual (");  // the profile follows the plan
  if (actual == std::string::npos) return v;
  const std::string text = explain.substr(actual);
  static const std::regex head(R"(rt view (\S+): (.*))");
  if (!std::regex_search(text, m, head)) return v;
  v.view = m[1];
  v.plan = m[2];
  auto number = [&](const char* pattern) -> uint64_t {
    std::smatch n;
    return std::regex_search(v.plan, n, std::regex(pattern)) ? std::stoull(n[1]) : 0;
  };
  v.rays = number(R"(= (\d+) rays)");
  v.hits = number(R"((\d+) hits)");
  v.flushes = number(R"((\d+) accumulator flushes)");
  v.groups_traced = number(R"((\d+) groups traced)");
  v.view_groups = number(R"(x \d+ of (\d+) groups)");
  v.decided = number(R"(\((\d+) filters decided)");
  return v;
}

}  // namespace raydb::bench
