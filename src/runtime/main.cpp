//===- main.cpp - hlo-run: check and time compiled HLO ---------------------===//
//
// `hlo-run --interpret M.hlo` evaluates a module with the reference
// interpreter; `hlo-run M.hlo --manifest M.json` runs hlo-compile's kernels
// and checks them against it (--bench also times them): on a GPU for PTX or
// cubin, on this CPU for kernels compiled with --target=host. Links no
// LLVM: it is copied to GPU machines that have only the NVIDIA driver.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "GemmAutotune.h"
#include "ManifestTypes.h"

#include "hlo_parser/Parser.h"
#include "hlo_parser/Verifier.h"

#include <CLI/CLI.hpp>

#include <iostream>
#include <malloc.h>

using namespace hlo;
using namespace hlo::runtime;

namespace {

/// The constants of `module` whose literal the parser made up.
int64_t countFilledConstants(const HloModule &module) {
  int64_t count = 0;
  for (const auto &computation : module.computations())
    for (const auto &instruction : computation->instructions())
      count += instruction->opcode() == HloOpcode::Constant && instruction->hasLiteral() &&
               instruction->literal().isFilled();
  return count;
}

bool parseInputSpec(const std::string &spec, RunOptions &options) {
  size_t equals = spec.find('=');
  if (equals == std::string::npos || equals == 0)
    return false;
  try {
    size_t used = 0;
    int64_t number = std::stoll(spec.substr(0, equals), &used);
    if (used != equals || number < 0)
      return false;
    options.inputFiles[number] = spec.substr(equals + 1);
  } catch (const std::exception &) {
    return false;
  }
  return true;
}

/// Where hlo-compile's HLO passes rewrote the module it was given (the
/// manifest's "compiled_hlo": fused an unoptimized module, split a long
/// reduction), the kernels belong to the module compiled: it becomes the
/// module run, and the module given its reference, as with --reference.
/// Nothing changes when --reference is given or the manifest names no
/// compiled module.
void useCompiledModule(RunOptions &options, const LaunchManifest &manifest) {
  if (!options.referencePath.empty() || manifest.compiledHloFile.empty())
    return;
  std::string compiled = besideManifest(options.manifestPath, manifest.compiledHloFile);
  std::cout << "note: the kernels were compiled from " << compiled
            << " (hlo-compile's HLO passes rewrote " << options.hloPath
            << "): checking it against " << options.hloPath << "\n";
  options.referencePath = options.hloPath;
  options.hloPath = compiled;
}

} // namespace

