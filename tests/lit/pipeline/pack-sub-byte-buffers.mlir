// RUN: xla-gpu-opt %s --split-input-file --verify-diagnostics --xla-gpu-pack-sub-byte-buffers | FileCheck %s

// Loads of a packed kernel argument read element 2k from the low nibble of
// byte k, 2k+1 from the high one (XLA's E(4) order); a 2-D buffer by its
// row-major flat index. 15 elements take 8 bytes.
// CHECK-LABEL: func.func @load(
// CHECK-SAME:    %[[BUF:.*]]: memref<8xi8>, %[[I:.*]]: index, %[[J:.*]]: index
// CHECK:         %[[C5:.*]] = arith.constant 5 : index
// CHECK:         %[[ROW:.*]] = arith.muli %[[I]], %[[C5]] : index
// CHECK:         %[[FLAT:.*]] = arith.addi %{{.*}}, %[[ROW]] : index
// CHECK:         %[[BYTE:.*]] = arith.shrui %[[FLAT]], %[[C1:.*]] : index
// CHECK:         %[[ODD:.*]] = arith.andi %[[FLAT]], %{{.*}} : index
// CHECK:         %[[C2:.*]] = arith.constant 2 : i8
// CHECK:         %[[ODD8:.*]] = arith.index_castui %[[ODD]] : index to i8
// CHECK:         %[[SHIFT:.*]] = arith.shli %[[ODD8]], %[[C2]] : i8
// CHECK:         %[[BITS:.*]] = memref.load %[[BUF]][%[[BYTE]]] : memref<8xi8>
// CHECK:         %[[NIBBLE:.*]] = arith.shrui %[[BITS]], %[[SHIFT]] : i8
// CHECK:         %[[VALUE:.*]] = arith.trunci %[[NIBBLE]] : i8 to i4
// CHECK:         return %[[VALUE]] : i4
func.func @load(%buffer: memref<3x5xi4>, %i: index, %j: index) -> i4 {
  %v = memref.load %buffer[%i, %j] : memref<3x5xi4>
  return %v : i4
}

// -----

// A store clears its nibble and sets it with two atomics on the byte: the
// other nibble may be another thread's.
// CHECK-LABEL: func.func @store(
// CHECK-SAME:    %[[BUF:.*]]: memref<2xi8>, %[[I:.*]]: index, %[[V:.*]]: i4
// CHECK:         %[[WIDE:.*]] = arith.extui %[[V]] : i4 to i8
// CHECK:         memref.atomic_rmw andi %{{.*}}, %[[BUF]][%{{.*}}] : (i8, memref<2xi8>) -> i8
// CHECK:         memref.atomic_rmw ori %{{.*}}, %[[BUF]][%{{.*}}] : (i8, memref<2xi8>) -> i8
// CHECK-NOT:     memref.store
func.func @store(%buffer: memref<4xi4>, %i: index, %v: i4) {
  memref.store %v, %buffer[%i] : memref<4xi4>
  return
}

// -----

// An update of a nibble is a generic update of its byte: the combiner runs
// on the extracted nibble and the result goes back into the same nibble.
// CHECK-LABEL: func.func @add(
// CHECK-SAME:    %[[BUF:.*]]: memref<3xi8>, %[[I:.*]]: index, %[[X:.*]]: i4
// CHECK:         memref.generic_atomic_rmw %[[BUF]][%{{.*}}] : memref<3xi8> {
// CHECK:         ^bb0(%[[CUR:.*]]: i8):
// CHECK:           %[[OLD:.*]] = arith.trunci %{{.*}} : i8 to i4
// CHECK:           %[[SUM:.*]] = arith.addi %[[OLD]], %[[X]] : i4
// CHECK:           arith.extui %[[SUM]] : i4 to i8
// CHECK:           memref.atomic_yield %{{.*}} : i8
// CHECK:         memref.generic_atomic_rmw %[[BUF]][%{{.*}}] : memref<3xi8> {
// CHECK:           arith.maxsi %{{.*}} : i4
// CHECK:           memref.atomic_yield %{{.*}} : i8
func.func @add(%buffer: memref<5xi4>, %i: index, %x: i4) {
  %0 = memref.generic_atomic_rmw %buffer[%i] : memref<5xi4> {
  ^bb0(%current: i4):
    %s = arith.addi %current, %x : i4
    memref.atomic_yield %s : i4
  }
  %1 = memref.atomic_rmw maxs %x, %buffer[%i] : (i4, memref<5xi4>) -> i4
  return
}

