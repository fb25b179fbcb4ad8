//===- BufferPlan.cpp - The module program's memory plan ------------------===//
#include "BufferPlan.h"

#include "BufferPlacement.h"

#include "abi/ProgramLiveness.h"

#include <algorithm>
#include <map>
#include <set>

namespace hlo::driver {
namespace {

using abi::KernelParameter;
using abi::ProgramLiveness;
using abi::ProgramStep;
using abi::planName;

/// Values joined into buffers (a union-find over plan names), each buffer
/// with its members, its first and last tick of use, its size, and whether
/// it is pinned (holds a module parameter or a constant: not planned).
class ValueSets {
public:
  struct Set {
    std::vector<std::string> names;
    int64_t first = -1, last = -1;
    int64_t bytes = 0, alignment = 1;
    bool pinned = false;
  };

  explicit ValueSets(const ProgramLiveness &liveness) : liveness(liveness) {}

  /// The set of `name`, made on first sight.
  size_t find(const std::string &name) {
    auto [found, added] = ids.emplace(name, parent.size());
    if (added) {
      parent.push_back(found->second);
      Set set;
      set.names = {name};
      std::tie(set.first, set.last) = liveness.life(name);
      set.pinned = name.rfind("<parameter ", 0) == 0;
      sets.push_back(std::move(set));
    }
    size_t id = found->second;
    while (parent[id] != id)
      id = parent[id] = parent[parent[id]];
    return id;
  }
  Set &operator[](const std::string &name) { return sets[find(name)]; }

  void note(const KernelParameter &binding) { note(planName(binding), binding.bytes, binding.alignment); }
  void note(const std::string &name, int64_t bytes, int64_t alignment = 1) {
    Set &set = (*this)[name];
    set.bytes = std::max(set.bytes, bytes);
    set.alignment = std::max(set.alignment, alignment);
  }
  void pin(const std::string &name) { (*this)[name].pinned = true; }

  void join(const std::string &a, const std::string &b) {
    size_t x = find(a), y = find(b);
    if (x == y)
      return;
    Set &into = sets[x], &from = sets[y];
    parent[y] = x;
    into.names.insert(into.names.end(), from.names.begin(), from.names.end());
    if (from.first >= 0) {
      into.first = into.first < 0 ? from.first : std::min(into.first, from.first);
      into.last = std::max(into.last, from.last);
    }
    into.bytes = std::max(into.bytes, from.bytes);
    into.alignment = std::max(into.alignment, from.alignment);
    into.pinned |= from.pinned;
    from.names.clear();
  }
  /// Whether two values may become one buffer at all: neither is pinned
  /// and they are not one already.
  bool joinable(const std::string &a, const std::string &b) {
    size_t x = find(a), y = find(b);
    return x != y && !sets[x].pinned && !sets[y].pinned;
  }
  /// Whether any member of `name`'s set is used at a tick in [from, to).
  bool usedWithin(const std::string &name, int64_t from, int64_t to) {
    for (const std::string &member : (*this)[name].names)
      if (liveness.usedWithin(member, from, to))
        return true;
    return false;
  }
  /// How many of `bindings` are in `name`'s set.
  size_t countIn(const std::vector<KernelParameter> &bindings, const std::string &name) {
    size_t set = find(name), count = 0;
    for (const KernelParameter &binding : bindings)
      count += find(planName(binding)) == set;
    return count;
  }

