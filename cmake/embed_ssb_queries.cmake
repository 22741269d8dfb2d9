# Embeds the project's SSB query texts (ssb/queries/q*.sql) into a C++ source, so
# `raydb ssb` and `raydb bench ssb` need no files at run time.
file(GLOB files ${SRC}/ssb/queries/q*.sql)
list(SORT files)
set(body "")
foreach(f ${files})
  get_filename_component(name ${f} NAME_WLE)
  file(READ ${f} text)
  string(APPEND body "    {\"${name}\", R\"raydbsql(${text})raydbsql\"},\n")
endforeach()
file(WRITE ${OUT}.tmp "// Generated from ssb/queries by cmake/embed_ssb_queries.cmake.\n#include \"gen/ssb/ssb_queries.h\"\n\nnamespace raydb::ssb {\n\nconst std::vector<NamedQuery>& standard_queries() {\n  static const std::vector<NamedQuery> q = {\n${body}  };\n  return q;\n}\n\n}  // namespace raydb::ssb\n")
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different ${OUT}.tmp ${OUT})
