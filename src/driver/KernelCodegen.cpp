//===- KernelCodegen.cpp - PTX one distinct kernel at a time --------------===//
#include "KernelCodegen.h"
#include "KernelFingerprint.h"

#include "pipeline/KernelPtx.h"
#include "pipeline/ParallelCompile.h"
#include "pipeline/Target.h"

#include "llvm/Support/FileSystem.h"

#include <fmt/core.h>

#include <elf.h>
#include <link.h>

#include <map>
#include <set>

namespace hlo::driver {
namespace {

/// What the cache holds for one kernel.
struct CachedKernel {
  /// The PTX module's header the kernel was compiled under.
  std::string header;
  pipeline::KernelPtx ptx;
  /// Its launch and shared memory (symbol and launch index are the
  /// module's).
  pipeline::CompiledKernel kernel;
};

void putField(std::string &out, llvm::StringRef name, llvm::StringRef value) {
  out += fmt::format("{} {}\n", name.str(), value.size());
  out += value.str();
  out += "\n";
}

std::string serialize(const CachedKernel &cached) {
  std::string out;
  putField(out, "header", cached.header);
  putField(out, "symbol", cached.ptx.symbol);
  putField(out, "text", cached.ptx.text);
  for (const std::string &declaration : cached.ptx.declarations)
    putField(out, "declaration", declaration);
  const pipeline::CompiledKernel &k = cached.kernel;
  std::array<int64_t, 3> cluster = k.cluster.value_or(std::array<int64_t, 3>{0, 0, 0});
  putField(out, "launch",
           fmt::format("{} {} {} {} {} {} {} {} {} {} {} {} {} {}", k.grid[0], k.grid[1],
                       k.grid[2], k.block[0], k.block[1], k.block[2], k.staticSharedBytes,
                       k.dynamicSharedBytes, k.maxRegisters, int(k.concurrentThreads),
                       int(k.cluster.has_value()), cluster[0], cluster[1], cluster[2]));
  return out;
}

std::optional<CachedKernel> deserialize(llvm::StringRef in) {
  CachedKernel cached;
  bool hasLaunch = false;
  while (!in.empty()) {
    auto [line, rest] = in.split('\n');
    auto [name, sizeText] = line.split(' ');
    size_t size = 0;
    if (sizeText.getAsInteger(10, size) || rest.size() < size + 1 || rest[size] != '\n')
      return std::nullopt;
    llvm::StringRef value = rest.take_front(size);
    in = rest.drop_front(size + 1);
    if (name == "header") {
      cached.header = value.str();
    } else if (name == "symbol") {
      cached.ptx.symbol = value.str();
    } else if (name == "text") {
      cached.ptx.text = value.str();
    } else if (name == "declaration") {
      cached.ptx.declarations.push_back(value.str());
    } else if (name == "launch") {
      std::vector<int64_t> numbers;
      llvm::SmallVector<llvm::StringRef> fields;
      value.split(fields, ' ');
      for (llvm::StringRef field : fields) {
        int64_t number;
        if (field.getAsInteger(10, number))
          return std::nullopt;
        numbers.push_back(number);
      }
      if (numbers.size() != 14)
        return std::nullopt;
      pipeline::CompiledKernel &k = cached.kernel;
      k.grid = {numbers[0], numbers[1], numbers[2]};
      k.block = {numbers[3], numbers[4], numbers[5]};
      k.staticSharedBytes = numbers[6];
      k.dynamicSharedBytes = numbers[7];
      k.maxRegisters = numbers[8];
      k.concurrentThreads = numbers[9] != 0;
      if (numbers[10])
        k.cluster = std::array<int64_t, 3>{numbers[11], numbers[12], numbers[13]};
      hasLaunch = true;
    } else {
      return std::nullopt;
    }
  }
  if (!hasLaunch || cached.ptx.symbol.empty() || cached.ptx.text.empty())
    return std::nullopt;
  return cached;
}

/// The GNU build ids of this program and of the LLVM and MLIR libraries it
/// runs with, as hex.
std::string buildIds() {
  std::string ids;
  dl_iterate_phdr(
      [](dl_phdr_info *info, size_t, void *data) {
        std::string name = info->dlpi_name ? info->dlpi_name : "";
        bool wanted = name.empty() || name.find("libLLVM") != std::string::npos ||
                      name.find("libMLIR") != std::string::npos;
        if (!wanted)
          return 0;
        auto &out = *static_cast<std::string *>(data);
        for (int h = 0; h < info->dlpi_phnum; ++h) {
          const ElfW(Phdr) &header = info->dlpi_phdr[h];
          if (header.p_type != PT_NOTE)
            continue;
          auto *at = reinterpret_cast<const char *>(info->dlpi_addr + header.p_vaddr);
          const char *end = at + header.p_memsz;
          while (at + sizeof(ElfW(Nhdr)) <= end) {
            auto *note = reinterpret_cast<const ElfW(Nhdr) *>(at);
            const char *nameAt = at + sizeof(ElfW(Nhdr));
            const char *desc = nameAt + ((note->n_namesz + 3) & ~3u);
            if (note->n_type == NT_GNU_BUILD_ID && note->n_namesz == 4 &&
                std::string(nameAt, 3) == "GNU")
              for (unsigned i = 0; i < note->n_descsz; ++i)
                out += fmt::format("{:02x}", static_cast<unsigned char>(desc[i]));
            at = desc + ((note->n_descsz + 3) & ~3u);
          }
        }
        out += ";";
        return 0;
      },
      &ids);
  return ids;
}

/// A file's identity: its path, size and time (a toolkit updated in place
/// changes them).
std::string fileIdentity(const std::string &path) {
  llvm::sys::fs::file_status status;
  if (llvm::sys::fs::status(path, status))
    return path + ":none";
  return fmt::format("{}:{}:{}", path, status.getSize(),
                     status.getLastModificationTime().time_since_epoch().count());
}

/// Publishes "failed" for every key still claimed when it goes, so that no
/// waiter waits for a compile that returned early.
struct Claims {
  KernelCache *cache;
  std::set<std::string> open;
  ~Claims() {
    for (const std::string &key : open)
      cache->publish(key, std::nullopt);
  }
  void publish(const std::string &key, std::string payload) {
    if (open.erase(key))
      cache->publish(key, std::move(payload));
  }
};

/// Compiles the kernels of `module` that `compile` holds (launch indices),
/// erasing the others, into `ready` by key.
llvm::Error compileKernels(mlir::ModuleOp module, const std::vector<FingerprintedKernel> &ids,
                           const std::set<size_t> &compile,
                           const pipeline::PipelineOptions &options,
                           pipeline::PassDumper &dumper, pipeline::StageCallback stageDone,
                           unsigned threads, std::map<std::string, CachedKernel> &ready) {
  std::set<int64_t> launches;
  std::vector<std::string> symbols;
  for (size_t i : compile) {
    launches.insert(ids[i].launch);
    symbols.push_back(ids[i].symbol);
  }
  pipeline::keepKernels(module, [&](int64_t launch) { return launches.count(launch) > 0; });
  pipeline::PipelineOptions independent = options;
  independent.independentKernels = true;
  independent.resourceUsage = false;
  llvm::Expected<pipeline::CompiledCode> compiled = pipeline::compileModuleInParts(
      module, pipeline::OutputKind::Ptx, independent, dumper, stageDone, threads);
  if (!compiled)
    return compiled.takeError();
  llvm::Expected<pipeline::CutPtx> cut = pipeline::cutPtxIntoKernels(compiled->code, symbols);
  if (!cut)
    return cut.takeError();
  size_t n = 0;
  for (size_t i : compile) {
    CachedKernel cached;
    cached.header = cut->header;
    cached.ptx = std::move(cut->kernels[n++]);
    auto kernel = llvm::find_if(compiled->kernels, [&](const pipeline::CompiledKernel &k) {
      return k.symbol == ids[i].symbol;
    });
    if (kernel == compiled->kernels.end())
      return pipeline::pipelineError("internal error: kernel '" + ids[i].name +
                                     "' is missing from the compiled code");
    cached.kernel = *kernel;
    ready[ids[i].key] = std::move(cached);
  }
  return llvm::Error::success();
}

} // namespace

bool compilesPerKernel(pipeline::OutputKind kind, const pipeline::PipelineOptions &options) {
  return options.target == pipeline::TargetKind::Nvptx &&
         (kind == pipeline::OutputKind::Ptx || kind == pipeline::OutputKind::Cubin) &&
         !options.printAfterEachPass && options.dumpDir.empty() && !options.lineInfo;
}

std::string codegenSalt(const pipeline::PipelineOptions &options) {
  static const std::string ids = buildIds();
  return fmt::format("hlo-compile per-kernel PTX 1;{};{};ptx {};O{};index {};{};{}", ids,
                     options.gpuArch, options.ptxVersion, options.optLevel,
                     options.indexBitwidth,
                     fileIdentity(options.cudaPath + "/nvvm/libdevice/libdevice.10.bc"),
                     fileIdentity(options.cudaPath + "/bin/ptxas"));
}

llvm::Expected<pipeline::CompiledCode>
compilePerKernel(mlir::ModuleOp module, pipeline::OutputKind kind,
                 const pipeline::PipelineOptions &options, pipeline::PassDumper &dumper,
                 pipeline::StageCallback stageDone, unsigned threads, KernelCache *cache,
                 KernelCacheReport &report) {
  // The module's index width holds for each of its kernels, compiled in
  // whatever company.
  pipeline::PipelineOptions fixed = options;
  fixed.indexBitwidth = pipeline::nvptxIndexBitwidth(module);
  std::string salt = codegenSalt(fixed);
  std::vector<FingerprintedKernel> ids = fingerprintKernels(module, salt);
  if (ids.empty())
    return pipeline::compileModuleInParts(module, kind, options, dumper, stageDone, threads);
  std::map<std::string, CachedKernel> ready;
  std::set<size_t> compile;
  std::vector<size_t> waiting;
  Claims claims{cache, {}};
  for (size_t i = 0; i < ids.size(); ++i) {
    if (ids[i].sameAs >= 0)
      continue;
    ++report.kernels;
    if (!cache) {
      compile.insert(i);
      continue;
    }
    KernelCache::Claim claim = cache->claim(ids[i].key);
    std::optional<CachedKernel> cached;
    if (claim.state == KernelCache::State::Hit && (cached = deserialize(claim.payload)) &&
        cached->ptx.symbol == ids[i].symbol) {
      ready[ids[i].key] = std::move(*cached);
      ++report.found;
    } else if (claim.state == KernelCache::State::Wait) {
      waiting.push_back(i);
    } else {
      compile.insert(i);
      if (claim.state == KernelCache::State::Compile)
        claims.open.insert(ids[i].key);
    }
  }
  if (stageDone && cache)
    stageDone(fmt::format("kernel cache: {} of {} kernels found", report.found,
                          report.kernels));
  // A kernel another input compiles may fail there (with the rest of its
  // part): then it is compiled here, from a copy kept for it.
  mlir::OwningOpRef<mlir::ModuleOp> spare;
  if (!waiting.empty())
    spare = module.clone();
  if (!compile.empty()) {
    report.compiled += static_cast<int64_t>(compile.size());
    if (llvm::Error error = compileKernels(module, ids, compile, fixed, dumper, stageDone,
                                           threads, ready))
      return error;
    for (size_t i : compile)
      if (cache)
        claims.publish(ids[i].key, serialize(ready[ids[i].key]));
  }
  std::set<size_t> again;
  for (size_t i : waiting) {
    std::optional<std::string> payload = cache->wait(ids[i].key);
    std::optional<CachedKernel> cached = payload ? deserialize(*payload) : std::nullopt;
    if (cached && cached->ptx.symbol == ids[i].symbol) {
      ready[ids[i].key] = std::move(*cached);
      ++report.found;
    } else {
      again.insert(i);
    }
  }
  if (!again.empty()) {
    report.compiled += static_cast<int64_t>(again.size());
    if (llvm::Error error =
            compileKernels(*spare, ids, again, fixed, dumper, stageDone, threads, ready))
      return error;
    for (size_t i : again)
      cache->publish(ids[i].key, serialize(ready[ids[i].key]));
  }

  // The module: every kernel in order, under its own name.
  pipeline::CompiledCode code;
  code.kind = kind;
  std::vector<const pipeline::KernelPtx *> texts;
  std::vector<std::string> names;
  for (const FingerprintedKernel &id : ids) {
    // A kernel equal to an earlier one has its key.
    const CachedKernel &cached = ready.at(id.key);
    texts.push_back(&cached.ptx);
    names.push_back(id.name);
    pipeline::CompiledKernel kernel = cached.kernel;
    kernel.symbol = id.name;
    kernel.kernelIndex = id.launch;
    code.kernels.push_back(std::move(kernel));
  }
  code.code = pipeline::joinKernelPtx(ready.at(ids.front().key).header, texts, names);
  if (kind != pipeline::OutputKind::Cubin && !options.resourceUsage)
    return code;

  // ptxas on the joined PTX: the cubin (cached by the PTX's hash), or
  // only what it reports of each kernel.
  std::unique_ptr<pipeline::CodegenTarget> target = pipeline::createTarget(options);
  std::optional<std::string> step =
      target->finishingStep(pipeline::OutputKind::Cubin, options.resourceUsage);
  bool cachesCubin = cache && kind == pipeline::OutputKind::Cubin && !options.resourceUsage;
  std::string cubinKey =
      cachesCubin ? KernelCache::keyOf(salt + "\ncubin\n" + code.code) : std::string();
  if (cachesCubin) {
    KernelCache::Claim claim = cache->claimOrWait(cubinKey);
    if (claim.state == KernelCache::State::Hit) {
      report.cubinFound = true;
      code.code = std::move(claim.payload);
      return code;
    }
    claims.open.insert(cubinKey);
  }
  llvm::Expected<std::string> cubin =
      target->finish(code.code, pipeline::OutputKind::Cubin,
                     options.resourceUsage ? &code.resources : nullptr);
  if (!cubin)
    return cubin.takeError();
  if (stageDone && step)
    stageDone(*step);
  pipeline::attachResourceUsage(code);
  if (kind == pipeline::OutputKind::Cubin) {
    if (cachesCubin)
      claims.publish(cubinKey, *cubin);
    code.code = std::move(*cubin);
  }
  return code;
}

} // namespace hlo::driver
