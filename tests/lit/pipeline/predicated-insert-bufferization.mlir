// RUN: xla-gpu-opt %s --xla-gpu-lower-predicated-insert | FileCheck %s --check-prefix=LOWERED
// RUN: xla-gpu-opt %s --xla-gpu-lower-predicated-insert --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" | FileCheck %s

// A predicated_insert marked xla_gpu.keep_until_bufferization stays one
// op until one-shot bufferization, which stores under its condition in
// place (a chain of them is linear to bufferize, where tensor-valued
// scf.ifs inside loops were exponential); an unmarked one is lowered to
// scf.if around tensor.insert first.
// LOWERED-LABEL: func.func @k(
// LOWERED:         %[[KEPT:.*]] = xla_gpu.predicated_insert %{{.*}} into %{{.*}}[%{{.*}}] if %{{.*}} {xla_gpu.keep_until_bufferization}
// LOWERED:         scf.if %{{.*}} -> (tensor<8xf32>)
// LOWERED:           tensor.insert
// CHECK-LABEL: func.func @k(
// CHECK-SAME:      %[[OUT:.*]]: memref<8xf32>
// CHECK:         scf.if %{{.*}} {
// CHECK-NEXT:      memref.store %{{.*}}, %[[OUT]][%{{.*}}] : memref<8xf32>
// CHECK:         scf.if %{{.*}} {
// CHECK-NEXT:      memref.store %{{.*}}, %[[OUT]][%{{.*}}] : memref<8xf32>
// CHECK-NOT:     memref.alloc
// CHECK:         return
func.func @k(%out: tensor<8xf32> {bufferization.writable = true}, %v: f32, %i: index, %j: index, %c: i1) -> tensor<8xf32> {
  %0 = xla_gpu.predicated_insert %v into %out[%i] if %c {xla_gpu.keep_until_bufferization} : tensor<8xf32>
  %1 = xla_gpu.predicated_insert %v into %0[%j] if %c : tensor<8xf32>
  return %1 : tensor<8xf32>
}
