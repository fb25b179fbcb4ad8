// RUN: xla-gpu-opt %s --pass-pipeline="builtin.module(gpu.module(xla-gpu-annotate-kernels))" | FileCheck %s

// Kernels get nvvm.kernel and their exact block size; other functions
// are left alone.
gpu.module @kernels {
  llvm.func @k() attributes {llvm.emit_c_interface, xla_gpu.block_size = array<i64: 128, 1, 1>} {
    llvm.return
  }
  llvm.func @helper() {
    llvm.return
  }
}
// CHECK:     llvm.func @k() attributes {nvvm.kernel, nvvm.reqntid = array<i32: 128, 1, 1>, xla_gpu.block_size
// CHECK:     llvm.func @helper() {
