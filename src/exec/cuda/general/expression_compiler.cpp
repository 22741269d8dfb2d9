#include "exec/cuda/general/expression_compiler.h"

#include "exec/cuda/general/expression_emitter.h"
#include "exec/cuda/general/string_domain.h"

namespace raydb::exec::cuda::general {

std::variant<CompiledProgram, std::string> ExpressionCompiler::compile(const plan::Expr& e) const {
  CompiledProgram p;
  ExpressionEmitter em(q_, p);
  auto o = em.emit(e);
  if (!o) return em.why().empty() ? std::string("expression ") + e.to_string() : em.why();
  const Dictionary* domain = em.finish();
  p.type = o->type.id == TypeId::kNull ? e.type : o->type;
  if (e.type.id != TypeId::kNull && !(p.type == e.type) && o->kind != VectorKind::kCode) p.type = e.type;
  p.kind = o->kind;
  p.dict = nullptr;
  if (is_string(*o)) {
    p.kind = VectorKind::kCode;
    p.dict = domain;
    if (!domain) {
      // Only NULL strings: an empty domain keeps the codes' dictionary defined.
      p.domain = StringDomain::merge({}, {});
      p.dict = p.domain.get();
    }
  }
  return p;
}

std::variant<CompiledProgram, std::string> ExpressionCompiler::compile_join_probe(const plan::Expr& e,
                                                                                   const Dictionary* build_dict) const {
  auto r = compile(e);
  if (!build_dict || std::holds_alternative<std::string>(r)) return r;
  CompiledProgram& p = std::get<CompiledProgram>(r);
  if (p.kind != VectorKind::kCode) return std::string("a string join key of another kind: ") + e.to_string();
  if (p.dict == build_dict) return r;
  // Both dictionaries are sorted: merge them once (as the CPU's join codec does).
  HostLookup t;
  StringDomain::translate(*p.dict, *build_dict, t.values, t.nulls);
  ProgInstr lk;
  lk.op = kPLookup;
  lk.slot = int(p.lookups.size());
  p.lookups.push_back(std::move(t));
  p.ins.push_back(lk);
  p.source.push_back(&e);
  p.cast_from.push_back(Type());
  p.dict = build_dict;
  return r;
}

}  // namespace raydb::exec::cuda::general
