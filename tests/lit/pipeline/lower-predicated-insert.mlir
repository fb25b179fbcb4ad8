// RUN: xla-gpu-opt %s --xla-gpu-lower-predicated-insert | FileCheck %s

// The element is inserted where the condition holds; elsewhere the tensor
// passes through.
func.func @insert(%v: f32, %t: tensor<8xf32>, %i: index, %c: i1) -> tensor<8xf32> {
  %r = xla_gpu.predicated_insert %v into %t[%i] if %c : tensor<8xf32>
  return %r : tensor<8xf32>
}
// CHECK-LABEL: func.func @insert(
// CHECK-SAME:    %[[V:.*]]: f32, %[[T:.*]]: tensor<8xf32>, %[[I:.*]]: index, %[[C:.*]]: i1)
// CHECK:         %[[R:.*]] = scf.if %[[C]] -> (tensor<8xf32>) {
// CHECK-NEXT:      %[[NEW:.*]] = tensor.insert %[[V]] into %[[T]][%[[I]]] : tensor<8xf32>
// CHECK-NEXT:      scf.yield %[[NEW]] : tensor<8xf32>
// CHECK-NEXT:    } else {
// CHECK-NEXT:      scf.yield %[[T]] : tensor<8xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R]]
// CHECK-NOT:     predicated_insert
