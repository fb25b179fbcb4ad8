// xla_gpu.wgmma: on tensors (as the GEMM emitter writes it) and on the
// shared buffers bufferization gives it; bf16 and f16, N from 8 to 256,
// f32 (TF32) too, unswizzled core matrices and 128-byte swizzled rows;
// allocate_shared's
// alignment (invalid.mlir has what the verifier rejects).
// RUN: xla-gpu-opt %s | FileCheck %s
// RUN: xla-gpu-opt %s | xla-gpu-opt | FileCheck %s

// CHECK-LABEL: func.func @forms
// CHECK: xla_gpu.wgmma %{{.*}}[%{{.*}}], %{{.*}}[%{{.*}}], %{{.*}} : tensor<8x4x8x8xbf16>, tensor<4x4x8x8xbf16>, vector<16xf32> -> vector<16xf32>
// CHECK: xla_gpu.wgmma %{{.*}}[%{{.*}}], %{{.*}}[%{{.*}}], %{{.*}} : memref<16x2x8x8xf16, #gpu.address_space<workgroup>>, memref<32x2x8x8xf16, #gpu.address_space<workgroup>>, vector<128xf32> -> vector<128xf32>
// CHECK: xla_gpu.wgmma %{{.*}}[%{{.*}}], %{{.*}}[%{{.*}}], %{{.*}} : tensor<8x2x8x4xf32>, tensor<1x2x8x4xf32>, vector<4xf32> -> vector<4xf32>
// CHECK: xla_gpu.allocate_shared {alignment = 1024 : i64} : tensor<2x64x64xbf16>
// CHECK: xla_gpu.wgmma %{{.*}}[%{{.*}}], %{{.*}}[%{{.*}}], %{{.*}} {swizzle = 128 : i64} : tensor<2x64x64xbf16>, tensor<2x32x64xbf16>, vector<16xf32> -> vector<16xf32>
func.func @forms(%a: tensor<8x4x8x8xbf16>, %b: tensor<4x4x8x8xbf16>, %c: vector<16xf32>,
                 %ma: memref<16x2x8x8xf16, #gpu.address_space<workgroup>>,
                 %mb: memref<32x2x8x8xf16, #gpu.address_space<workgroup>>,
                 %mc: vector<128xf32>, %r: index) {
  %0 = xla_gpu.wgmma %a[%r], %b[%r], %c : tensor<8x4x8x8xbf16>, tensor<4x4x8x8xbf16>, vector<16xf32> -> vector<16xf32>
  %1 = xla_gpu.wgmma %ma[%r], %mb[%r], %mc : memref<16x2x8x8xf16, #gpu.address_space<workgroup>>, memref<32x2x8x8xf16, #gpu.address_space<workgroup>>, vector<128xf32> -> vector<128xf32>
  %fa = tensor.empty() : tensor<8x2x8x4xf32>
  %fb = tensor.empty() : tensor<1x2x8x4xf32>
  %fc = arith.constant dense<0.0> : vector<4xf32>
  %3 = xla_gpu.wgmma %fa[%r], %fb[%r], %fc : tensor<8x2x8x4xf32>, tensor<1x2x8x4xf32>, vector<4xf32> -> vector<4xf32>
  %sa = xla_gpu.allocate_shared {alignment = 1024 : i64} : tensor<2x64x64xbf16>
  %sb = xla_gpu.allocate_shared {alignment = 1024 : i64} : tensor<2x32x64xbf16>
  %2 = xla_gpu.wgmma %sa[%r], %sb[%r], %c {swizzle = 128 : i64} : tensor<2x64x64xbf16>, tensor<2x32x64xbf16>, vector<16xf32> -> vector<16xf32>
  return
}
