//===- NvptxBackend.cpp - LLVM IR, libdevice, O3 and PTX ------------------===//
//
// Owns everything after the LLVM dialect: translation to LLVM IR for
// nvptx64-nvidia-cuda, linking the libdevice functions the kernels call
// (then internalized so that O3 drops the rest), the `nvvm-reflect-ftz`
// flag, the LLVM optimization pipeline, and NVPTX code generation for the
// newest PTX ISA the toolkit's ptxas takes.
//
//===----------------------------------------------------------------------===//
#include "pipeline/Pipeline.h"

#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Linker/Linker.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
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
  });
}

std::unique_ptr<llvm::TargetMachine>
createTargetMachine(const PipelineOptions &options, std::string &error) {
  initializeNvptx();
  llvm::Triple triple(kTriple);
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return nullptr;
  llvm::TargetOptions targetOptions;
  auto level = options.optLevel >= 3   ? llvm::CodeGenOptLevel::Aggressive
               : options.optLevel == 2 ? llvm::CodeGenOptLevel::Default
               : options.optLevel == 1 ? llvm::CodeGenOptLevel::Less
                                       : llvm::CodeGenOptLevel::None;
  return std::unique_ptr<llvm::TargetMachine>(target->createTargetMachine(
      triple, options.gpuArch, "+" + ptxFeatureFor(options),
      targetOptions, llvm::Reloc::PIC_, std::nullopt, level));
}

std::string printModule(const llvm::Module &module) {
  std::string text;
  llvm::raw_string_ostream stream(text);
  module.print(stream, nullptr);
  return text;
}

/// Links the libdevice functions `module` calls; they become internal so
/// that the optimizer inlines them and drops the rest.
bool linkLibdevice(llvm::Module &module, const PipelineOptions &options,
                   std::string &error) {
  bool needed = false;
  for (const llvm::Function &function : module)
    needed |= function.isDeclaration() && function.getName().starts_with("__nv_");
  if (!needed)
    return true;
  std::string path = options.cudaPath + "/nvvm/libdevice/libdevice.10.bc";
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer) {
    error = "cannot read libdevice at " + path + " (set --cuda-path or CUDA_HOME)";
    return false;
  }
  auto libdevice = llvm::parseBitcodeFile(buffer.get()->getMemBufferRef(),
                                          module.getContext());
  if (!libdevice) {
    error = "cannot parse " + path + ": " + llvm::toString(libdevice.takeError());
    return false;
  }
  (*libdevice)->setTargetTriple(module.getTargetTriple());
  (*libdevice)->setDataLayout(module.getDataLayout());
  if (llvm::Linker::linkModules(
          module, std::move(*libdevice), llvm::Linker::LinkOnlyNeeded,
          [](llvm::Module &linked, const llvm::StringSet<> &names) {
            for (llvm::Function &function : linked)
              if (!function.isDeclaration() && names.contains(function.getName()))
                function.setLinkage(llvm::GlobalValue::InternalLinkage);
          })) {
    error = "linking libdevice failed";
    return false;
  }
  return true;
}

/// (major, minor) of the toolkit's ptxas, from `ptxas --version`.
std::optional<std::pair<int, int>> ptxasRelease(const std::string &cudaPath) {
  std::string ptxas = cudaPath + "/bin/ptxas";
  if (!llvm::sys::fs::can_execute(ptxas))
    return std::nullopt;
  llvm::SmallString<128> output;
  if (llvm::sys::fs::createTemporaryFile("hlo-compile-ptxas", "txt", output))
    return std::nullopt;
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, output.str(),
                                                output.str()};
  llvm::StringRef arguments[] = {ptxas, "--version"};
  int status = llvm::sys::ExecuteAndWait(ptxas, arguments, std::nullopt, redirects);
  auto text = llvm::MemoryBuffer::getFile(output);
  llvm::sys::fs::remove(output);
  if (status != 0 || !text)
    return std::nullopt;
  llvm::StringRef version = (*text)->getBuffer();
  size_t at = version.find("release ");
  if (at == llvm::StringRef::npos)
    return std::nullopt;
  int major = 0, minor = 0;
  if (std::sscanf(version.data() + at + 8, "%d.%d", &major, &minor) != 2)
    return std::nullopt;
  return std::make_pair(major, minor);
}

} // namespace

