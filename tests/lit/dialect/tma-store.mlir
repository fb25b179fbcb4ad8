// xla_gpu.stmatrix, tma_store and tma_store_wait (the GEMM epilogue's way
// out through shared memory): on tensors (the tile and the output
// updated, as the GEMM emitter writes them) and on buffers (no results).
// RUN: xla-gpu-opt %s --split-input-file | FileCheck %s
// RUN: xla-gpu-opt %s --split-input-file | xla-gpu-opt --split-input-file | FileCheck %s

// CHECK-LABEL: func.func @tensors
// CHECK: %[[T:.*]] = xla_gpu.stmatrix %{{.*}} into %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] {count = 4 : i64} : vector<8xbf16>, tensor<16x16x64xbf16> -> tensor<16x16x64xbf16>
// CHECK: %[[O:.*]] = xla_gpu.tma_store %[[T]][%{{.*}}, %{{.*}}, %{{.*}}] into %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 64, 16>, swizzle = 128 : i64} : tensor<16x16x64xbf16>, tensor<300x200xbf16> -> tensor<300x200xbf16>
// CHECK: xla_gpu.tma_store_wait {pending = 1 : i64, read}
// CHECK: return %[[O]]
func.func @tensors(%v: vector<8xbf16>, %t: tensor<16x16x64xbf16>, %o: tensor<300x200xbf16>, %i: index) -> tensor<300x200xbf16> {
  %t1 = xla_gpu.stmatrix %v into %t[%i, %i, %i] {count = 4 : i64} : vector<8xbf16>, tensor<16x16x64xbf16> -> tensor<16x16x64xbf16>
  %o1 = xla_gpu.tma_store %t1[%i, %i, %i] into %o[%i, %i] {box = array<i64: 64, 16>, swizzle = 128 : i64} : tensor<16x16x64xbf16>, tensor<300x200xbf16> -> tensor<300x200xbf16>
  xla_gpu.tma_store_wait {pending = 1 : i64, read}
  return %o1 : tensor<300x200xbf16>
}

// -----

// CHECK-LABEL: func.func @buffers
// CHECK: xla_gpu.stmatrix %{{.*}} into %{{.*}}[%{{.*}}, %{{.*}}] {count = 2 : i64} : vector<4xf16>, memref<16x64xf16, #gpu.address_space<workgroup>>{{$}}
// CHECK: xla_gpu.tma_store %{{.*}} into %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 64, 16>} : memref<16x64xf16, #gpu.address_space<workgroup>>, memref<64x64xf16>{{$}}
// CHECK: xla_gpu.tma_store_wait {pending = 0 : i64}{{$}}
func.func @buffers(%v: vector<4xf16>, %t: memref<16x64xf16, #gpu.address_space<workgroup>>, %o: memref<64x64xf16>, %i: index) {
  xla_gpu.stmatrix %v into %t[%i, %i] {count = 2 : i64} : vector<4xf16>, memref<16x64xf16, #gpu.address_space<workgroup>>
  xla_gpu.tma_store %t into %o[%i, %i] {box = array<i64: 64, 16>} : memref<16x64xf16, #gpu.address_space<workgroup>>, memref<64x64xf16>
  xla_gpu.tma_store_wait {pending = 0 : i64}
  return
}
