#include "exec/cuda/general/string_domain.h"

#include <algorithm>
#include <string_view>

namespace raydb::exec::cuda::general {

std::shared_ptr<const Dictionary> StringDomain::merge(const std::vector<const Dictionary*>& dicts,
                                                      const std::vector<std::string>& constants) {
  std::vector<std::string_view> all;
  size_t n = constants.size();
  for (auto* d : dicts) n += d->size();
  all.reserve(n);
  for (auto* d : dicts)
    for (uint32_t c = 0; c < d->size(); c++) all.push_back(d->at(c));
  for (auto& s : constants) all.push_back(s);
  std::sort(all.begin(), all.end());
  all.erase(std::unique(all.begin(), all.end()), all.end());
  std::vector<uint64_t> offsets{0};
  std::string chars;
  for (auto s : all) {
    chars.append(s);
    offsets.push_back(chars.size());
  }
  return std::make_shared<const Dictionary>(std::move(offsets), std::move(chars));
}

void StringDomain::translate(const Dictionary& src, const Dictionary& dst, std::vector<int64_t>& values,
                             std::vector<uint8_t>& nulls) {
  values.assign(src.size(), -1);
  nulls.assign(src.size(), 1);
  uint32_t j = 0;
  for (uint32_t i = 0; i < src.size(); i++) {
    const std::string_view s = src.at(i);
    while (j < dst.size() && dst.at(j) < s) j++;
    if (j < dst.size() && dst.at(j) == s) values[i] = j, nulls[i] = 0;
  }
}

}  // namespace raydb::exec::cuda::general
