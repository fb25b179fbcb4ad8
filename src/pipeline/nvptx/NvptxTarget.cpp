//===- NvptxTarget.cpp - The NVPTX target ---------------------------------===//
//
// Owns everything NVPTX-specific after the shared MLIR passes: the
// conversion to the LLVM and NVVM dialects (thread ids, barriers and
// shuffles as NVVM intrinsics, math as libdevice calls), linking the
// libdevice functions the kernels call (then internalized so that O3 drops
// the rest), the `nvvm-reflect-ftz` flag, XLA's f32 division (div.full),
// the target machine, and PTX for
// the newest PTX ISA the toolkit's ptxas takes (a cubin through ptxas).
//
//===----------------------------------------------------------------------===//
#include "pipeline/Target.h"
#include "pipeline/Passes.h"
#include "pipeline/nvptx/NvptxPasses.h"
#include "pipeline/ExternalTool.h"
#include "pipeline/nvptx/NvptxArchitectures.h"
#include "pipeline/nvptx/Ptxas.h"

#include "mlir/Conversion/ComplexToLLVM/ComplexToLLVM.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Linker/Linker.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Triple.h"

#include <cstdio>
#include <map>
#include <mutex>

namespace hlo::pipeline {
namespace {

constexpr const char *kTriple = "nvptx64-nvidia-cuda";

void initializeNvptx() {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
    // f32 division as XLA compiles it: div.full.f32 (full range, at most
    // 2 ulp) rather than the IEEE div.rn.f32 subroutine, whose slow path
    // costs registers in every kernel that divides. Only a command-line
    // option of the NVPTX back end selects it.
    const char *arguments[] = {"hlo-compile", "-nvptx-prec-divf32=1"};
    llvm::cl::ParseCommandLineOptions(2, arguments);
  });
}

/// Links the libdevice functions `module` calls; they become internal so
/// that the optimizer inlines them and drops the rest.
llvm::Error linkLibdevice(llvm::Module &module, const PipelineOptions &options) {
  bool needed = false;
  for (const llvm::Function &function : module)
    needed |= function.isDeclaration() && function.getName().starts_with("__nv_");
  if (!needed)
    return llvm::Error::success();
  std::string path = options.cudaPath + "/nvvm/libdevice/libdevice.10.bc";
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return pipelineError("cannot read libdevice at " + path + " (set --cuda-path or CUDA_HOME)");
  // Read lazily: the linker materializes only the functions it moves
  // (a kernel calls a handful of libdevice's ~500).
  auto libdevice = llvm::getOwningLazyBitcodeModule(std::move(*buffer), module.getContext());
  if (!libdevice)
    return pipelineError("cannot parse " + path + ": " + llvm::toString(libdevice.takeError()));
  (*libdevice)->setTargetTriple(module.getTargetTriple());
  (*libdevice)->setDataLayout(module.getDataLayout());
  if (llvm::Linker::linkModules(
          module, std::move(*libdevice), llvm::Linker::LinkOnlyNeeded,
          [](llvm::Module &linked, const llvm::StringSet<> &names) {
            for (llvm::Function &function : linked)
              if (!function.isDeclaration() && names.contains(function.getName()))
                function.setLinkage(llvm::GlobalValue::InternalLinkage);
          }))
    return pipelineError("linking libdevice failed");
  return llvm::Error::success();
}

/// (major, minor) of the toolkit's ptxas, from `ptxas --version`.
std::optional<std::pair<int, int>> ptxasRelease(const std::string &cudaPath) {
  std::optional<std::string> version =
      captureToolOutput(cudaPath + "/bin/ptxas", {"--version"});
  if (!version)
    return std::nullopt;
  size_t at = version->find("release ");
  if (at == std::string::npos)
    return std::nullopt;
  int major = 0, minor = 0;
  if (std::sscanf(version->c_str() + at + 8, "%d.%d", &major, &minor) != 2)
    return std::nullopt;
  return std::make_pair(major, minor);
}

/// "9.0" for "ptx90".
std::string ptxVersionText(llvm::StringRef feature) {
  llvm::StringRef digits = feature.drop_front(3);
  return digits.drop_back().str() + "." + digits.take_back().str();
}

