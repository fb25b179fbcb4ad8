// RUN: xla-gpu-opt %s --xla-gpu-lower-element-pointers="index-bitwidth=32" | FileCheck %s

// An element's address is a getelementptr on the buffer's descriptor (the
// aligned pointer, then the strided offset in elements), never an integer
// of the index width: with 32-bit indices the pointer keeps its 64 bits.
// CHECK-LABEL: func.func @address(
// CHECK-SAME:    %[[B:.*]]: memref<4x6xf16>, %[[I:.*]]: index, %[[J:.*]]: index
// CHECK:         %[[DESC:.*]] = builtin.unrealized_conversion_cast %[[B]] : memref<4x6xf16> to !llvm.struct<(ptr, ptr, i32, array<2 x i32>, array<2 x i32>)>
// CHECK:         %[[ALIGNED:.*]] = llvm.extractvalue %[[DESC]][1]
// CHECK:         %[[PTR:.*]] = llvm.getelementptr {{.*}}%[[ALIGNED]][%{{.*}}] : (!llvm.ptr, i32) -> !llvm.ptr, f16
// CHECK-NOT:     llvm.inttoptr
// CHECK:         return %[[PTR]]
func.func @address(%b: memref<4x6xf16>, %i: index, %j: index) -> !llvm.ptr {
  %p = xla_gpu.element_pointer %b[%i, %j] : memref<4x6xf16> -> !llvm.ptr
  return %p : !llvm.ptr
}
