#pragma once
// The steps of decode_star_groups (star_groups.h): the general ones, which work for
// every star result, and the fast ones for the common shapes (keys that follow the
// group id's digit order, counts and integer sums), each a pass over the groups.
#include <cstdint>
#include <vector>

#include "exec/core/aggregate_states.h"
#include "exec/cuda/star_groups.h"

namespace raydb::exec::cuda {

// ---- general (star_decode_general.cpp) ----

// The group id's packed key word (the CPU's KeyEncoder layout).
int64_t packed_key(const StarGroups& g, uint64_t id);
// The present groups in ascending packed-word order, their keys decoded into `keys`;
// without GROUP BY one group, present even without rows.
std::vector<uint32_t> general_order(StarGroups& g, ResultTable& result, std::vector<Vector>& keys);
// Counts and sums per group, in `order`, loaded into `states` (AggregateStates::load).
void load_star_aggregates(const StarGroups& g, const std::vector<uint32_t>& order, AggregateStates& states);
// Every aggregate through AggregateStates, for the groups in `order`.
std::vector<Vector> general_aggregates(const StarGroups& g, const std::vector<uint32_t>& order,
                                       StringInterner* interner);
// Whether HAVING is decided before ordering (many groups, HAVING over aggregates only).
bool having_first(const StarGroups& g);
// The same for `groups` present groups (before they are on the host).
bool having_first(const StarGroups& g, size_t groups);
// Keeps the present groups whose aggregates `aggs` (one per aggregate, in present
// order) pass HAVING.
void keep_passing_groups(StarGroups& g, const std::vector<Vector>& aggs);

// ---- fast (star_decode_fast.cpp) ----

// Whether ascending group ids are ascending packed words: the keys' digits in the
// group id, least significant first, come in GROUP BY order (the packed word's).
bool ids_follow_key_order(const StarGroups& g);
// The present ids (or packed words), all below 2^32, sorted, each as (id << 32 | its
// present index); empty when they already ascend.
GroupIds sorted_ids(const GroupIds& present);
// GROUP BY keys straight from the group ids (ids_follow_key_order), for groups
// `sorted` (ids in the high words) or, when empty, *present in its order.
std::vector<Vector> keys_from_ids(const StarGroups& g, const GroupIds& sorted);
// The present groups' packed key words (KeyEncoder's layout), in present order, and
// the keys decoded from them: from `sorted`'s high words (sorted_ids of the words) or,
// when empty, from `words` in present order.
GroupIds packed_words(const StarGroups& g);
std::vector<Vector> keys_from_words(const StarGroups& g, const GroupIds& words,
                                    const GroupIds& sorted);
// HAVING decided by its terms over the accumulator words (group_keep.h), when every
// conjunct is one: the present groups that fail are dropped. False when it does not apply.
bool keep_by_terms(StarGroups& g);
// Whether every aggregate is a COUNT, or a SUM / AVG / MIN / MAX of an integer kind
// the fast aggregates finalize as AggregateStates does.
bool fast_aggregates_apply(const StarGroups& g);
// Whether the fast decode of `groups` compacted groups reads no accumulator field: the
// fast aggregates apply, no SELECT or ORDER BY item reads an aggregate, no order
// statistic, and HAVING is absent or all applied by the compaction (decided first by
// its terms). Then only the group ids come back (StarGroups::fields_left_on_device):
// TPC-H Q21's semi and anti join blocks keep 1.3 M keys and read none of their min/max.
bool fields_unread(const StarGroups& g, size_t groups);
// The aggregates' result vectors straight from the fields, for the present indices
// `*order`, else those in `sorted`'s low words, else *present in its order.
std::vector<Vector> fast_aggregates(const StarGroups& g, const GroupIds& sorted,
                                    const std::vector<uint32_t>* order = nullptr);

}  // namespace raydb::exec::cuda
