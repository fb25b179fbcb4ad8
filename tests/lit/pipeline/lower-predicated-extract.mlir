// RUN: xla-gpu-opt %s --xla-gpu-lower-predicated-extract | FileCheck %s

// The element is read only where the condition holds; elsewhere the
// fallback is the value.
func.func @extract(%t: tensor<4x33xf32>, %i: index, %j: index, %c: i1, %init: f32) -> f32 {
  %r = xla_gpu.predicated_extract %t[%i, %j] if %c else %init : tensor<4x33xf32>
  return %r : f32
}
// CHECK-LABEL: func.func @extract(
// CHECK-SAME:    %[[T:.*]]: tensor<4x33xf32>, %[[I:.*]]: index, %[[J:.*]]: index, %[[C:.*]]: i1, %[[INIT:.*]]: f32)
// CHECK:         %[[R:.*]] = scf.if %[[C]] -> (f32) {
// CHECK-NEXT:      %[[E:.*]] = tensor.extract %[[T]][%[[I]], %[[J]]] : tensor<4x33xf32>
// CHECK-NEXT:      scf.yield %[[E]] : f32
// CHECK-NEXT:    } else {
// CHECK-NEXT:      scf.yield %[[INIT]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R]]
