// RUN: xla-gpu-opt %s --pass-pipeline="builtin.module(gpu.module(xla-gpu-annotate-kernels))" | FileCheck %s

// Kernels get nvvm.kernel, their exact block size, and the static shared
// memory they use (the workgroup globals they take the address of, laid
// out as SharedMemoryLayout.h says: 16-byte aligned in module order); other
// functions are left alone.
gpu.module @kernels {
  llvm.mlir.global private @tile() {addr_space = 3 : i32} : !llvm.array<32 x array<33 x f32>>
  llvm.mlir.global private @flag() {addr_space = 3 : i32} : i32
  llvm.func @k() attributes {llvm.emit_c_interface, xla_gpu.launch = #xla_gpu.launch<grid = [1, 1, 1], block = [128, 1, 1]>} {
    llvm.return
  }
  llvm.func @tiled() attributes {xla_gpu.launch = #xla_gpu.launch<grid = [1, 1, 1], block = [32, 8, 1]>} {
    %t = llvm.mlir.addressof @tile : !llvm.ptr<3>
    %f = llvm.mlir.addressof @flag : !llvm.ptr<3>
    llvm.return
  }
  llvm.func @clustered() attributes {xla_gpu.launch = #xla_gpu.launch<grid = [4, 1, 1], block = [128, 1, 1], cluster = [2, 1, 1], dynamic_shared_memory = 4096, max_registers = 40>} {
    llvm.return
  }
  llvm.func @mapped(%map: !llvm.ptr {xla_gpu.tensor_map = array<i64: 64, 128>}, %out: !llvm.ptr) attributes {xla_gpu.launch = #xla_gpu.launch<grid = [1, 1, 1], block = [128, 1, 1]>} {
    llvm.return
  }
  llvm.func @helper() {
    llvm.return
  }
}
// CHECK:     llvm.func @k() attributes {nvvm.kernel, nvvm.reqntid = array<i32: 128, 1, 1>, xla_gpu.launch = #xla_gpu.launch<grid = [1, 1, 1], block = [128, 1, 1]>, xla_gpu.shared_memory_bytes = 0 : i64}
// 32 * 33 * 4 = 4224 bytes, then the i32 at 4224: 4228 bytes.
// CHECK:     llvm.func @tiled() attributes {nvvm.kernel, nvvm.reqntid = array<i32: 32, 8, 1>, xla_gpu.launch = #xla_gpu.launch<grid = [1, 1, 1], block = [32, 8, 1]>, xla_gpu.shared_memory_bytes = 4228 : i64}
// A cluster shape and a register bound become NVVM's (`.reqnctapercluster`,
// `.maxnreg` in the PTX).
// CHECK:     llvm.func @clustered() attributes {nvvm.cluster_dim = array<i32: 2, 1, 1>, nvvm.kernel, nvvm.maxnreg = 40 : i32, nvvm.reqntid = array<i32: 128, 1, 1>,
// A tensor map argument: 128 bytes by value, 64-byte aligned, a grid
// constant (`.param .align 64 .b8 X[128]`, its address taken in place).
// CHECK:     llvm.func @mapped(%{{.*}}: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %{{.*}}: !llvm.ptr)
// CHECK:     llvm.func @helper() {
