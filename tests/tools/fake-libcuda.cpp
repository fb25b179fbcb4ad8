//===- fake-libcuda.cpp - A CUDA driver stand-in for hlo-run's tests ------===//
//
// Implements the driver entry points hlo-run looks up, on host memory, so
// that the runner's GPU path (driver loading, module and kernel lookup,
// buffer layout, launch arguments, comparison, timing, reports) is tested
// on machines without a GPU (HLO_RUN_LIBCUDA points hlo-run at it). A
// "launch" executes no code: it copies the first argument's buffer into the
// last one, so a module whose output equals its input passes and any other
// fails. PTX without ".entry" is rejected with a JIT log.
//
// It enforces the driver's documented rules as an H100 (sm_90) applies
// them, so that a runner breaking one fails here rather than on a GPU:
// - a launch's dynamic shared memory plus the kernel's static shared
//   memory (the `.shared` variables its PTX uses) may exceed 48 KB only up
//   to the CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES the runner set
//   (static + that at most 227 KB), else CUDA_ERROR_INVALID_VALUE;
// - block and grid axes within the device's limits, and a block of exactly
//   the kernel's `.reqntid` (at most its `.maxntid`), else INVALID_VALUE;
// - every argument an address in a buffer it allocated (which start
//   256-byte aligned, as cuMemAlloc's do; a memory plan places several
//   buffers in one), and as aligned as its PTX declaration says
//   (`.param .u64 .ptr .align 256`), else INVALID_VALUE;
// - several modules may be loaded (XLA's kernels beside ours), each
//   kernel found in its own module's PTX;
// - FAKE_CUDA_MAX_THREADS=N: the device reports N threads per block at most;
// - FAKE_CUDA_MISALIGN=N: allocations start N bytes past a 256-byte boundary;
// - FAKE_CUDA_STATS: at exit, the most buffers allocated at once (stderr);
// - errors are sticky as the driver's are: FAKE_CUDA_FAULT=<kernel> makes
//   that kernel's launch fault with CUDA_ERROR_ILLEGAL_ADDRESS, reported
//   by the next synchronization; from then on every call returns it, and
//   a launch attempted after it prints "fake-libcuda: launch after a
//   sticky error" on stderr.
// - a kernel's `.reqnctapercluster` or a cuLaunchKernelEx cluster shape
//   (not both, unless equal): sm_90 rules, a grid of whole clusters and at
//   most 8 blocks each, 16 where the runner set
//   CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, else
//   CUDA_ERROR_INVALID_CLUSTER_SIZE;
// - a `.param .align 64 .b8 NAME[128]` parameter (a tensor map passed by
//   value) must be a CUtensorMap this library encoded, over a buffer it
//   allocated; cuTensorMapEncodeTiled applies the driver's rules for
//   non-interleaved maps (rank 1-5, 16-byte aligned address, strides
//   multiples of 16, box extents 1-256 with an innermost extent of a
//   multiple of 16 bytes, within the swizzle), else INVALID_VALUE;
// cuFuncGetAttribute reports the static shared memory, the threads a block
// may have, 32 registers and no local memory.
//
//===----------------------------------------------------------------------===//
#include <cuda.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <list>
#include <map>
#include <regex>
#include <string>
#include <vector>

namespace {

struct Kernel {
  std::string name;
  size_t parameters = 0;
  int staticShared = 0;
  int maxThreads = 1024;
  bool exactThreads = false; // .reqntid: the block must have maxThreads
  int maxDynamicShared = -1; // -1: not set (48 KB minus the static size)
  /// Per parameter: a tensor map passed by value (else a pointer).
  std::vector<bool> tensorMaps;
  /// Per parameter: the alignment its declaration states (`.ptr .align
  /// 256`), 1 without one.
  std::vector<unsigned long long> alignments;
  /// `.reqnctapercluster`; zeros: none.
  unsigned cluster[3] = {0, 0, 0};
  bool nonPortableClusters = false;

