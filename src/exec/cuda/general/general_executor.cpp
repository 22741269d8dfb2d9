#include "exec/cuda/general/general_executor.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <numeric>

#include "common/error.h"
#include "common/timer.h"
#include "exec/core/constant_conjuncts.h"
#include "exec/core/join_order.h"
#include "exec/core/aggregate_states.h"
#include "exec/core/expression_evaluator.h"
#include "exec/cuda/column_cache.h"
#include "gpu/current_device.h"
#include "gpu/device_buffer.h"
#include "gpu/event.h"
#include "gpu/stream.h"
#include "exec/cuda/general/cross_join.h"
#include "exec/cuda/general/general_kernels.h"
#include "exec/cuda/general/group_aggregate.h"
#include "exec/cuda/general/group_ids.h"
#include "exec/cuda/general/group_kernels.h"
#include "exec/cuda/general/hash_join.h"
#include "exec/cuda/general/index_steps.h"
#include "exec/core/result_finisher.h"

namespace raydb::exec::cuda::general {

using plan::AggFunc;
using plan::ExprKind;

namespace {

// CUB's device-wide calls in device_primitives.cu take int item counts.
constexpr uint64_t kMaxRows = (uint64_t(1) << 31) - 1;

// Non-aggregate results of this many rows or more are ordered on the device.
constexpr uint64_t kDeviceSortMinRows = 65536;

// RAYDB_CUDA_JOIN=sort: the sort-based join (sorted hashes, binary search) instead of
// the hash table (hash_join.h), so one build can compare both.
bool sort_join_selected() {
  const char* v = std::getenv("RAYDB_CUDA_JOIN");
  return v && std::strcmp(v, "sort") == 0;
}

std::atomic<uint64_t>& device_sorts() {
  static std::atomic<uint64_t> n{0};
  return n;
}

// The general path's stream and timing events, created once per process on device 0.
struct Stream {
  gpu::CurrentDevice device;  // first: what follows belongs to device 0
  gpu::Stream s;
  gpu::Event start, stop;
};
Stream& stream() {
  static Stream* st = new Stream();
  return *st;
}

// DOUBLE columns as stored (8-byte bits): the column cache narrows integers only.
class RawColumns {
 public:
  static const int64_t* get(const ColumnPtr& c, cudaStream_t s) {
    static std::mutex m;
    static std::map<const Column*, std::pair<ColumnPtr, std::unique_ptr<gpu::DeviceBuffer>>> cache;
    std::lock_guard<std::mutex> lock(m);
    auto it = cache.find(c.get());
    if (it != cache.end()) return it->second.second->get<int64_t>();
    auto buf = std::make_unique<gpu::DeviceBuffer>(std::max<uint64_t>(c->size() * 8, 8), "a DOUBLE column");
    // On the query's stream: pooled memory may still be read by its earlier kernels.
    if (c->size())
      gpu::check_cuda(cudaMemcpyAsync(buf->get(), c->data<double>(), c->size() * 8, cudaMemcpyHostToDevice, s), "upload");
    gpu::check_cuda(cudaStreamSynchronize(s), "upload");
    const int64_t* p = buf->get<int64_t>();
    cache.emplace(c.get(), std::make_pair(c, std::move(buf)));
    return p;
  }
};

// Copies go on the query's stream: a pooled block may still be read by kernels queued
// there before it was released. Pageable sources are staged before the call returns.
template <typename T>
void upload(gpu::DeviceBuffer& dst, const std::vector<T>& src, const char* what, cudaStream_t s) {
  dst = gpu::DeviceBuffer(std::max<uint64_t>(src.size() * sizeof(T), 16), what);
  if (!src.empty())
    gpu::check_cuda(cudaMemcpyAsync(dst.get(), src.data(), src.size() * sizeof(T), cudaMemcpyHostToDevice, s), "upload");
}

// A compiled program with its instructions, columns and lookup tables on the device.
struct BoundProgram {
  const CompiledProgram* src = nullptr;
  DevProgram dev;
  gpu::DeviceBuffer ins, cols, lookups;
  std::vector<gpu::DeviceBuffer> tables;
};

std::unique_ptr<BoundProgram> bind(const CompiledProgram& p, cudaStream_t s, uint64_t& bytes_read) {
  auto b = std::make_unique<BoundProgram>();
  b->src = &p;
  std::vector<ProgColumn> cols;
  for (auto& c : p.columns) {
    ProgColumn pc;
    pc.table = c.table;
    if (c.column->type().id == TypeId::kDouble) {
      pc.raw = RawColumns::get(c.column, s);
      bytes_read += c.column->size() * 8;
    } else {
      const DeviceColumn& dc = ColumnCache::instance().get(c.column, s);
      pc.col = dc.dev;
      bytes_read += dc.bytes();
    }
    cols.push_back(pc);
  }
  std::vector<ProgLookup> lks;
  for (auto& t : p.lookups) {
    gpu::DeviceBuffer v, n;
    upload(v, t.values, "a lookup table", s);
    upload(n, t.nulls, "a lookup table", s);
    ProgLookup l;
    l.values = v.get<int64_t>();
    l.nulls = n.get<uint8_t>();
    l.base = t.base;
    l.size = t.values.size();
    lks.push_back(l);
    b->tables.push_back(std::move(v));
    b->tables.push_back(std::move(n));
  }
  upload(b->ins, p.ins, "a GPU program", s);
  upload(b->cols, cols, "a GPU program", s);
  upload(b->lookups, lks, "a GPU program", s);
  b->dev.ins = b->ins.get<ProgInstr>();
  b->dev.cols = b->cols.get<ProgColumn>();
  b->dev.lookups = b->lookups.get<ProgLookup>();
  b->dev.n = int(p.ins.size());
  return b;
}

// Joined rows: per bound table, the row id of each of the n rows.
struct Tuples {
  uint64_t n = 0;
  std::vector<gpu::DeviceBuffer> rows;
  gpu::DeviceBuffer ptrs;  // device array of nt row pointers (nullptr where unbound)
  void publish(cudaStream_t s) {
    std::vector<const uint32_t*> p(rows.size(), nullptr);
    for (size_t t = 0; t < rows.size(); t++) p[t] = rows[t].bytes() ? rows[t].get<uint32_t>() : nullptr;
    upload(ptrs, p, "row pointers", s);
  }
  const uint32_t* const* dev() const { return ptrs.get<const uint32_t* const>(); }
};

// Values of one program over some rows.
struct Column128 {
  gpu::DeviceBuffer values, nulls;
  const __int128* v() const { return values.get<const __int128>(); }
  const uint8_t* nl() const { return nulls.get<const uint8_t>(); }
};

class Run {
 public:
  Run(const plan::PhysicalPlan& plan, const GeneralPlan& gp)
      : plan_(plan), gp_(gp), q_(*plan.query), s_(stream().s), nt_(q_.tables.size()) {
    err_ = gpu::DeviceBuffer(sizeof(DevError), "error slot");
    gpu::check_cuda(cudaMemsetAsync(err_.get(), 0, sizeof(DevError), s_), "cudaMemset");
  }

