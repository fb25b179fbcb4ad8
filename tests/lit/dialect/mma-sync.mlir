// xla_gpu.mma_sync: every shape and type the op takes parses, verifies and
// prints back (invalid.mlir has what the verifier rejects).
// RUN: xla-gpu-opt %s --split-input-file | FileCheck %s
// RUN: xla-gpu-opt %s --split-input-file | xla-gpu-opt --split-input-file | FileCheck %s

// CHECK-LABEL: func.func @kinds
// CHECK: xla_gpu.mma_sync %{{.*}}, %{{.*}}, %{{.*}} {shape = array<i64: 16, 8, 16>} : vector<8xbf16>, vector<4xbf16>, vector<4xf32> -> vector<4xf32>
// CHECK: xla_gpu.mma_sync %{{.*}}, %{{.*}}, %{{.*}} {shape = array<i64: 16, 8, 16>} : vector<8xf16>, vector<4xf16>, vector<4xf32> -> vector<4xf32>
// CHECK: xla_gpu.mma_sync %{{.*}}, %{{.*}}, %{{.*}} {shape = array<i64: 16, 8, 8>, tf32} : vector<4xf32>, vector<2xf32>, vector<4xf32> -> vector<4xf32>
// CHECK: xla_gpu.mma_sync %{{.*}}, %{{.*}}, %{{.*}} {shape = array<i64: 8, 8, 4>} : vector<1xf64>, vector<1xf64>, vector<2xf64> -> vector<2xf64>
// CHECK: xla_gpu.mma_sync %{{.*}}, %{{.*}}, %{{.*}} {shape = array<i64: 16, 8, 32>} : vector<16xi8>, vector<8xi8>, vector<4xi32> -> vector<4xi32>
// CHECK: xla_gpu.mma_sync %{{.*}}, %{{.*}}, %{{.*}} {shape = array<i64: 16, 8, 32>} : vector<16xf8E5M2>, vector<8xf8E5M2>, vector<4xf32> -> vector<4xf32>
// CHECK: xla_gpu.mma_sync %{{.*}}, %{{.*}}, %{{.*}} {shape = array<i64: 16, 8, 32>} : vector<16xf8E5M2>, vector<8xf8E4M3FN>, vector<4xf32> -> vector<4xf32>
func.func @kinds(%bf: vector<8xbf16>, %bf2: vector<4xbf16>, %h: vector<8xf16>, %h2: vector<4xf16>,
                 %f: vector<4xf32>, %f2: vector<2xf32>, %d: vector<1xf64>, %d2: vector<2xf64>,
                 %i: vector<16xi8>, %i2: vector<8xi8>, %s: vector<4xi32>,
                 %e: vector<16xf8E5M2>, %e2: vector<8xf8E5M2>, %e3: vector<8xf8E4M3FN>) {
  %0 = xla_gpu.mma_sync %bf, %bf2, %f {shape = array<i64: 16, 8, 16>} : vector<8xbf16>, vector<4xbf16>, vector<4xf32> -> vector<4xf32>
  %1 = xla_gpu.mma_sync %h, %h2, %f {shape = array<i64: 16, 8, 16>} : vector<8xf16>, vector<4xf16>, vector<4xf32> -> vector<4xf32>
  %2 = xla_gpu.mma_sync %f, %f2, %f {shape = array<i64: 16, 8, 8>, tf32} : vector<4xf32>, vector<2xf32>, vector<4xf32> -> vector<4xf32>
  %3 = xla_gpu.mma_sync %d, %d, %d2 {shape = array<i64: 8, 8, 4>} : vector<1xf64>, vector<1xf64>, vector<2xf64> -> vector<2xf64>
  %4 = xla_gpu.mma_sync %i, %i2, %s {shape = array<i64: 16, 8, 32>} : vector<16xi8>, vector<8xi8>, vector<4xi32> -> vector<4xi32>
  %5 = xla_gpu.mma_sync %e, %e2, %f {shape = array<i64: 16, 8, 32>} : vector<16xf8E5M2>, vector<8xf8E5M2>, vector<4xf32> -> vector<4xf32>
  // Mixed 8-bit floats (e5m2 x e4m3).
  %6 = xla_gpu.mma_sync %e, %e3, %f {shape = array<i64: 16, 8, 32>} : vector<16xf8E5M2>, vector<8xf8E4M3FN>, vector<4xf32> -> vector<4xf32>
  return
}
