//===- Subprocess.cpp - Run a program and wait, with a deadline -----------===//
#include "Subprocess.h"

#include <chrono>
#include <climits>
#include <csignal>
#include <fcntl.h>
#include <fstream>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace hlo::runtime {

ProcessOutcome runProcess(const std::vector<std::string> &argv, const std::string &logPath,
                          double timeoutSeconds) {
  ProcessOutcome outcome;
  if (argv.empty()) {
    outcome.failure = "nothing to run";
    return outcome;
  }
  std::vector<char *> arguments;
  for (const std::string &argument : argv)
    arguments.push_back(const_cast<char *>(argument.c_str()));
  arguments.push_back(nullptr);
  pid_t child = fork();
  if (child < 0) {
    outcome.failure = "cannot fork";
    return outcome;
  }
  if (child == 0) {
    // Its own process group, so that a timeout kills what it started too.
    setpgid(0, 0);
    int log = open(logPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (log >= 0) {
      dup2(log, STDOUT_FILENO);
      dup2(log, STDERR_FILENO);
      close(log);
    }
    execvp(arguments[0], arguments.data());
    _exit(127);
  }
  auto deadline = std::chrono::steady_clock::now() +
                  std::chrono::milliseconds(static_cast<int64_t>(timeoutSeconds * 1000));
  int status = 0;
  while (true) {
    pid_t done = waitpid(child, &status, WNOHANG);
    if (done == child)
      break;
    if (done < 0) {
      outcome.failure = "lost the process";
      return outcome;
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      kill(-child, SIGKILL);
      kill(child, SIGKILL);
      waitpid(child, &status, 0);
      outcome.timedOut = true;
      outcome.failure = "timed out after " + std::to_string(static_cast<int>(timeoutSeconds)) +
                        " s";
      return outcome;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (WIFEXITED(status)) {
    outcome.exitCode = WEXITSTATUS(status);
    if (outcome.exitCode == 127)
      outcome.failure = "could not run " + argv[0];
  } else if (WIFSIGNALED(status)) {
    outcome.failure = "killed by signal " + std::to_string(WTERMSIG(status));
  }
  return outcome;
}

std::string firstLines(const std::string &path, int lines) {
  std::ifstream file(path);
  std::string line, text;
  for (int i = 0; i < lines && std::getline(file, line); ++i)
    text += (i ? "\n" : "") + line;
  return text;
}

std::string ownExecutablePath() {
  char path[PATH_MAX];
  ssize_t length = readlink("/proc/self/exe", path, sizeof path - 1);
  if (length <= 0)
    return "";
  return std::string(path, static_cast<size_t>(length));
}

} // namespace hlo::runtime
