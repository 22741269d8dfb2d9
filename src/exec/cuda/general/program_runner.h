#pragma once
// Runs compiled programs over joined rows on the query's stream: values of an
// expression, or a filter that keeps the rows where it is TRUE. A row that raises an
// error (division by zero, overflow, a bad cast) throws the CPU evaluator's message:
// the first failing row is run again alone to name the instruction and value.
#include <cuda_runtime.h>

#include <cstdint>
#include <functional>
#include <vector>

#include "exec/cuda/general/bound_program.h"
#include "exec/cuda/general/scan_kernels.h"
#include "exec/cuda/general/scan_terms.h"
#include "exec/cuda/general/tuples.h"

namespace raydb::exec::cuda::general {

class ProgramRunner {
 public:
  explicit ProgramRunner(cudaStream_t s);

  Column128 eval(const CompiledProgram& p, const Tuples& t);
  // Keeps the rows where `p` is TRUE (the order of the rows is kept).
  void filter(const CompiledProgram& p, Tuples& t);
  // A table scan's filters in one pass (scan_kernels.h): the ids of the rows of `rows`
  // (n of them) where every program of `ps` is TRUE, run per row in order, into `out`
  // (ascending); returns their number.
  uint64_t filter_scan(const std::vector<const CompiledProgram*>& ps, const ScanRows& rows, uint64_t n,
                       gpu::DeviceBuffer& out);
  // The same for conjuncts that are ANDs of scan terms (scan_terms.h), tested straight
  // from the columns; nothing can raise.
  uint64_t filter_scan_terms(const std::vector<TermConjunct>& cs, const ScanRows& rows, uint64_t n,
                             gpu::DeviceBuffer& out);
  // Bytes of columns the programs read so far.
  uint64_t bytes_read() const { return bytes_read_; }
  // Bytes of columns a step read in place of a program (a probe key, hash_join.h).
  void add_bytes_read(uint64_t bytes) { bytes_read_ += bytes; }

 private:
  // The ids of the positions with keep set into `out` (trimmed when selective); synchronizes.
  uint64_t select_into(const ScanRows& rows, const uint8_t* keep, uint64_t n, gpu::DeviceBuffer& out);

  void run(const BoundProgram& p, const Tuples& t, __int128* values, uint8_t* nulls, uint8_t* keep);
  // Runs `launch(~0)` (every row); on an error, `launch(key)` again for the first
  // failing key alone and raises the error of program `failed(key)`.
  void run_checked(const std::function<void(uint64_t)>& launch,
                   const std::function<const BoundProgram&(uint64_t key)>& failed);
  [[noreturn]] void raise(const BoundProgram& p, const DevError& e) const;

  cudaStream_t s_;
  gpu::DeviceBuffer err_;  // the device's error slot
  uint64_t bytes_read_ = 0;
};

}  // namespace raydb::exec::cuda::general
