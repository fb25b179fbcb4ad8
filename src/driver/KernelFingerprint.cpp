//===- KernelFingerprint.cpp - What a kernel's code depends on ------------===//
#include "KernelFingerprint.h"
#include "KernelCache.h"

#include "dialect/KernelContract.h"
#include "pipeline/ParallelCompile.h"

#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/core.h>

namespace hlo::driver {
namespace {

bool isBareIdentifierChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '.' ||
         c == '-';
}

/// `text` with each `@name` that `names` maps renamed.
void appendRenamed(llvm::StringRef text, const llvm::StringMap<std::string> &names,
                   std::string &out) {
  size_t at = 0;
  for (size_t found; (found = text.find('@', at)) != llvm::StringRef::npos;) {
    size_t start = found + 1, end = start;
    if (end < text.size() && text[end] == '"') {
      end = text.find('"', end + 1);
      end = end == llvm::StringRef::npos ? text.size() : end + 1;
    } else {
      while (end < text.size() && isBareIdentifierChar(text[end]))
        ++end;
    }
    llvm::StringRef name = text.slice(start, end);
    if (name.size() >= 2 && name.front() == '"')
      name = name.drop_front().drop_back();
    out.append(text.data() + at, start - at);
    auto renamed = names.find(name);
    out += renamed == names.end() ? text.slice(start, end).str() : renamed->second;
    at = end;
  }
  out.append(text.data() + at, text.size() - at);
}

std::string print(mlir::Operation *op) {
  std::string text;
  llvm::raw_string_ostream stream(text);
  op->print(stream, mlir::OpPrintingFlags().useLocalScope().assumeVerified());
  return text;
}

/// Gives `kernel` its own copies of what it reaches that an earlier kernel
/// (`taken`) reaches too, so that no function is shared: how a pass treats
/// a function (whether it inlines it) must not depend on other kernels.
void copyShared(mlir::Operation *kernel, std::vector<mlir::Operation *> &reached,
                mlir::SymbolTable &symbols, llvm::DenseSet<mlir::Operation *> &taken) {
  std::vector<std::pair<mlir::StringAttr, mlir::StringAttr>> renamed;
  for (mlir::Operation *&op : reached) {
    if (taken.insert(op).second)
      continue;
    mlir::StringAttr old = mlir::SymbolTable::getSymbolName(op);
    mlir::Operation *copy = op->clone();
    symbols.insert(copy); // a fresh name where it is taken
    renamed.emplace_back(old, mlir::SymbolTable::getSymbolName(copy));
    taken.insert(copy);
    op = copy;
  }
  if (renamed.empty())
    return;
  auto rewrite = [&](mlir::Operation *op) {
    for (auto &[from, to] : renamed)
      (void)mlir::SymbolTable::replaceAllSymbolUses(from, to, op);
  };
  rewrite(kernel);
  for (mlir::Operation *op : reached)
    rewrite(op);
}

/// The canonical text of `kernel` and what it reaches (copies of what
/// earlier kernels reach: copyShared).
std::string canonicalText(mlir::Operation *kernel, mlir::SymbolTable &symbols,
                          llvm::DenseSet<mlir::Operation *> &taken) {
  llvm::SetVector<mlir::Operation *> found = pipeline::reachedSymbols(kernel, symbols);
  std::vector<mlir::Operation *> reached(found.begin(), found.end());
  copyShared(kernel, reached, symbols, taken);
  llvm::StringMap<std::string> names;
  names[mlir::SymbolTable::getSymbolName(kernel).getValue()] = "K";
  for (size_t i = 0; i < reached.size(); ++i)
    if (auto name = reached[i]->getAttrOfType<mlir::StringAttr>(
            mlir::SymbolTable::getSymbolAttrName()))
      names[name.getValue()] = "S" + std::to_string(i);
  // Its place in the module is not the kernel's code.
  mlir::Attribute index = kernel->getAttr(xla_gpu::kKernelIndexAttr);
  kernel->removeAttr(xla_gpu::kKernelIndexAttr);
  std::string text;
  appendRenamed(print(kernel), names, text);
  kernel->setAttr(xla_gpu::kKernelIndexAttr, index);
  for (mlir::Operation *op : reached) {
    text += "\n";
    appendRenamed(print(op), names, text);
  }
  return text;
}

} // namespace

std::vector<FingerprintedKernel> fingerprintKernels(mlir::ModuleOp module,
                                                    llvm::StringRef salt) {
  mlir::SymbolTable symbols(module);
  llvm::DenseSet<mlir::Operation *> taken;
  std::vector<FingerprintedKernel> kernels;
  std::vector<mlir::Operation *> functions;
  for (mlir::Operation &op : module.getBody()->getOperations()) {
    std::optional<int64_t> launch = xla_gpu::getKernelIndex(&op);
    if (!launch)
      continue;
    FingerprintedKernel kernel;
    kernel.launch = *launch;
    kernel.name = mlir::SymbolTable::getSymbolName(&op).str();
    std::string text = salt.str() + "\n" + canonicalText(&op, symbols, taken);

    kernel.key = KernelCache::keyOf(text);
    kernel.symbol = "k" + kernel.key.substr(0, 16);
    kernels.push_back(std::move(kernel));
    functions.push_back(&op);
  }
  llvm::StringMap<int64_t> firstOf;
  for (size_t i = 0; i < kernels.size(); ++i) {
    auto [first, added] = firstOf.try_emplace(kernels[i].key, static_cast<int64_t>(i));
    if (!added) {
      kernels[i].sameAs = first->second;
      functions[i]->erase();
      continue;
    }
    mlir::SymbolTable::setSymbolName(functions[i], kernels[i].symbol);
  }
  return kernels;
}

} // namespace hlo::driver
