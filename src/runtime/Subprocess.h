//===- Subprocess.h - Run a program and wait, with a deadline ---*- C++ -*-===//
//
// Owns how hlo-run starts other programs (the GEMM autotuner's compiles
// and candidate runs): a process with its output in a log file, waited
// for up to a deadline and killed, with its process group, past it. Each
// candidate runs apart so that one that faults or hangs cannot take the
// tuner down.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_RUNTIME_SUBPROCESS_H
#define HLO_RUNTIME_SUBPROCESS_H

#include <string>
#include <vector>

namespace hlo::runtime {

struct ProcessOutcome {
  /// The exit status, or -1 where it did not exit (a signal, a timeout,
  /// or it could not start).
  int exitCode = -1;
  bool timedOut = false;
  /// Why it did not run or exit, where it did not.
  std::string failure;
};

/// Runs `argv` (argv[0] a path or a name looked up in PATH) with stdout
/// and stderr into `logPath`, and waits up to `timeoutSeconds`.
ProcessOutcome runProcess(const std::vector<std::string> &argv, const std::string &logPath,
                          double timeoutSeconds);

/// The first `lines` lines of the file at `path` ("" if unreadable).
std::string firstLines(const std::string &path, int lines);

/// The running program's own path (/proc/self/exe), or "" where unknown.
std::string ownExecutablePath();

} // namespace hlo::runtime

#endif // HLO_RUNTIME_SUBPROCESS_H