  uint64_t bytes_read = 0;

  // Runs `p` over the rows of `t`; throws the CPU evaluator's error when a row raised
  // one: the first failing row is run again alone to name the instruction and value.
  void run(const BoundProgram& p, const Tuples& t, __int128* values, uint8_t* nulls, uint8_t* keep) {
    launch_program(p.dev, t.dev(), t.n, values, nulls, keep, err_.get<DevError>(), s_);
    DevError e;
    gpu::check_cuda(cudaMemcpyAsync(&e, err_.get(), sizeof(e), cudaMemcpyDeviceToHost, s_), "copy");
    gpu::check_cuda(cudaStreamSynchronize(s_), "GPU program");
    if (e.code == kErrNone) return;
    DevError report;
    report.report = 1;
    gpu::check_cuda(cudaMemcpyAsync(err_.get(), &report, sizeof(report), cudaMemcpyHostToDevice, s_), "copy");
    launch_program(p.dev, t.dev(), t.n, values, nulls, keep, err_.get<DevError>(), s_, ~e.first_row_inv);
    gpu::check_cuda(cudaMemcpyAsync(&e, err_.get(), sizeof(e), cudaMemcpyDeviceToHost, s_), "copy");
    gpu::check_cuda(cudaStreamSynchronize(s_), "GPU program");
    if (e.code == kErrNone) fail(ErrorKind::kInternal, "a GPU program error did not repeat on its row");
    const plan::Expr& x = *p.src->source[size_t(e.instr)];
    if (e.code == kErrDivZero) fail(ErrorKind::kExecution, "division by zero in {}", x.to_string());
    if (e.code == kErrCast) {
      // convert()'s message: the source type and value as the CPU's vector shows them.
      const __int128 v = (__int128(e.value_hi) << 64) | __int128(uint64_t(e.value_lo));
      const Type from = p.src->cast_from[size_t(e.instr)];
      Vector one(from, 1);
      if (one.kind == VectorKind::kDouble) {
        const int64_t bits = int64_t(v);
        std::memcpy(&one.doubles[0], &bits, 8);
      } else if (one.kind == VectorKind::kHuge) {
        one.huge[0] = v;
      } else {
        one.ints[0] = int64_t(v);
      }
      fail(ErrorKind::kExecution, "cannot convert {} '{}' to {}", from.to_string(), one.value_at(0).to_string(),
           x.type.to_string());
    }
    fail(ErrorKind::kExecution, "numeric overflow in {}", x.to_string());
  }

  Column128 eval(const CompiledProgram& p, const Tuples& t) {
    auto b = bind(p, s_, bytes_read);
    Column128 c;
    c.values = gpu::DeviceBuffer(std::max<uint64_t>(t.n, 1) * 16, "expression values");
    c.nulls = gpu::DeviceBuffer(std::max<uint64_t>(t.n, 1), "expression NULL flags");
    run(*b, t, c.values.get<__int128>(), c.nulls.get<uint8_t>(), nullptr);
    return c;
  }