  /// The dynamic shared memory a launch may ask for.
  int maxDynamic() const;
};

constexpr int kDefaultSharedLimit = 48 * 1024;
constexpr int kOptInSharedLimit = 227 * 1024;

int Kernel::maxDynamic() const {
  return maxDynamicShared >= 0 ? maxDynamicShared : kDefaultSharedLimit - staticShared;
}

std::map<CUdeviceptr, size_t> allocations;
/// The loaded modules' code (a CUmodule points at its string), and their
/// kernels by module and name (std::list and std::map keep addresses).
std::list<std::string> images;
int contextToken;
std::map<std::pair<const std::string *, std::string>, Kernel> kernels;
/// The error that ended the context (CUDA_SUCCESS while it is usable), and
/// one a launch raised that the next synchronization reports.
CUresult sticky = CUDA_SUCCESS, pending = CUDA_SUCCESS;

/// The `.shared` variables declared at module scope, with their bytes:
/// arrays (`.b8 tile[4096]`) and scalars (`.f32 partial`).
std::map<std::string, int> sharedVariables(const std::string &ptx) {
  std::map<std::string, int> variables;
  static const std::regex declaration(
      R"(^\s*(?:\.visible\s+)?\.shared\s+(?:\.align\s+\d+\s+)?\.[a-z]+(\d+)\s+)"
      R"(([A-Za-z_$%][\w$]*)(?:\[(\d+)\])?\s*;)",
      std::regex::multiline);
  for (auto it = std::sregex_iterator(ptx.begin(), ptx.end(), declaration);
       it != std::sregex_iterator(); ++it) {
    int elementBytes = std::max(std::stoi((*it)[1]) / 8, 1);
    variables[(*it)[2]] = elementBytes * ((*it)[3].matched ? std::stoi((*it)[3]) : 1);
  }
  return variables;
}

/// Reads `name`'s entry in `image`: parameters, the shared variables its
/// body names, and its thread limit (.reqntid or .maxntid).
bool parseKernel(const std::string &image, const std::string &name, Kernel &kernel) {
  size_t entry = image.find(".entry " + name + "(");
  if (entry == std::string::npos)
    return false;
  kernel.name = name;
  size_t close = image.find(')', entry);
  static const std::regex tensorMap(R"(^\.param\s+\.align\s+64\s+\.b8\s+[\w$]+\[128\])");
  static const std::regex pointerAlignment(R"(^\.param\s+\.u64\s+\.ptr\s+(?:\.global\s+)?\.align\s+(\d+))");
  for (size_t at = image.find(".param", entry); at < close; at = image.find(".param", at + 1)) {
    ++kernel.parameters;
    std::string declaration = image.substr(at, image.find_first_of(",)", at) - at);
    kernel.tensorMaps.push_back(std::regex_search(declaration, tensorMap));
    std::smatch alignment;
    kernel.alignments.push_back(std::regex_search(declaration, alignment, pointerAlignment)
                                    ? std::stoull(alignment[1])
                                    : 1);
  }
  // The entry's header and body, to its closing brace (what follows may be
  // another part's helpers and module-scope variables).
  size_t end = image.find('{', close);
  for (int depth = 0; end < image.size(); ++end) {
    depth += image[end] == '{' ? 1 : image[end] == '}' ? -1 : 0;
    if (depth == 0)
      break;
  }
  std::string body = image.substr(close, end == image.size() ? std::string::npos : end + 1 - close);
  // The module's shared variables, parsed once per module (a module of
  // hundreds of kernels would parse them per kernel otherwise).
  static std::map<const std::string *, std::map<std::string, int>> sharedOf;
  auto known = sharedOf.find(&image);
  if (known == sharedOf.end())
    known = sharedOf.emplace(&image, sharedVariables(image)).first;
  auto isWordChar = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$';
  };
  for (const auto &[variable, bytes] : known->second)
    for (size_t at = body.find(variable); at != std::string::npos;
         at = body.find(variable, at + 1)) {
      size_t after = at + variable.size();
      if (at > 0 && !isWordChar(body[at - 1]) && after < body.size() && !isWordChar(body[after])) {
        kernel.staticShared += bytes;
        break;
      }
    }
  std::smatch threads, cluster;
  std::string header = body.substr(0, body.find('{'));
  if (std::regex_search(header, cluster,
                        std::regex(R"(\.reqnctapercluster\s+(\d+)(?:\s*,\s*(\d+))?(?:\s*,\s*(\d+))?)")))
    for (int i = 0; i < 3; ++i)
      kernel.cluster[i] = cluster[i + 1].matched ? std::stoi(cluster[i + 1]) : 1;
  if (std::regex_search(header, threads,
                        std::regex(R"(\.(reqntid|maxntid)\s+(\d+)(?:\s*,\s*(\d+))?(?:\s*,\s*(\d+))?)"))) {
    kernel.maxThreads = std::stoi(threads[2]) * (threads[3].matched ? std::stoi(threads[3]) : 1) *
                        (threads[4].matched ? std::stoi(threads[4]) : 1);
    kernel.exactThreads = threads[1] == "reqntid";
  }
  return true;
}

