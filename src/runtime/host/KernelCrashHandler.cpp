//===- KernelCrashHandler.cpp - A crash inside a kernel, reported ---------===//
#include "host/KernelCrashHandler.h"

#include "RunOptions.h"

#include <csignal>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <unistd.h>

namespace hlo::runtime {
namespace {

thread_local const char *runningKernel = nullptr;

void onCrash(int signal, siginfo_t *info, void *) {
  const char *kernel = runningKernel;
  if (!kernel) {
    // Not in a kernel: crash as usual.
    std::signal(signal, SIG_DFL);
    std::raise(signal);
    return;
  }
  char text[512];
  int length = std::snprintf(
      text, sizeof text,
      "hlo-run: error: kernel %s crashed on the host (%s at address %p): a GPU thread "
      "accessed memory outside its buffers or overflowed its stack; compile with bounds "
      "checks (the default, no --no-bounds-checks) to see where\nFAIL\n",
      kernel, signal == SIGSEGV ? "segmentation fault" : strsignal(signal), info->si_addr);
  if (length > 0)
    (void)!write(STDERR_FILENO, text, static_cast<size_t>(length));
  _exit(kExitMismatch);
}

void installHandler() {
  static std::once_flag once;
  std::call_once(once, [] {
    struct sigaction action;
    std::memset(&action, 0, sizeof action);
    action.sa_sigaction = &onCrash;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    for (int signal : {SIGSEGV, SIGBUS, SIGILL, SIGFPE})
      sigaction(signal, &action, nullptr);
  });
  // Each host thread needs its own alternate stack: the crash may be a
  // stack overflow.
  thread_local bool haveAlternateStack = false;
  if (!haveAlternateStack) {
    static thread_local char memory[64 * 1024];
    stack_t alternate;
    alternate.ss_sp = memory;
    alternate.ss_size = sizeof memory;
    alternate.ss_flags = 0;
    haveAlternateStack = sigaltstack(&alternate, nullptr) == 0;
  }
}

} // namespace

KernelCrashScope::KernelCrashScope(const std::string &name) : previous(runningKernel) {
  installHandler();
  runningKernel = name.c_str();
}

KernelCrashScope::~KernelCrashScope() { runningKernel = previous; }

} // namespace hlo::runtime
