# Embeds the project's TPC-H query texts (tpch/queries/q*.sql) into a C++ source, so
# `raydb bench tpch` needs no files at run time. Natural order: q1, q2, ..., q22.
file(GLOB files ${SRC}/tpch/queries/q*.sql)
list(SORT files COMPARE NATURAL)
set(body "")
foreach(f ${files})
  get_filename_component(name ${f} NAME_WLE)
  file(READ ${f} text)
  string(APPEND body "    {\"${name}\", R\"raydbsql(${text})raydbsql\"},\n")
endforeach()
file(WRITE ${OUT}.tmp "// Generated from tpch/queries by cmake/embed_tpch_queries.cmake.\n#include \"gen/tpch/tpch_queries.h\"\n\nnamespace raydb::tpch {\n\nconst std::vector<ssb::NamedQuery>& standard_queries() {\n  static const std::vector<ssb::NamedQuery> q = {\n${body}  };\n  return q;\n}\n\n}  // namespace raydb::tpch\n")
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different ${OUT}.tmp ${OUT})