  // Keeps the rows where `p` is TRUE (the order of the rows is kept).
  void filter(const CompiledProgram& p, Tuples& t) {
    if (t.n == 0) return;
    auto b = bind(p, s_, bytes_read);
    gpu::DeviceBuffer keep(t.n, "filter flags");
    run(*b, t, nullptr, nullptr, keep.get<uint8_t>());
    gpu::DeviceBuffer idx(t.n * 4, "selected rows");
    const uint64_t m = select_flagged(keep.get<uint8_t>(), t.n, idx.get<uint32_t>(), s_);
    if (m == t.n) return;
    for (auto& r : t.rows) {
      if (!r.bytes()) continue;
      gpu::DeviceBuffer out(std::max<uint64_t>(m, 1) * 4, "row ids");
      launch_gather_u32(r.get<uint32_t>(), idx.get<uint32_t>(), m, out.get<uint32_t>(), s_);
      r = std::move(out);
    }
    t.n = m;
    t.publish(s_);
  }

  Tuples scan(int table) {
    Tuples t;
    t.rows.resize(nt_);
    const uint64_t rows = q_.tables[size_t(table)].table->row_count();
    if (rows > kMaxRows) fail(ErrorKind::kNotImplemented, "not supported on the CUDA backend yet: tables of 2^31 rows or more");
    if (size_t(table) < plan_.index_scans.size() && plan_.index_scans[size_t(table)]) {
      // [gpuidx] index scan: the candidates from the table's GPU index (index_steps.h),
      // ascending; every filter below still runs on them.
      DeviceRowIds ids = index_scan_rows(*plan_.index_scans[size_t(table)], q_, s_);
      t.n = ids.n;
      t.rows[size_t(table)] = std::move(ids.rows);
    } else {
      t.n = rows;
      t.rows[size_t(table)] = gpu::DeviceBuffer(std::max<uint64_t>(rows, 1) * 4, "row ids");
      launch_iota(t.rows[size_t(table)].get<uint32_t>(), rows, 0, s_);
    }
    t.publish(s_);
    for (auto& f : gp_.filters[size_t(table)])
      if (!(plan_.index_scans.size() > size_t(table) && plan_.index_scans[size_t(table)] &&
            answered_by_index(f, *plan_.index_scans[size_t(table)])))  // [gpuidx]
        filter(f, t);
    return t;
  }

  const std::optional<plan::IndexJoin>& index_join_of(const GeneralJoin& j) const {
    return plan_.joins[size_t(&j - gp_.joins.data())].index_join;
  }

  // [gpuidx] Index-nested-loop join (index_steps.h): (probe, build row) pairs from the
  // build table's GPU index, then the build table's filters on the matched rows (it
  // was not scanned); the step's residuals follow in probe().
  void index_join(const GeneralJoin& j, const plan::IndexJoin& ij, Tuples& cur) {
    Column128 pk = eval(j.probe_keys[0], cur);
    DeviceJoinPairs p = index_join_pairs(ij, pk.v(), pk.nl(), cur.n, s_);
    for (auto& r : cur.rows) {
      if (!r.bytes()) continue;
      gpu::DeviceBuffer out(std::max<uint64_t>(p.n, 1) * 4, "row ids");
      launch_gather_u32(r.get<uint32_t>(), p.src.get<uint32_t>(), p.n, out.get<uint32_t>(), s_);
      r = std::move(out);
    }
    cur.rows[size_t(j.build_table)] = std::move(p.rows);
    cur.n = p.n;
    cur.publish(s_);
    for (auto& f : gp_.filters[size_t(j.build_table)]) filter(f, cur);
  }

  // A join step's build side, built before any probe (the CPU builds every side
  // first), with the CPU's estimate of its match fraction for ordering the steps.
  struct BuildSide {
    const GeneralJoin* j = nullptr;
    Tuples b;
    std::vector<Column128> bk;
    KeyColumns keys;
    gpu::DeviceBuffer valid, hash, pos;           // the sort-based join's
    std::unique_ptr<HashJoinTable> table;  // the hash join's (the default)
    double selectivity = 0;
    std::vector<const CompiledProgram*> residuals;
  };

