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
  if (t.cluster > 1)
    text += " cluster" + std::to_string(t.cluster);
  return text;
}

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

/// A compiled candidate: its kernel, its manifest (relative to the
/// candidates' directory) and the GEMM record that manifest has (the
/// config the emitter built).
struct Candidate {
  std::string kernel;
  std::string manifest;
  abi::GemmKernel gemm;
};

constexpr const char *kCandidateList = "candidates.tsv";
constexpr const char *kCandidateModule = "module.hlo";

/// Compiles the candidates of each GEMM kernel of a manifest into a
/// directory: DIR/module.hlo (the module they are compiled from),
/// DIR/cN.{json,ptx|so} and DIR/candidates.tsv (kernel, manifest; each
/// kernel's compiled config first).
struct Preparer {
  const RunOptions &options;
  const LaunchManifest &manifest;
  std::string hloCompile;
  fs::path dir;
  int serial = 0;

  /// Compiles `kernel` with `tuning`: the candidate, or the failure.
  ErrorOr<Candidate> compile(const KernelSpec &kernel, const abi::GemmTuning &tuning) {
    std::string stem = "c" + std::to_string(serial++);
    std::string path = (dir / stem).string();
    {
      std::ofstream configs(path + ".jsonl");
      configs << abi::gemmTuningLine({manifest.gpuArch, kernel.gemm->key, tuning, {}}) << "\n";
    }
    // The kind of code the manifest's own is (a bundle's cubins stay
    // cubins), else the target's.
    std::string extension = fs::path(manifest.codeFile).extension().string();
    if (extension != ".so" && extension != ".ptx" && extension != ".cubin")
      extension = manifest.target == "host" ? ".so" : ".ptx";
    std::vector<std::string> argv = {hloCompile,
                                     (dir / kCandidateModule).string(),
                                     "-w",
                                     "--hlo-opt=off",
                                     "--gpu-arch=" + manifest.gpuArch,
                                     "--target=" + manifest.target,
                                     "--kernel",
                                     kernel.name,
                                     "--gemm-configs",
                                     path + ".jsonl",
                                     "-o",
                                     path + extension,
                                     "--manifest",
                                     path + ".json"};
    ProcessOutcome compiled = runProcess(argv, path + ".compile.log", options.autotuneTimeout);
    if (compiled.exitCode != 0)
      return makeError("compile failed: " + (compiled.failure.empty()
                                                 ? firstLines(path + ".compile.log", 1)
                                                 : compiled.failure));
    std::optional<LaunchManifest> built = loadLaunchManifest(path + ".json");
    if (built)
      for (const KernelSpec &spec : built->kernels)
        if (spec.name == kernel.name && spec.gemm)
          return Candidate{kernel.name, stem + ".json", *spec.gemm};
    return makeError("no GEMM kernel " + kernel.name + " in " + path + ".json");
  }

  /// Every GEMM kernel's candidates, each distinct built config once.
  Status prepare() {
    std::error_code error;
    fs::create_directories(dir, error);
    std::string source = manifest.compiledHloFile.empty()
                             ? options.hloPath
                             : besideManifest(options.manifestPath, manifest.compiledHloFile);
    if (!fs::copy_file(source, dir / kCandidateModule, fs::copy_options::overwrite_existing,
                       error))
      return Status::failure("cannot copy " + source + " into " + dir.string());
    std::ofstream list(dir / kCandidateList, std::ios::trunc);
    list << "kernel\tmanifest\n";
    std::set<std::string> keys;
    for (const KernelSpec &kernel : manifest.kernels) {
      if (!kernel.gemm || !keys.insert(kernel.gemm->key).second)
        continue;
      std::optional<GemmKeyFields> fields = parseGemmKey(kernel.gemm->key);
      if (!fields) {
        std::cout << kernel.name << ": cannot read GEMM key '" << kernel.gemm->key << "'\n";
        continue;
      }
      std::vector<abi::GemmTuning> tunings = gemmTuningCandidates(
          manifest.gpuArch, *fields, kernel.gemm->tuning, options.autotuneLimit);
      std::cout << "compiling " << tunings.size() << " candidates of " << kernel.name << " ("
                << kernel.gemm->key << " on " << manifest.gpuArch << ")\n";
      std::set<std::string> built;
      for (const abi::GemmTuning &tuning : tunings) {
        ErrorOr<Candidate> candidate = compile(kernel, tuning);
        if (!candidate) {
          std::cout << "  " << describe(tuning) << ": " << candidate.error() << "\n";
          continue;
        }
        if (!built.insert(describe(candidate->gemm.tuning)).second) {
          std::cout << "  " << describe(tuning) << ": builds " << describe(candidate->gemm.tuning)
                    << ", a candidate already\n";
          continue;
        }
        list << candidate->kernel << "\t" << candidate->manifest << "\n";
      }
    }
    return list ? Status::success() : Status::failure("cannot write the candidate list");
  }
};

