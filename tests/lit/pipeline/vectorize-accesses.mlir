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
