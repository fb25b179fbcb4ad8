// RUN: xla-gpu-opt %s --xla-gpu-lower-wgmma-to-nvvm | FileCheck %s
// (The PTX it becomes is checked end to end: emitters/gemm/wgmma.hlo.)

// Each operand's descriptor: its first core matrix's shared address (18
// bits, in 16-byte units), 128 bytes between core matrices along K (8 in
// bits 16-29) and K/8 * 128 = 512 between 8-row groups (32 in bits
// 32-45): 8 << 16 | 32 << 32 = 137439477760. After a proxy fence and
// wgmma.fence, one m64n32k16 per 16 columns of K, the descriptors 256
// bytes (16 units) on each time, then one commit and a wait for it.
// CHECK-LABEL: func.func @k
// CHECK:      %[[ACC:.*]] = llvm.insertvalue %{{.*}}[15] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK:      %[[PA:.*]] = xla_gpu.element_pointer %arg0[%arg2, %{{.*}}, %{{.*}}, %{{.*}}] : memref<8x4x8x8xbf16, #gpu.address_space<workgroup>> -> <3>
// CHECK:      %[[IA:.*]] = llvm.ptrtoint %[[PA]] : !llvm.ptr<3> to i64
// CHECK:      %[[MASK:.*]] = llvm.mlir.constant(262143 : i64)
// CHECK:      %[[LOW:.*]] = llvm.and %[[IA]], %[[MASK]]
// CHECK:      %[[FIELD:.*]] = llvm.lshr %[[LOW]]
// CHECK:      %[[OFFSETS:.*]] = llvm.mlir.constant(137439477760 : i64)
// CHECK:      %[[DA:.*]] = llvm.or %[[FIELD]], %[[OFFSETS]]
// CHECK:      %[[DB:.*]] = llvm.or
// CHECK:      nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT: nvvm.wgmma.fence.aligned
// CHECK:      %[[STEP:.*]] = llvm.mlir.constant(16 : i64)
// CHECK:      %[[D1:.*]] = nvvm.wgmma.mma_async %[[DA]], %[[DB]], %[[ACC]], <m = 64, n = 32, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>]
// CHECK:      %[[DA2:.*]] = llvm.add %[[DA]], %[[STEP]]
// CHECK:      %[[DB2:.*]] = llvm.add %[[DB]], %[[STEP]]
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

// f16 tiles: f16 operands.
// CHECK-LABEL: func.func @f16
// CHECK: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 8, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <col>]
func.func @f16(%a: memref<8x2x8x8xf16, #gpu.address_space<workgroup>>, %b: memref<1x2x8x8xf16, #gpu.address_space<workgroup>>, %r: index, %c: vector<4xf32>) -> vector<4xf32> {
  %d = xla_gpu.wgmma %a[%r], %b[%r], %c : memref<8x2x8x8xf16, #gpu.address_space<workgroup>>, memref<1x2x8x8xf16, #gpu.address_space<workgroup>>, vector<4xf32> -> vector<4xf32>
  return %d : vector<4xf32>
}
