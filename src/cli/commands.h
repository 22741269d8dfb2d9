#pragma once
// Each `raydb` subcommand lives in its own cmd_*.cpp and registers itself on the
// app. A command's callback throws raydb::Error on failure; main prints it on one
// line and exits non-zero.
#include <CLI/CLI.hpp>

namespace raydb::cli {

// Thrown by a command that has printed its errors itself and must exit with `code`.
struct ExitStatus {
  int code = 1;
};

void register_gen(CLI::App& app);       // raydb gen ssb | tpch
void register_load(CLI::App& app);      // raydb load ssb | tpch | csv
void register_export(CLI::App& app);    // raydb export
void register_describe(CLI::App& app);  // raydb describe
void register_check(CLI::App& app);     // raydb check (cmd_check.cpp)
void register_query(CLI::App& app);     // raydb query
void register_shell(CLI::App& app);     // raydb shell
void register_serve(CLI::App& app);     // raydb serve (cmd_serve.cpp)
void register_bench(CLI::App& app);     // raydb bench <suite>
void register_bench_ssb(CLI::App& bench);  // raydb bench ssb (cmd_bench.cpp)
void register_bench_tpch(CLI::App& bench);  // raydb bench tpch (cmd_bench.cpp)
void register_bench_index(CLI::App& bench);  // raydb bench index (cmd_bench_index.cpp)
void register_bench_query(CLI::App& bench);  // raydb bench query (cmd_bench_query.cpp)
void register_bench_ops(CLI::App& bench);  // raydb bench ops (cmd_bench_ops.cpp)
void register_bench_scan(CLI::App& bench);  // raydb bench scan (cmd_bench_scan.cpp)
void register_bench_views(CLI::App& bench);  // raydb bench views (cmd_bench_views.cpp)
void register_bench_stream(CLI::App& bench);  // raydb bench stream (cmd_bench_stream.cpp)
void register_bench_keysets(CLI::App& bench);  // raydb bench keysets (cmd_bench_keysets.cpp)
void register_bench_decode(CLI::App& bench);   // raydb bench decode (cmd_bench_decode.cpp)
void register_ssb(CLI::App& app);       // raydb ssb (main job)
void register_info(CLI::App& app);      // raydb info
void register_calibrate(CLI::App& app);  // raydb calibrate (cmd_calibrate.cpp)
void register_advise(CLI::App& app);     // raydb advise rt-views (cmd_advise.cpp)

// The first argument that looks like a flag ("-x", "--name[=value]") but is an option
// of neither `command` nor a command above it; nullptr when there is none
// (unknown_flag.cpp).
const char* unknown_flag(const CLI::App& command, int argc, char** argv);

}  // namespace raydb::cli