  std::vector<size_t> roots() {
    std::vector<size_t> result;
    for (size_t id = 0; id < parent.size(); ++id)
      if (parent[id] == id)
        result.push_back(id);
    return result;
  }
  const Set &set(size_t id) const { return sets[id]; }

private:
  const ProgramLiveness &liveness;
  std::map<std::string, size_t> ids;
  std::vector<size_t> parent;
  std::vector<Set> sets;
};

/// Every binding of the program into `sets` (with its size), and the
/// in-place outputs joined to their operands.
void noteBindings(const abi::LaunchManifest &manifest, ValueSets &sets) {
  for (const abi::KernelSpec &kernel : manifest.kernels)
    for (const KernelParameter &parameter : kernel.parameters) {
      sets.note(parameter);
      if (parameter.aliases >= 0 &&
          parameter.aliases < static_cast<int64_t>(kernel.parameters.size()))
        sets.join(planName(kernel.parameters[parameter.aliases]), planName(parameter));
    }
  for (const ProgramStep &step : manifest.program) {
    for (const auto *list : {&step.arguments, &step.results, &step.bodyResults})
      for (const KernelParameter &binding : *list)
        sets.note(binding);
    for (const auto *lists : {&step.branchArguments, &step.branchResults})
      for (const auto &list : *lists)
        for (const KernelParameter &binding : list)
          sets.note(binding);
  }
  for (const abi::BufferSpec &buffer : manifest.buffers)
    if (buffer.kind == abi::BufferSpec::Kind::Constant)
      sets.pin(buffer.name);
}

/// The loop's state names: per element i, the condition's and the body's
/// parameter leaf; empty when the manifest does not bind the state.
bool hasState(const ProgramStep &step) {
  size_t n = step.arguments.size();
  return n && step.results.size() == n && step.bodyResults.size() == n &&
         step.parameterBuffers.size() == 2 && step.parameterBuffers[0].size() == n &&
         step.parameterBuffers[1].size() == n;
}

bool hasBranchValues(const ProgramStep &step) {
  size_t n = step.computations.size();
  return n && step.branchArguments.size() == n && step.branchResults.size() == n &&
         step.parameterBuffers.size() == n;
}

class Colocation {
public:
  /// `multiOutputReuse`: whether a kernel of several outputs (a reduction
  /// fusion's side output) writes over a dead operand too.
  Colocation(const abi::LaunchManifest &manifest, const ProgramLiveness &liveness,
             ValueSets &sets, bool multiOutputReuse)
      : manifest(manifest), liveness(liveness), sets(sets), multiOutputReuse(multiOutputReuse) {}

  void run() {
    for (size_t s = 0; s < manifest.program.size(); ++s)
      if (liveness.steps[s].begin >= 0)
        stepAt[liveness.steps[s].begin] = s;
    forEach(ProgramStep::Kind::While, [&](const ProgramStep &step, const Ticks &) {
      joinLoopState(step);
    });
    // Branch parameters first: one the branch only reads is its operand
    // (a later reuse of it must then find the operand dead).
    forEach(ProgramStep::Kind::Conditional,
            [&](const ProgramStep &step, const Ticks &ticks) { joinBranchParameters(step, ticks); });
    forEach(ProgramStep::Kind::Library,
            [&](const ProgramStep &step, const Ticks &ticks) { joinInPlaceUpdate(step, ticks); });
    forEach(ProgramStep::Kind::Launch,
            [&](const ProgramStep &step, const Ticks &ticks) { joinReusedOperands(step, ticks); });
    forEach(ProgramStep::Kind::Conditional,
            [&](const ProgramStep &step, const Ticks &ticks) { joinBranchResults(step, ticks); });
    forEach(ProgramStep::Kind::While,
            [&](const ProgramStep &step, const Ticks &ticks) { joinInitialState(step, ticks); });
    forEach(ProgramStep::Kind::While,
            [&](const ProgramStep &step, const Ticks &ticks) { joinBodyResults(step, ticks); });
  }

  /// Outputs the module donates a parameter to, which take that
  /// parameter's memory where the parameter is dead before the output is
  /// first written, or the kernel that last reads it writes the output
  /// over it elementwise (as XLA's buffer assignment uses
  /// input_output_alias): output set -> parameter.
  std::map<size_t, int64_t> donatedOutputs() {
    std::map<size_t, int64_t> donated;
    std::set<int64_t> taken;
    for (const abi::BufferSpec &buffer : manifest.buffers) {
      if (buffer.kind != abi::BufferSpec::Kind::Output || buffer.donatedParameter < 0)
        continue;
      std::string output = "<output " + std::to_string(buffer.number) + ">";
      std::string parameter = "<parameter " + std::to_string(buffer.donatedParameter) + ">";
      // (An alias of another shape is the module's error; such an output
      // keeps memory of its own.)
      if (sets.find(output) == sets.find(parameter) || sets[output].pinned ||
          sets[output].bytes > sets[parameter].bytes || sets[output].first < 0 ||
          sets[parameter].last > sets[output].first || donated.count(sets.find(output)) ||
          taken.count(buffer.donatedParameter))
        continue;
      if (sets[parameter].last == sets[output].first) {
        // Written over the parameter by its last reader: one buffer.
        if (updatesInPlace(sets[output].first, parameter, output))
          sets.join(parameter, output);
        continue;
      }
      taken.insert(buffer.donatedParameter);
      donated[sets.find(output)] = buffer.donatedParameter;
    }
    return donated;
  }

private:
  using Ticks = ProgramLiveness::StepTicks;

