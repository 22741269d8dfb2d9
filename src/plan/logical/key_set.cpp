#include "plan/logical/key_set.h"

#include <omp.h>

#include <algorithm>
#include <functional>
#include <fmt/format.h>

namespace raydb::plan {

namespace {

// A bitmap costs span/8 bytes against 8 bytes a key for the array: kept while it is
// at most 16 bits a key or at most 8 MiB (6 M order keys at SF 1 is 0.75 MiB).
constexpr uint64_t kBitsPerKey = 16;
constexpr uint64_t kAlwaysBits = uint64_t(1) << 26;

int family(const Type& t) {
  switch (t.id) {
    case TypeId::kInteger:
    case TypeId::kBigint: return 1;
    case TypeId::kDate: return 2;
    case TypeId::kTimestamp: return 3;
    default: return 0;
  }
}

// Sorts words ascending: std::sort for short inputs, else an LSD radix sort of
// (word - min) over only the digits the span needs (order keys at SF 20 span 27 bits:
// 3 passes of 11 bits), a few ms for a million words where std::sort takes ~100.
void sort_words(FillVector<int64_t>& words) {
  if (words.size() < (size_t(1) << 16)) {
    std::sort(words.begin(), words.end());
    return;
  }
  const auto [lo, hi] = std::minmax_element(words.begin(), words.end());
  const int64_t base = *lo;
  const uint64_t span = uint64_t(*hi) - uint64_t(base);  // wraps correctly for any int64 pair
  const int bits = span == 0 ? 0 : 64 - __builtin_clzll(span);
  constexpr int kDigit = 11;
  std::vector<uint64_t> a(words.size()), b(words.size());
  for (size_t i = 0; i < words.size(); i++) a[i] = uint64_t(words[i]) - uint64_t(base);
  for (int shift = 0; shift < bits; shift += kDigit) {
    std::vector<size_t> count((size_t(1) << kDigit) + 1, 0);
    for (uint64_t v : a) count[((v >> shift) & ((1u << kDigit) - 1)) + 1]++;
    for (size_t d = 1; d < count.size(); d++) count[d] += count[d - 1];
    for (uint64_t v : a) b[count[(v >> shift) & ((1u << kDigit) - 1)]++] = v;
    a.swap(b);
  }
  for (size_t i = 0; i < words.size(); i++) words[i] = int64_t(a[i] + uint64_t(base));
}

// Runs of consecutive words (sorted, distinct): slices counted in parallel, then each
// run written by the slice holding its first word, its end found by scanning on past
// the slice. A million sparse order keys make a million runs.
FillVector<KeyRun> runs_of(const FillVector<int64_t>& w) {
  const size_t n = w.size();
  // w[i - 1] < w[i] (sorted, distinct), so w[i - 1] + 1 cannot overflow.
  auto starts = [&](size_t i) { return i == 0 || w[i - 1] + 1 != w[i]; };
  const size_t slices = n < (size_t(1) << 16) ? 1 : size_t(4 * omp_get_max_threads());
  std::vector<size_t> at(slices + 1, 0);
#pragma omp parallel for schedule(static) if (slices > 1)
  for (size_t s = 0; s < slices; s++)
    for (size_t i = n * s / slices; i < n * (s + 1) / slices; i++) at[s + 1] += starts(i);
  for (size_t s = 0; s < slices; s++) at[s + 1] += at[s];
  FillVector<KeyRun> runs(at[slices]);  // every run written below
#pragma omp parallel for schedule(static) if (slices > 1)
  for (size_t s = 0; s < slices; s++) {
    size_t out = at[s];
    for (size_t i = n * s / slices; i < n * (s + 1) / slices; i++) {
      if (!starts(i)) continue;
      size_t j = i;
      while (j + 1 < n && !starts(j + 1)) j++;
      runs[out++] = {w[i], w[j]};
      i = j;
    }
  }
  return runs;
}

// A hash of the words for describe(): a sum of mixed words, so slices add in parallel
// (the words are distinct, so the sum tells sets of one size apart as well as a chain).
uint64_t fingerprint_of(const FillVector<int64_t>& w, bool has_null) {
  uint64_t h = 0;
#pragma omp parallel for schedule(static) reduction(+ : h) if (w.size() > (size_t(1) << 16))
  for (size_t i = 0; i < w.size(); i++) {
    uint64_t z = uint64_t(w[i]) + 0x9e3779b97f4a7c15ull;  // splitmix64's finalizer
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    h += z ^ (z >> 31);
  }
  return has_null ? h ^ 0x9e3779b97f4a7c15ull : h;
}

// Whether w ascends strictly (sorted and distinct: what a block's grouped keys give),
// checked in parallel slices when long: one pass instead of is_sorted and unique.
bool strictly_ascending(const FillVector<int64_t>& w) {
  const size_t n = w.size();
  if (n < (size_t(1) << 16)) return std::adjacent_find(w.begin(), w.end(), std::greater_equal<int64_t>()) == w.end();
  size_t bad = 0;
#pragma omp parallel for schedule(static) reduction(+ : bad)
  for (size_t i = 1; i < n; i++) bad += size_t(w[i - 1] >= w[i]);
  return bad == 0;
}

}  // namespace

bool KeySet::holds(const Type& t) { return family(t) != 0; }

bool KeySet::comparable_with(const Type& x) const { return family(x) != 0 && family(x) == family(type_); }

std::shared_ptr<const KeySet> KeySet::make(Type type, const std::vector<int64_t>& words, bool has_null) {
  return make(type, FillVector<int64_t>(words.begin(), words.end()), has_null);
}

std::shared_ptr<const KeySet> KeySet::make(Type type, std::initializer_list<int64_t> words, bool has_null) {
  return make(type, FillVector<int64_t>(words), has_null);
}

std::shared_ptr<const KeySet> KeySet::make(Type type, FillVector<int64_t> words, bool has_null) {
  std::shared_ptr<KeySet> s(new KeySet());
  s->type_ = type;
  s->has_null_ = has_null;
  if (!strictly_ascending(words)) {
    if (!std::is_sorted(words.begin(), words.end())) sort_words(words);
    words.erase(std::unique(words.begin(), words.end()), words.end());
  }
  s->words_ = std::move(words);
  s->runs_ = runs_of(s->words_);
  s->build_bitmap();
  s->fingerprint_ = fingerprint_of(s->words_, has_null);
  return s;
}

void KeySet::build_bitmap() {
  if (words_.empty()) return;
  const uint64_t span = uint64_t(max()) - uint64_t(min());  // wraps correctly for any int64 pair
  if (span >= std::max(kAlwaysBits, kBitsPerKey * uint64_t(words_.size()))) return;
  bitmap_base_ = min();
  bitmap_.assign(size_t(span / 64 + 1), 0);
  for (int64_t w : words_) {
    const uint64_t off = uint64_t(w) - uint64_t(bitmap_base_);
    bitmap_[off >> 6] |= uint64_t(1) << (off & 63);
  }
}

bool KeySet::contains_sorted(int64_t w) const { return std::binary_search(words_.begin(), words_.end(), w); }

std::string KeySet::describe() const {
  return fmt::format("<{} {} keys{} #{:016x}>", words_.size(), type_.to_string(), has_null_ ? " and NULL" : "",
                     fingerprint_);
}

}  // namespace raydb::plan