  std::unique_ptr<BuildSide> build(const GeneralJoin& j) {
    auto side = std::make_unique<BuildSide>();
    side->j = &j;
    // [gpuidx] A step the access-path choice gave an index join: the build table is
    // not scanned (the index finds its rows); the CPU's build_join ranks it 1.5.
    if (index_join_of(j)) {
      side->selectivity = 1.5;
      return side;
    }
    side->b = scan(j.build_table);
    const uint64_t nb = side->b.n;
    if (j.build_keys.empty()) {
      side->selectivity = 2.0 + double(nb);  // cpu_executor build_join: expands, runs last
      return side;
    }
    if (j.build_keys.size() > size_t(kMaxKeyColumns))
      fail(ErrorKind::kNotImplemented, "not supported on the CUDA backend yet: joins on more than {} keys", kMaxKeyColumns);
    for (auto& k : j.build_keys) side->bk.push_back(eval(k, side->b));
    normalize_double_keys(j.build_keys, side->bk, nb);
    for (size_t k = 0; k < side->bk.size(); k++)
      side->keys.values[k] = side->bk[k].v(), side->keys.nulls[k] = side->bk[k].nl();
    side->keys.width = int(side->bk.size());
    uint64_t rows = 0, distinct = 0;
    if (!sort_join_selected()) {
      side->table = std::make_unique<HashJoinTable>(side->keys, nb, s_);
      rows = side->table->rows(), distinct = side->table->distinct();
    } else {
      sort_build(*side, rows, distinct);
    }
    // The CPU's JoinTable: build rows are those with non-NULL keys; unique when every
    // key has one row (then the fraction of the table kept, else 1 + rows per key).
    const double total = double(std::max<uint64_t>(1, q_.tables[size_t(j.build_table)].table->row_count()));
    side->selectivity = distinct == rows ? double(rows) / total
                                         : 1.0 + double(rows) / double(std::max<uint64_t>(1, distinct));
    return side;
  }

  // The sort-based build: key hashes radix-sorted with their positions, valid rows and
  // distinct keys counted over the sorted hashes.
  void sort_build(BuildSide& side, uint64_t& rows, uint64_t& distinct) {
    const uint64_t nb = side.b.n;
    const uint64_t n1 = std::max<uint64_t>(nb, 1);
    gpu::DeviceBuffer hash(n1 * 8, "join hashes"), pos(n1 * 4, "join positions");
    side.valid = gpu::DeviceBuffer(n1, "join keys");
    side.hash = gpu::DeviceBuffer(n1 * 8, "join hashes");
    side.pos = gpu::DeviceBuffer(n1 * 4, "join positions");
    launch_join_hash(side.keys, nb, hash.get<unsigned long long>(), side.valid.get<uint8_t>(), s_);
    launch_iota(pos.get<uint32_t>(), nb, 0, s_);
    sort_pairs_u64(hash.get<unsigned long long>(), side.hash.get<unsigned long long>(), pos.get<uint32_t>(),
                   side.pos.get<uint32_t>(), nb, s_);
    count_build_keys(side.keys, side.valid.get<uint8_t>(), side.hash.get<unsigned long long>(),
                     side.pos.get<uint32_t>(), nb, rows, distinct, s_);
  }

  // The shared join order (exec/core/join_order.h): the CPU's order gives the same
  // rows (and row order) at every step, so the same errors.
  std::vector<BuildSide*> order(std::vector<std::unique_ptr<BuildSide>>& sides) {
    std::vector<JoinOrderStep> steps;
    for (auto& side : sides) steps.push_back({side->j->build_table, side->j->depends_on, side->selectivity});
    const std::vector<size_t> idx = order_join_steps(steps, gp_.root);
    std::vector<BuildSide*> out;
    for (size_t i : idx) out.push_back(sides[i].get());
    for (auto* side : out) {
      const GeneralJoin& j = *side->j;
      for (size_t r = 0; r < j.residuals.size(); r++) {
        const size_t k = residual_step(j.residual_tables[r], steps, idx, gp_.root);
        if (k < out.size()) out[k]->residuals.push_back(&j.residuals[r]);
      }
    }
    return out;
  }


  // DOUBLE join keys compare as the CPU's do: -0.0 = +0.0, every NaN one value.
  void normalize_double_keys(const std::vector<CompiledProgram>& keys, std::vector<Column128>& cols, uint64_t n) {
    for (size_t k = 0; k < keys.size(); k++)
      if (keys[k].kind == VectorKind::kDouble) launch_normalize_doubles(cols[k].values.get<__int128>(), cols[k].nl(), n, s_);
  }

  // Every probe row with every build row, probe-major (cpu_executor's probe_join).
  void cross(BuildSide& side, Tuples& cur) {
    const uint64_t nb = side.b.n, n = cur.n;
    const unsigned __int128 m128 = (unsigned __int128)n * nb;
    if (m128 > kMaxRows)
      fail(ErrorKind::kNotImplemented, "not supported on the CUDA backend yet: a join producing 2^31 rows or more");
    const uint64_t m = uint64_t(m128);
    for (auto& r : cur.rows) {
      if (!r.bytes()) continue;
      gpu::DeviceBuffer out(std::max<uint64_t>(m, 1) * 4, "row ids");
      launch_cross_probe(r.get<uint32_t>(), m, nb, out.get<uint32_t>(), s_);
      r = std::move(out);
    }
    gpu::DeviceBuffer rows(std::max<uint64_t>(m, 1) * 4, "row ids");
    launch_cross_build(side.b.rows[size_t(side.j->build_table)].get<uint32_t>(), m, nb, rows.get<uint32_t>(), s_);
    cur.rows[size_t(side.j->build_table)] = std::move(rows);
    cur.n = m;
    cur.publish(s_);
  }

