//===- GemmAutotune.cpp - hlo-run --autotune: GEMM configs by timing ------===//
#include "GemmAutotune.h"

#include "Subprocess.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>

namespace hlo::runtime {
namespace {

namespace fs = std::filesystem;

int64_t bytesOfKeyType(const std::string &type) {
  if (type == "bf16" || type == "f16")
    return 2;
  if (type == "tf32" || type == "tf32x3")
    return 4;
  if (type == "f64")
    return 8;
  if (type == "s8" || type == "f8e4m3fn" || type == "f8e5m2")
    return 1;
  return 0;
}

std::string number(double value, int digits = 4) {
  char text[32];
  std::snprintf(text, sizeof text, "%.*g", digits, value);
  return text;
}

std::string describe(const abi::GemmTuning &t) {
  std::string text = std::to_string(t.blockM) + "x" + std::to_string(t.blockN) + "x" +
                     std::to_string(t.blockK) + " w" + std::to_string(t.warps) + " s" +
                     std::to_string(t.stages);
  if (t.warpSpecialized)
    text += t.persistent ? " ws persistent" : " ws";
  return text;
}

/// Each timed candidate's outcome.
struct Timing {
  abi::GemmTuning tuning;
  double microseconds = -1;
  std::string failure;
};

/// The "us" of `kernel`'s row in hlo-run's --report TSV, or -1.
double reportedMicroseconds(const std::string &path, const std::string &kernel) {
  std::ifstream report(path);
  std::string line;
  while (std::getline(report, line)) {
    std::vector<std::string> fields;
    std::stringstream row(line);
    for (std::string field; std::getline(row, field, '\t');)
      fields.push_back(field);
    if (fields.size() >= 6 && fields[1] == kernel && fields[5] != "-")
      return std::atof(fields[5].c_str());
  }
  return -1;
}

/// Everything one tuning run of a manifest shares.
struct Tuner {
  const RunOptions &options;
  const LaunchManifest &manifest;
  std::string hloCompile, hloRun;
  /// The module the kernels were compiled from (the manifest's compiled
  /// HLO where hlo-compile's passes rewrote the one given).
  std::string module;
  fs::path work;
  int serial = 0;

  /// Compiles `kernel` with `tuning` and runs it: the candidate's
  /// manifest, or the failure.
  ErrorOr<std::string> compile(const KernelSpec &kernel, const abi::GemmTuning &tuning) {
    std::string stem = (work / ("candidate" + std::to_string(serial++))).string();
    {
      std::ofstream configs(stem + ".jsonl");
      configs << abi::gemmTuningLine({manifest.gpuArch, kernel.gemm->key, tuning, {}}) << "\n";
    }
    bool host = manifest.target == "host";
    std::vector<std::string> argv = {hloCompile,
                                     module,
                                     "-w",
                                     "--hlo-opt=off",
                                     "--gpu-arch=" + manifest.gpuArch,
                                     "--target=" + manifest.target,
                                     "--kernel",
                                     kernel.name,
                                     "--gemm-configs",
                                     stem + ".jsonl",
                                     "-o",
                                     stem + (host ? ".so" : ".ptx"),
                                     "--manifest",
                                     stem + ".json"};
    ProcessOutcome compiled = runProcess(argv, stem + ".compile.log", options.autotuneTimeout);
    if (compiled.exitCode != 0)
      return makeError("compile failed: " + (compiled.failure.empty()
                                                 ? firstLines(stem + ".compile.log", 1)
                                                 : compiled.failure));
    return stem + ".json";
  }

  /// Runs the candidate's kernel (--time-only, or checked against the
  /// interpreter): its time (checked: 0 when it passed), or the failure.
  ErrorOr<double> run(const std::string &candidateManifest, const std::string &kernel,
                      bool check) {
    std::string stem = candidateManifest.substr(0, candidateManifest.size() - 5);
    std::string report = stem + (check ? ".check.tsv" : ".tsv");
    std::vector<std::string> argv = {hloRun,
                                     module,
                                     "--manifest",
                                     candidateManifest,
                                     "--mode",
                                     "kernels",
                                     "--seed",
                                     std::to_string(options.seed),
                                     "--device",
                                     std::to_string(options.device),
                                     "--report",
                                     report};
    if (!check)
      argv.push_back("--time-only");
    if (options.hostThreads)
      argv.insert(argv.end(), {"--host-threads", std::to_string(options.hostThreads)});
    if (!check && options.warmup >= 0)
      argv.insert(argv.end(), {"--warmup", std::to_string(options.warmup)});
    if (!check && options.iterations > 0)
      argv.insert(argv.end(), {"--iterations", std::to_string(options.iterations)});
    std::string log = stem + (check ? ".check.log" : ".run.log");
    ProcessOutcome ran = runProcess(argv, log, options.autotuneTimeout);
    if (ran.exitCode != 0)
      return makeError(std::string(check ? "check" : "run") + " failed: " +
                       (ran.failure.empty() ? "exit " + std::to_string(ran.exitCode) + ": " +
                                                  firstLines(log, 1)
                                            : ran.failure));
    if (check)
      return 0.0;
    double microseconds = reportedMicroseconds(report, kernel);
    if (microseconds < 0)
      return makeError("no time in " + report);
    return microseconds;
  }

