//===- BatchCompile.cpp - Many inputs in one hlo-compile run --------------===//
#include "BatchCompile.h"

#include "CompileInput.h"
#include "XlaDumpInputs.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <fmt/core.h>

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <sstream>
#include <thread>

namespace hlo::driver {
namespace {

/// The path's components, the file's with its extension dropped; a module
/// XLA dumped is named by its module's name, then its id
/// (.../module_0001.jit_f.sm_9.0a_gpu_after_optimizations.txt: "...",
/// "module_0001", "jit_f").
std::vector<std::string> nameComponents(const std::string &input) {
  std::vector<std::string> components;
  for (auto it = llvm::sys::path::begin(input), end = llvm::sys::path::end(input); it != end;
       ++it)
    if (*it != "/" && *it != ".")
      components.push_back(it->str());
  if (components.empty())
    return components;
  if (std::optional<XlaDumpFileName> dumped = parseXlaDumpFileName(components.back())) {
    components.back() = dumped->moduleId;
    components.push_back(dumped->moduleName);
  } else {
    components.back() = llvm::sys::path::stem(components.back()).str();
  }
  return components;
}

/// The last `count` components joined with '.'.
std::string lastComponents(const std::vector<std::string> &components, size_t count) {
  std::string name;
  size_t first = components.size() - std::min(count, components.size());
  for (size_t i = first; i < components.size(); ++i)
    name += (name.empty() ? "" : ".") + components[i];
  return name;
}

struct Outcome {
  bool done = false;
  CompileResult result;
  std::string errors;
  double seconds = 0;
};

} // namespace

std::vector<std::string> batchOutputNames(const std::vector<std::string> &inputs) {
  std::vector<std::vector<std::string>> components;
  for (const std::string &input : inputs)
    components.push_back(nameComponents(input));
  std::vector<size_t> depth(inputs.size(), 1);
  std::vector<std::string> names(inputs.size());
  for (bool changed = true; changed;) {
    changed = false;
    std::map<std::string, std::vector<size_t>> users;
    for (size_t i = 0; i < inputs.size(); ++i) {
      names[i] = lastComponents(components[i], depth[i]);
      users[names[i]].push_back(i);
    }
    for (const auto &[name, which] : users)
      if (which.size() > 1)
        for (size_t i : which)
          if (depth[i] < components[i].size()) {
            ++depth[i];
            changed = true;
          }
  }
  // The same file named twice: numbered after its first occurrence.
  std::map<std::string, int> seen;
  for (std::string &name : names)
    if (int count = seen[name]++; count > 0)
      name += "-" + std::to_string(count + 1);
  return names;
}

int compileBatch(const Options &options, std::ostream &report) {
  if (std::error_code ec = llvm::sys::fs::create_directories(options.outputDir)) {
    report << "hlo-compile: error: cannot create the --output-dir '" << options.outputDir
           << "': " << ec.message() << "\n";
    return kExitUsage;
  }
  const std::vector<std::string> &inputs = options.inputs;
  std::vector<std::string> outputs;
  for (const std::string &name : batchOutputNames(inputs))
    outputs.push_back(options.outputDir + "/" + name + extensionForEmit(options.emit));
  size_t jobs = jobThreads(options);
  jobs = std::min(jobs, inputs.size());
  bool terminal = ::isatty(STDERR_FILENO);
  auto start = std::chrono::steady_clock::now();

  std::vector<Outcome> outcomes(inputs.size());
  std::mutex mutex;
  size_t reported = 0, finished = 0;
  std::atomic<size_t> next{0};
  // Under the lock: what is done, in input order, then the progress line.
  auto reportReady = [&]() {
    if (terminal)
      report << "\r\033[K";
    for (; reported < outcomes.size() && outcomes[reported].done; ++reported) {
      const Outcome &outcome = outcomes[reported];
      report << outcome.errors;
      if (outcome.result.exitCode == kExitSuccess)
        report << fmt::format("hlo-compile: {} -> {}: {} kernel launch{}, {:.2f} s\n",
                              inputs[reported], outputs[reported], outcome.result.launches,
                              outcome.result.launches == 1 ? "" : "es", outcome.seconds);
      else if (outcome.result.written) // --keep-going
        report << fmt::format("hlo-compile: {} -> {}: FAILED, {} kernel{} failed, {} kernel "
                              "launch{} written, {:.2f} s\n",
                              inputs[reported], outputs[reported],
                              outcome.result.failedKernels,
                              outcome.result.failedKernels == 1 ? "" : "s",
                              outcome.result.launches,
                              outcome.result.launches == 1 ? "" : "es", outcome.seconds);
      else
        report << fmt::format("hlo-compile: {}: FAILED, {:.2f} s\n", inputs[reported],
                              outcome.seconds);
    }
    if (terminal && finished < outcomes.size())
      report << fmt::format("hlo-compile: [{}/{}] compiled, {} at once", finished,
                            outcomes.size(), jobs);
    report.flush();
  };
  auto work = [&]() {
    for (size_t i = next++; i < inputs.size(); i = next++) {
      Options one = options;
      one.input = inputs[i];
      one.inputs = {inputs[i]};
      one.outputDir.clear();
      one.jobs = 1; // the inputs are the parallel work
      one.output = outputs[i];
      one.gpuArch = gpuArchForInput(options, inputs[i]);
      std::ostringstream errors;
      auto begin = std::chrono::steady_clock::now();
      CompileResult result = compileInput(one, errors);
      std::chrono::duration<double> took = std::chrono::steady_clock::now() - begin;
      std::lock_guard<std::mutex> lock(mutex);
      outcomes[i] = {true, result, errors.str(), took.count()};
      ++finished;
      reportReady();
    }
  };
  std::vector<std::thread> threads;
  for (size_t t = 1; t < jobs; ++t)
    threads.emplace_back(work);
  work();
  for (std::thread &thread : threads)
    thread.join();

  size_t failed = std::count_if(outcomes.begin(), outcomes.end(), [](const Outcome &o) {
    return o.result.exitCode != kExitSuccess;
  });
  std::chrono::duration<double> total = std::chrono::steady_clock::now() - start;
  if (options.verbose && options.kernelCache) {
    KernelCache::Stats stats = options.kernelCache->stats();
    report << fmt::format("hlo-compile: {}: {} kernels compiled, {} shared "
                          "within the batch, {} found on disk{}\n",
                          options.kernelCache->title(), stats.misses, stats.memoryHits, stats.diskHits,
                          stats.corrupt ? fmt::format(", {} damaged entries rewritten",
                                                      stats.corrupt)
                                        : std::string());
  }
  report << fmt::format("hlo-compile: {} of {} input{} compiled, {} failed ({:.2f} s, {} at "
                        "once)\n",
                        inputs.size() - failed, inputs.size(), inputs.size() == 1 ? "" : "s",
                        failed, total.count(), jobs);
  return failed ? kExitError : kExitSuccess;
}

} // namespace hlo::driver