// -----

// f4E2M1FN buffers are packed as their bits; a buffer the kernel allocates
// keeps one element per byte.
// CHECK-LABEL: func.func @f4(
// CHECK-SAME:    %[[BUF:.*]]: memref<2xi8>
// CHECK:         %[[LOCAL:.*]] = memref.alloca() : memref<4xi4>
// CHECK:         %[[BITS:.*]] = arith.trunci %{{.*}} : i8 to i4
// CHECK:         %[[VALUE:.*]] = arith.bitcast %[[BITS]] : i4 to f4E2M1FN
// CHECK:         %[[BACK:.*]] = arith.bitcast %[[VALUE]] : f4E2M1FN to i4
// CHECK:         memref.store %[[BACK]], %[[LOCAL]][%{{.*}}] : memref<4xi4>
func.func @f4(%buffer: memref<4xf4E2M1FN>, %i: index) {
  %local = memref.alloca() : memref<4xf4E2M1FN>
  %v = memref.load %buffer[%i] : memref<4xf4E2M1FN>
  memref.store %v, %local[%i] : memref<4xf4E2M1FN>
  return
}

// -----

// 2-bit elements four per byte: element 4k + j in bits 2j..2j+1 of byte k.
// 9 elements take 3 bytes.
// CHECK-LABEL: func.func @two_bits(
// CHECK-SAME:    %[[BUF:.*]]: memref<3xi8>, %[[I:.*]]: index
// CHECK:         %[[FLAT:.*]] = arith.addi
// CHECK:         %[[C2:.*]] = arith.constant 2 : index
// CHECK:         %[[BYTE:.*]] = arith.shrui %[[FLAT]], %[[C2]] : index
// CHECK:         %[[C3:.*]] = arith.constant 3 : index
// CHECK:         %[[WITHIN:.*]] = arith.andi %[[FLAT]], %[[C3]] : index
// CHECK:         %[[C1:.*]] = arith.constant 1 : i8
// CHECK:         %[[WITHIN8:.*]] = arith.index_castui %[[WITHIN]] : index to i8
// CHECK:         %[[SHIFT:.*]] = arith.shli %[[WITHIN8]], %[[C1]] : i8
// CHECK:         %[[BITS:.*]] = memref.load %[[BUF]][%[[BYTE]]] : memref<3xi8>
// CHECK:         %[[SHIFTED:.*]] = arith.shrui %[[BITS]], %[[SHIFT]] : i8
// CHECK:         %[[VALUE:.*]] = arith.trunci %[[SHIFTED]] : i8 to i2
// CHECK:         arith.constant 3 : i8
// CHECK:         memref.atomic_rmw andi
// CHECK:         memref.atomic_rmw ori
func.func @two_bits(%buffer: memref<9xi2>, %i: index) {
  %v = memref.load %buffer[%i] : memref<9xi2>
  memref.store %v, %buffer[%i] : memref<9xi2>
  return
}

// -----

// Any other use of a packed buffer is refused at the op.
func.func @view(%buffer: memref<8xi4>) -> memref<4xi4, strided<[1]>> {
  // expected-error @below {{unsupported: this use of a buffer of 'i4' elements (stored 2 per byte)}}
  %v = memref.subview %buffer[0] [4] [1] : memref<8xi4> to memref<4xi4, strided<[1]>>
  return %v : memref<4xi4, strided<[1]>>
}
