#include "exec/cuda/general/program_runner.h"

#include <cstring>

#include "common/error.h"
#include "exec/core/vector.h"
#include "exec/cuda/general/general_kernels.h"
#include "exec/cuda/general/scan_terms.h"
#include "gpu/stream_wait.h"

namespace raydb::exec::cuda::general {

ProgramRunner::ProgramRunner(cudaStream_t s) : s_(s) {
  err_ = gpu::DeviceBuffer(sizeof(DevError), "error slot");
  gpu::check_cuda(cudaMemsetAsync(err_.get(), 0, sizeof(DevError), s_), "cudaMemset");
}

void ProgramRunner::run(const BoundProgram& p, const Tuples& t, __int128* values, uint8_t* nulls, uint8_t* keep) {
  run_checked(
      [&](uint64_t only) { launch_program(p.dev, t.dev(), t.n, values, nulls, keep, err_.get<DevError>(), s_, only); },
      [&](uint64_t) -> const BoundProgram& { return p; });
}

void ProgramRunner::run_checked(const std::function<void(uint64_t)>& launch,
                                const std::function<const BoundProgram&(uint64_t key)>& failed) {
  launch(~0ull);
  DevError e;
  gpu::check_cuda(cudaMemcpyAsync(&e, err_.get(), sizeof(e), cudaMemcpyDeviceToHost, s_), "copy");
  gpu::wait_cancellable(s_, "GPU program");
  if (e.code == kErrNone) return;
  const uint64_t key = ~e.first_row_inv;
  DevError report;
  report.report = 1;
  gpu::check_cuda(cudaMemcpyAsync(err_.get(), &report, sizeof(report), cudaMemcpyHostToDevice, s_), "copy");
  launch(key);
  gpu::check_cuda(cudaMemcpyAsync(&e, err_.get(), sizeof(e), cudaMemcpyDeviceToHost, s_), "copy");
  gpu::check_cuda(cudaStreamSynchronize(s_), "GPU program");
  if (e.code == kErrNone) fail(ErrorKind::kInternal, "a GPU program error did not repeat on its row");
  raise(failed(key), e);
}

void ProgramRunner::raise(const BoundProgram& p, const DevError& e) const {
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

Column128 ProgramRunner::eval(const CompiledProgram& p, const Tuples& t) {
  auto b = bind(p, s_, bytes_read_);
  Column128 c;
  c.values = gpu::DeviceBuffer(std::max<uint64_t>(t.n, 1) * 16, "expression values");
  c.nulls = gpu::DeviceBuffer(std::max<uint64_t>(t.n, 1), "expression NULL flags");
  run(*b, t, c.values.get<__int128>(), c.nulls.get<uint8_t>(), nullptr);
  return c;
}

void ProgramRunner::filter(const CompiledProgram& p, Tuples& t) {
  if (t.n == 0) return;
  auto b = bind(p, s_, bytes_read_);
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

uint64_t ProgramRunner::filter_scan(const std::vector<const CompiledProgram*>& ps, const ScanRows& rows, uint64_t n,
                                    gpu::DeviceBuffer& out) {
  std::vector<std::unique_ptr<BoundProgram>> bound;
  std::vector<DevProgram> dev;
  for (const CompiledProgram* p : ps) {
    bound.push_back(bind(*p, s_, bytes_read_));
    dev.push_back(bound.back()->dev);
  }
  gpu::DeviceBuffer progs;
  upload(progs, dev, "GPU programs", s_);
  gpu::DeviceBuffer keep(std::max<uint64_t>(n, 1), "filter flags");
  // An error's key is (conjunct << 32) | position (scan_kernels.h): rerun that position.
  run_checked(
      [&](uint64_t key) {
        launch_scan_filter(progs.get<DevProgram>(), int(dev.size()), rows, n, keep.get<uint8_t>(), err_.get<DevError>(),
                           s_, key == ~0ull ? key : (key & 0xFFFFFFFFull));
      },
      [&](uint64_t key) -> const BoundProgram& {
        if ((key >> 32) >= bound.size()) fail(ErrorKind::kInternal, "a GPU scan error names no filter");
        return *bound[size_t(key >> 32)];
      });
  return select_into(rows, keep.get<uint8_t>(), n, out);
}

uint64_t ProgramRunner::select_into(const ScanRows& rows, const uint8_t* keep, uint64_t n, gpu::DeviceBuffer& out) {
  out = gpu::DeviceBuffer(std::max<uint64_t>(n, 1) * 4, "row ids");
  const uint64_t m = select_scan_rows(rows, keep, n, out.get<uint32_t>(), s_);
  if (m < n / 2) {
    // A selective scan keeps only its rows' room for the rest of the query.
    gpu::DeviceBuffer exact(std::max<uint64_t>(m, 1) * 4, "row ids");
    if (m) gpu::check_cuda(cudaMemcpyAsync(exact.get(), out.get(), m * 4, cudaMemcpyDeviceToDevice, s_), "copy");
    out = std::move(exact);
  }
  return m;
}

namespace {

// A term's columns and set as the bound program reads them; a short IN list's values
// uploaded into `owned`.
ScanTerm bind_term(const TermShape& sh, const BoundProgram& b, std::vector<gpu::DeviceBuffer>& owned, cudaStream_t s) {
  ScanTerm t;
  t.kind = sh.kind;
  t.a = b.host_cols[size_t(sh.a)];
  if (sh.kind == kTermColumns) t.b = b.host_cols[size_t(sh.b)];
  if (sh.own_values) {
    owned.emplace_back();
    upload(owned.back(), sh.values, "scan term values", s);
    t.set.values = owned.back().get<int64_t>();
    t.set.size = sh.values.size();
  } else if (sh.kind == kTermBitmap || sh.kind == kTermSet) {
    t.set = b.host_lookups[size_t(sh.slot)];
  }
  t.sub = sh.sub;
  t.negate = sh.negate;
  t.keep_found = sh.keep_found;
  t.keep_absent = sh.keep_absent;
  t.lo = sh.lo;
  t.hi = sh.hi;
  t.fa = sh.fa;
  t.fb = sh.fb;
  return t;
}

}  // namespace

uint64_t ProgramRunner::filter_scan_terms(const std::vector<TermConjunct>& cs, const ScanRows& rows, uint64_t n,
                                          gpu::DeviceBuffer& out) {
  std::vector<std::unique_ptr<BoundProgram>> bound;  // holds the columns and sets until the pass is done
  std::vector<ScanTerm> terms;
  std::vector<gpu::DeviceBuffer> owned;
  for (const TermConjunct& c : cs) {
    bound.push_back(bind(*c.program, s_, bytes_read_));
    for (const TermShape& sh : c.terms) terms.push_back(bind_term(sh, *bound.back(), owned, s_));
  }
  gpu::DeviceBuffer dev_terms;
  upload(dev_terms, terms, "scan terms", s_);
  gpu::DeviceBuffer keep(std::max<uint64_t>(n, 1), "filter flags");
  launch_scan_terms(dev_terms.get<ScanTerm>(), int(terms.size()), rows, n, keep.get<uint8_t>(), s_);
  return select_into(rows, keep.get<uint8_t>(), n, out);  // synchronizes: `bound` may go
}

}  // namespace raydb::exec::cuda::general
