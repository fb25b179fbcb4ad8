// RUN: xla-gpu-opt %s --xla-gpu-unroll-small-loops | FileCheck %s
// RUN: xla-gpu-opt %s --xla-gpu-unroll-small-loops=max-trip-count=2 | FileCheck %s --check-prefix=LIMIT

// A 4-trip loop is unrolled; a 16-trip loop is not.
func.func @loops(%out: memref<16xf32>, %x: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  scf.for %i = %c0 to %c4 step %c1 {
    memref.store %x, %out[%i] : memref<16xf32>
  }
  scf.for %i = %c0 to %c16 step %c1 {
    memref.store %x, %out[%i] : memref<16xf32>
  }
  return
}
// CHECK-LABEL: func.func @loops(
// CHECK-COUNT-4: memref.store
// CHECK:         scf.for
// CHECK:           memref.store
// CHECK-NOT:     scf.for

// LIMIT-COUNT-2: scf.for
