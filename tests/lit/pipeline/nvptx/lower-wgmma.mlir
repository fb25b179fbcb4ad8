// RUN: xla-gpu-opt %s --xla-gpu-lower-wgmma-to-nvvm | FileCheck %s
// (The PTX it becomes is checked end to end: emitters/gemm/wgmma.hlo.)

// Unswizzled core matrices: after a proxy fence and wgmma.fence, one
// m64n32k16 per 16 columns of K, each operand's descriptor its step's
// first core matrix (k / 8 = 0, then 2): the shared address (18 bits, in
// 16-byte units), 128 bytes between core matrices along K (8 in bits
// 16-29) and K/8 * 128 = 512 between 8-row groups (32 in bits 32-45):
// 8 << 16 | 32 << 32 = 137439477760, swizzle mode 0; then one commit and
// a wait for it.
// CHECK-LABEL: func.func @k
// CHECK:      %[[ACC:.*]] = llvm.insertvalue %{{.*}}[15] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK:      nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT: nvvm.wgmma.fence.aligned
// CHECK:      %[[PA:.*]] = xla_gpu.element_pointer %arg0[%arg2, %{{.*}}, %{{.*}}, %{{.*}}] : memref<8x4x8x8xbf16, #gpu.address_space<workgroup>> -> <3>
// CHECK:      %[[IA:.*]] = llvm.ptrtoint %[[PA]] : !llvm.ptr<3> to i64
// CHECK:      %[[MASK:.*]] = llvm.mlir.constant(262143 : i64)
// CHECK:      %[[LOW:.*]] = llvm.and %[[IA]], %[[MASK]]
// CHECK:      %[[FIELD:.*]] = llvm.lshr %[[LOW]]
// CHECK:      %[[OFFSETS:.*]] = llvm.mlir.constant(137439477760 : i64)
// CHECK:      %[[DA:.*]] = llvm.or %[[FIELD]], %[[OFFSETS]]
// CHECK:      xla_gpu.element_pointer %arg1[%arg2,
// CHECK:      %[[DB:.*]] = llvm.or
// CHECK:      %[[D1:.*]] = nvvm.wgmma.mma_async %[[DA]], %[[DB]], %[[ACC]], <m = 64, n = 32, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>]
// CHECK:      %[[K2:.*]] = arith.constant 2 : index
// CHECK:      xla_gpu.element_pointer %arg0[%arg2, %[[K2]],
// CHECK:      %[[DA2:.*]] = llvm.or
// CHECK:      arith.constant 2 : index
// CHECK:      xla_gpu.element_pointer %arg1[%arg2,
// CHECK:      %[[DB2:.*]] = llvm.or
// CHECK:      %[[D2:.*]] = nvvm.wgmma.mma_async %[[DA2]], %[[DB2]], %[[D1]], <m = 64, n = 32, k = 16>
// CHECK-NOT:  nvvm.wgmma.mma_async
// CHECK:      nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK:      llvm.extractvalue %[[D2]][0]
// CHECK:      vector.from_elements {{.*}} : vector<16xf32>
func.func @k(%a: memref<8x4x8x8xbf16, #gpu.address_space<workgroup>>, %b: memref<4x4x8x8xbf16, #gpu.address_space<workgroup>>, %r: index, %c: vector<16xf32>) -> vector<16xf32> {
  %d = xla_gpu.wgmma %a[%r], %b[%r], %c : memref<8x4x8x8xbf16, #gpu.address_space<workgroup>>, memref<4x4x8x8xbf16, #gpu.address_space<workgroup>>, vector<16xf32> -> vector<16xf32>
  return %d : vector<16xf32>
}

