// RUN: xla-gpu-opt %s --xla-gpu-lower-mma-sync-to-nvvm | FileCheck %s
// RUN: xla-gpu-opt %s --xla-gpu-lower-mma-sync-to-nvvm --convert-vector-to-llvm --convert-func-to-llvm --reconcile-unrealized-casts \
// RUN:   | mlir-translate --mlir-to-llvmir | llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_90 -mattr=+ptx84 | FileCheck %s --check-prefix=PTX
// RUN: not xla-gpu-opt %s --xla-gpu-lower-mma-sync-to-nvvm="compute-capability=80" 2>&1 | FileCheck %s --check-prefix=SM80

// A lane's fragments become nvvm.mma.sync's registers: bf16 packed two to
// an i32, a0 in the low half; the accumulators one f32 each, gathered back
// from the result struct.
// CHECK-LABEL: func.func @bf16
// CHECK:      %[[AW:.*]] = vector.bitcast %arg0 : vector<8xbf16> to vector<4xi32>
// CHECK:      %[[A0:.*]] = vector.extract %[[AW]][0] : i32 from vector<4xi32>
// CHECK:      %[[BW:.*]] = vector.bitcast %arg1 : vector<4xbf16> to vector<2xi32>
// CHECK:      %[[C0:.*]] = vector.extract %arg2[0] : f32 from vector<4xf32>
// CHECK:      %[[D:.*]] = nvvm.mma.sync A[%[[A0]], {{.*}}] B[{{.*}}] C[%[[C0]], {{.*}}]
// CHECK-SAME:   layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>
// CHECK-SAME:   multiplicandAPtxType = #nvvm.mma_type<bf16>
// CHECK-SAME:   shape = #nvvm.shape<m = 16, n = 8, k = 16>
// CHECK:      %[[D0:.*]] = llvm.extractvalue %[[D]][0]
// CHECK:      vector.from_elements %[[D0]], {{.*}} : vector<4xf32>
// PTX-LABEL: bf16(
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
func.func @bf16(%a: vector<8xbf16>, %b: vector<4xbf16>, %c: vector<4xf32>) -> vector<4xf32> {
  %d = xla_gpu.mma_sync %a, %b, %c {shape = array<i64: 16, 8, 16>} : vector<8xbf16>, vector<4xbf16>, vector<4xf32> -> vector<4xf32>
  return %d : vector<4xf32>
}

// f16 pairs stay vector<2xf16>.
// CHECK-LABEL: func.func @f16
// CHECK:      vector.shuffle %arg0, %arg0 [0, 1] : vector<8xf16>, vector<8xf16>
// CHECK:      nvvm.mma.sync {{.*}} : (vector<2xf16>, vector<2xf16>, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// PTX-LABEL: f16(
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
func.func @f16(%a: vector<8xf16>, %b: vector<4xf16>, %c: vector<4xf32>) -> vector<4xf32> {
  %d = xla_gpu.mma_sync %a, %b, %c {shape = array<i64: 16, 8, 16>} : vector<8xf16>, vector<4xf16>, vector<4xf32> -> vector<4xf32>
  return %d : vector<4xf32>
}

// CHECK-LABEL: func.func @tf32
// CHECK:      vector.bitcast %arg0 : vector<4xf32> to vector<4xi32>
// CHECK:      multiplicandAPtxType = #nvvm.mma_type<tf32>
// PTX-LABEL: tf32(
// PTX: mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
func.func @tf32(%a: vector<4xf32>, %b: vector<2xf32>, %c: vector<4xf32>) -> vector<4xf32> {
  %d = xla_gpu.mma_sync %a, %b, %c {shape = array<i64: 16, 8, 8>, tf32} : vector<4xf32>, vector<2xf32>, vector<4xf32> -> vector<4xf32>
  return %d : vector<4xf32>
}

// CHECK-LABEL: func.func @f64
// CHECK:      nvvm.mma.sync {{.*}} : (f64, f64, f64) -> !llvm.struct<(f64, f64)>
// PTX-LABEL: f64(
// PTX: mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64
func.func @f64(%a: vector<1xf64>, %b: vector<1xf64>, %c: vector<2xf64>) -> vector<2xf64> {
  %d = xla_gpu.mma_sync %a, %b, %c {shape = array<i64: 8, 8, 4>} : vector<1xf64>, vector<1xf64>, vector<2xf64> -> vector<2xf64>
  return %d : vector<2xf64>
}

// s8 wraps on overflow (no .satfinite), as XLA's s32 dots do.
// CHECK-LABEL: func.func @s8
// CHECK:      intOverflowBehavior = #nvvm.mma_int_overflow<wrapped>
// PTX-LABEL: s8(
// PTX: mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32
func.func @s8(%a: vector<16xi8>, %b: vector<8xi8>, %c: vector<4xi32>) -> vector<4xi32> {
  %d = xla_gpu.mma_sync %a, %b, %c {shape = array<i64: 16, 8, 32>} : vector<16xi8>, vector<8xi8>, vector<4xi32> -> vector<4xi32>
  return %d : vector<4xi32>
}

// 8-bit floats: inline PTX on sm_89 and later; an error before.
// CHECK-LABEL: func.func @e4m3
// CHECK:      llvm.inline_asm "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};", "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f"
// PTX-LABEL: e4m3(
// PTX: mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32
// SM80: error: mma.sync on 8-bit floats needs sm_89 or later, not sm_80
func.func @e4m3(%a: vector<16xf8E4M3FN>, %b: vector<8xf8E4M3FN>, %c: vector<4xf32>) -> vector<4xf32> {
  %d = xla_gpu.mma_sync %a, %b, %c {shape = array<i64: 16, 8, 32>} : vector<16xf8E4M3FN>, vector<8xf8E4M3FN>, vector<4xf32> -> vector<4xf32>
  return %d : vector<4xf32>
}