/// Every entry point returns the sticky error once there is one.
#define RETURN_IF_STICKY()                                                     \
  do {                                                                         \
    if (sticky != CUDA_SUCCESS)                                                \
      return sticky;                                                           \
  } while (0)

CUresult synchronize() {
  RETURN_IF_STICKY();
  if (pending != CUDA_SUCCESS)
    sticky = pending;
  return sticky;
}

} // namespace

extern "C" {
CUresult cuInit(unsigned) { return CUDA_SUCCESS; }
CUresult cuDriverGetVersion(int *version) { *version = 13000; return CUDA_SUCCESS; }
CUresult cuDeviceGetCount(int *count) { *count = 1; return CUDA_SUCCESS; }
CUresult cuDeviceGet(CUdevice *device, int ordinal) {
  *device = ordinal;
  return ordinal == 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
}
CUresult cuDeviceGetName(char *name, int length, CUdevice) {
  std::strncpy(name, "Fake GPU", static_cast<size_t>(length));
  return CUDA_SUCCESS;
}
CUresult cuDeviceGetAttribute(int *value, CUdevice_attribute attribute, CUdevice) {
  switch (attribute) { // an H100's figures
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR: *value = 9; break;
  case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK: // FAKE_CUDA_MAX_THREADS: a smaller device
    *value = std::getenv("FAKE_CUDA_MAX_THREADS") ? std::atoi(std::getenv("FAKE_CUDA_MAX_THREADS"))
                                                  : 1024;
    break;
  case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X:
  case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y: *value = 1024; break;
  case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z: *value = 64; break;
  case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X: *value = 0x7fffffff; break;
  case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y:
  case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z: *value = 65535; break;
  case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK: *value = kDefaultSharedLimit; break;
  case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN: *value = kOptInSharedLimit; break;
  case CU_DEVICE_ATTRIBUTE_WARP_SIZE: *value = 32; break;
  case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: *value = 132; break;
  default: *value = 0;
  }
  return CUDA_SUCCESS;
}
CUresult cuDevicePrimaryCtxRetain(CUcontext *context, CUdevice) {
  *context = reinterpret_cast<CUcontext>(&contextToken);
  return CUDA_SUCCESS;
}
CUresult cuDevicePrimaryCtxRelease_v2(CUdevice) { return CUDA_SUCCESS; }
CUresult cuCtxSetCurrent(CUcontext) { return CUDA_SUCCESS; }
CUresult cuCtxSynchronize() { return synchronize(); }
CUresult cuModuleLoadDataEx(CUmodule *module, const void *data, unsigned count,
                            CUjit_option *options, void **values) {
  RETURN_IF_STICKY();
  std::string image = static_cast<const char *>(data);
  if (image.find(".entry") == std::string::npos) {
    for (unsigned i = 0; i < count; ++i)
      if (options[i] == CU_JIT_ERROR_LOG_BUFFER)
        std::strcpy(static_cast<char *>(values[i]), "fake ptxas: no kernel in this PTX");
    return CUDA_ERROR_INVALID_PTX;
  }
  images.push_back(std::move(image));
  *module = reinterpret_cast<CUmodule>(&images.back());
  return CUDA_SUCCESS;
}
CUresult cuModuleGetFunction(CUfunction *function, CUmodule module, const char *name) {
  RETURN_IF_STICKY();
  const auto *image = reinterpret_cast<const std::string *>(module);
  Kernel kernel;
  if (!image || !parseKernel(*image, name, kernel))
    return CUDA_ERROR_NOT_FOUND;
  auto inserted = kernels.insert({{image, name}, kernel}).first;
  *function = reinterpret_cast<CUfunction>(&inserted->second);
  return CUDA_SUCCESS;
}
CUresult cuModuleUnload(CUmodule) { return CUDA_SUCCESS; }
CUresult cuFuncGetAttribute(int *value, CUfunction_attribute attribute, CUfunction function) {
  RETURN_IF_STICKY();
  const Kernel &kernel = *reinterpret_cast<Kernel *>(function);
  switch (attribute) {
  case CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK: *value = kernel.maxThreads; break;
  case CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES: *value = kernel.staticShared; break;
  case CU_FUNC_ATTRIBUTE_NUM_REGS: *value = 32; break;
  case CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES: *value = 0; break;
  case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES: *value = kernel.maxDynamic(); break;
  default: return CUDA_ERROR_INVALID_VALUE;
  }
  return CUDA_SUCCESS;
}
CUresult cuFuncSetAttribute(CUfunction function, CUfunction_attribute attribute, int value) {
  RETURN_IF_STICKY();
  Kernel &kernel = *reinterpret_cast<Kernel *>(function);
  if (attribute == CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED) {
    kernel.nonPortableClusters = value != 0;
    return CUDA_SUCCESS;
  }
  if (attribute != CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES)
    return CUDA_SUCCESS;
  if (value < 0 || kernel.staticShared + value > kOptInSharedLimit)
    return CUDA_ERROR_INVALID_VALUE;
  kernel.maxDynamicShared = value;
  return CUDA_SUCCESS;
}
/// FAKE_CUDA_MISALIGN=N: allocations start N bytes past a 256-byte boundary
/// (a stand-in for a buffer view at an odd offset).
size_t misalignment() {
  const char *value = std::getenv("FAKE_CUDA_MISALIGN");
  return value ? static_cast<size_t>(std::atoi(value)) : 0;
}
/// FAKE_CUDA_STATS: at exit, the most buffers that were allocated at once.
size_t mostLive = 0;
struct Stats {
  ~Stats() {
    if (std::getenv("FAKE_CUDA_STATS"))
      std::fprintf(stderr, "fake-libcuda: at most %zu buffers were allocated at once\n",
                   mostLive);
  }
} stats;
CUresult cuMemAlloc_v2(CUdeviceptr *pointer, size_t bytes) {
  RETURN_IF_STICKY();
  size_t rounded = (std::max<size_t>(bytes, 1) + misalignment() + 255) / 256 * 256;
  void *memory = std::aligned_alloc(256, rounded);
  if (!memory) // as the driver: a failed allocation is an error, not null
    return CUDA_ERROR_OUT_OF_MEMORY;
  *pointer = reinterpret_cast<CUdeviceptr>(memory) + misalignment();
  allocations[*pointer] = bytes;
  mostLive = std::max(mostLive, allocations.size());
  return CUDA_SUCCESS;
}
CUresult cuMemFree_v2(CUdeviceptr pointer) {
  // Freeing works in a dead context too (teardown).
  allocations.erase(pointer);
  std::free(reinterpret_cast<void *>(pointer - misalignment()));
  return CUDA_SUCCESS;
}
CUresult cuMemcpyHtoD_v2(CUdeviceptr target, const void *source, size_t bytes) {
  RETURN_IF_STICKY();
  std::memcpy(reinterpret_cast<void *>(target), source, bytes);
  return CUDA_SUCCESS;
}
CUresult cuMemcpyDtoH_v2(void *target, CUdeviceptr source, size_t bytes) {
  if (CUresult result = synchronize())
    return result;
  std::memcpy(target, reinterpret_cast<void *>(source), bytes);
  return CUDA_SUCCESS;
}
CUresult cuMemcpyDtoD_v2(CUdeviceptr target, CUdeviceptr source, size_t bytes) {
  RETURN_IF_STICKY();
  std::memcpy(reinterpret_cast<void *>(target), reinterpret_cast<void *>(source), bytes);
  return CUDA_SUCCESS;
}
CUresult cuMemsetD8_v2(CUdeviceptr target, unsigned char value, size_t bytes) {
  RETURN_IF_STICKY();
  std::memset(reinterpret_cast<void *>(target), value, bytes);
  return CUDA_SUCCESS;
}
} // extern "C"