/// The capability number of "sm_90a" (90); 0 for other names.
int capabilityOf(llvm::StringRef arch) {
  int capability = 0;
  if (!arch.consume_front("sm_"))
    return 0;
  while (!arch.empty() && (arch.back() == 'a' || arch.back() == 'f'))
    arch = arch.drop_back();
  return arch.getAsInteger(10, capability) ? 0 : capability;
}

std::unique_ptr<llvm::MCSubtargetInfo> nvptxSubtargetInfo() {
  initializeNvptx();
  std::string error;
  llvm::Triple triple(kTriple);
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return nullptr;
  return std::unique_ptr<llvm::MCSubtargetInfo>(
      target->createMCSubtargetInfo(triple, "", ""));
}

} // namespace

std::vector<std::string> nvptxArchitectures() {
  std::vector<std::string> names;
  if (std::unique_ptr<llvm::MCSubtargetInfo> info = nvptxSubtargetInfo())
    for (const llvm::SubtargetSubTypeKV &cpu : info->getAllProcessorDescriptions())
      if (capabilityOf(cpu.Key) >= 75)
        names.push_back(cpu.Key);
  std::sort(names.begin(), names.end(), [](const std::string &a, const std::string &b) {
    return std::make_pair(capabilityOf(a), a) < std::make_pair(capabilityOf(b), b);
  });
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

std::vector<std::string> ptxVersions() {
  std::vector<std::string> versions;
  if (std::unique_ptr<llvm::MCSubtargetInfo> info = nvptxSubtargetInfo())
    for (const llvm::SubtargetFeatureKV &feature : info->getAllProcessorFeatures()) {
      llvm::StringRef key(feature.Key);
      if (key.starts_with("ptx") && key.size() == 5)
        versions.push_back(ptxVersionText(key));
    }
  return versions;
}

std::string minimumPtxVersion(const std::string &arch) {
  // The PTX ISA that introduced each target (NVIDIA's PTX ISA notes).
  static const std::map<std::string, std::string> kIntroduced = {
      {"sm_75", "6.3"},   {"sm_80", "7.0"},   {"sm_86", "7.1"},   {"sm_87", "7.4"},
      {"sm_88", "9.0"},   {"sm_89", "7.8"},   {"sm_90", "7.8"},   {"sm_90a", "8.0"},
      {"sm_100", "8.6"},  {"sm_100a", "8.6"}, {"sm_100f", "8.8"}, {"sm_101", "8.6"},
      {"sm_101a", "8.6"}, {"sm_101f", "8.8"}, {"sm_103", "8.8"},  {"sm_103a", "8.8"},
      {"sm_103f", "8.8"}, {"sm_110", "9.0"},  {"sm_110a", "9.0"}, {"sm_110f", "9.0"},
      {"sm_120", "8.7"},  {"sm_120a", "8.7"}, {"sm_120f", "8.8"}, {"sm_121", "8.8"},
      {"sm_121a", "8.8"}, {"sm_121f", "8.8"}};
  auto found = kIntroduced.find(arch);
  return found == kIntroduced.end() ? "" : found->second;
}

std::vector<std::string> ptxasArchitectures(const std::string &cudaPath) {
  // Parts of a module, and batch inputs, are compiled on several threads.
  static std::mutex mutex;
  std::lock_guard<std::mutex> lock(mutex);
  static std::map<std::string, std::vector<std::string>> cache;
  auto cached = cache.find(cudaPath);
  if (cached != cache.end())
    return cached->second;
  std::vector<std::string> names;
  // `ptxas --help` lists --gpu-name's values as 'compute_90','sm_90',...
  if (std::optional<std::string> help = captureToolOutput(cudaPath + "/bin/ptxas", {"--help"}))
    for (size_t at = help->find("'sm_"); at != std::string::npos;
         at = help->find("'sm_", at + 1)) {
      size_t end = help->find('\'', at + 1);
      if (end == std::string::npos)
        break;
      names.push_back(help->substr(at + 1, end - at - 1));
    }
  std::sort(names.begin(), names.end(), [](const std::string &a, const std::string &b) {
    return std::make_pair(capabilityOf(a), a) < std::make_pair(capabilityOf(b), b);
  });
  names.erase(std::unique(names.begin(), names.end()), names.end());
  cache[cudaPath] = names;
  return names;
}

std::string ptxFeatureFor(const PipelineOptions &options) {
  if (!options.ptxVersion.empty()) {
    std::string digits = options.ptxVersion;
    digits.erase(std::remove(digits.begin(), digits.end(), '.'), digits.end());
    return "ptx" + digits;
  }
  // PTX ISA per CUDA release (NVIDIA's release notes); LLVM 22 emits up
  // to 9.0.
  constexpr int kLlvmNewest = 90;
  static std::mutex mutex;
  std::lock_guard<std::mutex> lock(mutex);
  static std::map<std::string, int> cache;
  auto cached = cache.find(options.cudaPath);
  if (cached == cache.end()) {
    int isa = kLlvmNewest;
    if (std::optional<std::pair<int, int>> release =
            ptxasRelease(options.cudaPath)) {
      auto [major, minor] = *release;
      static const std::map<std::pair<int, int>, int> kIsaOfRelease = {
          {{11, 8}, 78}, {{12, 0}, 80}, {{12, 1}, 81}, {{12, 2}, 82},
          {{12, 3}, 83}, {{12, 4}, 84}, {{12, 5}, 85}, {{12, 6}, 85},
          {{12, 8}, 87}, {{12, 9}, 88}, {{13, 0}, 90}};
      auto known = kIsaOfRelease.upper_bound({major, minor});
      if (known != kIsaOfRelease.begin())
        isa = std::min(kLlvmNewest, std::prev(known)->second);
    }
    cached = cache.emplace(options.cudaPath, isa).first;
  }
  return "ptx" + std::to_string(cached->second);
}

unsigned nvptxIndexBitwidth(mlir::ModuleOp module) {
  bool large = false;
  module.walk([&](mlir::func::FuncOp function) {
    for (mlir::Type type : function.getArgumentTypes())
      if (auto shaped = mlir::dyn_cast<mlir::ShapedType>(type))
        if (shaped.hasStaticShape() && shaped.getNumElements() >= (int64_t{1} << 31))
          large = true;
  });
  return large ? 64 : 32;
}

namespace {

class NvptxTarget : public CodegenTarget {
public:
  explicit NvptxTarget(const PipelineOptions &options) : options(options) {}

  void addConversionPasses(mlir::PassManager &pm, mlir::ModuleOp module) const override {
    unsigned indexBitwidth =
        options.indexBitwidth ? options.indexBitwidth : nvptxIndexBitwidth(module);
    pm.addPass(createLowerMmaSyncToNvvmPass(
        LowerMmaSyncToNvvmPassOptions{capabilityOf(options.gpuArch)}));
    pm.addPass(createLowerLdmatrixToNvvmPass());
    pm.addPass(createLowerWgmmaToNvvmPass());
    pm.addPass(createLowerAsyncCopiesToNvvmPass());
    pm.addPass(createLowerTmaToNvvmPass());
    if (capabilityOf(options.gpuArch) >= 89)
      pm.addPass(createHardwareFp8ConversionsPass());
    addSmallFloatLowering(pm);
    pm.addPass(createPackAtomicsPass(PackAtomicsPassOptions{capabilityOf(options.gpuArch)}));
    pm.addPass(mlir::createSCFToControlFlowPass());
    pm.addPass(createLowerElementPointersPass(LowerElementPointersPassOptions{indexBitwidth}));
    mlir::ConvertGpuOpsToNVVMOpsOptions nvvm;
    nvvm.useBarePtrCallConv = true;
    nvvm.indexBitwidth = indexBitwidth;
    pm.addNestedPass<mlir::gpu::GPUModuleOp>(mlir::createConvertGpuOpsToNVVMOps(nvvm));
    pm.addNestedPass<mlir::gpu::GPUModuleOp>(mlir::createConvertComplexToLLVMPass());
    // NVVM ops that are inline PTX (wgmma.mma_async).
    pm.addNestedPass<mlir::gpu::GPUModuleOp>(mlir::createConvertNVVMToLLVMPass());
    pm.addPass(mlir::createReconcileUnrealizedCastsPass());
    pm.addNestedPass<mlir::gpu::GPUModuleOp>(createDynamicSharedMemoryPass());
    pm.addNestedPass<mlir::gpu::GPUModuleOp>(createAnnotateNvvmKernelsPass());
  }

  /// Moves the gpu.module's contents to the top level (the LLVM translation
  /// takes a builtin module).
  llvm::Error finishLlvmDialect(mlir::ModuleOp module) const override {
    for (auto gpuModule :
         llvm::make_early_inc_range(module.getOps<mlir::gpu::GPUModuleOp>())) {
      mlir::Block &body = gpuModule.getBodyRegion().front();
      for (mlir::Operation &op : llvm::make_early_inc_range(body.getOperations()))
        op.moveBefore(module.getBody(), module.getBody()->end());
      gpuModule.erase();
    }
    return llvm::Error::success();
  }

  void registerTranslations(mlir::DialectRegistry &registry) const override {
    mlir::registerBuiltinDialectTranslation(registry);
    mlir::registerLLVMDialectTranslation(registry);
    mlir::registerNVVMDialectTranslation(registry);
  }

  llvm::Expected<std::unique_ptr<llvm::TargetMachine>> createTargetMachine() const override {
    initializeNvptx();
    llvm::Triple triple(kTriple);
    std::string error;
    const llvm::Target *target = llvm::TargetRegistry::lookupTarget(triple, error);
    if (!target)
      return pipelineError(error);
    llvm::TargetOptions targetOptions;
    return std::unique_ptr<llvm::TargetMachine>(target->createTargetMachine(
        triple, options.gpuArch, "+" + ptxFeatureFor(options), targetOptions,
        llvm::Reloc::PIC_, std::nullopt, codeGenOptLevel(options.optLevel)));
  }

  llvm::Error prepareLlvmIr(llvm::Module &module, llvm::TargetMachine &machine,
                            PassDumper &dumper) const override {
    module.setTargetTriple(llvm::Triple(kTriple));
    module.setDataLayout(machine.createDataLayout());
    if (dumper.enabled())
      dumper.dump("llvm-translate", printLlvmModule(module));
    if (llvm::Error error = linkLibdevice(module, options))
      return error;
    // Flush-to-zero off, as XLA compiles by default.
    module.addModuleFlag(llvm::Module::Override, "nvvm-reflect-ftz", uint32_t{0});
    if (dumper.enabled())
      dumper.dump("llvm-link-libdevice", printLlvmModule(module));
    return llvm::Error::success();
  }

  std::string translationStage() const override {
    return "LLVM IR, libdevice, -O" + std::to_string(options.optLevel);
  }

  OutputKind machineCodeKind(OutputKind kind) const override {
    return kind == OutputKind::Cubin ? OutputKind::Ptx : kind;
  }

  llvm::Expected<std::string> emitMachineCode(llvm::Module &module,
                                              OutputKind kind) const override {
    llvm::Expected<std::unique_ptr<llvm::TargetMachine>> machine = createTargetMachine();
    if (!machine)
      return machine.takeError();
    return emitWithTargetMachine(module, **machine, /*assembly=*/true);
  }

  /// ptxas: for a cubin, or for what it reports of each kernel.
  std::optional<std::string> finishingStep(OutputKind kind, bool resourceUsage) const override {
    if (kind == OutputKind::Cubin || resourceUsage)
      return "ptxas";
    return std::nullopt;
  }

  llvm::Expected<std::string> finish(std::string ptx, OutputKind kind,
                                     std::vector<KernelResourceUsage> *usage) const override {
    if (kind != OutputKind::Cubin && !usage)
      return ptx;
    llvm::Expected<std::string> cubin = runPtxas(ptx, options, usage);
    if (!cubin || kind == OutputKind::Cubin)
      return cubin;
    return ptx;
  }

private:
  const PipelineOptions &options;
};

} // namespace

std::unique_ptr<CodegenTarget> createNvptxTarget(const PipelineOptions &options) {
  return std::make_unique<NvptxTarget>(options);
}

} // namespace hlo::pipeline
