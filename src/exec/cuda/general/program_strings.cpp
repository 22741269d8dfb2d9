#include "exec/cuda/general/program_strings.h"

#include <algorithm>

#include "exec/core/dictionary_like_scan.h"
#include "exec/core/expression_evaluator.h"
#include "exec/core/like_pattern.h"
#include "exec/cuda/general/string_domain.h"

namespace raydb::exec::cuda::general {

const Dictionary* ProgramStrings::finish(CompiledProgram& p) const {
  std::vector<const Dictionary*> dicts;
  std::vector<std::string> constants;
  for (auto& l : leaves_) {
    if (l.dict && std::find(dicts.begin(), dicts.end(), l.dict) == dicts.end()) dicts.push_back(l.dict);
    if (!l.dict) constants.push_back(l.constant);
  }
  // A derived dictionary lives only as long as this object: never the program's domain.
  const Dictionary* domain = dicts.size() == 1 && constants.empty() && derived_.empty() ? dicts[0] : nullptr;
  if (!domain && !leaves_.empty()) {
    p.domain = StringDomain::merge(dicts, constants);
    domain = p.domain.get();
  }
  fill_tables(p, domain);
  if (!p.domain) return domain;
  std::vector<int> slot_of(dicts.size());
  for (size_t d = 0; d < dicts.size(); d++) {
    HostLookup t;
    StringDomain::translate(*dicts[d], *p.domain, t.values, t.nulls);
    slot_of[d] = int(p.lookups.size());
    p.lookups.push_back(std::move(t));
  }
  std::vector<int> after(p.ins.size(), -1);  // instruction -> translation slot
  for (auto& l : leaves_) {
    if (l.dict) {
      after[l.ins] = slot_of[size_t(std::find(dicts.begin(), dicts.end(), l.dict) - dicts.begin())];
    } else {
      p.ins[l.ins].k = *p.domain->find(l.constant);
    }
  }
  insert_translations(p, after);
  return domain;
}

void ProgramStrings::fill_tables(CompiledProgram& p, const Dictionary* domain) const {
  const uint32_t n = domain ? domain->size() : 0;
  for (auto& l : likes_) {
    HostLookup& t = p.lookups[size_t(l.slot)];
    t.values.assign(n, 0);
    t.nulls.assign(n, 0);
    if (!domain) continue;
    for (const auto& [lo, hi] : dictionary_like_ranges(*domain, LikePattern(l.pattern), l.negated))
      std::fill(t.values.begin() + lo, t.values.begin() + hi + 1, 1);
  }
  // As eval_in_list: found is TRUE; not found is NULL with a NULL item, else FALSE;
  // NOT IN negates (NULL stays NULL). A NULL x stays NULL through the lookup.
  for (auto& set : sets_) {
    HostLookup& t = p.lookups[size_t(set.slot)];
    t.values.assign(n, 0);
    t.nulls.assign(n, 0);
    std::vector<uint8_t> found(n, 0);
    for (auto& s : set.texts)
      if (auto c = domain ? domain->find(s) : std::nullopt) found[*c] = 1;
    for (uint32_t c = 0; c < n; c++) {
      if (!found[c] && set.has_null) t.nulls[c] = 1;
      else t.values[c] = (found[c] != 0) != set.negated ? 1 : 0;
    }
  }
}

void ProgramStrings::insert_translations(CompiledProgram& p, const std::vector<int>& translation) {
  CompiledProgram out;
  for (size_t i = 0; i < p.ins.size(); i++) {
    out.ins.push_back(p.ins[i]);
    out.source.push_back(p.source[i]);
    out.cast_from.push_back(p.cast_from[i]);
    if (translation[i] < 0) continue;
    ProgInstr lk;
    lk.op = kPLookup;
    lk.slot = translation[i];
    out.ins.push_back(lk);
    out.source.push_back(p.source[i]);
    out.cast_from.push_back(Type());
  }
  p.ins = std::move(out.ins);
  p.source = std::move(out.source);
  p.cast_from = std::move(out.cast_from);
}

}  // namespace raydb::exec::cuda::general
