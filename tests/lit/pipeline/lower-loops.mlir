// RUN: xla-gpu-opt %s --xla-gpu-lower-loops | FileCheck %s

// A loop over one range variable with a constraint: scf.for over the range,
// an scf.if with the domain check, the body cloned inside.
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
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK:         %[[R:.*]] = scf.for %[[V:.*]] = %[[C0]] to %[[C4]] step %[[C1]] iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<100xf32>) {
// CHECK:           %[[MUL:.*]] = arith.muli %{{.*}}, %[[C4]]
// CHECK:           %[[I:.*]] = arith.addi %[[MUL]], %[[V]]
// CHECK:           %[[IN:.*]] = arith.cmpi sle, %{{.*}}, %[[C99]]
// CHECK:           %[[INRANGE:.*]] = arith.andi %{{.*}}, %[[IN]]
// CHECK:           %[[OK:.*]] = arith.andi %{{.*}}, %[[INRANGE]]
// CHECK:           %[[IF:.*]] = scf.if %[[OK]] -> (tensor<100xf32>) {
// CHECK:             %[[X:.*]] = tensor.extract %{{.*}}[%[[I]]]
// CHECK:             %[[Y:.*]] = tensor.insert %[[X]] into %[[ACC]][%[[I]]]
// CHECK:             scf.yield %[[Y]]
// CHECK:           } else {
// CHECK:             scf.yield %[[ACC]]
// CHECK:           }
// CHECK:           scf.yield %[[IF]]
// CHECK-NOT:     xla_gpu.

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
