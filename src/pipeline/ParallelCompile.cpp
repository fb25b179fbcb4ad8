//===- ParallelCompile.cpp - A module's kernels compiled in parts ---------===//
#include "pipeline/ParallelCompile.h"
#include "pipeline/Target.h"

#include "dialect/KernelContract.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/SetVector.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

#include <algorithm>
#include <atomic>
#include <set>
#include <thread>

namespace hlo::pipeline {
namespace {

/// Parts have at least this many operations of emitted kernels and the
/// functions they reach (their count then rounded down to a power of two):
/// below it a part's fixed cost (pass managers, libdevice, the target
/// machine: ~30 ms) outweighs what a second thread gains (GPT-2's block,
/// 2 parts: 0.40-0.48 s of code generation on 2 cores; 4 parts: 0.42-0.51).
constexpr int64_t kOpsPerPart = 4000;
/// Independent kernels: a thread of its own for at least this much.
constexpr int64_t kOpsPerThread = 1500;
/// At most this many parts (each links its own libdevice functions).
constexpr unsigned kMaxParts = 8;

int64_t launchIndexOf(mlir::Operation &op) {
  return xla_gpu::getKernelIndex(&op).value_or(-1);
}

/// The kernel functions of `module` and their sizes: the operations within
/// them and within every function they reach (a kernel whose fusion is
/// many subgraphs is mostly its helpers).
std::vector<std::pair<int64_t, int64_t>> kernelSizes(mlir::ModuleOp module) {
  mlir::SymbolTable symbols(module);
  llvm::DenseMap<mlir::Operation *, int64_t> opsIn;
  auto count = [&](mlir::Operation *op) {
    auto [entry, added] = opsIn.try_emplace(op, 0);
    if (added)
      op->walk([&](mlir::Operation *) { ++entry->second; });
    return entry->second;
  };
  std::vector<std::pair<int64_t, int64_t>> sizes; // launch index, ops
  for (mlir::Operation &op : module.getBody()->getOperations()) {
    int64_t launch = launchIndexOf(op);
    if (launch < 0)
      continue;
    int64_t ops = count(&op);
    for (mlir::Operation *function : reachedSymbols(&op, symbols))
      ops += count(function);
    sizes.emplace_back(launch, ops);
  }
  return sizes;
}

/// The part of each kernel (by launch index): largest first, each into
/// the part with the fewest operations so far (the lowest on a tie).
std::map<int64_t, unsigned> assignParts(std::vector<std::pair<int64_t, int64_t>> sizes,
                                        unsigned parts) {
  std::stable_sort(sizes.begin(), sizes.end(),
                   [](const auto &a, const auto &b) { return a.second > b.second; });
  std::vector<int64_t> load(parts, 0);
  std::map<int64_t, unsigned> partOf;
  for (const auto &[launch, ops] : sizes) {
    unsigned lightest = static_cast<unsigned>(
        std::min_element(load.begin(), load.end()) - load.begin());
    partOf[launch] = lightest;
    load[lightest] += ops;
  }
  return partOf;
}

/// Whether `kind` may be compiled in parts: PTX or a cubin, without the
/// IR of every pass dumped (a dump is of the whole module).
bool mayCompileInParts(OutputKind kind, const PipelineOptions &options) {
  return options.target == TargetKind::Nvptx &&
         (kind == OutputKind::Ptx || kind == OutputKind::Cubin) &&
         !options.printAfterEachPass && options.dumpDir.empty();
}

/// How many parts to make of a module whose kernels have `sizes`: 1 when
/// it is too small to gain from parts. Independent kernels
/// (PipelineOptions::independentKernels) compile to the same PTX in any
/// part: at least a part per thread then, where there is work for each.
unsigned partCount(const std::vector<std::pair<int64_t, int64_t>> &sizes, bool independent,
                   unsigned threads) {
  int64_t ops = 0;
  for (const auto &[launch, size] : sizes)
    ops += size;
  int64_t kernels = static_cast<int64_t>(sizes.size());
  int64_t parts = std::min<int64_t>({ops / kOpsPerPart, kMaxParts, kernels});
  if (independent)
    parts = std::min<int64_t>({std::max<int64_t>(threads, parts), ops / kOpsPerThread,
                               kMaxParts, kernels});
  // A power of two: parts of about one size share 2, 4 or 8 cores evenly
  // (3 parts on 2 cores take as long as 4).
  int64_t even = 1;
  while (even * 2 <= parts)
    even *= 2;
  return static_cast<unsigned>(even);
}

/// Whether `line` starts a top-level statement that parts may repeat.
bool isSharedDeclaration(llvm::StringRef line) {
  line = line.ltrim();
  return line.starts_with(".extern") || line.starts_with(".file");
}

} // namespace

llvm::SetVector<mlir::Operation *> reachedSymbols(mlir::Operation *kernel,
                                                  mlir::SymbolTable &symbols) {
  llvm::SetVector<mlir::Operation *> reached;
  auto scan = [&](mlir::Operation *root) {
    root->walk([&](mlir::Operation *op) {
      for (mlir::NamedAttribute attribute : op->getAttrs())
        attribute.getValue().walk([&](mlir::SymbolRefAttr ref) {
          mlir::Operation *target = symbols.lookup(ref.getRootReference());
          if (target && target != kernel)
            reached.insert(target);
        });
    });
  };
  scan(kernel);
  for (size_t i = 0; i < reached.size(); ++i)
    scan(reached[i]);
  return reached;
}

void keepKernels(mlir::ModuleOp module, llvm::function_ref<bool(int64_t)> keep) {
  llvm::SmallVector<mlir::Operation *> erased;
  for (mlir::Operation &op : module.getBody()->getOperations())
    if (int64_t launch = launchIndexOf(op); launch >= 0 && !keep(launch))
      erased.push_back(&op);
  for (mlir::Operation *op : erased)
    op->erase();
  mlir::PassManager pm(module.getContext());
  pm.addPass(mlir::createSymbolDCEPass());
  (void)pm.run(module);
}

std::string joinPtxModules(const std::vector<std::string> &parts) {
  std::string joined;
  std::set<std::string> declared;
  for (size_t p = 0; p < parts.size(); ++p) {
    llvm::StringRef text = parts[p];
    // The header ends with .address_size; the first part's is kept.
    size_t header = text.find(".address_size");
    size_t bodyStart = header == llvm::StringRef::npos ? 0 : text.find('\n', header);
    bodyStart = bodyStart == llvm::StringRef::npos ? text.size() : bodyStart + 1;
    if (p == 0)
      joined += text.substr(0, bodyStart).str();
    int depth = 0;
    llvm::StringRef rest = text.substr(bodyStart);
    while (!rest.empty()) {
      auto [line, next] = rest.split('\n');
      rest = next;
      if (depth == 0 && isSharedDeclaration(line)) {
        // A declaration may span lines up to its ';'.
        std::string statement = line.str();
        while (!llvm::StringRef(statement).rtrim().ends_with(";") && !rest.empty() &&
               !llvm::StringRef(statement).ltrim().starts_with(".file")) {
          auto [more, after] = rest.split('\n');
          statement += "\n" + more.str();
          rest = after;
        }
        if (declared.insert(statement).second)
          joined += statement + "\n";
        continue;
      }
      depth += static_cast<int>(line.count('{')) - static_cast<int>(line.count('}'));
      joined += line.str() + "\n";
    }
  }
  return joined;
}

llvm::Expected<CompiledCode> compileModuleInParts(mlir::ModuleOp module, OutputKind kind,
                                                  const PipelineOptions &options,
                                                  PassDumper &dumper, StageCallback stageDone,
                                                  unsigned threads) {
  std::vector<std::pair<int64_t, int64_t>> sizes;
  if (mayCompileInParts(kind, options))
    sizes = kernelSizes(module);
  unsigned parts = partCount(sizes, options.independentKernels, threads);
  if (parts <= 1)
    return compileModule(module, kind, options, dumper, stageDone);
  std::map<int64_t, unsigned> partOf = assignParts(std::move(sizes), parts);
  std::vector<mlir::OwningOpRef<mlir::ModuleOp>> modules;
  for (unsigned p = 0; p < parts; ++p) {
    modules.push_back(module.clone());
    keepKernels(*modules.back(), [&](int64_t launch) { return partOf.at(launch) == p; });
  }
  // Parts share the MLIR context: its uniquing must take concurrent
  // users, and its registry must not change while they run.
  prepareContext(module, options);
  mlir::MLIRContext *context = module.getContext();
  bool wasMultithreaded = context->isMultithreadingEnabled();
  context->enableMultithreading(true);

  std::vector<PipelineOptions> partOptions(parts, options);
  std::vector<std::unique_ptr<PassDumper>> quiet;
  for (unsigned p = 0; p < parts; ++p) {
    partOptions[p].timePasses = false;
    partOptions[p].resourceUsage = options.resourceUsage && kind == OutputKind::Ptx;
    if (!options.independentKernels)
      partOptions[p].partSuffix = "_p" + std::to_string(p);
    quiet.push_back(std::make_unique<PassDumper>(partOptions[p]));
  }
  std::vector<std::optional<llvm::Expected<CompiledCode>>> results(parts);
  std::atomic<unsigned> next{0};
  auto work = [&] {
    for (unsigned p; (p = next++) < parts;)
      results[p].emplace(
          compileModule(*modules[p], OutputKind::Ptx, partOptions[p], *quiet[p]));
  };
  unsigned workers = std::max(1u, std::min(threads, parts));
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < workers; ++t)
    pool.emplace_back(work);
  work();
  for (std::thread &thread : pool)
    thread.join();
  context->enableMultithreading(wasMultithreaded);
  if (stageDone)
    stageDone("code generation, " + std::to_string(parts) + " parts on " +
              std::to_string(workers) + " thread" + (workers == 1 ? "" : "s"));

  CompiledCode joined;
  joined.kind = kind;
  std::vector<std::string> ptx;
  llvm::Error failure = llvm::Error::success();
  for (auto &result : results) {
    if (!*result) {
      llvm::Error error = result->takeError();
      if (failure)
        llvm::consumeError(std::move(error));
      else
        failure = std::move(error);
      continue;
    }
    CompiledCode &part = **result;
    ptx.push_back(std::move(part.code));
    llvm::append_range(joined.kernels, part.kernels);
    llvm::append_range(joined.resources, part.resources);
  }
  if (failure)
    return std::move(failure);
  joined.code = joinPtxModules(ptx);
  if (kind == OutputKind::Cubin) {
    std::unique_ptr<CodegenTarget> target = createTarget(options);
    std::optional<std::string> step = target->finishingStep(kind, options.resourceUsage);
    llvm::Expected<std::string> cubin = target->finish(
        std::move(joined.code), kind, options.resourceUsage ? &joined.resources : nullptr);
    if (!cubin)
      return cubin.takeError();
    joined.code = std::move(*cubin);
    if (stageDone && step)
      stageDone(*step);
    attachResourceUsage(joined);
  }
  return joined;
}

} // namespace hlo::pipeline