int main(int argc, char **argv) {
  // The interpreter's arrays of a real model are hundreds of MB each, made
  // and freed per instruction: glibc would map and unmap each one, paying
  // its page faults again every time. Keep them all in the heap (no mmap:
  // a threshold cannot exceed INT_MAX, and llama_layer_fwd's attention
  // scores take 2^31 bytes) and never give the heap's top back (-1): with
  // a 1 GB trim threshold gpt2_block_fwd still refaulted 4x its peak
  // memory. (dropout_gelu's module: 33 s -> 19 s, most of it system time.)
  mallopt(M_MMAP_MAX, 0);
  mallopt(M_TRIM_THRESHOLD, -1);
  mallopt(M_TOP_PAD, 256 << 20);
  // Checks of whole models take minutes: each line as it is printed, also
  // into a CI log (a few hundred lines: the flushes cost nothing).
  std::cout << std::unitbuf;
  CLI::App app{"hlo-run: run an HLO module in the reference interpreter, or run the "
               "kernels hlo-compile generated for it (on a GPU, or on this CPU with "
               "--target=host) and check them against the interpreter"};
  app.set_version_flag("--version", std::string("hlo-run ") + HLO_COMPILE_VERSION);
  RunOptions options;
  std::vector<std::string> inputSpecs;
  std::string mode = "auto";
  double absoluteTolerance = -1, relativeTolerance = -1;
  app.add_option("input", options.hloPath, "HLO module (text)")->required();
  app.add_option("--reference", options.referencePath,
                 "Module mode: the interpreter runs this module for the expected outputs "
                 "(the unoptimized module the compiled one was optimized from)");
  app.add_flag("--interpret", options.interpretOnly,
               "Run the reference interpreter only (no GPU needed)");
  app.add_option("--manifest", options.manifestPath,
                 "Launch manifest from hlo-compile (its \"target\" says where the kernels "
                 "run: a GPU, or this CPU)");
  app.add_option("--code", options.codePath,
                 "The .ptx, .cubin or host .so (default: the manifest's \"code\", beside it)");
  app.add_option("--input", inputSpecs, "N=FILE.npy: entry parameter N from a .npy file")
      ->type_name("N=FILE");
  app.add_option("--output-dir", options.outputDir,
                 "--interpret: write output i as DIR/output_i.npy");
  app.add_option("--expect-dir", options.expectDir,
                 "--interpret: compare output i with DIR/output_i.npy (PASS/FAIL)");
  app.add_option("--save-dir", options.saveDir,
                 "Write the inputs (and, on a GPU, the GPU's outputs) as .npy files");
  app.add_option("--seed", options.seed, "Seed of the generated inputs")->capture_default_str();
  app.add_option("--atol", absoluteTolerance,
                 "Absolute error bound for floats (default per type: f64 1e-9, f32 1e-5, narrow "
                 "floats two units in the last place; a reduced output adds (4 sqrt(n) u + p) x "
                 "|terms| per element: n elements reduced, accumulated in unit u (a dot: f32's), "
                 "p per product (TF32: 2^-10), |terms| the element's sum of absolute terms as "
                 "the interpreter computes it; see the README)");
  app.add_option("--rtol", relativeTolerance,
                 "Relative error bound for floats (default as --atol's); giving either drops the "
                 "growth term");
  app.add_option("--mode", mode,
                 "auto: the whole module when its kernels cover it, else each kernel "
                 "alone; module; kernels; replay: each kernel on the values "
                 "the module gives it (the interpreter's), checked against the "
                 "interpreter's result for its instruction")
      ->check(CLI::IsMember({"auto", "module", "kernels", "replay"}))
      ->capture_default_str();
  app.add_flag("--bench", options.bench, "Time each kernel and the device's copy bandwidth");
  app.add_flag("--no-aliasing", options.noAliasing,
               "Give outputs that the manifest aliases to an input (in-place updates) a "
               "poisoned buffer of their own: an in-place kernel then leaves the poison "
               "outside its update (a check that it touches nothing else); module mode then "
               "runs without the manifest's memory plan");
  app.add_flag("--no-buffer-sharing", options.noBufferSharing,
               "Module mode: give every buffer its own memory instead of the manifest's "
               "memory plan (its allocations, where buffers whose lives do not overlap "
               "share memory and a loop's state is its initial value's and results')");
  app.add_option("--warmup", options.warmup,
                 "--bench: launches before timing (default: 10 on a GPU, 1 on the host)")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--iterations", options.iterations,
                 "--bench: timed launches (default: 100 on a GPU, the mean of N back to back, "
                 "median of 5 such batches; 5 on the host, their median)")
      ->check(CLI::PositiveNumber);
  app.add_option("--device", options.device, "CUDA device ordinal")->capture_default_str();
  app.add_option("--host-threads", options.hostThreads,
                 "Host kernels: threads the blocks run on (default: one per hardware thread)");
  app.add_option("--report", options.reportPath,
                 "Append one TSV row per kernel: module, kernel, emitter, max abs error, "
                 "status, us, GB/s, % of copy bandwidth");
  app.add_option("--xla-kernels", options.xlaKernelsDir,
                 "An XLA dump directory (xla_kernels.tsv and xla_ptx/, as the corpus dumps "
                 "have): on a GPU, XLA's kernel for each fusion runs beside ours on the same "
                 "inputs, bound to the same buffers (operands, then results), is checked "
                 "against the interpreter and, with --bench, timed the same way; the report "
                 "gets XLA's columns. Kernels or replay mode (auto means kernels)");
  app.add_option("--max-while-iterations", options.maxWhileIterations,
                 "Interpreter: report a while loop running longer than this")
      ->capture_default_str();
  app.add_option("--max-elements", options.maxElements,
                 "Interpreter: report arrays larger than this instead of allocating them")
      ->capture_default_str();
  app.add_flag("--launch-only", options.launchOnly,
               "Run the kernels on their generated inputs without computing the "
               "reference (nothing is checked): a dry run of the launches");
  app.add_flag("--time-only", options.timeOnly,
               "Kernels mode: time each kernel (--bench) on its generated inputs without "
               "computing the reference (nothing is checked; inputs as a check's, not "
               "--launch-only's zeros)");
  app.add_flag("--skip-oversized", options.skipOversized,
               "Skip, with a note, the kernels whose reference needs an array over "
               "--max-elements instead of stopping at the first (the whole module's: "
               "check kernel by kernel instead); exit 4 if nothing was checked");
  app.add_option("--autotune", options.autotunePath,
                 "Tune the manifest's GEMM kernels: compile candidate configs with "
                 "hlo-compile, time each (on the GPU; on the host for --target=host "
                 "kernels), check the fastest against the interpreter and write it to this "
                 "tuning file (merged with its entries), which hlo-compile --gemm-configs reads");
  app.add_option("--autotune-prepare", options.autotunePrepare,
                 "Compile the manifest's GEMM candidates into this directory (needs "
                 "hlo-compile; with --autotune, then time them); it travels to a GPU machine "
                 "without LLVM, where --autotune-candidates times them");
  app.add_option("--autotune-candidates", options.autotuneCandidates,
                 "--autotune: time the candidates --autotune-prepare compiled into this "
                 "directory (the input: DIR/module.hlo; no --manifest or hlo-compile needed)");
  app.add_option("--hlo-compile", options.hloCompilePath,
                 "--autotune: the hlo-compile to compile candidates with (default: the one "
                 "beside hlo-run, else PATH's)");
  app.add_option("--autotune-limit", options.autotuneLimit,
                 "--autotune: candidates a GEMM, the compiled config's first")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  app.add_option("--autotune-timeout", options.autotuneTimeout,
                 "--autotune: seconds each candidate's compile or run may take")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError &e) {
    // --help and --version exit 0; a usage error exits as bad input does.
    return app.exit(e) == 0 ? kExitPass : kExitError;
  }

  for (const std::string &spec : inputSpecs)
    if (!parseInputSpec(spec, options)) {
      std::cerr << "hlo-run: error: --input expects N=FILE.npy, got '" << spec << "'\n";
      return kExitError;
    }
  if (absoluteTolerance >= 0)
    options.absoluteTolerance = absoluteTolerance;
  if (relativeTolerance >= 0)
    options.relativeTolerance = relativeTolerance;
  options.mode = mode == "module"    ? CheckMode::Module
                 : mode == "kernels" ? CheckMode::Kernels
                 : mode == "replay"  ? CheckMode::Replay
                                     : CheckMode::Auto;
  if (options.timeOnly) {
    if (options.launchOnly || options.interpretOnly || options.mode == CheckMode::Module ||
        options.mode == CheckMode::Replay) {
      std::cerr << "hlo-run: error: --time-only times kernels one at a time without the "
                   "interpreter: not with --launch-only, --interpret or --mode module/replay\n";
      return kExitError;
    }
    options.mode = CheckMode::Kernels;
    options.bench = true;
  }
  if (options.launchOnly && (options.interpretOnly || options.mode == CheckMode::Replay)) {
    std::cerr << "hlo-run: error: --launch-only runs compiled kernels without the "
                 "interpreter: not with --interpret or --mode replay\n";
    return kExitError;
  }
  if (!options.autotuneCandidates.empty()) {
    if (options.autotunePath.empty()) {
      std::cerr << "hlo-run: error: --autotune-candidates times candidates for --autotune FILE\n";
      return kExitError;
    }
    return runGemmAutotune(options, nullptr);
  }
  if (!options.interpretOnly && options.manifestPath.empty()) {
    std::cerr << "hlo-run: error: give --interpret, or --manifest to run compiled kernels\n";
    return kExitError;
  }

  std::optional<LaunchManifest> manifest;
  if (!options.interpretOnly) {
    manifest = loadLaunchManifest(options.manifestPath);
    if (!manifest)
      return kExitError;
    if (!options.autotunePath.empty() || !options.autotunePrepare.empty())
      return runGemmAutotune(options, &*manifest);
    useCompiledModule(options, *manifest);
  }
  ErrorOr<std::shared_ptr<SourceFile>> read = SourceFile::read(options.hloPath);
  if (!read) {
    std::cerr << "hlo-run: error: " << read.error() << "\n";
    return kExitError;
  }
  std::shared_ptr<SourceFile> file = std::move(*read);
  DiagnosticEngine diagnostics(file);
  std::unique_ptr<HloModule> module = parseHloModule(file, diagnostics);
  if (module)
    verifyModule(*module, diagnostics);
  std::cerr << diagnostics.rendered();
  if (!module || diagnostics.hasErrors())
    return kExitError;
  std::unique_ptr<HloModule> reference;
  if (!options.referencePath.empty()) {
    ErrorOr<std::shared_ptr<SourceFile>> referenceFile = SourceFile::read(options.referencePath);
    if (!referenceFile) {
      std::cerr << "hlo-run: error: " << referenceFile.error() << "\n";
      return kExitError;
    }
    DiagnosticEngine referenceDiagnostics(*referenceFile);
    reference = parseHloModule(*referenceFile, referenceDiagnostics);
    if (reference)
      verifyModule(*reference, referenceDiagnostics);
    std::cerr << referenceDiagnostics.rendered();
    if (!reference || referenceDiagnostics.hasErrors())
      return kExitError;
  }
  // Constants whose values the text elides hold made-up ones, the same in
  // every parse of it (the original's: a rewritten module prints them).
  options.filledConstants = countFilledConstants(reference ? *reference : *module);
  if (options.filledConstants > 0)
    std::cout << "note: " << options.filledConstants
              << " constant(s) elided in the module's text ({...}) hold made-up values "
                 "(seeded by each one's name, as XLA's parser fills them): outputs are "
                 "checked as far as their values are finite\n";
  try {
    return options.interpretOnly ? runInterpreter(options, *module)
                                 : runKernelCheck(options, *manifest, *module, reference.get());
  } catch (const std::bad_alloc &) {
    std::cerr << "hlo-run: error: out of memory (--max-elements bounds the interpreter's "
                 "arrays)\n";
    return kExitError;
  }
}
