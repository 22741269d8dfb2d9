// raydb bench index: the RT index against its baselines (bench/index_bench). The
// flags go to the harness as given; it parses the lists where the sweep needs them.
#include "bench/index_bench.h"
#include "cli/commands.h"

namespace raydb::cli {

void register_bench_index(CLI::App& bench) {
  auto* cmd = bench.add_subcommand("index", "RT index vs sorted array vs hash table (JSON lines)");
  auto a = std::make_shared<bench::IndexBenchOptions>();
  cmd->add_option("--log-keys", a->log_keys, "log2 of indexed keys, comma-separated (16..26)");
  cmd->add_option("--log-lookups", a->log_lookups, "log2 of lookups per batch, comma-separated");
  cmd->add_option("--hit-rates", a->hit_rates, "fractions of point lookups that hit, comma-separated");
  cmd->add_option("--range-hits", a->range_hits, "0: point lookups; h > 0: ranges over h distinct keys");
  cmd->add_option("--log-dups", a->log_dups, "log2 of copies per key, comma-separated");
  cmd->add_option("--key-bits", a->key_bits, "32 and/or 64");
  cmd->add_option("--sorted-probes", a->sorted_probes,
                  "0: unsorted batch; 1: the index sorts each batch by lower bound; 2: the batch arrives sorted "
                  "(sorted before timing, as RX measures sorted probes); comma-separated");
  cmd->add_option("--methods", a->methods, "rt, rx, cgrx, rt-box, rt-bucket, rt-gpu, sa, hash, sa-gpu, hash-gpu");
  cmd->add_option("--partitions", a->partitions, "RT index partitions (instance structure when > 1)");
  cmd->add_option("--bucket", a->buckets,
                  "bucket sizes of cgrx, rt-bucket, rt-gpu, comma-separated (0: each method's default)");
  cmd->add_option("--reps", a->reps, "timed repetitions (median reported)");
  cmd->add_option("--warmup", a->warmup, "untimed runs first");
  cmd->add_option("--threads", a->threads, "CPU threads (0: all)");
  cmd->add_option("--seed", a->seed, "data seed");
  cmd->add_option("--json", a->json, "append one JSON object per measurement to FILE");
  cmd->add_option("--tracer", a->tracer, "tracer of the RT methods: embree (CPU) or optix (GPU)")
      ->check(CLI::IsMember({"embree", "optix"}));
  cmd->callback([a]() { bench::run_index_bench(*a); });
}

}  // namespace raydb::cli
