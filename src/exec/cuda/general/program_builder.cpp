#include "exec/cuda/general/program_builder.h"

namespace raydb::exec::cuda::general {

bool ProgramBuilder::reject(std::string reason) {
  if (why_.empty()) why_ = std::move(reason);
  return false;
}

std::nullopt_t ProgramBuilder::fail(std::string reason) {
  reject(std::move(reason));
  return std::nullopt;
}

void ProgramBuilder::push(const plan::Expr& src, ProgInstr in, int pops, int pushes, Type cast_from) {
  p_.ins.push_back(in);
  p_.source.push_back(&src);
  p_.cast_from.push_back(cast_from);
  depth_ += pushes - pops;
}

void ProgramBuilder::push_logic(const plan::Expr& src, ProgOp op, int pops) {
  ProgInstr in;
  in.op = op;
  push(src, in, pops, 1);
}

bool ProgramBuilder::check_depth() {
  return depth_ + 1 <= kStackDepth ? true : reject("an expression nested too deeply for the GPU interpreter");
}

int ProgramBuilder::column_slot(const plan::Expr& e) {
  const ColumnPtr& c = q_.tables[size_t(e.table_index)].table->column_ptr(size_t(e.column_index));
  for (size_t i = 0; i < p_.columns.size(); i++)
    if (p_.columns[i].column == c && p_.columns[i].table == e.table_index) return int(i);
  p_.columns.push_back({e.table_index, c});
  p_.tables |= uint64_t(1) << e.table_index;
  return int(p_.columns.size() - 1);
}

}  // namespace raydb::exec::cuda::general
