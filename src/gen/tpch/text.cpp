#include "gen/tpch/text.h"

#include <cstdio>
#include <cstring>
#include <mutex>

#include "gen/tpch/distributions.h"
#include "gen/tpch/streams.h"

namespace raydb::tpch {

namespace {

// Appends sentences to a buffer with room for one more sentence past the pool size.
class SentenceWriter {
 public:
  SentenceWriter(char* out, ColumnStream& s) : out_(out), s_(s) {}

  // One sentence and the space after it. Every phrase ends in a space; the
  // terminator replaces the last one, as in dbgen.
  void sentence() {
    const std::string_view shape = lists::kGrammar.value(lists::kGrammar.pick(s_));
    for (char c : shape) {
      switch (c) {
        case 'N': noun_phrase(); break;
        case 'V': verb_phrase(); break;
        case 'P':
          word(lists::kPrepositions);
          append("the ");
          noun_phrase();
          break;
        default:  // 'T'
          size_--;
          append(lists::kTerminators.value(lists::kTerminators.pick(s_)));
          append(" ");
          break;
      }
    }
  }
  int64_t size() const { return size_; }

 private:
  void append(std::string_view w) {
    std::memcpy(out_ + size_, w.data(), w.size());
    size_ += int64_t(w.size());
  }
  void word(const WeightedList& list) {
    append(list.value(list.pick(s_)));
    append(" ");
  }
  void noun_phrase() {
    for (char c : lists::kNounPhrases.value(lists::kNounPhrases.pick(s_))) {
      switch (c) {
        case 'J': word(lists::kAdjectives); break;
        case 'D': word(lists::kAdverbs); break;
        case 'N': word(lists::kNouns); break;
        default:  // ',' after the word before it
          out_[size_ - 1] = ',';
          append(" ");
          break;
      }
    }
  }
  void verb_phrase() {
    for (char c : lists::kVerbPhrases.value(lists::kVerbPhrases.pick(s_)))
      word(c == 'D' ? lists::kAdverbs : c == 'V' ? lists::kVerbs : lists::kAuxiliaries);
  }

  char* out_;
  ColumnStream& s_;
  int64_t size_ = 0;
};

constexpr int64_t kMaxSentence = 256;  // longer than any sentence of the grammar

}  // namespace

TextPool::TextPool(uint64_t seed) : pool_(new char[size_t(kPoolBytes + kMaxSentence)]) {
  ColumnStream s = stream_at(Column::kTextPool, seed, 0);
  SentenceWriter writer(pool_.get(), s);
  while (writer.size() < kPoolBytes) writer.sentence();  // the last sentence is cut at kPoolBytes
}

std::shared_ptr<const TextPool> TextPool::shared(uint64_t seed) {
  static std::mutex mutex;
  static std::weak_ptr<const TextPool> last;
  static uint64_t last_seed = 0;
  std::lock_guard lock(mutex);
  if (auto pool = last.lock(); pool && last_seed == seed) return pool;
  auto pool = std::make_shared<const TextPool>(seed);
  last = pool;
  last_seed = seed;
  return pool;
}

std::string random_vstring(ColumnStream& s, int min, int max) {
  static constexpr std::string_view kAlphabet = "0123456789abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ,";
  const int len = int(s.uniform(min, max));
  std::string out(size_t(len), ' ');
  int64_t bits = 0;
  for (int i = 0; i < len; i++) {
    if (i % 5 == 0) bits = s.alphabet_bits();
    out[size_t(i)] = kAlphabet[size_t(bits & 63)];
    bits >>= 6;  // arithmetic shift of a value <= 0, as in dbgen
  }
  return out;
}

std::string random_phone(ColumnStream& s, int nation) {
  const int a = int(s.uniform(100, 999)), b = int(s.uniform(100, 999)), c = int(s.uniform(1000, 9999));
  char buf[24];
  std::snprintf(buf, sizeof buf, "%02d-%03d-%03d-%04d", 10 + nation % 90, a, b, c);
  return buf;
}

}  // namespace raydb::tpch
