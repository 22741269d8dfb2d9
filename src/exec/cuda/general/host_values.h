#pragma once
// Program values brought back to the host as the CPU's vectors. String values of a
// program's own merged domain (string_domain.h) are detached into the result's
// interner, since the domain is released with the program while the result lives on.
#include <cuda_runtime.h>

#include <vector>

#include "common/default_init_allocator.h"
#include "exec/core/result_table.h"
#include "exec/cuda/general/general_plan.h"
#include "exec/cuda/general/tuples.h"

namespace raydb::exec::cuda::general {

// Host copies of the first n values (synchronizes the stream).
void to_host(const Column128& c, uint64_t n, FillVector<__int128>& v, FillVector<uint8_t>& nl, cudaStream_t s);
Vector to_vector(const CompiledProgram& p, const FillVector<__int128>& v, const FillVector<uint8_t>& nl,
                 StringInterner& interner);
// to_host, then to_vector.
Vector host_vector(const CompiledProgram& p, const Column128& c, uint64_t n, StringInterner& interner, cudaStream_t s);
// Result columns still holding domain codes (MIN/MAX over string expressions).
void detach_domains(const GeneralPlan& gp, ResultTable& result);

}  // namespace raydb::exec::cuda::general