  void probe(BuildSide& side, Tuples& cur) {
    const GeneralJoin& j = *side.j;
    if (const auto& ij = index_join_of(j)) {
      index_join(j, *ij, cur);
    } else if (j.build_keys.empty()) {
      cross(side, cur);
    } else {
      std::vector<Column128> pk;
      KeyColumns pkeys;
      for (auto& k : j.probe_keys) pk.push_back(eval(k, cur));
      normalize_double_keys(j.build_keys, pk, cur.n);
      for (size_t k = 0; k < pk.size(); k++) pkeys.values[k] = pk[k].v(), pkeys.nulls[k] = pk[k].nl();
      pkeys.width = int(pk.size());
      JoinBuild jb;
      jb.keys = side.keys;
      jb.valid = side.valid.get<uint8_t>();
      jb.hash = side.hash.get<unsigned long long>();
      jb.pos = side.pos.get<uint32_t>();
      jb.rows = side.b.rows[size_t(j.build_table)].get<uint32_t>();
      jb.n = side.b.n;
      const uint64_t n = cur.n;
      gpu::DeviceBuffer count, offsets;
      HashJoinProbe hp;
      uint64_t m = 0;
      if (side.table) {
        hp = side.table->count(pkeys, n, s_);
        m = hp.pairs;
      } else {
        count = gpu::DeviceBuffer(std::max<uint64_t>(n, 1) * 8, "join counts");
        offsets = gpu::DeviceBuffer(std::max<uint64_t>(n, 1) * 8, "join offsets");
        launch_join_count(pkeys, n, jb, count.get<unsigned long long>(), s_);
        m = exclusive_sum_u64(count.get<unsigned long long>(), offsets.get<unsigned long long>(), n, s_);
      }
      if (m > kMaxRows)
        fail(ErrorKind::kNotImplemented, "not supported on the CUDA backend yet: a join producing 2^31 rows or more");
      gpu::DeviceBuffer src(std::max<uint64_t>(m, 1) * 4, "join pairs"), rows(std::max<uint64_t>(m, 1) * 4, "row ids");
      if (side.table)
        side.table->write(hp, jb.rows, src.get<uint32_t>(), rows.get<uint32_t>(), s_);
      else
        launch_join_write(pkeys, n, jb, offsets.get<unsigned long long>(), src.get<uint32_t>(), rows.get<uint32_t>(), s_);
      for (auto& r : cur.rows) {
        if (!r.bytes()) continue;
        gpu::DeviceBuffer out(std::max<uint64_t>(m, 1) * 4, "row ids");
        launch_gather_u32(r.get<uint32_t>(), src.get<uint32_t>(), m, out.get<uint32_t>(), s_);
        r = std::move(out);
      }
      cur.rows[size_t(j.build_table)] = std::move(rows);
      cur.n = m;
      cur.publish(s_);
    }
    for (auto* r : side.residuals) filter(*r, cur);
  }

  // Host copies of program values.
  void to_host(const Column128& c, uint64_t n, std::vector<__int128>& v, std::vector<uint8_t>& nl) {
    v.resize(n);
    nl.resize(n);
    if (!n) return;
    gpu::check_cuda(cudaMemcpyAsync(v.data(), c.values.get(), n * 16, cudaMemcpyDeviceToHost, s_), "copy");
    gpu::check_cuda(cudaMemcpyAsync(nl.data(), c.nulls.get(), n, cudaMemcpyDeviceToHost, s_), "copy");
    gpu::check_cuda(cudaStreamSynchronize(s_), "copy");
  }

  static Vector to_vector(const CompiledProgram& p, const std::vector<__int128>& v, const std::vector<uint8_t>& nl,
                          StringInterner& interner) {
    const size_t n = v.size();
    Vector r(p.type, n);
    switch (p.kind) {
      case VectorKind::kCode:
        r.kind = VectorKind::kCode;
        r.strings.clear();
        r.ints.resize(n);
        r.dict = p.dict;
        for (size_t i = 0; i < n; i++) r.ints[i] = int64_t(v[i]);
        break;
      case VectorKind::kHuge:
        r.huge.assign(v.begin(), v.end());
        break;
      case VectorKind::kDouble:
        for (size_t i = 0; i < n; i++) {
          const int64_t bits = int64_t(v[i]);
          std::memcpy(&r.doubles[i], &bits, 8);
        }
        break;
      default:
        for (size_t i = 0; i < n; i++) r.ints[i] = int64_t(v[i]);
        break;
    }
    for (size_t i = 0; i < n; i++)
      if (nl[i]) r.set_null(i);
    if (p.kind == VectorKind::kCode && p.domain && p.dict == p.domain.get()) detach(r, interner);
    return r;
  }

  // Codes of a program's own string domain as strings viewing the result's interner
  // (the domain is released with the program, the result lives on).
  static void detach(Vector& r, StringInterner& interner) {
    std::vector<std::string_view> views(r.size);
    for (size_t i = 0; i < r.size; i++)
      if (!r.is_null(i)) views[i] = interner.get(interner.intern(r.dict->at(uint32_t(r.ints[i]))));
    r.kind = VectorKind::kString;
    r.strings = std::move(views);
    r.ints.clear();
    r.dict = nullptr;
  }

