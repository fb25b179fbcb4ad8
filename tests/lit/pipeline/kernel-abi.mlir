// RUN: xla-gpu-opt %s --xla-gpu-mark-outputs-writable | FileCheck %s --check-prefix=WRITABLE
// RUN: xla-gpu-opt %s --xla-gpu-mark-outputs-writable --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --canonicalize --xla-gpu-kernel-abi | FileCheck %s

// Outputs are the trailing arguments; after bufferization the kernel
// returns nothing, its buffers carry what LLVM may assume, and everything
// lives in one gpu.module.
func.func @k(%in: tensor<8xf32>, %out: tensor<8xf32>) -> tensor<8xf32>
    attributes {xla_gpu.launch = #xla_gpu.launch<grid = [1, 1, 1], block = [8, 1, 1]>} {
  %tid = gpu.thread_id x upper_bound 8
  %x = tensor.extract %in[%tid] : tensor<8xf32>
  %r = tensor.insert %x into %out[%tid] : tensor<8xf32>
  return %r : tensor<8xf32>
}
// WRITABLE: func.func @k(%{{.*}}: tensor<8xf32> {bufferization.writable = false}, %{{.*}}: tensor<8xf32> {bufferization.writable = true})

// CHECK:      gpu.module @kernels {
// CHECK:        func.func @k(%{{.*}}: memref<8xf32> {llvm.align = 16 : i64, llvm.dereferenceable = 32 : i64, llvm.noalias, llvm.readonly}, %{{.*}}: memref<8xf32> {llvm.align = 16 : i64, llvm.dereferenceable = 32 : i64, llvm.noalias})
// CHECK-NOT:    ->
// CHECK:          memref.load
// CHECK:          memref.store
// CHECK:          return{{$}}