  template <typename Visit> void forEach(ProgramStep::Kind kind, Visit &&visit) {
    for (size_t s = 0; s < manifest.program.size(); ++s) {
      const ProgramStep &step = manifest.program[s];
      const Ticks &ticks = liveness.steps[s];
      if (step.kind != kind || ticks.begin < 0)
        continue;
      if (kind == ProgramStep::Kind::While && hasState(step))
        visit(step, ticks);
      if (kind == ProgramStep::Kind::Conditional && hasBranchValues(step))
        visit(step, ticks);
      if (kernelOf(step) || isInPlaceLibraryStep(step))
        visit(step, ticks);
    }
  }

  /// The kernel a launch step runs; null for any other step.
  const abi::KernelSpec *kernelOf(const ProgramStep &step) const {
    if (step.kind != ProgramStep::Kind::Launch || step.launch < 0 ||
        step.launch >= static_cast<int64_t>(manifest.kernels.size()))
      return nullptr;
    return &manifest.kernels[step.launch];
  }

  /// A library step whose first result may be written over an argument
  /// (a cuBLAS GEMM's second result is its workspace).
  static bool isInPlaceLibraryStep(const ProgramStep &step) {
    return step.kind == ProgramStep::Kind::Library && step.inPlaceArgument >= 0 &&
           step.inPlaceArgument < static_cast<int64_t>(step.arguments.size()) &&
           !step.results.empty();
  }

  /// The state as the condition and body read it and the loop's result:
  /// one buffer per element (the runtime binds them so).
  void joinLoopState(const ProgramStep &step) {
    for (size_t i = 0; i < step.arguments.size(); ++i) {
      const std::string &state = step.parameterBuffers[1][i];
      sets.note(state, step.arguments[i].bytes);
      sets.note(step.parameterBuffers[0][i], step.arguments[i].bytes);
      sets.join(state, step.parameterBuffers[0][i]);
      sets.join(state, planName(step.results[i]));
    }
  }

  /// A loop or conditional whose computations run only for it.
  bool runsAlone(const ProgramStep &step, const Ticks &ticks) const {
    if (ticks.repeated)
      return false;
    for (const std::string &computation : step.computations)
      if (!liveness.walkedOnce(computation))
        return false;
    return true;
  }

  /// A library step's dynamic-update-slice writes over its operand where
  /// nothing reads the operand after it.
  void joinInPlaceUpdate(const ProgramStep &step, const Ticks &ticks) {
    if (ticks.repeated)
      return;
    std::string operand = planName(step.arguments[step.inPlaceArgument]);
    std::string result = planName(step.results[0]);
    if (!sets.joinable(operand, result) || sets.countIn(step.arguments, operand) != 1 ||
        sets[operand].last > ticks.begin || sets[result].first < ticks.begin)
      return;
    sets.join(operand, result);
  }

  /// The input an output of a one-launch kernel may be written over: its
  /// position among the kernel's parameters, if that buffer is passed to
  /// the kernel once; -1 otherwise.
  int64_t reusedInput(const abi::KernelSpec &kernel, const KernelParameter &output) {
    if (output.mayReuse < 0 || kernel.launchCount != 1 ||
        output.mayReuse >= static_cast<int64_t>(kernel.parameters.size()))
      return -1;
    std::string input = planName(kernel.parameters[output.mayReuse]);
    for (const KernelParameter &parameter : kernel.parameters)
      if (&parameter != &output && parameter.isOutput && sets.find(planName(parameter)) == sets.find(input))
        return -1;
    return sets.countIn(kernel.parameters, input) == 1 ? output.mayReuse : -1;
  }

  /// An elementwise kernel writes its result over an operand nothing
  /// reads after it.
  void joinReusedOperands(const ProgramStep &step, const Ticks &ticks) {
    const abi::KernelSpec &kernel = *kernelOf(step);
    if (ticks.repeated)
      return;
    if (!multiOutputReuse &&
        std::count_if(kernel.parameters.begin(), kernel.parameters.end(),
                      [](const KernelParameter &parameter) { return parameter.isOutput; }) > 1)
      return;
    for (const KernelParameter &output : kernel.parameters) {
      int64_t position = reusedInput(kernel, output);
      if (position < 0)
        continue;
      std::string input = planName(kernel.parameters[position]);
      std::string result = planName(output);
      if (!sets.joinable(input, result) || sets[input].last > ticks.begin ||
          sets[result].first < ticks.begin)
        continue;
      sets.join(input, result);
    }
  }