// 128-byte swizzle, K = 128 in two atoms of 64 columns: the step from k on
// starts at element [k / 64][8 * row group][k % 64] (16 columns on: 32 bytes
// within the atom's rows, then the next atom); the leading offset is 16
// bytes (unused), 8 rows of 128 bytes between 8-row groups (64 in bits
// 32-45), mode 1 in bits 62-63: 1 << 16 | 64 << 32 | 1 << 62 =
// 4611686293305360384.
// CHECK-LABEL: func.func @swizzled
// CHECK:      %[[ROW:.*]] = arith.muli %arg2, %{{.*}} : index
// CHECK:      xla_gpu.element_pointer %arg0[%{{.*}}, %[[ROW]], %{{.*}}] : memref<2x64x64xbf16, #gpu.address_space<workgroup>> -> <3>
// CHECK:      llvm.mlir.constant(4611686293305360384 : i64)
// CHECK:      nvvm.wgmma.mma_async {{.*}} <m = 64, n = 32, k = 16>
// CHECK:      %[[C16:.*]] = arith.constant 16 : index
// CHECK:      xla_gpu.element_pointer %arg0[%{{.*}}, %{{.*}}, %[[C16]]]
// CHECK:      nvvm.wgmma.mma_async
// CHECK:      %[[C48:.*]] = arith.constant 48 : index
// CHECK:      xla_gpu.element_pointer %arg0[%{{.*}}, %{{.*}}, %[[C48]]]
// CHECK:      nvvm.wgmma.mma_async
// CHECK:      %[[ATOM:.*]] = arith.constant 1 : index
// CHECK:      xla_gpu.element_pointer %arg0[%[[ATOM]], %{{.*}}, %{{.*}}]
// CHECK-COUNT-4: nvvm.wgmma.mma_async
// CHECK-NOT:  nvvm.wgmma.mma_async
func.func @swizzled(%a: memref<2x64x64xbf16, #gpu.address_space<workgroup>>, %b: memref<2x32x64xbf16, #gpu.address_space<workgroup>>, %r: index, %c: vector<16xf32>) -> vector<16xf32> {
  %d = xla_gpu.wgmma %a[%r], %b[%r], %c {swizzle = 128 : i64} : memref<2x64x64xbf16, #gpu.address_space<workgroup>>, memref<2x32x64xbf16, #gpu.address_space<workgroup>>, vector<16xf32> -> vector<16xf32>
  return %d : vector<16xf32>
}

// 32-byte swizzle: 8 rows of 32 bytes between 8-row groups (16 in bits
// 32-45), mode 3: 1 << 16 | 16 << 32 | 3 << 62 = 13835058124001705984 (signed, as printed).
// CHECK-LABEL: func.func @swizzled32
// CHECK:      llvm.mlir.constant(-4611685949707845632 : i64)
// CHECK:      nvvm.wgmma.mma_async {{.*}} <m = 64, n = 8, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <col>]
func.func @swizzled32(%a: memref<1x64x16xf16, #gpu.address_space<workgroup>>, %b: memref<1x8x16xf16, #gpu.address_space<workgroup>>, %r: index, %c: vector<4xf32>) -> vector<4xf32> {
  %d = xla_gpu.wgmma %a[%r], %b[%r], %c {swizzle = 32 : i64} : memref<1x64x16xf16, #gpu.address_space<workgroup>>, memref<1x8x16xf16, #gpu.address_space<workgroup>>, vector<4xf32> -> vector<4xf32>
  return %d : vector<4xf32>
}

// f32 tiles are TF32: m64nNk8, one instruction per 8 columns (32 bytes) of
// K: four over K = 32.
// CHECK-LABEL: func.func @tf32
// CHECK-COUNT-4: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 8, k = 8>, D[<f32>, <one>], A[<tf32>, <one>, <row>], B[<tf32>, <one>, <col>]
// CHECK-NOT:   nvvm.wgmma.mma_async
func.func @tf32(%a: memref<1x64x32xf32, #gpu.address_space<workgroup>>, %b: memref<1x8x32xf32, #gpu.address_space<workgroup>>, %r: index, %c: vector<4xf32>) -> vector<4xf32> {
  %d = xla_gpu.wgmma %a[%r], %b[%r], %c {swizzle = 128 : i64} : memref<1x64x32xf32, #gpu.address_space<workgroup>>, memref<1x8x32xf32, #gpu.address_space<workgroup>>, vector<4xf32> -> vector<4xf32>
  return %d : vector<4xf32>
}

