// xla_gpu.async_copy, async_commit and async_wait: on tensors (as the GEMM
// emitter writes them, the tiles passed through) and on buffers (no
// result, no tiles) (invalid.mlir has what the verifiers reject).
// RUN: xla-gpu-opt %s | FileCheck %s
// RUN: xla-gpu-opt %s | xla-gpu-opt | FileCheck %s

// CHECK-LABEL: func.func @tensors
// CHECK: %[[T:.*]] = xla_gpu.async_copy %{{.*}}[%{{.*}}, %{{.*}}] into %{{.*}}[%{{.*}}, %{{.*}}] if %{{.*}} {bytes = 16 : i64} : tensor<256x64xbf16>, tensor<64x40xbf16> -> tensor<64x40xbf16>
// CHECK: %[[C:.*]] = xla_gpu.async_commit %[[T]] : tensor<64x40xbf16>
// CHECK: xla_gpu.async_wait %[[C]] {pending = 1 : i64} : tensor<64x40xbf16>
func.func @tensors(%a: tensor<256x64xbf16>, %t: tensor<64x40xbf16>, %i: index, %c: i1) -> tensor<64x40xbf16> {
  %0 = xla_gpu.async_copy %a[%i, %i] into %t[%i, %i] if %c {bytes = 16 : i64} : tensor<256x64xbf16>, tensor<64x40xbf16> -> tensor<64x40xbf16>
  %1 = xla_gpu.async_commit %0 : tensor<64x40xbf16>
  %2 = xla_gpu.async_wait %1 {pending = 1 : i64} : tensor<64x40xbf16>
  return %2 : tensor<64x40xbf16>
}

// CHECK-LABEL: func.func @buffers
// CHECK: xla_gpu.async_copy %{{.*}}[%{{.*}}] into %{{.*}}[%{{.*}}, %{{.*}}] if %{{.*}} {bytes = 8 : i64} : memref<1024xf32>, memref<16x20xf32, #gpu.address_space<workgroup>>{{$}}
// CHECK: xla_gpu.async_commit{{$}}
// CHECK: xla_gpu.async_wait {pending = 0 : i64}
func.func @buffers(%a: memref<1024xf32>, %t: memref<16x20xf32, #gpu.address_space<workgroup>>, %i: index, %c: i1) {
  xla_gpu.async_copy %a[%i] into %t[%i, %i] if %c {bytes = 8 : i64} : memref<1024xf32>, memref<16x20xf32, #gpu.address_space<workgroup>>
  xla_gpu.async_commit
  xla_gpu.async_wait {pending = 0 : i64}
  return
}
