// RUN: xla-gpu-opt %s --xla-gpu-lower-loops | FileCheck %s

// A loop over one range variable with a constraint on it: the dimension
// bounds are checked before the loop, the constraint inside it, around the
// cloned body.
func.func @loop(%in: tensor<100xf32>, %out: tensor<100xf32>) -> tensor<100xf32> {
  %tid = gpu.thread_id x upper_bound 32
  %bid = gpu.block_id x upper_bound 1
  %r = xla_gpu.loop (%tid, %bid)[%v] -> (%i) in #xla_gpu.indexing_map<"(th_x, bl_x)[vector_index] -> (th_x * 4 + vector_index), domain: th_x in [0, 31], bl_x in [0, 0], vector_index in [0, 3], th_x * 4 + vector_index in [0, 99]"> iter_args(%acc = %out) -> (tensor<100xf32>) {
    %x = tensor.extract %in[%i] : tensor<100xf32>
    %y = tensor.insert %x into %acc[%i] : tensor<100xf32>
    xla_gpu.yield %y : tensor<100xf32>
  }
  return %r : tensor<100xf32>
}
// CHECK-LABEL: func.func @loop(
// CHECK-DAG:     %[[C99:.*]] = arith.constant 99 : index
// CHECK-DAG:     %[[C31:.*]] = arith.constant 31 : index
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK:         arith.cmpi sle, %{{.*}}, %[[C31]]
// CHECK:         %[[DIMS:.*]] = scf.if %{{.*}} -> (tensor<100xf32>) {
// CHECK:           %[[R:.*]] = scf.for %[[V:.*]] = %[[C0]] to %[[C4]] step %[[C1]] iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<100xf32>) {
// CHECK:             %[[MUL:.*]] = arith.muli %{{.*}}, %[[C4]]
// CHECK:             %[[I:.*]] = arith.addi %[[MUL]], %[[V]]
// CHECK:             %[[IN:.*]] = arith.cmpi sle, %[[I]], %[[C99]]
// CHECK:             %[[OK:.*]] = arith.andi %{{.*}}, %[[IN]]
// CHECK:             %[[IF:.*]] = scf.if %[[OK]] -> (tensor<100xf32>) {
// CHECK:               %[[X:.*]] = tensor.extract %{{.*}}[%{{.*}}]
// CHECK:               %[[Y:.*]] = tensor.insert %[[X]] into %[[ACC]][%{{.*}}]
// CHECK:               scf.yield %[[Y]]
// CHECK:             } else {
// CHECK:               scf.yield %[[ACC]]
// CHECK:             }
// CHECK:             scf.yield %[[IF]]
// CHECK-NOT:     xla_gpu.

// A constraint on the outer symbol only is checked in the outer loop: the
// inner (vector) loop's body has no check of its own.
func.func @hoisted(%in: tensor<125x2xf32>, %acc0: f32) -> f32 {
  %tid = gpu.thread_id x upper_bound 32
  %bid = gpu.block_id x upper_bound 1
  %r = xla_gpu.loop (%tid, %bid)[%s, %v] -> (%i, %j) in #xla_gpu.indexing_map<"(th_x, bl_x)[s0, s1] -> (th_x + s0 * 32, s1), domain: th_x in [0, 31], bl_x in [0, 0], s0 in [0, 3], s1 in [0, 1], th_x + s0 * 32 in [0, 124]"> iter_args(%acc = %acc0) -> (f32) {
    %x = tensor.extract %in[%i, %j] : tensor<125x2xf32>
    %y = arith.addf %acc, %x : f32
    xla_gpu.yield %y : f32
  }
  return %r : f32
}
// CHECK-LABEL: func.func @hoisted(
// CHECK:         scf.for %[[S:.*]] = {{.*}} iter_args(%[[A:.*]] = %{{.*}}) -> (f32) {
// CHECK:           %[[IF:.*]] = scf.if %{{.*}} -> (f32) {
// CHECK:             %[[INNER:.*]] = scf.for %[[V:.*]] = {{.*}} iter_args(%[[B:.*]] = %[[A]]) -> (f32) {
// CHECK-NEXT:          arith.muli
// CHECK-NEXT:          %[[I:.*]] = arith.addi
// CHECK-NEXT:          %[[X:.*]] = tensor.extract %{{.*}}[%[[I]], %[[V]]]
// CHECK-NEXT:          %[[Y:.*]] = arith.addf %[[B]], %[[X]]
// CHECK-NEXT:          scf.yield %[[Y]] : f32
// CHECK-NEXT:        }
// CHECK-NEXT:        scf.yield %[[INNER]] : f32
// CHECK-NEXT:      } else {
// CHECK-NEXT:        scf.yield %[[A]] : f32
// CHECK-NEXT:      }

// apply_indexing becomes arithmetic; pure_call becomes func.call.
func.func private @callee(%x: index) -> index {
  return %x : index
}
func.func @apply(%d0: index, %s0: index) -> (index, index) {
  %r:2 = xla_gpu.apply_indexing #xla_gpu.indexing_map<"(d0)[s0] -> (d0 floordiv 8, d0 mod 8 + s0), domain: d0 in [0, 63], s0 in [0, 1]">(%d0)[%s0]
  %c = xla_gpu.pure_call @callee(%r#0) : (index) -> index
  return %c, %r#1 : index, index
}
// CHECK-LABEL: func.func @apply(
// CHECK:         arith.divsi
// CHECK:         arith.remsi
// CHECK:         call @callee(