// An N-major B (b_transposed: a [N/32][K][32] tile of 64-byte rows along
// N, the swizzle A's): its descriptor starts at atom 8 * row group / 32,
// row k; the leading offset is between atoms (K = 32 rows of 64 bytes:
// 2048 bytes, 128 in bits 16-29), the stride between 8-k groups (512: 32
// in bits 32-45), mode 2 (64 bytes, bits 62-63): 128 << 16 | 32 << 32 |
// 2 << 62 (signed, as printed); B's layout "row" (imm-trans-b 1). Two
// k16 steps: rows 0 and 16.
// CHECK-LABEL: func.func @transposed_b
// CHECK:      xla_gpu.element_pointer %arg0
// CHECK:      %[[COLUMN:.*]] = arith.muli %arg2, %{{.*}} : index
// CHECK:      %[[ATOM:.*]] = arith.divui %[[COLUMN]], %{{.*}} : index
// CHECK:      xla_gpu.element_pointer %arg1[%[[ATOM]], %{{.*}}, %{{.*}}] : memref<4x32x32xbf16, #gpu.address_space<workgroup>> -> <3>
// CHECK:      llvm.mlir.constant(-9223371899407433728 : i64)
// CHECK:      nvvm.wgmma.mma_async {{.*}} <m = 64, n = 128, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <row>]
// CHECK:      xla_gpu.element_pointer %arg0
// CHECK:      %[[K16:.*]] = arith.constant 16 : index
// CHECK:      xla_gpu.element_pointer %arg1[%{{.*}}, %[[K16]], %{{.*}}]
// CHECK:      nvvm.wgmma.mma_async {{.*}} B[<bf16>, <one>, <row>]
// CHECK-NOT:  nvvm.wgmma.mma_async
func.func @transposed_b(%a: memref<1x64x32xbf16, #gpu.address_space<workgroup>>, %b: memref<4x32x32xbf16, #gpu.address_space<workgroup>>, %r: index, %c: vector<64xf32>) -> vector<64xf32> {
  %d = xla_gpu.wgmma %a[%r], %b[%r], %c {b_transposed, swizzle = 64 : i64} : memref<1x64x32xbf16, #gpu.address_space<workgroup>>, memref<4x32x32xbf16, #gpu.address_space<workgroup>>, vector<64xf32> -> vector<64xf32>
  return %d : vector<64xf32>
}

// An M-major A too (a_transposed, a weight gradient's): its descriptor
// like B's, from atom 8 * row group / 32 of its [M/32][K][32] tile, the
// same leading offset, stride and mode; A's layout "col" (imm-trans-a 1).
// CHECK-LABEL: func.func @transposed_a
// CHECK:      %[[ACOLUMN:.*]] = arith.muli %arg2, %{{.*}} : index
// CHECK:      %[[AATOM:.*]] = arith.divui %[[ACOLUMN]], %{{.*}} : index
// CHECK:      xla_gpu.element_pointer %arg0[%[[AATOM]], %{{.*}}, %{{.*}}] : memref<2x32x32xbf16, #gpu.address_space<workgroup>> -> <3>
// CHECK:      llvm.mlir.constant(-9223371899407433728 : i64)
// CHECK:      nvvm.wgmma.mma_async {{.*}} <m = 64, n = 128, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <col>], B[<bf16>, <one>, <row>]
func.func @transposed_a(%a: memref<2x32x32xbf16, #gpu.address_space<workgroup>>, %b: memref<4x32x32xbf16, #gpu.address_space<workgroup>>, %r: index, %c: vector<64xf32>) -> vector<64xf32> {
  %d = xla_gpu.wgmma %a[%r], %b[%r], %c {a_transposed, b_transposed, swizzle = 64 : i64} : memref<2x32x32xbf16, #gpu.address_space<workgroup>>, memref<4x32x32xbf16, #gpu.address_space<workgroup>>, vector<64xf32> -> vector<64xf32>
  return %d : vector<64xf32>
}

// 8-bit floats, mixed (e5m2 A, e4m3fn B), 128-byte swizzle: one m64nNk32
// per 32 columns of K (32 bytes, as the 16-bit kinds' 16 columns), A's
// and B's types each their own, B K-major ("col").
// CHECK-LABEL: func.func @float8
// CHECK:      xla_gpu.element_pointer %arg0[%{{.*}}, %{{.*}}, %{{.*}}] : memref<1x64x128xf8E5M2, #gpu.address_space<workgroup>> -> <3>
// CHECK:      nvvm.wgmma.mma_async {{.*}} <m = 64, n = 16, k = 32>, D[<f32>, <one>], A[<e5m2>, <one>, <row>], B[<e4m3>, <one>, <col>]
// CHECK:      %[[C32:.*]] = arith.constant 32 : index
// CHECK:      xla_gpu.element_pointer %arg0[%{{.*}}, %{{.*}}, %[[C32]]]
// CHECK-COUNT-3: nvvm.wgmma.mma_async
// CHECK-NOT:  nvvm.wgmma.mma_async
// CHECK:      nvvm.wgmma.commit.group.sync.aligned
func.func @float8(%a: memref<1x64x128xf8E5M2, #gpu.address_space<workgroup>>, %b: memref<1x16x128xf8E4M3FN, #gpu.address_space<workgroup>>, %r: index, %c: vector<8xf32>) -> vector<8xf32> {
  %d = xla_gpu.wgmma %a[%r], %b[%r], %c {swizzle = 128 : i64} : memref<1x64x128xf8E5M2, #gpu.address_space<workgroup>>, memref<1x16x128xf8E4M3FN, #gpu.address_space<workgroup>>, vector<8xf32> -> vector<8xf32>
  return %d : vector<8xf32>
}
