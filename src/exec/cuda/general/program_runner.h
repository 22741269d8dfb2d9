#pragma once
// Runs compiled programs over joined rows on the query's stream: values of an
// expression, or a filter that keeps the rows where it is TRUE. A row that raises an
// error (division by zero, overflow, a bad cast) throws the CPU evaluator's message:
// the first failing row is run again alone to name the instruction and value.
#include <cuda_runtime.h>

#include <cstdint>

#include "exec/cuda/general/bound_program.h"
#include "exec/cuda/general/tuples.h"

namespace raydb::exec::cuda::general {

class ProgramRunner {
 public:
  explicit ProgramRunner(cudaStream_t s);

  Column128 eval(const CompiledProgram& p, const Tuples& t);
  // Keeps the rows where `p` is TRUE (the order of the rows is kept).
  void filter(const CompiledProgram& p, Tuples& t);
  // Bytes of columns the programs read so far.
  uint64_t bytes_read() const { return bytes_read_; }
  // Bytes of columns a step read in place of a program (a probe key, hash_join.h).
  void add_bytes_read(uint64_t bytes) { bytes_read_ += bytes; }

 private:
  void run(const BoundProgram& p, const Tuples& t, __int128* values, uint8_t* nulls, uint8_t* keep);
  [[noreturn]] void raise(const BoundProgram& p, const DevError& e) const;

  cudaStream_t s_;
  gpu::DeviceBuffer err_;  // the device's error slot
  uint64_t bytes_read_ = 0;
};

}  // namespace raydb::exec::cuda::general
