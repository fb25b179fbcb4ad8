// xla_gpu.mbarrier_init, mbarrier_arrive, mbarrier_wait and tma_load: on
// tensors (as the GEMM emitter writes them: the barrier array and tiles
// updated, the wait passing its tiles through) and on buffers (no result,
// no tiles), and what the verifiers reject.
// RUN: xla-gpu-opt %s --split-input-file | FileCheck %s
// RUN: xla-gpu-opt %s --split-input-file | xla-gpu-opt --split-input-file | FileCheck %s

// CHECK-LABEL: func.func @tensors
// CHECK: %[[B1:.*]] = xla_gpu.mbarrier_init %{{.*}}[%{{.*}}] {count = 1 : i64} : tensor<4xi64> -> tensor<4xi64>
// CHECK: %[[B2:.*]] = xla_gpu.mbarrier_arrive %[[B1]][%{{.*}}] {transaction_bytes = 16384 : i64} : tensor<4xi64> -> tensor<4xi64>
// CHECK: %[[T:.*]] = xla_gpu.tma_load %{{.*}}[%{{.*}}, %{{.*}}] into %{{.*}} barrier %[[B2]][%{{.*}}] {box = array<i64: 64, 128>, swizzle = 128 : i64} : tensor<256x512xbf16>, tensor<1x128x64xbf16>, tensor<4xi64> -> tensor<1x128x64xbf16>
// CHECK: %[[W:.*]] = xla_gpu.mbarrier_wait %[[B2]][%{{.*}}], %{{.*}}, %[[T]] : tensor<4xi64>, tensor<1x128x64xbf16>
func.func @tensors(%a: tensor<256x512xbf16>, %t: tensor<1x128x64xbf16>, %b: tensor<4xi64>, %i: index) -> tensor<1x128x64xbf16> {
  %b1 = xla_gpu.mbarrier_init %b[%i] {count = 1 : i64} : tensor<4xi64> -> tensor<4xi64>
  %b2 = xla_gpu.mbarrier_arrive %b1[%i] {transaction_bytes = 16384 : i64} : tensor<4xi64> -> tensor<4xi64>
  %t1 = xla_gpu.tma_load %a[%i, %i] into %t barrier %b2[%i] {box = array<i64: 64, 128>, swizzle = 128 : i64} : tensor<256x512xbf16>, tensor<1x128x64xbf16>, tensor<4xi64> -> tensor<1x128x64xbf16>
  %t2 = xla_gpu.mbarrier_wait %b2[%i], %i, %t1 : tensor<4xi64>, tensor<1x128x64xbf16>
  return %t2 : tensor<1x128x64xbf16>
}

// -----

// CHECK-LABEL: func.func @buffers
// CHECK: xla_gpu.mbarrier_init %{{.*}}[%{{.*}}] {count = 128 : i64} : memref<2xi64, #gpu.address_space<workgroup>>{{$}}
// CHECK: xla_gpu.mbarrier_arrive %{{.*}}[%{{.*}}] : memref<2xi64, #gpu.address_space<workgroup>>{{$}}
// CHECK: xla_gpu.tma_load {{.*}} : memref<64x64xf16>, memref<64x32xf16, #gpu.address_space<workgroup>>, memref<2xi64, #gpu.address_space<workgroup>>{{$}}
// CHECK: xla_gpu.mbarrier_wait %{{.*}}[%{{.*}}], %{{.*}} : memref<2xi64, #gpu.address_space<workgroup>>{{$}}
func.func @buffers(%a: memref<64x64xf16>, %t: memref<64x32xf16, #gpu.address_space<workgroup>>, %b: memref<2xi64, #gpu.address_space<workgroup>>, %i: index) {
  xla_gpu.mbarrier_init %b[%i] {count = 128 : i64} : memref<2xi64, #gpu.address_space<workgroup>>
  xla_gpu.mbarrier_arrive %b[%i] : memref<2xi64, #gpu.address_space<workgroup>>
  xla_gpu.tma_load %a[%i, %i] into %t barrier %b[%i] {box = array<i64: 32, 64>} : memref<64x64xf16>, memref<64x32xf16, #gpu.address_space<workgroup>>, memref<2xi64, #gpu.address_space<workgroup>>
  xla_gpu.mbarrier_wait %b[%i], %i : memref<2xi64, #gpu.address_space<workgroup>>
  return
}

// -----

// A cluster's: an arrival at another block's barrier, a TMA load
// multicast to the blocks of a mask, the cluster barrier passing tiles
// through.
// CHECK-LABEL: func.func @cluster
// CHECK: %[[B1:.*]] = xla_gpu.mbarrier_arrive %{{.*}}[%{{.*}}] in_block %{{.*}} : tensor<4xi64> -> tensor<4xi64>
// CHECK: %[[T:.*]] = xla_gpu.tma_load %{{.*}}[%{{.*}}, %{{.*}}] into %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] barrier %[[B1]][%{{.*}}] {box = array<i64: 64, 64>, multicast = 3 : i64, swizzle = 128 : i64}
// CHECK: %{{.*}}:2 = xla_gpu.sync_threads %[[T]], %[[B1]] {cluster} : tensor<1x128x64xbf16>, tensor<4xi64>
func.func @cluster(%a: tensor<256x512xbf16>, %t: tensor<1x128x64xbf16>, %b: tensor<4xi64>, %i: index) -> tensor<1x128x64xbf16> {
  %b1 = xla_gpu.mbarrier_arrive %b[%i] in_block %i : tensor<4xi64> -> tensor<4xi64>
  %t1 = xla_gpu.tma_load %a[%i, %i] into %t[%i, %i, %i] barrier %b1[%i] {box = array<i64: 64, 64>, multicast = 3 : i64, swizzle = 128 : i64} : tensor<256x512xbf16>, tensor<1x128x64xbf16>, tensor<4xi64> -> tensor<1x128x64xbf16>
  %s:2 = xla_gpu.sync_threads %t1, %b1 {cluster} : tensor<1x128x64xbf16>, tensor<4xi64>
  return %s#0 : tensor<1x128x64xbf16>
}

// -----

// The register moves of a warp-specialized kernel's warpgroups.
// CHECK-LABEL: func.func @registers
// CHECK: xla_gpu.set_max_registers {count = 40 : i64}{{$}}
// CHECK: xla_gpu.set_max_registers {count = 232 : i64, increase}{{$}}
func.func @registers() {
  xla_gpu.set_max_registers {count = 40 : i64}
  xla_gpu.set_max_registers {count = 232 : i64, increase}
  return
}
