#include "gen/tpch/text.h"

#include <fmt/format.h>

#include <algorithm>
#include <string_view>
#include <vector>

#include "common/error.h"

namespace raydb::tpch {

namespace {

// A word list with weights (clause 4.2.2.14 lists the words; the weights are ours,
// favouring the words the specification's reference generator favours, such as
// "packages", "requests", "regular", "furiously").
struct WeightedList {
  struct Entry {
    std::string_view word;
    int weight;
  };
  std::vector<Entry> entries;
  int total = 0;

  WeightedList(std::initializer_list<Entry> l) : entries(l) {
    for (auto& e : entries) total += e.weight;
  }
  std::string_view pick(RowRandom& rng) const {
    int x = int(rng.uniform(0, total - 1));
    for (auto& e : entries) {
      if (x < e.weight) return e.word;
      x -= e.weight;
    }
    return entries.back().word;
  }
};

const WeightedList kNouns = {
    {"packages", 40}, {"requests", 40}, {"accounts", 40}, {"deposits", 40}, {"foxes", 20}, {"ideas", 20},
    {"theodolites", 20}, {"pinto beans", 20}, {"instructions", 20}, {"dependencies", 10}, {"excuses", 10},
    {"platelets", 10}, {"asymptotes", 10}, {"courts", 5}, {"dolphins", 5}, {"multipliers", 1}, {"sauternes", 1},
    {"warthogs", 1}, {"frets", 1}, {"dinos", 1}, {"attainments", 1}, {"somas", 1}, {"Tiresias", 1},
    {"patterns", 1}, {"forges", 1}, {"braids", 1}, {"hockey players", 1}, {"frays", 1}, {"warhorses", 1},
    {"dugouts", 1}, {"notornis", 1}, {"epitaphs", 1}, {"pearls", 1}, {"tithes", 1}, {"waters", 1},
    {"orbits", 1}, {"gifts", 1}, {"sheaves", 1}, {"depths", 1}, {"sentiments", 1}, {"decoys", 1},
    {"realms", 1}, {"pains", 1}, {"grouches", 1}, {"escapades", 1}};
const WeightedList kVerbs = {
    {"sleep", 20}, {"wake", 20}, {"are", 20}, {"cajole", 20}, {"haggle", 20}, {"nag", 10}, {"use", 10},
    {"boost", 10}, {"affix", 5}, {"detect", 5}, {"integrate", 5}, {"maintain", 1}, {"nod", 1}, {"was", 1},
    {"lose", 1}, {"sublate", 1}, {"solve", 1}, {"thrash", 1}, {"promise", 1}, {"engage", 1}, {"hinder", 1},
    {"print", 1}, {"x-ray", 1}, {"breach", 1}, {"eat", 1}, {"grow", 1}, {"impress", 1}, {"mold", 1},
    {"poach", 1}, {"serve", 1}, {"run", 1}, {"dazzle", 1}, {"snooze", 1}, {"doze", 1}, {"unwind", 1},
    {"kindle", 1}, {"play", 1}, {"hang", 1}, {"believe", 1}, {"doubt", 1}};
const WeightedList kAdjectives = {
    {"special", 20}, {"pending", 20}, {"unusual", 20}, {"express", 20}, {"furious", 1}, {"sly", 1},
    {"careful", 1}, {"blithe", 1}, {"quick", 1}, {"fluffy", 1}, {"slow", 1}, {"quiet", 1}, {"ruthless", 1},
    {"thin", 1}, {"close", 1}, {"dogged", 1}, {"daring", 1}, {"brave", 1}, {"stealthy", 1}, {"permanent", 1},
    {"enticing", 1}, {"idle", 1}, {"busy", 1}, {"regular", 50}, {"final", 40}, {"ironic", 40}, {"even", 30},
    {"bold", 20}, {"silent", 10}};
const WeightedList kAdverbs = {
    {"sometimes", 1}, {"always", 1}, {"never", 1}, {"furiously", 50}, {"slyly", 50}, {"carefully", 50},
    {"blithely", 40}, {"quickly", 30}, {"fluffily", 20}, {"slowly", 1}, {"quietly", 1}, {"ruthlessly", 1},
    {"thinly", 1}, {"closely", 1}, {"doggedly", 1}, {"daringly", 1}, {"bravely", 1}, {"stealthily", 1},
    {"permanently", 1}, {"enticingly", 1}, {"idly", 1}, {"busily", 1}, {"regularly", 1}, {"finally", 1},
    {"ironically", 1}, {"evenly", 1}, {"boldly", 1}, {"silently", 1}};
const WeightedList kPrepositions = {
    {"about", 50}, {"above", 50}, {"according to", 50}, {"across", 50}, {"after", 50}, {"against", 40},
    {"along", 40}, {"alongside of", 30}, {"among", 30}, {"around", 20}, {"at", 10}, {"atop", 1}, {"before", 1},
    {"behind", 1}, {"beneath", 1}, {"beside", 1}, {"besides", 1}, {"between", 1}, {"beyond", 1}, {"by", 1},
    {"despite", 1}, {"during", 1}, {"except", 1}, {"for", 1}, {"from", 1}, {"in place of", 1}, {"inside", 1},
    {"instead of", 1}, {"into", 1}, {"near", 1}, {"of", 1}, {"on", 1}, {"outside", 1}, {"over", 1},
    {"past", 1}, {"since", 1}, {"through", 1}, {"throughout", 1}, {"to", 1}, {"toward", 1}, {"under", 1},
    {"until", 1}, {"up", 1}, {"upon", 1}, {"without", 1}, {"with", 1}, {"within", 1}};
const WeightedList kAuxiliaries = {
    {"do", 1}, {"may", 1}, {"might", 1}, {"shall", 1}, {"will", 1}, {"would", 1}, {"can", 1}, {"could", 1},
    {"should", 1}, {"ought to", 1}, {"must", 1}, {"will have to", 1}, {"shall have to", 1},
    {"could have to", 1}, {"should have to", 1}, {"must have to", 1}, {"need to", 1}, {"try to", 1}};
const WeightedList kTerminators = {{".", 50}, {";", 1}, {":", 1}, {"?", 1}, {"!", 1}, {"--", 1}};

void noun_phrase(RowRandom& rng, std::string& out) {
  switch (rng.uniform(0, 8)) {  // noun 1/9, adjective noun 3/9, two adjectives 1/9, adverb adjective noun 4/9
    case 0: break;
    case 1: case 2: case 3: out += kAdjectives.pick(rng), out += ' '; break;
    case 4: out += kAdjectives.pick(rng), out += ", ", out += kAdjectives.pick(rng), out += ' '; break;
    default: out += kAdverbs.pick(rng), out += ' ', out += kAdjectives.pick(rng), out += ' '; break;
  }
  out += kNouns.pick(rng);
}

void verb_phrase(RowRandom& rng, std::string& out) {
  const int64_t shape = rng.uniform(0, 71);  // verb 30, aux verb 1, verb adverb 40, aux verb adverb 1
  if (shape == 30 || shape == 71) out += kAuxiliaries.pick(rng), out += ' ';
  out += kVerbs.pick(rng);
  if (shape > 30) out += ' ', out += kAdverbs.pick(rng);
}

void prepositional_phrase(RowRandom& rng, std::string& out) {
  out += kPrepositions.pick(rng);
  out += " the ";
  noun_phrase(rng, out);
}

// One sentence of the grammar's five shapes (weights 3, 3, 3, 1, 1).
void sentence(RowRandom& rng, std::string& out) {
  noun_phrase(rng, out);
  out += ' ';
  const int64_t shape = rng.uniform(0, 10);
  if (shape >= 9) {  // noun phrase, prepositional phrase, verb phrase, noun or prepositional phrase
    prepositional_phrase(rng, out);
    out += ' ';
    verb_phrase(rng, out);
    out += ' ';
    if (shape == 9) noun_phrase(rng, out); else prepositional_phrase(rng, out);
  } else {
    verb_phrase(rng, out);
    if (shape >= 3 && shape < 6) out += ' ', prepositional_phrase(rng, out);
    if (shape >= 6) out += ' ', noun_phrase(rng, out);
  }
  out += kTerminators.pick(rng);
}

}  // namespace

TextPool::TextPool(uint64_t seed) {
  RowRandom rng(seed, Stream::kTextPool, 0);
  pool_.reserve(kPoolBytes + 256);
  while (pool_.size() < kPoolBytes) {
    sentence(rng, pool_);
    pool_ += ' ';
  }
  pool_.resize(kPoolBytes);
}

std::string TextPool::text(RowRandom& rng, int min, int max) const {
  const int len = int(rng.uniform(min, max));
  const size_t offset = size_t(rng.uniform(0, int64_t(pool_.size()) - len));
  return pool_.substr(offset, size_t(len));
}

std::string random_vstring(RowRandom& rng, int min, int max) {
  static constexpr std::string_view kAlphabet = "0123456789abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ,";
  const int len = int(rng.uniform(min, max));
  std::string s(size_t(len), ' ');
  uint64_t bits = 0;
  for (int i = 0; i < len; i++) {
    if (i % 10 == 0) bits = rng.next();  // 6 bits per letter, 10 letters per draw
    s[size_t(i)] = kAlphabet[bits & 63];
    bits >>= 6;
  }
  return s;
}

std::string random_phone(RowRandom& rng, int nation) {
  const int a = int(rng.uniform(100, 999)), b = int(rng.uniform(100, 999)), c = int(rng.uniform(1000, 9999));
  return fmt::format("{:02d}-{:03d}-{:03d}-{:04d}", 10 + nation, a, b, c);
}

}  // namespace raydb::tpch