namespace {

/// What cuTensorMapEncodeTiled writes here: a tag and the buffer.
constexpr uint64_t kTensorMapTag = 0x70614d726f736e65; // "ensorMap"

/// The bytes of the allocation `address` lies in from it on; 0 if it lies
/// in none.
size_t bytesFrom(CUdeviceptr address) {
  auto after = allocations.upper_bound(address);
  if (after == allocations.begin())
    return 0;
  auto [start, bytes] = *std::prev(after);
  return address < start + bytes ? start + bytes - address : 0;
}

/// The buffer a parameter names: the pointer, or the tensor map's buffer;
/// 0 if it is neither an allocation nor a tensor map this library made.
CUdeviceptr parameterBuffer(const Kernel &kernel, size_t i, void **parameters) {
  CUdeviceptr address;
  if (kernel.tensorMaps[i]) {
    const auto *map = static_cast<const CUtensorMap *>(parameters[i]);
    if (map->opaque[0] != kTensorMapTag)
      return 0;
    address = static_cast<CUdeviceptr>(map->opaque[1]);
  } else {
    address = *static_cast<CUdeviceptr *>(parameters[i]);
  }
  return bytesFrom(address) ? address : 0;
}

CUresult launch(CUfunction function, const unsigned grid[3], const unsigned block[3],
                unsigned sharedBytes, const unsigned *launchCluster, void **parameters) {
  const Kernel &kernel = *reinterpret_cast<Kernel *>(function);
  if (sticky != CUDA_SUCCESS || pending != CUDA_SUCCESS) {
    std::fprintf(stderr, "fake-libcuda: launch after a sticky error (%s)\n", kernel.name.c_str());
    return sticky != CUDA_SUCCESS ? sticky : pending;
  }
  unsigned long long threads = 1ull * block[0] * block[1] * block[2];
  if (block[0] == 0 || block[1] == 0 || block[2] == 0 || block[0] > 1024 || block[1] > 1024 ||
      block[2] > 64 || threads > static_cast<unsigned>(kernel.maxThreads) ||
      (kernel.exactThreads && threads != static_cast<unsigned>(kernel.maxThreads)))
    return CUDA_ERROR_INVALID_VALUE;
  if (grid[0] == 0 || grid[1] == 0 || grid[2] == 0 || grid[0] > 0x7fffffffu || grid[1] > 65535 ||
      grid[2] > 65535)
    return CUDA_ERROR_INVALID_VALUE;
  if (static_cast<long long>(sharedBytes) > kernel.maxDynamic())
    return CUDA_ERROR_INVALID_VALUE;
  // The cluster: the code's, or the launch's (a launch may not change the
  // code's).
  const unsigned *cluster = kernel.cluster[0] ? kernel.cluster : launchCluster;
  if (kernel.cluster[0] && launchCluster &&
      !std::equal(kernel.cluster, kernel.cluster + 3, launchCluster))
    return CUDA_ERROR_INVALID_CLUSTER_SIZE;
  if (cluster) {
    unsigned long long blocks = 1ull * cluster[0] * cluster[1] * cluster[2];
    for (int i = 0; i < 3; ++i)
      if (cluster[i] == 0 || grid[i] % cluster[i] != 0)
        return CUDA_ERROR_INVALID_CLUSTER_SIZE;
    if (blocks > (kernel.nonPortableClusters ? 16u : 8u))
      return CUDA_ERROR_INVALID_CLUSTER_SIZE;
  }
  for (size_t i = 0; i < kernel.parameters; ++i) {
    CUdeviceptr buffer = parameterBuffer(kernel, i, parameters);
    if (!buffer || (!kernel.tensorMaps[i] && buffer % kernel.alignments[i] != 0))
      return CUDA_ERROR_INVALID_VALUE;
  }
  const char *fault = std::getenv("FAKE_CUDA_FAULT");
  if (fault && kernel.name == fault) {
    pending = CUDA_ERROR_ILLEGAL_ADDRESS;
    return CUDA_SUCCESS; // launches are asynchronous: the next sync reports it
  }
  if (kernel.parameters < 2) // an output alone: nothing to copy
    return CUDA_SUCCESS;
  CUdeviceptr first = parameterBuffer(kernel, 0, parameters);
  CUdeviceptr last = parameterBuffer(kernel, kernel.parameters - 1, parameters);
  std::memcpy(reinterpret_cast<void *>(last), reinterpret_cast<void *>(first),
              std::min(bytesFrom(first), bytesFrom(last)));
  return CUDA_SUCCESS;
}

} // namespace

