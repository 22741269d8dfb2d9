#pragma once
// A wall-clock sampling profiler of one thread, for the host steps of a query on a
// machine without perf (the GPU machine has neither perf nor Nsight Systems). With
// RAYDB_SAMPLE=FILE, the thread that calls start_from_env() is interrupted every
// RAYDB_SAMPLE_US microseconds (default 250) of wall time, whatever it is doing (a page
// fault, a device wait, a parallel region's barrier), and its call stack is kept; at
// exit the stacks go to FILE as module + offset frames, which
// scripts/sample_report.py names from the same build's symbols. Diagnostic only: the
// timer signal may interrupt system calls (SA_RESTART restarts most).
namespace raydb::wall_sampler {

// Starts sampling the calling thread when RAYDB_SAMPLE is set (paused: until resume());
// otherwise nothing.
void start_from_env(bool paused);

// Samples taken while paused are dropped: a benchmark samples its timed runs only
// (bench/ssb_runner's time_query resumes for them and pauses after).
void pause();
void resume();

}  // namespace raydb::wall_sampler
