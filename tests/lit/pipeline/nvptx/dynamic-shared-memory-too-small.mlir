// RUN: not xla-gpu-opt %s --pass-pipeline="builtin.module(gpu.module(xla-gpu-dynamic-shared-memory))" 2>&1 | FileCheck %s

// Tiles that need more than the launch's dynamic shared memory are an
// error at the kernel (an emitter whose byte count and layout disagree).
gpu.module @kernels {
  llvm.mlir.global private @a() {addr_space = 3 : i32} : !llvm.array<60000 x i8>
  // CHECK: error: the kernel's shared tiles take 60000 bytes, more than the launch's dynamic shared memory (57344)
  llvm.func @dynamic() attributes {xla_gpu.launch = #xla_gpu.launch<grid = [1, 1, 1], block = [128, 1, 1], dynamic_shared_memory = 57344>} {
    %a = llvm.mlir.addressof @a : !llvm.ptr<3>
    llvm.return
  }
}
