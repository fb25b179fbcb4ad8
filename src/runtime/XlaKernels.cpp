//===- XlaKernels.cpp - XLA's own kernels beside ours ---------------------===//
#include "XlaKernels.h"

#include <fstream>
#include <regex>
#include <sstream>

namespace hlo::runtime {
namespace {

std::vector<std::string> splitTabs(const std::string &line) {
  std::vector<std::string> cells;
  std::stringstream stream(line);
  std::string cell;
  while (std::getline(stream, cell, '\t'))
    cells.push_back(cell);
  return cells;
}

/// "4096,1,1" as three launch dimensions.
bool parseDimensions(const std::string &text, std::array<unsigned, 3> &dimensions) {
  std::stringstream stream(text);
  std::string part;
  for (int i = 0; i < 3; ++i) {
    if (!std::getline(stream, part, ','))
      return false;
    try {
      unsigned long value = std::stoul(part);
      if (value == 0 || value > 0xffffffffUL)
        return false;
      dimensions[i] = static_cast<unsigned>(value);
    } catch (const std::exception &) {
      return false;
    }
  }
  return true;
}

bool parseUnsigned(const std::string &text, unsigned &value) {
  try {
    size_t used = 0;
    unsigned long parsed = std::stoul(text, &used);
    if (used != text.size() || parsed > 0xffffffffUL)
      return false;
    value = static_cast<unsigned>(parsed);
    return true;
  } catch (const std::exception &) {
    return false;
  }
}

} // namespace

ErrorOr<XlaKernelTable> XlaKernelTable::read(const std::string &dumpDir) {
  std::string path = dumpDir + "/xla_kernels.tsv";
  std::ifstream file(path);
  if (!file)
    return makeError(path + ": cannot be read (--xla-kernels wants an XLA dump directory "
                            "with xla_kernels.tsv and xla_ptx/, as the corpus dumps have)");
  std::string line;
  if (!std::getline(file, line))
    return makeError(path + ": empty");
  std::vector<std::string> header = splitTabs(line);
  auto column = [&](const std::string &name) -> int {
    for (size_t i = 0; i < header.size(); ++i)
      if (header[i] == name)
        return static_cast<int>(i);
    return -1;
  };
  int kernel = column("kernel"), hlo = column("hlo"), grid = column("grid"),
      block = column("block"), dynamic = column("dyn_smem"), shared = column("smem"),
      registers = column("registers"), ptx = column("ptx_file"), cubin = column("cubin_file");
  if (kernel < 0 || hlo < 0 || grid < 0 || block < 0 || dynamic < 0 || ptx < 0)
    return makeError(path + ": the header lacks kernel, hlo, grid, block, dyn_smem or ptx_file");
  XlaKernelTable table;
  std::map<std::string, int> kernelsOf;
  int number = 1;
  while (std::getline(file, line)) {
    ++number;
    if (line.empty())
      continue;
    std::vector<std::string> cells = splitTabs(line);
    auto cell = [&](int i) { return i >= 0 && i < static_cast<int>(cells.size()) ? cells[i] : ""; };
    XlaKernel entry;
    entry.name = cell(kernel);
    entry.hloInstruction = cell(hlo);
    std::string where = path + ":" + std::to_string(number) + ": ";
    if (entry.name.empty())
      return makeError(where + "no kernel name");
    // A kernel the dump could not name a fusion for (a sort's later
    // passes) binds to nothing.
    if (entry.hloInstruction.empty())
      continue;
    if (!parseDimensions(cell(grid), entry.grid) || !parseDimensions(cell(block), entry.block))
      return makeError(where + "grid and block must be three positive numbers (x,y,z)");
    if (!parseUnsigned(cell(dynamic), entry.dynamicSharedMemoryBytes))
      return makeError(where + "dyn_smem must be a number of bytes");
    if (shared >= 0 && !cell(shared).empty() &&
        !parseUnsigned(cell(shared), entry.staticSharedMemoryBytes))
      return makeError(where + "smem must be a number of bytes");
    unsigned registerCount = 0;
    if (registers >= 0 && parseUnsigned(cell(registers), registerCount))
      entry.registers = static_cast<int>(registerCount);
    std::string ptxFile = cell(ptx);
    auto inDump = [&](const std::string &file) {
      return file.empty() || file[0] == '/' ? file : dumpDir + "/" + file;
    };
    entry.ptxPath = inDump(ptxFile);
    entry.cubinPath = inDump(cell(cubin));
    ++kernelsOf[entry.hloInstruction];
    table.byInstruction[entry.hloInstruction] = std::move(entry);
  }
  for (const auto &[instruction, count] : kernelsOf)
    if (count > 1)
      table.byInstruction.erase(instruction);
  return table;
}

const XlaKernel *XlaKernelTable::find(const std::string &instruction) const {
  auto found = byInstruction.find(instruction);
  return found == byInstruction.end() ? nullptr : &found->second;
}

ErrorOr<std::vector<int64_t>> ptxEntryParameters(const std::string &ptx,
                                                 const std::string &entry) {
  static const std::regex entryStart(R"(\.entry\s+([A-Za-z_$][\w$]*)\s*\()");
  for (std::sregex_iterator it(ptx.begin(), ptx.end(), entryStart), end; it != end; ++it) {
    if ((*it)[1].str() != entry)
      continue;
    size_t open = static_cast<size_t>(it->position(0) + it->length(0));
    size_t close = ptx.find(')', open);
    if (close == std::string::npos)
      return makeError("entry " + entry + ": its parameter list is not closed");
    std::vector<int64_t> alignments;
    std::stringstream list(ptx.substr(open, close - open));
    std::string parameter;
    static const std::regex alignment(R"(\.align\s+(\d+))");
    while (std::getline(list, parameter, ',')) {
      if (parameter.find(".param") == std::string::npos)
        continue;
      std::smatch match;
      alignments.push_back(std::regex_search(parameter, match, alignment)
                               ? std::stoll(match[1].str())
                               : 1);
    }
    return alignments;
  }
  return makeError("the PTX has no entry " + entry);
}

ErrorOr<KernelSpec> xlaLaunchSpec(const KernelSpec &ours, const XlaKernel &xla,
                                  const std::vector<int64_t> &declared,
                                  std::vector<size_t> &kept) {
  KernelSpec spec = ours;
  spec.name = xla.name;
  spec.grid = xla.grid;
  spec.block = xla.block;
  spec.sharedMemoryBytes = xla.staticSharedMemoryBytes;
  spec.dynamicSharedMemoryBytes = xla.dynamicSharedMemoryBytes;
  spec.cluster.reset();
  spec.maxRegisters = 0;
  spec.launchCount = 1;
  spec.launchIndex = 0;
  spec.parameters.clear();
  kept.clear();
  for (size_t i = 0; i < ours.parameters.size(); ++i) {
    if (ours.parameters[i].binding == BufferBinding::Scratch)
      continue;
    KernelParameter parameter = ours.parameters[i];
    parameter.tensorMap.reset();
    kept.push_back(i);
    spec.parameters.push_back(std::move(parameter));
  }
  if (declared.size() != spec.parameters.size())
    return makeError("XLA's kernel " + xla.name + " declares " +
                     std::to_string(declared.size()) + " parameters, the fusion " +
                     xla.hloInstruction + " has " + std::to_string(spec.parameters.size()) +
                     " buffers (operands, then results): not bound");
  for (size_t i = 0; i < declared.size(); ++i)
    spec.parameters[i].alignment = declared[i];
  return spec;
}

} // namespace hlo::runtime