  /// Tunes one GEMM kernel: the winning entry, or none if nothing ran.
  std::optional<abi::GemmTuningEntry> tune(const KernelSpec &kernel) {
    std::optional<GemmKeyFields> fields = parseGemmKey(kernel.gemm->key);
    if (!fields) {
      std::cout << kernel.name << ": cannot read GEMM key '" << kernel.gemm->key << "'\n";
      return std::nullopt;
    }
    std::vector<abi::GemmTuning> candidates = gemmTuningCandidates(
        manifest.gpuArch, *fields, kernel.gemm->tuning, options.autotuneLimit);
    std::cout << "autotune " << kernel.name << " (" << kernel.gemm->key << " on "
              << manifest.gpuArch << "): " << candidates.size() << " candidates\n";
    std::vector<Timing> timings;
    std::set<std::string> built;
    for (const abi::GemmTuning &candidate : candidates) {
      Timing timing{candidate};
      ErrorOr<std::string> compiled = compile(kernel, candidate);
      if (compiled) {
        // What the emitter built (a config it cannot take in full is
        // adapted: fewer stages where they do not fit, ...): time each
        // built kernel once.
        std::optional<LaunchManifest> builtManifest = loadLaunchManifest(*compiled);
        std::optional<abi::GemmTuning> actual;
        if (builtManifest)
          for (const KernelSpec &spec : builtManifest->kernels)
            if (spec.name == kernel.name && spec.gemm)
              actual = spec.gemm->tuning;
        if (actual && !built.insert(describe(*actual)).second) {
          std::cout << "  " << describe(candidate) << ": builds " << describe(*actual)
                    << ", timed already\n";
          continue;
        }
        if (actual)
          timing.tuning = *actual;
        ErrorOr<double> time = run(*compiled, kernel.name, /*check=*/false);
        if (time)
          timing.microseconds = *time;
        else
          timing.failure = time.error();
      } else {
        timing.failure = compiled.error();
      }
      std::cout << "  " << describe(timing.tuning) << ": "
                << (timing.failure.empty() ? number(timing.microseconds) + " us"
                                           : timing.failure)
                << (&candidate == &candidates.front() ? "   (as compiled)" : "") << "\n";
      timings.push_back(timing);
    }
    double compiledTime = !timings.empty() && timings.front().failure.empty()
                              ? timings.front().microseconds
                              : -1;
    std::vector<Timing *> ranked;
    for (Timing &timing : timings)
      if (timing.failure.empty())
        ranked.push_back(&timing);
    std::stable_sort(ranked.begin(), ranked.end(), [](const Timing *a, const Timing *b) {
      return a->microseconds < b->microseconds;
    });
    // The fastest that passes its check against the interpreter.
    for (Timing *best : ranked) {
      ErrorOr<std::string> compiled = compile(kernel, best->tuning);
      ErrorOr<double> checked = compiled ? run(*compiled, kernel.name, /*check=*/true)
                                         : ErrorOr<double>(compiled.status());
      if (!checked) {
        std::cout << "  " << describe(best->tuning) << " fails its check (" << checked.error()
                  << "): the next\n";
        continue;
      }
      std::cout << "  winner: " << describe(best->tuning) << ", "
                << number(best->microseconds) << " us";
      if (compiledTime > 0)
        std::cout << ", " << number(compiledTime / best->microseconds, 3)
                  << "x the compiled config's speed";
      std::cout << "; checked against the interpreter: PASS\n";
      return abi::GemmTuningEntry{manifest.gpuArch, kernel.gemm->key, best->tuning,
                                  best->microseconds};
    }
    std::cout << "  no candidate ran and passed\n";
    return std::nullopt;
  }
};

} // namespace

std::optional<GemmKeyFields> parseGemmKey(const std::string &key) {
  GemmKeyFields fields;
  size_t comma = key.find(',');
  if (comma == std::string::npos)
    return std::nullopt;
  fields.typeA = key.substr(0, comma);
  fields.elementBytes = bytesOfKeyType(fields.typeA);
  if (!fields.elementBytes)
    return std::nullopt;
  std::stringstream words(key);
  std::string word;
  words >> word; // the types
  while (words >> word) {
    if (word.size() < 2)
      continue;
    char *end = nullptr;
    long long value = std::strtoll(word.c_str() + 1, &end, 10);
    if (*end != '\0' || value < 1)
      continue;
    switch (word[0]) {
    case 'b': fields.batch = value; break;
    case 'm': fields.m = value; break;
    case 'n': fields.n = value; break;
    case 'k': fields.k = value; break;
    default: break;
    }
  }
  if (!fields.m || !fields.n || !fields.k)
    return std::nullopt;
  return fields;
}

std::vector<abi::GemmTuning> gemmTuningCandidates(const std::string &arch,
                                                  const GemmKeyFields &gemm,
                                                  const abi::GemmTuning &current, size_t limit) {
  std::vector<abi::GemmTuning> result = {current};
  auto add = [&](abi::GemmTuning candidate) {
    if (result.size() >= limit ||
        std::find(result.begin(), result.end(), candidate) != result.end())
      return;
    result.push_back(candidate);
  };
  // A tile is worth timing if the GEMM fills at least half of it (or it
  // is the smallest).
  auto fits = [&](int64_t rows, int64_t columns) {
    return (rows == 64 || 2 * gemm.m >= rows) && (columns == 64 || 2 * gemm.n >= columns);
  };
  bool wgmma = arch == "sm_90a" && gemm.typeA != "f64" && gemm.typeA != "s8" &&
               gemm.typeA != "tf32x3";
  if (wgmma) {
    const std::pair<int64_t, int64_t> tiles[] = {{128, 256}, {128, 128}, {64, 256},
                                                 {128, 64},  {64, 128},  {64, 64}};
    // (warp specialized, persistent): the fastest kinds first, so that a
    // low --autotune-limit keeps them.
    const std::pair<bool, bool> modes[] = {{true, true}, {true, false}, {false, false}};
    for (auto [specialized, persistent] : modes)
      for (auto [rows, columns] : tiles)
        for (int64_t stages : {4, 3}) {
          if (!fits(rows, columns))
            continue;
          abi::GemmTuning candidate;
          candidate.blockM = rows;
          candidate.blockN = columns;
          candidate.blockK = 128 / gemm.elementBytes;
          candidate.warps = rows / 64 * 4;
          candidate.stages = stages;
          candidate.warpSpecialized = specialized;
          candidate.persistent = persistent;
          add(candidate);
        }
  } else {
    const std::tuple<int64_t, int64_t, int64_t> tiles[] = {
        {128, 128, 8}, {128, 64, 4}, {64, 128, 4}, {64, 64, 4}};
    for (auto [rows, columns, warps] : tiles)
      for (int64_t bytes : {64, 128})
        for (int64_t stages : {3, 2, 4}) {
          if (!fits(rows, columns))
            continue;
          abi::GemmTuning candidate;
          candidate.blockM = rows;
          candidate.blockN = columns;
          candidate.blockK = std::max<int64_t>(bytes / gemm.elementBytes, 8);
          candidate.warps = warps;
          candidate.stages = stages;
          add(candidate);
        }
  }
  return result;
}

int runGemmAutotune(const RunOptions &options, const LaunchManifest &manifest) {
  std::string self = ownExecutablePath();
  Tuner tuner{options, manifest};
  tuner.hloRun = self.empty() ? "hlo-run" : self;
  tuner.hloCompile = options.hloCompilePath;
  if (tuner.hloCompile.empty()) {
    fs::path beside = fs::path(self).parent_path() / "hlo-compile";
    tuner.hloCompile = !self.empty() && fs::exists(beside) ? beside.string() : "hlo-compile";
  }
  tuner.module = manifest.compiledHloFile.empty()
                     ? options.hloPath
                     : besideManifest(options.manifestPath, manifest.compiledHloFile);
  std::error_code error;
  std::string pattern = (fs::temp_directory_path(error) / "hlo-autotune-XXXXXX").string();
  if (!mkdtemp(pattern.data())) {
    std::cerr << "hlo-run: error: cannot make a directory for the candidates\n";
    return kExitError;
  }
  tuner.work = pattern;

  // What the file holds already stays, unless retuned.
  abi::GemmTuningTable table;
  if (fs::exists(options.autotunePath)) {
    ErrorOr<abi::GemmTuningTable> existing = abi::readGemmTuningFile(options.autotunePath);
    if (!existing) {
      std::cerr << existing.error() << "\n";
      fs::remove_all(tuner.work, error);
      return kExitError;
    }
    table = std::move(*existing);
  }
  std::set<std::string> tuned;
  int gemms = 0, won = 0;
  for (const KernelSpec &kernel : manifest.kernels) {
    if (!kernel.gemm || !tuned.insert(kernel.gemm->key).second)
      continue;
    ++gemms;
    if (std::optional<abi::GemmTuningEntry> entry = tuner.tune(kernel)) {
      table.insert(std::move(*entry));
      ++won;
    }
  }
  fs::remove_all(tuner.work, error);
  if (gemms == 0) {
    std::cout << "autotune: the manifest has no GEMM kernel\n";
    return kExitPass;
  }
  std::ofstream out(options.autotunePath, std::ios::trunc);
  out << "# GEMM configs tuned by hlo-run --autotune (read by hlo-compile --gemm-configs)\n";
  for (const abi::GemmTuningEntry *entry : table.sorted())
    out << abi::gemmTuningLine(*entry) << "\n";
  if (!out) {
    std::cerr << "hlo-run: error: cannot write " << options.autotunePath << "\n";
    return kExitError;
  }
  std::cout << "autotune: " << won << " of " << gemms << " GEMMs tuned; wrote "
            << options.autotunePath << " (" << table.size() << " entries)\n";
  return won == gemms ? kExitPass : kExitMismatch;
}

} // namespace hlo::runtime
