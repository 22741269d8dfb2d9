// raydb command-line entry point.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string_view>
#include <thread>

#include "cli/commands.h"
#include "common/error.h"
#include "common/wall_sampler.h"
#include "raydb/build_config.h"
#include "raydb/system.h"

namespace {

// Machines of at most this many cores wait passively at OpenMP barriers (run() says why).
constexpr unsigned kPassiveWaitMaxCores = 4;

int run(int argc, char** argv);

}  // namespace

int main(int argc, char** argv) {
  const int code = run(argc, argv);
  // The GPU warm-up (raydb/system.h) still at work when the command ends: its kernel
  // loading stops at the next kernel and exit runs as usual (atexit handlers too). While
  // it still makes the driver or the context, that cannot be cut short and exit()'s
  // teardown of the CUDA runtime would race the thread inside it: flush and end here
  // (atexit handlers do not run). `raydb query` starts the warm-up only for a GPU
  // backend the user named (not under auto), and a query that ran on the GPU waited for
  // the context, so this is left for commands that failed early and the shell.
  if (!raydb::settle_gpu_warmup()) {
    std::fflush(nullptr);
    std::_Exit(code);
  }
  return code;
}

namespace {

int run(int argc, char** argv) {
  // OpenMP workers that spin at barriers steal the cores from the ones still working
  // when a machine has more runnable threads than cores (13 SSB queries at SF 1 on 2
  // cores at load 7: 745 ms spinning, 236 ms passive; on an idle machine passive
  // costs nothing: 75 vs 79 ms). On many cores the opposite: every parallel region
  // then wakes sleeping workers, and the GPU path's host steps run many short ones
  // (TPC-H SF 20 on CUDA with 16 cores, sum of the 22: passive 230-241 ms, libgomp's
  // default of spinning a while before sleeping 215 ms, always spinning 224 ms). So
  // passive on small machines only. libgomp reads the policy when it loads, before
  // main, so set it and start again once, unless the user chose a policy.
  //
  // glibc's malloc likewise reads its tunables before main. By default every
  // allocation over 128 KiB (a join table, a group table, a batch's vectors) is a
  // fresh mmap whose pages fault in one 4 KiB page at a time and are unmapped on
  // free, so each query faults its working set in again: TPC-H SF 1 queries spent
  // more system time in page faults than user time. Transparent huge pages for the
  // heap (a fault per 2 MiB), blocks up to 32 MiB served from the heap, and freed
  // memory kept up to 1 GiB cut the CPU time of three runs of a lineitem-orders join
  // 2.2x (464 -> 211 ms, page faults 82 k -> 4 k; docs/benchmarks/tpch-sf1-cpu.md,
  // session 14).
  bool restart = false;
  if (!std::getenv("OMP_WAIT_POLICY") && std::thread::hardware_concurrency() <= kPassiveWaitMaxCores) {
    setenv("OMP_WAIT_POLICY", "passive", 1);
    restart = true;
  }
  if (!std::getenv("GLIBC_TUNABLES")) {
    setenv("GLIBC_TUNABLES",
           "glibc.malloc.hugetlb=1:glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=1073741824", 1);
    restart = true;
  }
  if (restart) execv("/proc/self/exe", argv);  // returns only on failure: run on as we are
  // RAYDB_SAMPLE=FILE: where the main thread spends its time (a benchmark: its timed runs).
  raydb::wall_sampler::start_from_env(argc > 1 && std::string_view(argv[1]) == "bench");
  CLI::App app{"raydb: a database engine that uses GPU ray tracing beside CUDA cores and CPUs"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "raydb " RAYDB_VERSION);
  raydb::cli::register_gen(app);
  raydb::cli::register_load(app);
  raydb::cli::register_export(app);
  raydb::cli::register_describe(app);
  raydb::cli::register_check(app);
  raydb::cli::register_query(app);
  raydb::cli::register_shell(app);
  raydb::cli::register_serve(app);
  raydb::cli::register_bench(app);
  raydb::cli::register_ssb(app);
  raydb::cli::register_info(app);
  raydb::cli::register_calibrate(app);
  raydb::cli::register_advise(app);
  CLI::App* level = &app;
  std::string path = "raydb";
  try {
    // An unknown command word gets a message that names it (CLI11 would only say
    // that a subcommand is required). Walk the command words down the tree.
    for (int i = 1; i < argc && argv[i][0] != '-'; i++) {
      auto subs = level->get_subcommands([](CLI::App*) { return true; });
      if (subs.empty()) break;  // a positional argument of a leaf command
      CLI::App* next = nullptr;
      for (auto* sub : subs)
        if (sub->check_name(argv[i])) next = sub;
      if (!next) {
        std::fprintf(stderr, "error: unknown command '%s' for %s (see %s --help)\n", argv[i], path.c_str(),
                     path.c_str());
        return 2;
      }
      level = next;
      path += " " + next->get_name();
    }
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    // CLI11 reports a missing required option before an unknown one, so
    // `raydb query --nonsense` would say "--db is required": name the unknown flag.
    if (const char* flag = raydb::cli::unknown_flag(*level, argc, argv)) {
      std::fprintf(stderr, "error: unknown option '%s' for %s (see %s --help)\n", flag, path.c_str(), path.c_str());
      return 2;
    }
    // One line, as for every other error.
    std::fprintf(stderr, "error: %s (see raydb --help)\n", e.what());
    return 2;
  } catch (const raydb::cli::ExitStatus& e) {
    return e.code;
  } catch (const raydb::Error& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "error: out of memory\n");
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: internal: %s\n", e.what());
    return 1;
  }
  return 0;
}

}  // namespace
