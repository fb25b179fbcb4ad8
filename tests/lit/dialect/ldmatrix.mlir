// xla_gpu.ldmatrix: on a tensor (as the GEMM emitter writes it) and on the
// shared buffer bufferization gives it; 16-, 32- and 8-bit tiles, 1, 2 and
// 4 matrices, transposed (16-bit) (invalid.mlir has what the verifier rejects).
// RUN: xla-gpu-opt %s | FileCheck %s
// RUN: xla-gpu-opt %s | xla-gpu-opt | FileCheck %s

// CHECK-LABEL: func.func @forms
// CHECK: xla_gpu.ldmatrix %{{.*}}[%{{.*}}, %{{.*}}] {count = 4 : i64} : tensor<64x40xbf16> -> vector<8xbf16>
// CHECK: xla_gpu.ldmatrix %{{.*}}[%{{.*}}, %{{.*}}] {count = 2 : i64} : tensor<16x20xf32> -> vector<2xf32>
// CHECK: xla_gpu.ldmatrix %{{.*}}[%{{.*}}, %{{.*}}] {count = 1 : i64} : tensor<8x80xi8> -> vector<4xi8>
// CHECK: xla_gpu.ldmatrix %{{.*}}[%{{.*}}, %{{.*}}] {count = 2 : i64} : memref<16x40xf16, #gpu.address_space<workgroup>> -> vector<4xf16>
// CHECK: xla_gpu.ldmatrix %{{.*}}[%{{.*}}, %{{.*}}] {count = 4 : i64, transpose} : tensor<32x72xbf16> -> vector<8xbf16>
func.func @forms(%bf: tensor<64x40xbf16>, %f: tensor<16x20xf32>, %i: tensor<8x80xi8>,
                 %m: memref<16x40xf16, #gpu.address_space<workgroup>>, %r: index, %c: index,
                 %t: tensor<32x72xbf16>) {
  %0 = xla_gpu.ldmatrix %bf[%r, %c] {count = 4 : i64} : tensor<64x40xbf16> -> vector<8xbf16>
  %1 = xla_gpu.ldmatrix %f[%r, %c] {count = 2 : i64} : tensor<16x20xf32> -> vector<2xf32>
  %2 = xla_gpu.ldmatrix %i[%r, %c] {count = 1 : i64} : tensor<8x80xi8> -> vector<4xi8>
  %3 = xla_gpu.ldmatrix %m[%r, %c] {count = 2 : i64} : memref<16x40xf16, #gpu.address_space<workgroup>> -> vector<4xf16>
  %4 = xla_gpu.ldmatrix %t[%r, %c] {count = 4 : i64, transpose} : tensor<32x72xbf16> -> vector<8xbf16>
  return
}