  // Result columns still holding domain codes (MIN/MAX over string expressions).
  void detach_domains(ResultTable& result) const {
    std::vector<const Dictionary*> owned;
    auto add = [&](const CompiledProgram& p) {
      if (p.domain) owned.push_back(p.domain.get());
    };
    for (auto& a : gp_.aggs)
      if (a.has_arg) add(a.arg);
    for (auto& k : gp_.group_keys) add(k);
    for (auto& o : gp_.outputs) add(o);
    for (auto& c : result.columns)
      if (c.kind == VectorKind::kCode && std::find(owned.begin(), owned.end(), c.dict) != owned.end())
        detach(c, *result.interner);
  }

  void aggregate(const Tuples& cur, ResultTable& result) {
    const uint64_t n = cur.n;
    const size_t G = gp_.group_keys.size();
    std::vector<Column128> keys;
    for (auto& k : gp_.group_keys) {
      keys.push_back(eval(k, cur));
      // DOUBLE keys as the CPU's key encoder: -0.0 and +0.0 one group, NaNs one group.
      if (k.kind == VectorKind::kDouble) launch_normalize_doubles(keys.back().values.get<__int128>(), keys.back().nl(), n, s_);
    }
    uint64_t groups = G == 0 ? 1 : 0;
    GroupIds ids;
    if (G > 0 && n > 0) {
      if (G > size_t(kMaxKeyColumns))
        fail(ErrorKind::kNotImplemented, "not supported on the CUDA backend yet: more than {} GROUP BY keys", kMaxKeyColumns);
      std::vector<GroupKeyColumn> kcols(G);
      for (size_t k = 0; k < G; k++) {
        kcols[k].values = keys[k].v();
        kcols[k].nulls = keys[k].nl();
        kcols[k].huge = gp_.group_keys[k].kind == VectorKind::kHuge;
        kcols[k].nullable = may_be_null(*q_.group_keys[k]);
      }
      if (hash_grouping()) {
        // Rows in group order only for the aggregates that walk groups contiguously.
        bool need_order = false;
        for (auto& ga : gp_.aggs)
          if (ga.has_arg && needs_group_order(ga.func, ga.distinct, ga.arg.kind)) need_order = true;
        ids = hash_group_ids(kcols, n, need_order, s_);
      } else {
        ids = sort_group_ids(kcols, n, s_);
      }
      groups = ids.groups;
    }
    const uint32_t* gids = G == 0 ? nullptr : ids.gid.get<uint32_t>();

    // Group keys at each group's first row.
    std::vector<Vector> key_vectors;
    for (size_t k = 0; k < G; k++) {
      Column128 g;
      g.values = gpu::DeviceBuffer(std::max<uint64_t>(groups, 1) * 16, "group keys");
      g.nulls = gpu::DeviceBuffer(std::max<uint64_t>(groups, 1), "group keys");
      launch_gather_i128(keys[k].v(), keys[k].nl(), ids.first.get<uint32_t>(), groups, g.values.get<__int128>(),
                         g.nulls.get<uint8_t>(), s_);
      gpu::check_cuda(cudaStreamSynchronize(s_), "group keys");
      std::vector<__int128> v;
      std::vector<uint8_t> nl;
      to_host(g, groups, v, nl);
      key_vectors.push_back(to_vector(gp_.group_keys[k], v, nl, *result.interner));
    }

    // Per aggregate: the rows in group order (each group's rows contiguous) where one
    // needs them (needs_group_order), per group results loaded into the CPU's
    // AggregateStates, which finalizes them as the CPU does.
    GroupLayout layout;
    layout.n = n;
    layout.groups = groups;
    layout.gid = gids;
    layout.order = G == 0 ? nullptr : ids.order.get<uint32_t>();
    AggregateStates states(&q_.aggregates, result.interner.get());
    states.resize(groups);
    for (size_t a = 0; a < gp_.aggs.size(); a++) {
      const GeneralAgg& ga = gp_.aggs[a];
      if (!ga.has_arg) {
        GroupAggregateResult r = aggregate_group_values(AggFunc::kCountStar, false, VectorKind::kInt, layout, nullptr,
                                                        nullptr, s_);
        states.load(a, std::move(r.count), {}, VectorKind::kInt, nullptr, Type::bigint());
        continue;
      }
      Column128 arg = eval(ga.arg, cur);
      GroupAggregateResult r = aggregate_group_values(ga.func, ga.distinct, ga.arg.kind, layout, arg.v(), arg.nl(), s_);
      if (r.is_double)
        states.load_doubles(a, std::move(r.count), std::move(r.doubles), ga.arg.type);
      else
        states.load(a, std::move(r.count), std::move(r.value), ga.arg.kind, ga.arg.dict, ga.arg.type,
                    std::move(r.wraps));
    }

    // Group order: ascending encoded key words, which is the CPU's order whenever it
    // aggregates into a direct array (packed keys); elsewhere its order is its hash
    // table's, and results are compared as sets or through ORDER BY.
    std::vector<uint32_t> order(groups);
    std::iota(order.begin(), order.end(), 0);
    if (G > 0 && groups > 1) {
      std::vector<KeySpec> specs;
      for (auto& g : q_.group_keys) specs.push_back(group_key_spec(*g, q_));
      KeyEncoder enc(std::move(specs), result.interner.get());
      std::vector<int64_t> words;
      enc.encode(key_vectors, groups, words);
      const size_t w = size_t(enc.width());
      std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
        return std::lexicographical_compare(words.begin() + long(a * w), words.begin() + long(a * w + w),
                                            words.begin() + long(b * w), words.begin() + long(b * w + w));
      });
      for (auto& kv : key_vectors) kv = kv.select(order.data(), order.size());
    }
    std::vector<Vector> agg_vectors;
    for (size_t a = 0; a < gp_.aggs.size(); a++) agg_vectors.push_back(states.finalize(a, order));
    size_t rows = groups;
    std::vector<Vector> outputs = finish_aggregation(q_, std::move(key_vectors), std::move(agg_vectors), rows);
    finish_rows(q_, std::move(outputs), rows, result);
  }