std::string ptxFeatureFor(const PipelineOptions &options) {
  // PTX ISA per CUDA release (NVIDIA's release notes); LLVM 22 emits up
  // to 9.0.
  constexpr int kLlvmNewest = 90;
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

std::unique_ptr<llvm::Module>
translateToLlvmIr(mlir::ModuleOp module, llvm::LLVMContext &context,
                  const PipelineOptions &options, PassDumper &dumper,
                  std::string &error) {
  mlir::DialectRegistry registry;
  mlir::registerBuiltinDialectTranslation(registry);
  mlir::registerLLVMDialectTranslation(registry);
  mlir::registerNVVMDialectTranslation(registry);
  module.getContext()->appendDialectRegistry(registry);

  std::unique_ptr<llvm::TargetMachine> machine = createTargetMachine(options, error);
  if (!machine)
    return nullptr;
  std::unique_ptr<llvm::Module> llvmModule =
      mlir::translateModuleToLLVMIR(module, context, "kernels");
  if (!llvmModule) {
    error = "internal error: translation to LLVM IR failed";
    return nullptr;
  }
  llvmModule->setTargetTriple(llvm::Triple(kTriple));
  llvmModule->setDataLayout(machine->createDataLayout());
  if (dumper.enabled())
    dumper.dump("llvm-translate", printModule(*llvmModule));

  if (!linkLibdevice(*llvmModule, options, error))
    return nullptr;
  // Flush-to-zero off, as XLA compiles by default.
  llvmModule->addModuleFlag(llvm::Module::Override, "nvvm-reflect-ftz", uint32_t{0});
  if (dumper.enabled())
    dumper.dump("llvm-link-libdevice", printModule(*llvmModule));

  llvm::LoopAnalysisManager loops;
  llvm::FunctionAnalysisManager functions;
  llvm::CGSCCAnalysisManager cgscc;
  llvm::ModuleAnalysisManager modules;
  llvm::PassBuilder builder(machine.get());
  builder.registerModuleAnalyses(modules);
  builder.registerCGSCCAnalyses(cgscc);
  builder.registerFunctionAnalyses(functions);
  builder.registerLoopAnalyses(loops);
  builder.crossRegisterProxies(loops, functions, cgscc, modules);
  llvm::OptimizationLevel level = options.optLevel >= 3   ? llvm::OptimizationLevel::O3
                                  : options.optLevel == 2 ? llvm::OptimizationLevel::O2
                                  : options.optLevel == 1 ? llvm::OptimizationLevel::O1
                                                          : llvm::OptimizationLevel::O0;
  llvm::ModulePassManager passes = builder.buildPerModuleDefaultPipeline(level);
  passes.run(*llvmModule, modules);
  if (llvm::verifyModule(*llvmModule, &llvm::errs())) {
    error = "internal error: the optimized LLVM IR does not verify";
    return nullptr;
  }
  if (dumper.enabled())
    dumper.dump("llvm-O" + std::to_string(options.optLevel), printModule(*llvmModule));
  return llvmModule;
}

std::optional<std::string> emitPtx(llvm::Module &module,
                                   const PipelineOptions &options,
                                   std::string &error) {
  std::unique_ptr<llvm::TargetMachine> machine = createTargetMachine(options, error);
  if (!machine)
    return std::nullopt;
  std::string ptx;
  {
    llvm::raw_string_ostream stream(ptx);
    llvm::buffer_ostream buffered(stream);
    llvm::legacy::PassManager codegen;
    if (machine->addPassesToEmitFile(codegen, buffered, nullptr,
                                     llvm::CodeGenFileType::AssemblyFile)) {
      error = "internal error: NVPTX cannot emit assembly";
      return std::nullopt;
    }
    codegen.run(module);
  }
  return ptx;
}

} // namespace hlo::pipeline
