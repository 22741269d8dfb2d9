#pragma once
// The weighted value lists of TPC-H generation (the specification's clause 4.2.2
// word lists and value domains). Their order and weights follow the TPC-H kit's
// dbgen (its distribution file), since a pick maps a random draw to a position in
// the cumulative weights: any other order would give other rows.
#include <cstdint>
#include <string_view>
#include <vector>

#include "gen/tpch/random.h"

namespace raydb::tpch {

class WeightedList {
 public:
  struct Entry {
    std::string_view value;
    int weight;
  };
  WeightedList(std::initializer_list<Entry> entries);

  // dbgen's pick_str: one draw in [1, total weight], the first entry whose
  // cumulative weight reaches it.
  int pick(ColumnStream& s) const { return slot_[size_t(s.uniform(0, int64_t(slot_.size()) - 1))]; }
  std::string_view value(int i) const { return entries_[size_t(i)].value; }
  int size() const { return int(entries_.size()); }

 private:
  std::vector<Entry> entries_;
  std::vector<uint8_t> slot_;  // entry of each unit of weight
};

namespace lists {
// The text grammar (clause 4.2.2.14). Sentence, noun phrase and verb phrase shapes
// are strings of part-of-speech letters: N noun (phrase), V verb (phrase),
// P prepositional phrase, T terminator, J adjective, D adverb, X auxiliary; ','
// puts a comma after the word before it.
extern const WeightedList kGrammar, kNounPhrases, kVerbPhrases;
extern const WeightedList kNouns, kVerbs, kAdjectives, kAdverbs, kPrepositions, kAuxiliaries, kTerminators;
// Value domains drawn with pick (uniform lists in dbgen's order).
extern const WeightedList kShipInstructions, kReturnFlags;
}  // namespace lists

}  // namespace raydb::tpch