/// Times the candidates of a prepared directory and checks the fastest.
struct Measurer {
  const RunOptions &options;
  std::string hloRun;
  fs::path dir;

  /// Runs a candidate's kernel (--time-only, or checked against the
  /// interpreter): its time (checked: 0 when it passed), or the failure.
  ErrorOr<double> run(const Candidate &candidate, bool check) {
    std::string stem = (dir / candidate.manifest).string();
    stem.resize(stem.size() - 5);
    std::string report = stem + (check ? ".check.tsv" : ".tsv");
    std::error_code error;
    fs::remove(report, error);
    std::vector<std::string> argv = {hloRun,
                                     (dir / kCandidateModule).string(),
                                     "--manifest",
                                     (dir / candidate.manifest).string(),
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
    double microseconds = reportedMicroseconds(report, candidate.kernel);
    if (microseconds < 0)
      return makeError("no time in " + report);
    return microseconds;
  }

  /// Tunes one GEMM kernel from its candidates (the compiled config
  /// first): the winning entry, or none if nothing ran and passed.
  std::optional<abi::GemmTuningEntry> tune(const std::string &arch,
                                           const std::vector<Candidate> &candidates) {
    const Candidate &compiled = candidates.front();
    std::cout << "autotune " << compiled.kernel << " (" << compiled.gemm.key << " on " << arch
              << "): " << candidates.size() << " candidates\n";
    std::vector<std::pair<double, const Candidate *>> ranked;
    double compiledTime = -1;
    std::optional<GemmKeyFields> fields = parseGemmKey(compiled.gemm.key);
    abi::GemmDeviceFigures device = abi::gemmDeviceFigures(arch);
    for (const Candidate &candidate : candidates) {
      ErrorOr<double> time = run(candidate, /*check=*/false);
      // The cost model's estimate beside it: every GPU run calibrates it.
      std::string model =
          fields ? " (model " +
                       number(abi::estimateGemmCost(fields->problem(), candidate.gemm.tuning,
                                                    device)
                                  .microseconds) +
                       " us)"
                 : "";
      std::cout << "  " << describe(candidate.gemm.tuning) << ": "
                << (time ? number(*time) + " us" : time.error()) << model
                << (&candidate == &compiled ? "   (as compiled)" : "") << "\n";
      if (!time)
        continue;
      ranked.push_back({*time, &candidate});
      if (&candidate == &compiled)
        compiledTime = *time;
    }
    std::stable_sort(ranked.begin(), ranked.end(),
                     [](const auto &a, const auto &b) { return a.first < b.first; });
    // The fastest that passes its check against the interpreter.
    for (auto [microseconds, best] : ranked) {
      if (ErrorOr<double> checked = run(*best, /*check=*/true); !checked) {
        std::cout << "  " << describe(best->gemm.tuning) << " fails its check ("
                  << checked.error() << "): the next\n";
        continue;
      }
      std::cout << "  winner: " << describe(best->gemm.tuning) << ", " << number(microseconds)
                << " us";
      if (compiledTime > 0)
        std::cout << ", " << number(compiledTime / microseconds, 3)
                  << "x the compiled config's speed";
      std::cout << "; checked against the interpreter: PASS\n";
      return abi::GemmTuningEntry{arch, best->gemm.key, best->gemm.tuning, microseconds};
    }
    std::cout << "  no candidate ran and passed\n";
    return std::nullopt;
  }
};

/// The prepared candidates of `dir`, by kernel in the list's order.
ErrorOr<std::vector<std::vector<Candidate>>> readCandidates(const fs::path &dir,
                                                            std::string &arch) {
  std::ifstream list(dir / kCandidateList);
  if (!list)
    return makeError("no " + (dir / kCandidateList).string() +
                     " (hlo-run --autotune-prepare writes it)");
  std::vector<std::vector<Candidate>> kernels;
  std::string line;
  std::getline(list, line); // the header
  while (std::getline(list, line)) {
    size_t tab = line.find('\t');
    if (tab == std::string::npos)
      continue;
    Candidate candidate{line.substr(0, tab), line.substr(tab + 1), {}};
    std::optional<LaunchManifest> built = loadLaunchManifest((dir / candidate.manifest).string());
    if (!built)
      return makeError("cannot read " + (dir / candidate.manifest).string());
    arch = built->gpuArch;
    for (const KernelSpec &spec : built->kernels)
      if (spec.name == candidate.kernel && spec.gemm)
        candidate.gemm = *spec.gemm;
    if (candidate.gemm.key.empty())
      return makeError("no GEMM kernel " + candidate.kernel + " in " + candidate.manifest);
    if (kernels.empty() || kernels.back().front().kernel != candidate.kernel)
      kernels.emplace_back();
    kernels.back().push_back(std::move(candidate));
  }
  return kernels;
}

/// hlo-compile for the candidates: --hlo-compile, else the one beside
/// hlo-run, else PATH's.
std::string findHloCompile(const RunOptions &options, const std::string &self) {
  if (!options.hloCompilePath.empty())
    return options.hloCompilePath;
  fs::path beside = fs::path(self).parent_path() / "hlo-compile";
  return !self.empty() && fs::exists(beside) ? beside.string() : "hlo-compile";
}

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
  // The result's type: after "->", up to the first space.
  size_t arrow = key.find("->"), space = key.find(' ');
  if (arrow == std::string::npos || space == std::string::npos || space < arrow)
    return std::nullopt;
  std::string result = key.substr(arrow + 2, space - arrow - 2);
  fields.outputBytes = result == "f32" || result == "s32" ? 4
                       : result == "f64"                 ? 8
                       : result == "bf16" || result == "f16" ? 2
                                                         : 1;
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

abi::GemmProblem GemmKeyFields::problem() const {
  abi::GemmProblem problem;
  problem.batch = batch;
  problem.m = m;
  problem.n = n;
  problem.k = k;
  problem.inputBytes = elementBytes;
  problem.outputBytes = outputBytes;
  problem.tf32 = typeA == "tf32";
  return problem;
}

std::vector<abi::GemmTuning> gemmTuningCandidates(const std::string &arch,
                                                  const GemmKeyFields &gemm,
                                                  const abi::GemmTuning &current, size_t limit) {
  std::vector<abi::GemmTuning> result = {current};
  auto add = [&](abi::GemmTuning candidate) {
    if (std::find(result.begin(), result.end(), candidate) == result.end())
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
          // Two blocks a cluster sharing B's tiles, where there are two
          // tile rows.
          if (specialized && gemm.m > rows) {
            candidate.cluster = 2;
            add(candidate);
          }
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
  // The model's fastest first, so that a low --autotune-limit keeps them
  // (ties in the order above).
  abi::GemmDeviceFigures device = abi::gemmDeviceFigures(arch);
  abi::GemmProblem problem = gemm.problem();
  std::stable_sort(result.begin() + 1, result.end(),
                   [&](const abi::GemmTuning &a, const abi::GemmTuning &b) {
                     return abi::estimateGemmCost(problem, a, device).microseconds <
                            abi::estimateGemmCost(problem, b, device).microseconds;
                   });
  if (result.size() > limit)
    result.resize(std::max<size_t>(limit, 1));
  return result;
}

int runGemmAutotune(const RunOptions &options, const LaunchManifest *manifest) {
  std::string self = ownExecutablePath();
  std::error_code error;
  // The candidates: prepared already (--autotune-candidates), or compiled
  // now into --autotune-prepare's directory or a temporary one.
  fs::path dir = options.autotuneCandidates;
  bool temporary = false;
  if (dir.empty()) {
    if (!manifest) {
      std::cerr << "hlo-run: error: --autotune needs --manifest or --autotune-candidates\n";
      return kExitError;
    }
    dir = options.autotunePrepare;
    if (dir.empty()) {
      std::string pattern = (fs::temp_directory_path(error) / "hlo-autotune-XXXXXX").string();
      if (!mkdtemp(pattern.data())) {
        std::cerr << "hlo-run: error: cannot make a directory for the candidates\n";
        return kExitError;
      }
      dir = pattern;
      temporary = true;
    }
    Preparer preparer{options, *manifest, findHloCompile(options, self), dir};
    if (Status prepared = preparer.prepare(); !prepared) {
      std::cerr << "hlo-run: error: " << prepared.error() << "\n";
      return kExitError;
    }
    if (options.autotunePath.empty()) {
      std::cout << "autotune: candidates in " << dir.string() << "\n";
      return kExitPass;
    }
  }
  std::string arch;
  ErrorOr<std::vector<std::vector<Candidate>>> kernels = readCandidates(dir, arch);
  if (!kernels) {
    std::cerr << "hlo-run: error: " << kernels.error() << "\n";
    return kExitError;
  }
  // What the tuning file holds already stays, unless retuned.
  abi::GemmTuningTable table;
  if (fs::exists(options.autotunePath)) {
    ErrorOr<abi::GemmTuningTable> existing = abi::readGemmTuningFile(options.autotunePath);
    if (!existing) {
      std::cerr << existing.error() << "\n";
      return kExitError;
    }
    table = std::move(*existing);
  }
  Measurer measurer{options, self.empty() ? "hlo-run" : self, dir};
  size_t won = 0;
  for (const std::vector<Candidate> &candidates : *kernels)
    if (std::optional<abi::GemmTuningEntry> entry = measurer.tune(arch, candidates)) {
      table.insert(std::move(*entry));
      ++won;
    }
  if (temporary)
    fs::remove_all(dir, error);
  if (kernels->empty()) {
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
  std::cout << "autotune: " << won << " of " << kernels->size() << " GEMMs tuned; wrote "
            << options.autotunePath << " (" << table.size() << " entries)\n";
  return won == kernels->size() ? kExitPass : kExitMismatch;
}

} // namespace hlo::runtime
