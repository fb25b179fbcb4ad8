//===- KernelCaseCheck.cpp - One kernel on its own inputs, and XLA's ------===//
//
// Owns kernels mode (each kernel alone, on seeded inputs or the given
// ones) and the case both it and replay check: a kernel's buffers made,
// filled and passed to its launches, its outputs compared with the
// interpreter's, its time taken. With --xla-kernels, XLA's kernel for the
// same fusion then runs on the same inputs (XlaKernels.h: the binding),
// is checked against the same expected values and timed the same way.
//
//===----------------------------------------------------------------------===//
#include "KernelCheckBase.h"
#include "ReferenceCases.h"

#include "hlo_parser/SourceFile.h"

#include <iostream>
#include <set>

namespace hlo::runtime {

KernelCheckBase::CaseBuffers::~CaseBuffers() {
  for (DeviceBuffer buffer : owned)
    device.release(buffer);
}

ErrorOr<std::unique_ptr<KernelCheckBase::CaseBuffers>>
KernelCheckBase::allocateCase(const KernelSpec &kernel) {
  auto buffers = std::make_unique<CaseBuffers>(device);
  for (const KernelParameter &parameter : kernel.parameters) {
    if (parameter.aliases >= 0 && !options.noAliasing) {
      // In place: the output is the aliased input's buffer.
      buffers->arguments.push_back(buffers->arguments.at(static_cast<size_t>(parameter.aliases)));
      continue;
    }
    ErrorOr<DeviceBuffer> allocation = device.allocate(parameter.bytes);
    if (!allocation)
      return allocation.status();
    buffers->owned.push_back(*allocation);
    buffers->arguments.push_back(*allocation);
  }
  return buffers;
}

int KernelCheckBase::runCase(const KernelSpec &kernel, const std::vector<CaseLaunch> &launches,
                             const KernelCase &check, KernelRow &row, bool &passed,
                             const std::string &label,
                             const std::vector<DeviceBuffer> &arguments) {
  size_t input = 0, output = 0;
  std::vector<std::pair<DeviceBuffer, const KernelParameter *>> outputs;
  for (size_t i = 0; i < kernel.parameters.size(); ++i) {
    const KernelParameter &parameter = kernel.parameters[i];
    DeviceBuffer pointer = arguments.at(i);
    if (parameter.aliases >= 0 && !options.noAliasing) {
      outputs.emplace_back(pointer, &parameter);
      continue;
    }
    if (parameter.binding == BufferBinding::Scratch) {
      // The kernel's own: it writes before it reads.
      if (Status filled = device.fill(pointer, parameter.bytes, 0xff); !filled)
        return fail(filled.error());
    } else if (parameter.isOutput) {
      if (Status filled = device.fill(pointer, parameter.bytes, 0xff); !filled)
        return fail(filled.error());
      outputs.emplace_back(pointer, &parameter);
    } else if (options.launchOnly) {
      // Nothing is checked: any input will do (zeros cost nothing).
      if (Status filled = device.fill(pointer, parameter.bytes, 0); !filled)
        return fail(filled.error());
    } else if (input < check.patterned.size() && check.patterned[input]) {
      // --time-only, too large to generate: floats about 0.01 or 1 (a
      // repeated 0x3c byte), integers 0 (in-bounds indices).
      PrimitiveType type = shapeOf(parameter.shape).elementType();
      unsigned char pattern = isFloatingPoint(type) || isComplex(type) ? 0x3c : 0;
      if (Status filled = device.fill(pointer, parameter.bytes, pattern); !filled)
        return fail(filled.error());
      ++input;
    } else {
      const Literal &value = check.inputs[input];
      if (Status uploaded = device.upload(pointer, toBufferBytes(value, shapeOf(parameter.shape)));
          !uploaded)
        return fail(uploaded.error());
      // (save reports its own error.)
      if (!save(label + "_input_" + std::to_string(input), value))
        return kExitError;
      ++input;
    }
  }
  for (const CaseLaunch &launch : launches)
    if (!this->launch(launch.handle, *launch.kernel, *launch.row, arguments))
      return faulted ? kExitMismatch : kExitError;
  std::vector<ReductionDepth> depths = kernelOutputDepths(kernel);
  std::string prefix = launches.front().outputPrefix;
  for (const auto &[pointer, parameter] : outputs) {
    std::string name = prefix + "output " + std::to_string(output);
    if (options.launchOnly || options.timeOnly) {
      reportLaunchedOnly(name, shapeOf(parameter->shape));
      ++output;
      continue;
    }
    std::vector<uint8_t> bytes(static_cast<size_t>(parameter->bytes));
    if (Status downloaded = device.download(pointer, bytes); !downloaded)
      return fail(downloaded.error());
    Literal actual = fromBufferBytes(bytes.data(), shapeOf(parameter->shape));
    passed &= checkOutput(name, check.expected[output], actual, row,
                          output < depths.size() ? depths[output] : ReductionDepth(),
                          output < check.magnitudes.size() ? &check.magnitudes[output] : nullptr);
    if (!save(label + "_output_" + std::to_string(output), actual))
      return kExitError;
    ++output;
  }
  for (const CaseLaunch &launch : launches)
    if (!bench(launch.handle, *launch.kernel, *launch.row, arguments, launch.progress))
      return kExitError;
  return kExitPass;
}

int KernelCheckBase::checkKernelCase(size_t k, const KernelCase &check, bool &passed) {
  const KernelSpec &kernel = manifest.kernels[k];
  size_t count = static_cast<size_t>(kernel.launchCount);
  std::vector<CaseLaunch> launches;
  for (size_t j = k; j < k + count; ++j)
    launches.push_back({functions[j], &manifest.kernels[j], &rows[j],
                        std::to_string(j + 1) + "/" + std::to_string(manifest.kernels.size()),
                        ""});
  // The case's buffers, freed on every path out (kernels mode checks one
  // kernel after another on the same device); XLA's kernel gets them too,
  // its inputs uploaded and its outputs poisoned afresh.
  ErrorOr<std::unique_ptr<CaseBuffers>> buffers = allocateCase(kernel);
  if (!buffers)
    return fail(buffers.error());
  if (int status = runCase(kernel, launches, check, rows[k], passed, rows[k].kernel,
                           (*buffers)->arguments);
      status != kExitPass)
    return status;
  return checkXlaKernel(k, check, (*buffers)->arguments);
}

int KernelCheckBase::checkXlaKernel(size_t k, const KernelCase &check,
                                    const std::vector<DeviceBuffer> &buffers) {
  if (!xlaKernels)
    return kExitPass;
  const KernelSpec &ours = manifest.kernels[k];
  KernelRow &row = rows[k];
  auto skip = [&](const std::string &status, const std::string &why) {
    row.xlaStatus = status;
    std::cout << "  XLA: " << why << "\n";
    ++xlaSkipped;
    return kExitPass;
  };
  const XlaKernel *xla = xlaKernels->find(ours.hloInstruction);
  if (!xla)
    return skip("none", "no kernel of its own for " + ours.hloInstruction +
                            " in the dump (XLA compiles identical fusions once)");
  row.xlaKernel = xla->name;
  if (ours.launchCount != 1)
    return skip("unpaired", "ours is " + std::to_string(ours.launchCount) +
                                " launches, XLA's one: not compared");
  ErrorOr<std::shared_ptr<SourceFile>> ptx = SourceFile::read(xla->ptxPath);
  if (!ptx)
    return skip("no-ptx", ptx.error());
  ErrorOr<std::vector<int64_t>> declared =
      ptxEntryParameters(std::string((*ptx)->text()), xla->name);
  std::vector<size_t> kept;
  ErrorOr<KernelSpec> spec =
      declared ? xlaLaunchSpec(ours, *xla, *declared, kept) : ErrorOr<KernelSpec>(declared.status());
  if (!spec)
    return skip("unbound", xla->ptxPath + ": " + spec.error());
  ErrorOr<DeviceKernel> handle =
      device.loadKernel(xla->cubinPath.empty() ? xla->ptxPath : xla->cubinPath, *spec);
  if (!handle)
    return skip("not-loaded", handle.error());
  std::cout << "  XLA's kernel " << xla->name << ": grid [" << spec->grid[0] << ", "
            << spec->grid[1] << ", " << spec->grid[2] << "], block [" << spec->block[0] << ", "
            << spec->block[1] << ", " << spec->block[2] << "], "
            << spec->dynamicSharedMemoryBytes << " bytes of dynamic shared memory\n";
  KernelRow xlaRow;
  xlaRow.kernel = xla->name;
  bool xlaPassed = true;
  std::vector<DeviceBuffer> arguments;
  for (size_t ours : kept)
    arguments.push_back(buffers.at(ours));
  int status = runCase(*spec, {{*handle, &*spec, &xlaRow, "XLA's", "XLA "}}, check, xlaRow,
                       xlaPassed, "xla_" + xla->name, arguments);
  // XLA's kernel failing its check says the binding or XLA is wrong, not
  // our kernel: it fails its own column, not the check. A fault ends the
  // run (a GPU's context is lost) and fails it.
  if (status == kExitError)
    return status;
  bool xlaFaulted = status == kExitMismatch;
  row.xlaStatus = xlaFaulted        ? "FAULT"
                  : !xlaRow.checked ? "ran"
                  : xlaRow.passed   ? "PASS"
                                    : "FAIL";
  row.xlaMicroseconds = xlaRow.microseconds;
  ++(row.xlaStatus == "PASS"  ? xlaPassedCount
       : row.xlaStatus == "ran" ? xlaLaunchedCount
                                : xlaFailedCount);
  if (row.microseconds > 0 && row.xlaMicroseconds > 0)
    std::cout << "  ours / XLA's time: " << formatNumber(row.microseconds / row.xlaMicroseconds, 3)
              << "\n";
  return kExitPass;
}

/// "grid x,y,z block x,y,z shared N": what makes two launches of one
/// kernel the same work.
static std::string launchShape(const KernelSpec &kernel) {
  std::string shape;
  for (unsigned extent : kernel.grid)
    shape += std::to_string(extent) + ",";
  for (unsigned extent : kernel.block)
    shape += std::to_string(extent) + ",";
  for (const KernelParameter &parameter : kernel.parameters)
    shape += std::to_string(parameter.bytes) + ",";
  return shape + std::to_string(kernel.dynamicSharedMemoryBytes);
}

bool KernelCheckBase::reportKernel(size_t k, size_t launches) {
  if (options.reportPath.empty())
    return true;
  reportedAsItWent = true;
  std::vector<KernelRow> done(rows.begin() + static_cast<std::ptrdiff_t>(k),
                              rows.begin() + static_cast<std::ptrdiff_t>(k + launches));
  return appendKernelReport(options.reportPath, manifest.module, done, xlaKernels.has_value());
}

int KernelCheckBase::runKernels(const std::map<int64_t, Literal> &given) {
  std::cout << "checking " << manifest.kernels.size()
            << " kernel(s) one at a time, each on its own inputs\n";
  bool passed = true;
  for (size_t k = 0; k < manifest.kernels.size(); k += manifest.kernels[k].launchCount) {
    const KernelSpec &kernel = manifest.kernels[k];
    // A kernel of several launches runs them all, in order, on the same
    // buffers, and is checked after the last.
    size_t launches = static_cast<size_t>(kernel.launchCount);
    if (kernel.launchIndex != 0 || k + launches > manifest.kernels.size())
      return fail("kernel '" + kernel.name + "': its launches are not listed in order");
    for (size_t j = k; j < k + launches; ++j)
      printKernel(j);
    // --time-only, and --launch-only beside XLA's kernels: code another
    // fusion shares, launched the same way, runs once (a model's repeated
    // layers would multiply the run and tell nothing new).
    bool once = options.timeOnly || (options.launchOnly && xlaKernels);
    if (once && launches == 1 &&
        !timedLaunches.insert(kernel.name + " " + launchShape(kernel)).second) {
      std::cout << "  run already: the same code and launch as an earlier kernel\n";
      if (!reportKernel(k, launches))
        return kExitError;
      continue;
    }
    KernelCase check;
    try {
      check = buildKernelCase(kernel, module, evaluator, options.seed + 1000 * k, given,
                              /*withExpected=*/!options.launchOnly && !options.timeOnly,
                              /*withMagnitudes=*/anyGrowth(kernelOutputDepths(kernel)),
                              /*withInputs=*/options.timeOnly);
    } catch (const interp::InterpreterLimitError &failure) {
      if (!options.skipOversized) {
        std::cerr << interp::formatInterpreterError(module, failure);
        std::cerr << "hlo-run: note: --skip-oversized skips such kernels and checks the "
                     "others\n";
        return kExitError;
      }
      std::cout << "SKIPPED (--skip-oversized): " << failure.what() << "\n";
      ++skipped;
      if (!reportKernel(k, launches))
        return kExitError;
      continue;
    } catch (const interp::InterpreterError &failure) {
      std::cerr << interp::formatInterpreterError(module, failure);
      return kExitError;
    } catch (const std::exception &failure) {
      return fail(failure.what());
    }
    if (int status = checkKernelCase(k, check, passed); status != kExitPass)
      return status;
    ++checked;
    if (!reportKernel(k, launches))
      return kExitError;
  }
  if (xlaKernels)
    std::cout << "XLA's kernels: " << xlaPassedCount << " passed, " << xlaFailedCount
              << " failed, " << xlaLaunchedCount << " launched unchecked, " << xlaSkipped
              << " not run (see the notes above)\n";
  if (skipped && !checked)
    return kExitSkipped;
  return passed ? kExitPass : kExitMismatch;
}

} // namespace hlo::runtime
