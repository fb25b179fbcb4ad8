//===- WgmmaPipeline.cpp - A warpgroup's wgmma groups in flight -----------===//
#include "host/WgmmaPipeline.h"

#include <cstring>
#include <string>

namespace hlo::runtime {
namespace {

float inFlightMarker() {
  float value;
  uint32_t bits = WgmmaPipeline::kInFlightBits;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

} // namespace

bool WgmmaPipeline::isInFlight(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits == kInFlightBits;
}

Status WgmmaPipeline::issue(uint32_t kind, uint32_t n, const WgmmaOperands &operands,
                            const Accumulators &d) {
  uint32_t values = n / 2;
  size_t marked = 0;
  for (float *thread : d)
    for (uint32_t v = 0; v < values; ++v)
      marked += isInFlight(thread[v]);
  size_t total = size_t(values) * kThreadsPerWarpgroup;
  if (marked != 0 && marked != total)
    return Status::failure("issued wgmma with accumulators partly in flight (" +
                           std::to_string(marked) + " of " + std::to_string(total) +
                           " values): a chain's accumulators were mixed with others");
  if (marked == total) {
    if (inFlight() == 0 && chainWidth == 0)
      return Status::failure("issued wgmma continuing a chain that is not in flight");
    if (n != chainWidth)
      return Status::failure("issued wgmma of width " + std::to_string(n) +
                             " continuing a chain of width " + std::to_string(chainWidth));
  } else {
    if (inFlight() != 0)
      return Status::failure("issued wgmma with fresh accumulators while " +
                             std::to_string(inFlight()) +
                             " products of another chain are in flight");
    for (size_t t = 0; t < kThreadsPerWarpgroup; ++t)
      chain[t].assign(d[t], d[t] + values);
    chainWidth = n;
  }
  open.push_back({kind, n, operands});
  float marker = inFlightMarker();
  for (float *thread : d)
    for (uint32_t v = 0; v < values; ++v)
      thread[v] = marker;
  return Status::success();
}

void WgmmaPipeline::commit() {
  committed.push_back(std::move(open));
  open.clear();
}

Status WgmmaPipeline::wait(uint32_t pending, const Accumulators &d) {
  Accumulators chainAccumulators;
  for (size_t t = 0; t < kThreadsPerWarpgroup; ++t)
    chainAccumulators[t] = chain[t].data();
  while (committed.size() > pending) {
    for (const Product &product : committed.front())
      if (Status done = warpgroupMma(product.kind, product.n, product.operands,
                                     chainAccumulators);
          !done)
        return done;
    committed.pop_front();
  }
  if (!committed.empty() || !open.empty())
    return Status::success();
  for (size_t t = 0; t < kThreadsPerWarpgroup; ++t)
    for (uint32_t v = 0; v < chainWidth / 2; ++v)
      if (isInFlight(d[t][v]))
        d[t][v] = chain[t][v];
  return Status::success();
}

size_t WgmmaPipeline::inFlight() const {
  size_t products = open.size();
  for (const std::vector<Product> &group : committed)
    products += group.size();
  return products;
}

void WgmmaPipeline::clear() {
  committed.clear();
  open.clear();
  chainWidth = 0;
}

} // namespace hlo::runtime