  // ORDER BY (+ OFFSET/LIMIT) on the device for large non-DISTINCT results whose keys
  // all have a radix encoding in the CPU comparator's order: integers, decimals,
  // dates, dictionary codes, HUGEINT, DOUBLE without NaNs (checked here). Elsewhere
  // (small results, DISTINCT, string-constant CASE keys, NaNs) the host finisher.
  bool sorts_on_device(uint64_t n) const {
    return !q_.order_by.empty() && !q_.distinct && n >= kDeviceSortMinRows;
  }

  // Per ORDER BY item, its column among gp_.outputs (as the CPU: SELECT columns, then
  // one per ORDER BY item not naming an output).
  std::vector<size_t> order_columns() const {
    std::vector<size_t> r;
    size_t h = 0;
    for (auto& o : q_.order_by)
      r.push_back(o.expr->kind == ExprKind::kOutputRef ? size_t(o.expr->ref_index) : q_.select.size() + h++);
    return r;
  }

  // Stable LSD radix passes over a row permutation, last key first; per key its value
  // word(s), then its NULL flag. Ties keep the input order, as the CPU's comparator
  // (row index last). Then only rows [offset, offset + limit) come back. False when a
  // DOUBLE key holds a NaN (nothing copied back then).
  bool sort_on_device(const std::vector<Column128>& cols, uint64_t n, ResultTable& result) {
    const std::vector<size_t> oc = order_columns();
    {
      gpu::DeviceBuffer flag(sizeof(int), "NaN flag");
      gpu::check_cuda(cudaMemsetAsync(flag.get(), 0, sizeof(int), s_), "cudaMemset");
      bool any_double = false;
      for (size_t i : oc)
        if (gp_.outputs[i].kind == VectorKind::kDouble) {
          launch_any_nan(cols[i].v(), cols[i].nl(), n, flag.get<int>(), s_);
          any_double = true;
        }
      if (any_double) {
        int h = 0;
        gpu::check_cuda(cudaMemcpyAsync(&h, flag.get(), sizeof(int), cudaMemcpyDeviceToHost, s_), "copy");
        gpu::check_cuda(cudaStreamSynchronize(s_), "NaN check");
        if (h) return false;
      }
    }
    gpu::DeviceBuffer perm(n * 4, "sort order"), perm2(n * 4, "sort order");
    gpu::DeviceBuffer k1(n * 8, "sort keys"), k2(n * 8, "sort keys"), n1(n, "sort keys"), n2(n, "sort keys");
    launch_iota(perm.get<uint32_t>(), n, 0, s_);
    auto pass64 = [&](const Column128& c, int mode, bool desc) {
      launch_order_key(c.v(), c.nl(), perm.get<uint32_t>(), n, mode, desc, k1.get<unsigned long long>(), s_);
      sort_pairs_u64(k1.get<unsigned long long>(), k2.get<unsigned long long>(), perm.get<uint32_t>(),
                     perm2.get<uint32_t>(), n, s_);
      std::swap(perm, perm2);
    };
    for (size_t k = oc.size(); k-- > 0;) {
      const Column128& c = cols[oc[k]];
      const bool desc = q_.order_by[k].descending;
      switch (gp_.outputs[oc[k]].kind) {
        case VectorKind::kHuge:
          pass64(c, 1, desc);
          pass64(c, 2, desc);
          break;
        case VectorKind::kDouble: pass64(c, 3, desc); break;
        default: pass64(c, 0, desc); break;
      }
      launch_order_null(c.nl(), perm.get<uint32_t>(), n, desc, n1.get<uint8_t>(), s_);
      sort_pairs_u8(n1.get<uint8_t>(), n2.get<uint8_t>(), perm.get<uint32_t>(), perm2.get<uint32_t>(), n, s_);
      std::swap(perm, perm2);
    }
    const uint64_t from = std::min<uint64_t>(uint64_t(q_.offset), n);
    const uint64_t to = q_.limit >= 0 ? std::min<uint64_t>(n, from + uint64_t(q_.limit)) : n;
    const uint64_t m = to - from;
    const uint32_t* window = perm.get<uint32_t>() + from;
    for (size_t i = 0; i < q_.select.size(); i++) {
      Column128 g;
      g.values = gpu::DeviceBuffer(std::max<uint64_t>(m, 1) * 16, "sorted output");
      g.nulls = gpu::DeviceBuffer(std::max<uint64_t>(m, 1), "sorted output");
      launch_gather_i128(cols[i].v(), cols[i].nl(), window, m, g.values.get<__int128>(), g.nulls.get<uint8_t>(), s_);
      std::vector<__int128> v;
      std::vector<uint8_t> nl;
      to_host(g, m, v, nl);
      result.columns.push_back(to_vector(gp_.outputs[i], v, nl, *result.interner));
    }
    result.rows = m;
    for (auto& c : result.columns) c.size = m;
    device_sorts().fetch_add(1);
    return true;
  }