extern "C" {

CUresult cuLaunchKernel(CUfunction function, unsigned gridX, unsigned gridY, unsigned gridZ,
                        unsigned blockX, unsigned blockY, unsigned blockZ, unsigned sharedBytes,
                        CUstream, void **parameters, void **) {
  const unsigned grid[3] = {gridX, gridY, gridZ}, block[3] = {blockX, blockY, blockZ};
  return launch(function, grid, block, sharedBytes, nullptr, parameters);
}
CUresult cuLaunchKernelEx(const CUlaunchConfig *config, CUfunction function, void **parameters,
                          void **) {
  const unsigned grid[3] = {config->gridDimX, config->gridDimY, config->gridDimZ};
  const unsigned block[3] = {config->blockDimX, config->blockDimY, config->blockDimZ};
  const unsigned *cluster = nullptr;
  unsigned clusterShape[3];
  for (unsigned i = 0; i < config->numAttrs; ++i) {
    const CUlaunchAttribute &attribute = config->attrs[i];
    if (attribute.id != CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION)
      return CUDA_ERROR_NOT_SUPPORTED; // the stand-in knows no other
    clusterShape[0] = attribute.value.clusterDim.x;
    clusterShape[1] = attribute.value.clusterDim.y;
    clusterShape[2] = attribute.value.clusterDim.z;
    cluster = clusterShape;
  }
  return launch(function, grid, block, config->sharedMemBytes, cluster, parameters);
}
CUresult cuTensorMapEncodeTiled(CUtensorMap *map, CUtensorMapDataType type, cuuint32_t rank,
                                void *address, const cuuint64_t *dims,
                                const cuuint64_t *strides, const cuuint32_t *box,
                                const cuuint32_t *elementStrides,
                                CUtensorMapInterleave interleave, CUtensorMapSwizzle swizzle,
                                CUtensorMapL2promotion, CUtensorMapFloatOOBfill) {
  RETURN_IF_STICKY();
  static const std::map<CUtensorMapDataType, unsigned> bytes = {
      {CU_TENSOR_MAP_DATA_TYPE_UINT8, 1},   {CU_TENSOR_MAP_DATA_TYPE_UINT16, 2},
      {CU_TENSOR_MAP_DATA_TYPE_UINT32, 4},  {CU_TENSOR_MAP_DATA_TYPE_INT32, 4},
      {CU_TENSOR_MAP_DATA_TYPE_UINT64, 8},  {CU_TENSOR_MAP_DATA_TYPE_INT64, 8},
      {CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2}, {CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 4},
      {CU_TENSOR_MAP_DATA_TYPE_FLOAT64, 8}, {CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2}};
  auto element = bytes.find(type);
  uintptr_t start = reinterpret_cast<uintptr_t>(address);
  if (!map || element == bytes.end() || rank < 1 || rank > 5 || start % 16 != 0 ||
      interleave != CU_TENSOR_MAP_INTERLEAVE_NONE)
    return CUDA_ERROR_INVALID_VALUE;
  for (cuuint32_t i = 0; i < rank; ++i) {
    if (dims[i] == 0 || dims[i] > (1ull << 32) || box[i] == 0 || box[i] > 256 ||
        elementStrides[i] == 0 || elementStrides[i] > 8)
      return CUDA_ERROR_INVALID_VALUE;
    if (i + 1 < rank && (strides[i] % 16 != 0 || strides[i] >= (1ull << 40)))
      return CUDA_ERROR_INVALID_VALUE;
  }
  unsigned innerBytes = box[0] * element->second;
  unsigned swizzleSpan = swizzle == CU_TENSOR_MAP_SWIZZLE_32B    ? 32
                         : swizzle == CU_TENSOR_MAP_SWIZZLE_64B  ? 64
                         : swizzle == CU_TENSOR_MAP_SWIZZLE_128B ? 128
                                                                 : 0;
  if (innerBytes % 16 != 0 || (swizzleSpan && innerBytes > swizzleSpan))
    return CUDA_ERROR_INVALID_VALUE;
  std::memset(map, 0, sizeof(*map));
  map->opaque[0] = kTensorMapTag;
  map->opaque[1] = start;
  return CUDA_SUCCESS;
}
CUresult cuEventCreate(CUevent *event, unsigned) {
  RETURN_IF_STICKY();
  *event = reinterpret_cast<CUevent>(new double(0));
  return CUDA_SUCCESS;
}
CUresult cuEventRecord(CUevent event, CUstream) {
  RETURN_IF_STICKY();
  *reinterpret_cast<double *>(event) =
      std::chrono::duration<double, std::milli>(
          std::chrono::steady_clock::now().time_since_epoch())
          .count();
  return CUDA_SUCCESS;
}
CUresult cuEventSynchronize(CUevent) { return synchronize(); }
CUresult cuEventElapsedTime_v2(float *ms, CUevent start, CUevent stop) {
  RETURN_IF_STICKY();
  *ms = static_cast<float>(*reinterpret_cast<double *>(stop) -
                           *reinterpret_cast<double *>(start));
  return CUDA_SUCCESS;
}
CUresult cuEventDestroy_v2(CUevent event) {
  delete reinterpret_cast<double *>(event);
  return CUDA_SUCCESS;
}
CUresult cuGetErrorString(CUresult result, const char **text) {
  switch (result) {
  case CUDA_ERROR_INVALID_PTX: *text = "a PTX JIT compilation failed"; break;
  case CUDA_ERROR_INVALID_VALUE: *text = "invalid argument"; break;
  case CUDA_ERROR_ILLEGAL_ADDRESS: *text = "an illegal memory access was encountered"; break;
  default: *text = "fake error";
  }
  return CUDA_SUCCESS;
}
}
