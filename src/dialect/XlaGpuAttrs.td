//===- XlaGpuAttrs.td - Attributes of the emitters' dialect -*- tablegen -*-===//
#ifndef HLO_DIALECT_XLAGPUATTRS_TD
#define HLO_DIALECT_XLAGPUATTRS_TD

include "mlir/IR/AttrTypeBase.td"
include "XlaGpuDialect.td"

class XlaGpu_Attr<string name, string attrMnemonic>
    : AttrDef<XlaGpuDialect, name> {
  let mnemonic = attrMnemonic;
}

def XlaGpu_IndexingMapAttr : XlaGpu_Attr<"IndexingMap", "indexing_map"> {
  let summary = "An indexing map with its domain (XLA's indexing analysis)";
  let description = [{
    Printed as the map's text form in quotes:

      #xla_gpu.indexing_map<"(th_x, bl_x)[s0] -> (bl_x * 512 + th_x * 4 + s0),
        domain: th_x in [0, 127], bl_x in [0, 24575], s0 in [0, 3]">
  }];
  let parameters = (ins AttrParameter<"::hlo::IndexingMap", "">:$indexing_map);
  let hasCustomAssemblyFormat = 1;
}

def XlaGpu_LaunchAttr : XlaGpu_Attr<"Launch", "launch"> {
  let summary = "A kernel's launch: grid, block, and what else the launch asks";
  let description = [{
    The kernel contract between the emitters and both targets. The emitter
    that writes a kernel's entry function sets it (as the function's
    `xla_gpu.launch`); every later stage asks `xla_gpu::getKernelLaunch`
    (KernelContract.h) instead of reading attributes by name:

      func.func @fusion(...) attributes {
          xla_gpu.launch = #xla_gpu.launch<grid = [24576, 1, 1], block = [128, 1, 1]>}

    Grid and block have three extents, each at least 1. Optional, printed
    only when set:
    - `cluster = [x, y, z]`: thread-block clusters of that shape (sm_90+;
      each grid extent a multiple of the cluster's, at most 16 blocks);
    - `dynamic_shared_memory = N`: bytes of shared memory the launch adds
      to the kernel's static shared memory;
    - `max_registers = N`: the registers per thread the kernel is compiled
      for at most (PTX `.maxnreg`; 0: the compiler chooses).
  }];
  let parameters = (ins
      ArrayRefParameter<"int64_t", "blocks in x, y, z">:$grid,
      ArrayRefParameter<"int64_t", "threads in x, y, z">:$block,
      OptionalArrayRefParameter<"int64_t", "blocks per cluster in x, y, z; empty: none">:$cluster,
      DefaultValuedParameter<"int64_t", "0", "dynamic shared memory in bytes">:$dynamic_shared_memory,
      DefaultValuedParameter<"int64_t", "0", "most registers per thread; 0: any">:$max_registers);
  let hasCustomAssemblyFormat = 1;
  let builders = [
    AttrBuilder<(ins "::llvm::ArrayRef<int64_t>":$grid, "::llvm::ArrayRef<int64_t>":$block), [{
      return $_get($_ctxt, grid, block, ::llvm::ArrayRef<int64_t>(), 0, 0);
    }]>
  ];
  let genVerifyDecl = 1;
}

#endif // HLO_DIALECT_XLAGPUATTRS_TD
