// RUN: xla-gpu-opt %s --xla-gpu-vectorize-accesses --canonicalize | FileCheck %s

// The vector-index loop reads in[base + v] and writes out[base + v]: one
// vector load before, one vector store after, element accesses inside.
func.func @contiguous(%in: memref<64xf32>, %out: memref<64xf32>, %base: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %v = %c0 to %c4 step %c1 {
    %i = arith.addi %base, %v : index
    %x = memref.load %in[%i] : memref<64xf32>
    %y = math.exp %x : f32
    memref.store %y, %out[%i] : memref<64xf32>
  }
  return
}
// CHECK-LABEL: func.func @contiguous(
// CHECK:         %[[V:.*]] = vector.load %{{.*}}[%[[BASE:.*]]] : memref<64xf32>, vector<4xf32>
// CHECK:         %[[R:.*]] = scf.for %[[IV:.*]] = {{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (vector<4xf32>) {
// CHECK:           %[[X:.*]] = vector.extract %[[V]][%[[IV]]] : f32 from vector<4xf32>
// CHECK:           %[[Y:.*]] = math.exp %[[X]]
// CHECK:           %[[N:.*]] = vector.insert %[[Y]], %[[ACC]] [%[[IV]]] : f32 into vector<4xf32>
// CHECK:           scf.yield %[[N]]
// CHECK:         vector.store %[[R]], %{{.*}}[%[[BASE]]] : memref<64xf32>, vector<4xf32>

// Strided or guarded accesses, and buffers read and written, stay scalar.
func.func @strided(%in: memref<64xf32>, %out: memref<64xf32>, %base: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %v = %c0 to %c4 step %c1 {
    %s = arith.muli %v, %c4 : index
    %i = arith.addi %base, %s : index
    %x = memref.load %in[%i] : memref<64xf32>
    memref.store %x, %in[%i] : memref<64xf32>
  }
  return
}
// CHECK-LABEL: func.func @strided(
// CHECK-NOT:     vector.
// CHECK:         memref.load
// CHECK:         memref.store

// A reduction's loop carries its accumulator: the loads become one vector
// load and the accumulator stays the loop's first result.
func.func @carried(%in: memref<64xf32>, %base: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0.0 : f32
  %sum = scf.for %v = %c0 to %c2 step %c1 iter_args(%acc = %zero) -> (f32) {
    %i = arith.addi %base, %v : index
    %x = memref.load %in[%i] : memref<64xf32>
    %s = arith.addf %acc, %x : f32
    scf.yield %s : f32
  }
  return %sum : f32
}
// CHECK-LABEL: func.func @carried(
// CHECK:         %[[V:.*]] = vector.load %{{.*}} : memref<64xf32>, vector<2xf32>
// CHECK:         scf.for %[[IV:.*]] = {{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (f32) {
// CHECK:           vector.extract %[[V]][%[[IV]]] : f32 from vector<2xf32>

// Sub-byte elements (pred, s4) are bit-packed in LLVM vectors but not in
// their buffers: they stay scalar.
func.func @sub_byte(%in: memref<64xi1>, %out: memref<64xi4>, %base: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.for %v = %c0 to %c2 step %c1 {
    %i = arith.addi %base, %v : index
    %x = memref.load %in[%i] : memref<64xi1>
    %y = arith.extui %x : i1 to i4
    memref.store %y, %out[%i] : memref<64xi4>
  }
  return
}
// CHECK-LABEL: func.func @sub_byte(
// CHECK-NOT:     vector.
// CHECK:         memref.load
// CHECK:         memref.store

// A concatenate's branches read under scf.if: those loads stay scalar,
// but the store to another buffer becomes one vector store (as XLA's
// llama loop_transpose_fusion: st.global.v4.b16).
func.func @guarded_reads(%a: memref<64xbf16>, %b: memref<64xbf16>, %out: memref<64xbf16>,
                         %base: index, %cond: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %v = %c0 to %c4 step %c1 {
    %i = arith.addi %base, %v : index
    %x = scf.if %cond -> (bf16) {
      %l = memref.load %a[%i] : memref<64xbf16>
      scf.yield %l : bf16
    } else {
      %l = memref.load %b[%i] : memref<64xbf16>
      scf.yield %l : bf16
    }
    memref.store %x, %out[%i] : memref<64xbf16>
  }
  return
}
// CHECK-LABEL: func.func @guarded_reads(
// CHECK:         scf.for
// CHECK:           scf.if
// CHECK:             memref.load
// CHECK:             memref.load
// CHECK:           vector.insert
// CHECK:         vector.store {{.*}} : memref<64xbf16>, vector<4xbf16>

// The same with the stored buffer read in a branch: nothing moves.
func.func @guarded_read_of_stored(%a: memref<64xbf16>, %out: memref<64xbf16>,
                                  %base: index, %cond: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %v = %c0 to %c4 step %c1 {
    %i = arith.addi %base, %v : index
    %x = scf.if %cond -> (bf16) {
      %l = memref.load %out[%i] : memref<64xbf16>
      scf.yield %l : bf16
    } else {
      %l = memref.load %a[%i] : memref<64xbf16>
      scf.yield %l : bf16
    }
    memref.store %x, %out[%i] : memref<64xbf16>
  }
  return
}
// CHECK-LABEL: func.func @guarded_read_of_stored(
// CHECK-NOT:     vector.
// CHECK:         memref.store

// An atomic update of another buffer (its effects name the buffer) does
// not keep the loop's own accesses scalar.
func.func @atomic_in_loop(%in: memref<64xf32>, %out: memref<64xf32>, %sum: memref<1xf32>,
                          %base: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %v = %c0 to %c4 step %c1 {
    %i = arith.addi %base, %v : index
    %x = memref.load %in[%i] : memref<64xf32>
    %old = memref.atomic_rmw addf %x, %sum[%c0] : (f32, memref<1xf32>) -> f32
    memref.store %x, %out[%i] : memref<64xf32>
  }
  return
}
// CHECK-LABEL: func.func @atomic_in_loop(
// CHECK:         vector.load %{{.*}} : memref<64xf32>, vector<4xf32>
// CHECK:         memref.atomic_rmw
// CHECK:         vector.store