  /// Whether the step at `tick` writes `result` over `state`: a library
  /// step's in-place argument, or an elementwise kernel's reused input.
  bool updatesInPlace(int64_t tick, const std::string &state, const std::string &result) {
    auto found = stepAt.find(tick);
    if (found == stepAt.end())
      return false;
    const ProgramStep &step = manifest.program[found->second];
    if (const abi::KernelSpec *kernel = kernelOf(step)) {
      for (const KernelParameter &output : kernel->parameters) {
        int64_t position = reusedInput(*kernel, output);
        if (position >= 0 && sets.find(planName(output)) == sets.find(result) &&
            sets.find(planName(kernel->parameters[position])) == sets.find(state))
          return true;
      }
      return false;
    }
    return isInPlaceLibraryStep(step) && sets.countIn(step.arguments, state) == 1 &&
           sets.find(planName(step.arguments[step.inPlaceArgument])) == sets.find(state) &&
           sets.find(planName(step.results[0])) == sets.find(result);
  }

  /// A state element its body passes through unchanged, which nothing
  /// writes, is its initial value's memory even where that value is read
  /// after the loop (no copy: XLA's copy insertion leaves read-only
  /// elements): a module parameter's, or a buffer no other value shares
  /// yet, passed to the loop once (maxtext's transposed weights, read by
  /// the forward and the backward scan).
  bool readOnlyState(const ProgramStep &step, size_t i) {
    std::string initial = planName(step.arguments[i]);
    const std::string &state = step.parameterBuffers[1][i];
    if (sets[initial].names.size() != 1 || planName(step.bodyResults[i]) != state)
      return false;
    if (step.arguments[i].binding != abi::BufferBinding::Parameter &&
        (!sets.joinable(initial, state) || sets.countIn(step.arguments, initial) != 1))
      return false;
    std::set<std::string> own = {state, step.parameterBuffers[0][i], planName(step.results[i])};
    for (const std::string &name : sets[state].names)
      if (!own.count(name) || name.rfind("<output ", 0) == 0)
        return false;
    return true;
  }

  /// An initial element nothing reads once the loop starts is the state.
  void joinInitialState(const ProgramStep &step, const Ticks &ticks) {
    if (!runsAlone(step, ticks))
      return;
    for (size_t i = 0; i < step.arguments.size(); ++i) {
      std::string initial = planName(step.arguments[i]);
      const std::string &state = step.parameterBuffers[1][i];
      if (readOnlyState(step, i)) {
        sets.join(initial, state);
        continue;
      }
      if (!sets.joinable(initial, state) || sets.countIn(step.arguments, initial) != 1 ||
          sets[initial].last > ticks.begin || sets[state].first < ticks.begin)
        continue;
      sets.join(state, initial);
    }
  }

  /// A body result made in the body after its state element's last read
  /// is written into the state.
  void joinBodyResults(const ProgramStep &step, const Ticks &ticks) {
    if (!runsAlone(step, ticks) || ticks.spans.size() != 2)
      return;
    int64_t bodyBegin = ticks.spans[1].first, end = ticks.end;
    for (size_t i = 0; i < step.bodyResults.size(); ++i) {
      std::string result = planName(step.bodyResults[i]);
      const std::string &state = step.parameterBuffers[1][i];
      if (!sets.joinable(result, state) || sets.countIn(step.bodyResults, result) != 1 ||
          sets.countIn(step.bodyResults, state) != 0)
        continue;
      const ValueSets::Set &made = sets[result];
      if (made.first < bodyBegin || made.last > end)
        continue;
      // The step that makes the result may read the state where it writes
      // over it in place.
      int64_t from = made.first + (updatesInPlace(made.first, state, result) ? 1 : 0);
      if (sets.usedWithin(state, from, end))
        continue;
      sets.join(state, result);
    }
  }

  /// A branch parameter leaf is its operand where the branch only reads
  /// it, or where the operand is dead once the branch starts.
  void joinBranchParameters(const ProgramStep &step, const Ticks &ticks) {
    if (ticks.repeated || ticks.spans.size() != step.computations.size())
      return;
    for (size_t b = 0; b < step.computations.size(); ++b) {
      if (!liveness.walkedOnce(step.computations[b]))
        continue; // its parameter is another conditional's too
      const std::vector<KernelParameter> &operands = step.branchArguments[b];
      const std::vector<std::string> &parameters = step.parameterBuffers[b];
      int64_t start = ticks.spans[b].first;
      for (size_t i = 0; i < operands.size() && i < parameters.size(); ++i) {
        std::string operand = planName(operands[i]);
        sets.note(parameters[i], operands[i].bytes);
        if (!sets.joinable(operand, parameters[i]))
          continue;
        bool readOnly = sets[parameters[i]].names.size() == 1;
        if (!readOnly && (sets.countIn(operands, operand) != 1 ||
                          sets[operand].last > start || sets[parameters[i]].first < start))
          continue;
        sets.join(operand, parameters[i]);
      }
    }
  }