  void project(const Tuples& cur, ResultTable& result) {
    const uint64_t n = cur.n;
    std::vector<Vector> outputs;
    if (sorts_on_device(n)) {
      // All columns stay on the device for the sort and the gather.
      std::vector<Column128> cols;
      for (auto& p : gp_.outputs) cols.push_back(eval(p, cur));
      if (sort_on_device(cols, n, result)) return;
      for (size_t i = 0; i < cols.size(); i++) {
        std::vector<__int128> v;
        std::vector<uint8_t> nl;
        to_host(cols[i], n, v, nl);
        outputs.push_back(to_vector(gp_.outputs[i], v, nl, *result.interner));
      }
    } else {
      for (auto& p : gp_.outputs) {
        Column128 c = eval(p, cur);
        std::vector<__int128> v;
        std::vector<uint8_t> nl;
        to_host(c, n, v, nl);
        outputs.push_back(to_vector(p, v, nl, *result.interner));
      }
    }
    // As the CPU: SELECT columns, then one column per ORDER BY item.
    if (!q_.order_by.empty()) {
      std::vector<Vector> keys;
      for (size_t i : order_columns()) keys.push_back(outputs[i]);
      outputs.resize(q_.select.size());
      for (auto& k : keys) outputs.push_back(std::move(k));
    }
    finish_rows(q_, std::move(outputs), n, result);
  }

  ResultTable execute() {
    ResultTable result;
    result.interner = std::make_shared<StringInterner>();
    result.names = q_.output_names;
    Stream& st = stream();
    Timer timer;
    gpu::check_cuda(cudaEventRecord(st.start, s_), "cudaEventRecord");

    // Constant conjuncts decide once whether anything can pass (as the CPU).
    const bool empty = !constant_conjuncts_pass(plan_);
    Tuples cur;
    if (empty) {
      cur.rows.resize(nt_);
      cur.publish(s_);
    } else {
      std::vector<std::unique_ptr<BuildSide>> sides;
      for (auto& j : gp_.joins) sides.push_back(build(j));
      cur = scan(gp_.root);
      for (auto* side : order(sides)) {
        // The CPU stops probing a batch once no row is left (later residuals never run).
        if (cur.n == 0) {
          cur.rows[size_t(side->j->build_table)] = gpu::DeviceBuffer(4, "row ids");
          continue;
        }
        probe(*side, cur);
      }
      cur.publish(s_);
    }
    if (q_.is_aggregate)
      aggregate(cur, result);
    else
      project(cur, result);
    detach_domains(result);
    gpu::check_cuda(cudaEventRecord(st.stop, s_), "cudaEventRecord");
    gpu::check_cuda(cudaStreamSynchronize(s_), "query");
    float ms = 0;
    gpu::check_cuda(cudaEventElapsedTime(&ms, st.start, st.stop), "cudaEventElapsedTime");
    result.device_ms = ms;
    result.device_bytes = bytes_read;
    result.profile = fmt::format("cuda (general path): device {:.3f} ms, host wall {:.3f} ms, {} joined rows", ms,
                                 timer.elapsed_ms(), cur.n);
    return result;
  }

 private:
  const plan::PhysicalPlan& plan_;
  const GeneralPlan& gp_;
  const plan::LogicalQuery& q_;
  cudaStream_t s_;
  size_t nt_;
  gpu::DeviceBuffer err_;
};

}  // namespace

ResultTable GeneralExecutor::execute(const plan::PhysicalPlan& plan, const GeneralPlan& gp) {
  Run run(plan, gp);
  return run.execute();
}

}  // namespace raydb::exec::cuda::general

namespace raydb::exec::cuda {
uint64_t device_sorted_queries() { return general::device_sorts().load(); }
}  // namespace raydb::exec::cuda
