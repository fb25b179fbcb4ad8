//===- IndependentKernels.cpp - Each kernel's code its own ----------------===//
#include "pipeline/IndependentKernels.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

#include <map>

namespace hlo::pipeline {
namespace {

using Reached = llvm::SetVector<llvm::GlobalObject *>;

/// Adds the defined functions and globals `value` refers to (through
/// constant expressions and aggregates) to `reached`, but kernels.
void collectGlobals(const llvm::Value *value, const llvm::StringSet<> &kernels,
                    Reached &reached, llvm::SmallPtrSetImpl<const llvm::Constant *> &seen) {
  if (auto *object = llvm::dyn_cast<llvm::GlobalObject>(value)) {
    if (!object->isDeclaration() && !kernels.contains(object->getName()))
      reached.insert(const_cast<llvm::GlobalObject *>(object));
    return;
  }
  auto *constant = llvm::dyn_cast<llvm::Constant>(value);
  if (!constant || llvm::isa<llvm::GlobalValue>(constant) || !seen.insert(constant).second)
    return;
  for (const llvm::Use &operand : constant->operands())
    collectGlobals(operand.get(), kernels, reached, seen);
}

/// What `kernel` reaches, in the order it first reaches it.
Reached reachedFrom(llvm::Function &kernel, const llvm::StringSet<> &kernels) {
  Reached reached;
  llvm::SmallPtrSet<const llvm::Constant *, 32> seen;
  auto scan = [&](llvm::GlobalObject &object) {
    if (auto *function = llvm::dyn_cast<llvm::Function>(&object)) {
      for (llvm::Instruction &instruction : llvm::instructions(*function))
        for (const llvm::Use &operand : instruction.operands())
          collectGlobals(operand.get(), kernels, reached, seen);
      return;
    }
    auto *global = llvm::cast<llvm::GlobalVariable>(&object);
    if (global->hasInitializer())
      collectGlobals(global->getInitializer(), kernels, reached, seen);
  };
  scan(kernel);
  for (size_t i = 0; i < reached.size(); ++i)
    scan(*reached[i]);
  return reached;
}

/// The name of `object`'s copy for `kernel`; `index`: its place among what
/// the kernel reaches; `bases`: how often each name named after the
/// kernel was given.
std::string copyName(const llvm::GlobalObject &object, size_t index, llvm::StringRef kernel,
                     std::map<std::string, int> &bases) {
  llvm::StringRef name = object.getName();
  // Named after the kernel already (its shared tiles): its own, numbered
  // again (MLIR numbers names taken across the whole module).
  if (name.starts_with((kernel + "_").str())) {
    llvm::StringRef base = name;
    if (size_t last = name.rfind('_');
        last > kernel.size() && llvm::all_of(name.substr(last + 1), llvm::isDigit) &&
        last + 1 < name.size())
      base = name.take_front(last);
    int count = bases[base.str()]++;
    return count ? (base + "_" + std::to_string(count)).str() : base.str();
  }
  std::string base = name.starts_with("__") ? name.str()
                     : llvm::isa<llvm::Function>(object) ? "f" + std::to_string(index)
                                                          : "g" + std::to_string(index);
  return base + "$" + kernel.str();
}

void privatizeFor(llvm::Function &kernel, const llvm::StringSet<> &kernels) {
  Reached reached = reachedFrom(kernel, kernels);
  if (reached.empty())
    return;
  llvm::Module &module = *kernel.getParent();
  llvm::ValueToValueMapTy map;
  std::vector<std::pair<llvm::Function *, llvm::Function *>> functions;
  std::vector<std::pair<llvm::GlobalVariable *, llvm::GlobalVariable *>> globals;
  std::map<std::string, int> bases;
  std::vector<std::string> names;
  for (size_t i = 0; i < reached.size(); ++i)
    names.push_back(copyName(*reached[i], i, kernel.getName(), bases));
  // The copies take the names; the originals, which go, give them up.
  for (const std::string &name : names)
    if (llvm::GlobalValue *holder = module.getNamedValue(name))
      holder->setName("");
  for (size_t i = 0; i < reached.size(); ++i) {
    const std::string &name = names[i];
    if (auto *function = llvm::dyn_cast<llvm::Function>(reached[i])) {
      auto *copy = llvm::Function::Create(function->getFunctionType(),
                                          llvm::GlobalValue::InternalLinkage,
                                          function->getAddressSpace(), name, &module);
      copy->copyAttributesFrom(function);
      copy->setLinkage(llvm::GlobalValue::InternalLinkage);
      map[function] = copy;
      functions.emplace_back(function, copy);
      continue;
    }
    auto *global = llvm::cast<llvm::GlobalVariable>(reached[i]);
    auto *copy = new llvm::GlobalVariable(
        module, global->getValueType(), global->isConstant(), llvm::GlobalValue::InternalLinkage,
        nullptr, name, nullptr, global->getThreadLocalMode(), global->getAddressSpace());
    copy->copyAttributesFrom(global);
    copy->setLinkage(llvm::GlobalValue::InternalLinkage);
    // Equal tables of two kernels must stay two (constant merging would
    // have one kernel's code name the other's).
    copy->setUnnamedAddr(llvm::GlobalValue::UnnamedAddr::None);
    map[global] = copy;
    globals.emplace_back(global, copy);
  }
  for (auto &[global, copy] : globals)
    if (global->hasInitializer())
      copy->setInitializer(llvm::MapValue(global->getInitializer(), map));
  for (auto &[function, copy] : functions) {
    auto argument = copy->arg_begin();
    for (llvm::Argument &original : function->args()) {
      argument->setName(original.getName());
      map[&original] = &*argument++;
    }
    llvm::SmallVector<llvm::ReturnInst *, 4> returns;
    llvm::CloneFunctionInto(copy, function, map,
                            llvm::CloneFunctionChangeType::LocalChangesOnly, returns);
  }
  for (llvm::Instruction &instruction : llvm::instructions(kernel))
    llvm::RemapInstruction(&instruction, map,
                           llvm::RF_IgnoreMissingLocals | llvm::RF_NoModuleLevelChanges);
}

} // namespace

void makeKernelsIndependent(llvm::Module &module, const llvm::StringSet<> &kernels) {
  std::vector<llvm::Function *> found;
  for (llvm::Function &function : module)
    if (!function.isDeclaration() && kernels.contains(function.getName()))
      found.push_back(&function);
  for (llvm::Function *kernel : found)
    privatizeFor(*kernel, kernels);
  // The originals nothing uses any longer.
  for (bool erased = true; erased;) {
    erased = false;
    for (llvm::GlobalObject &object : llvm::make_early_inc_range(module.global_objects())) {
      if (object.isDeclaration() || kernels.contains(object.getName()) ||
          !object.hasLocalLinkage())
        continue;
      object.removeDeadConstantUsers();
      if (object.use_empty()) {
        object.eraseFromParent();
        erased = true;
      }
    }
  }
}

} // namespace hlo::pipeline