  /// A branch's result leaf made in the branch is the conditional's.
  void joinBranchResults(const ProgramStep &step, const Ticks &ticks) {
    if (ticks.repeated || ticks.spans.size() != step.computations.size())
      return;
    for (size_t b = 0; b < step.computations.size(); ++b) {
      if (!liveness.walkedOnce(step.computations[b]))
        continue; // its results are another conditional's too
      const std::vector<KernelParameter> &leaves = step.branchResults[b];
      auto [start, finish] = ticks.spans[b];
      for (size_t i = 0; i < leaves.size() && i < step.results.size(); ++i) {
        std::string leaf = planName(leaves[i]);
        std::string result = planName(step.results[i]);
        if (!sets.joinable(leaf, result) || sets.countIn(leaves, leaf) != 1 ||
            sets.countIn(leaves, result) != 0)
          continue;
        const ValueSets::Set &made = sets[leaf];
        if (made.first <= start || made.last > finish ||
            sets.usedWithin(result, made.first, finish))
          continue;
        sets.join(result, leaf);
      }
    }
  }

  const abi::LaunchManifest &manifest;
  const ProgramLiveness &liveness;
  ValueSets &sets;
  bool multiOutputReuse;
  std::map<int64_t, size_t> stepAt; // a step's first tick -> the step
};

/// The sets as buffers to place: a set holding a module parameter in that
/// parameter's memory, and a donated output there too; constants nowhere
/// (their own memory); the rest where placement puts them.
std::vector<PlanBuffer> planBuffers(ValueSets &sets, const std::map<size_t, int64_t> &donated,
                                    int64_t end) {
  std::vector<PlanBuffer> buffers;
  for (size_t id : sets.roots()) {
    const ValueSets::Set &set = sets.set(id);
    if (set.bytes <= 0)
      continue;
    PlanBuffer buffer;
    buffer.names = set.names;
    // A buffer nothing uses (a state element no step reads) still exists.
    buffer.first = set.first < 0 ? 0 : set.first;
    buffer.last = set.first < 0 ? end : set.last;
    buffer.bytes = set.bytes;
    buffer.alignment = set.alignment;
    if (auto found = donated.find(id); found != donated.end())
      buffer.parameter = found->second;
    for (const std::string &name : set.names)
      if (name.rfind("<parameter ", 0) == 0)
        buffer.parameter = std::stoll(name.substr(11));
    if (set.pinned && buffer.parameter < 0)
      continue; // a constant
    buffers.push_back(std::move(buffer));
  }
  return buffers;
}

} // namespace

void planModuleBuffers(abi::LaunchManifest &manifest) {
  manifest.allocations.clear();
  ProgramLiveness liveness = abi::programLiveness(manifest);
  // With and without reduction side outputs over their operands: a join
  // lengthens a buffer's life, which can cost placement more than it
  // saves (maxtext native: 22.91 GB with, 22.81 GB without; resnet
  // native: smaller with). The smaller plan, the first on a tie.
  std::optional<std::vector<abi::AllocationSpec>> smallest;
  int64_t smallestBytes = 0;
  for (bool multiOutputReuse : {true, false}) {
    ValueSets sets(liveness);
    noteBindings(manifest, sets);
    Colocation colocation(manifest, liveness, sets, multiOutputReuse);
    colocation.run();
    std::map<size_t, int64_t> donated = colocation.donatedOutputs();
    std::vector<int64_t> open;
    for (const auto &[set, parameter] : donated)
      open.push_back(parameter);
    std::vector<abi::AllocationSpec> allocations =
        placeBuffers(planBuffers(sets, donated, liveness.end), open);
    int64_t bytes = 0;
    for (const abi::AllocationSpec &allocation : allocations)
      if (allocation.parameter < 0)
        bytes += allocation.bytes;
    if (!smallest || bytes < smallestBytes) {
      smallest = std::move(allocations);
      smallestBytes = bytes;
    }
  }
  manifest.allocations = std::move(*smallest);
}

} // namespace hlo::driver
