// The xla_gpu dialect's syntax parses, verifies and prints back the same.
// RUN: xla-gpu-opt %s | FileCheck %s
// RUN: xla-gpu-opt %s | xla-gpu-opt | FileCheck %s

// CHECK-LABEL: func.func private @gelu
func.func private @gelu(%arg0: tensor<6x512x4096xbf16>, %i: index, %j: index, %k: index) -> bf16 {
  %e = tensor.extract %arg0[%i, %j, %k] : tensor<6x512x4096xbf16>
  return %e : bf16
}

// CHECK-LABEL: func.func @main
// CHECK: xla_gpu.loop (%{{.*}}, %{{.*}})[%[[V:.*]]] -> (%[[D0:.*]], %[[D1:.*]], %[[D2:.*]]) in #xla_gpu.indexing_map<"(th_x, bl_x)[vector_index] -> (bl_x floordiv 4096, (bl_x floordiv 8) mod 512, (bl_x mod 8) * 512 + th_x * 4 + vector_index), domain: th_x in [0, 127], bl_x in [0, 24575], vector_index in [0, 3]"> iter_args(%[[ITER:.*]] = %{{.*}}) -> (tensor<6x512x4096xbf16>) {
// CHECK:   %[[CALL:.*]] = xla_gpu.pure_call @gelu(%{{.*}}, %[[D0]], %[[D1]], %[[D2]]) : (tensor<6x512x4096xbf16>, index, index, index) -> bf16
// CHECK:   %[[INS:.*]] = tensor.insert %[[CALL]] into %[[ITER]][%[[D0]], %[[D1]], %[[D2]]]
// CHECK:   xla_gpu.yield %[[INS]] : tensor<6x512x4096xbf16>
func.func @main(%input: tensor<6x512x4096xbf16>, %output: tensor<6x512x4096xbf16>) -> tensor<6x512x4096xbf16> {
  %thread_id_x = gpu.thread_id x {xla.range = [0 : index, 127 : index]}
  %block_id_x = gpu.block_id x {xla.range = [0 : index, 24575 : index]}
  %r = xla_gpu.loop (%thread_id_x, %block_id_x)[%vector_index] -> (%dim0, %dim1, %dim2)
      in #xla_gpu.indexing_map<"(th_x, bl_x)[vector_index] -> (bl_x floordiv 4096, (bl_x floordiv 8) mod 512, (bl_x mod 8) * 512 + th_x * 4 + vector_index), domain: th_x in [0, 127], bl_x in [0, 24575], vector_index in [0, 3]">
      iter_args(%iter = %output) -> (tensor<6x512x4096xbf16>) {
    %v = xla_gpu.pure_call @gelu(%input, %dim0, %dim1, %dim2) : (tensor<6x512x4096xbf16>, index, index, index) -> bf16
    %inserted = tensor.insert %v into %iter[%dim0, %dim1, %dim2] : tensor<6x512x4096xbf16>
    xla_gpu.yield %inserted : tensor<6x512x4096xbf16>
  }
  return %r : tensor<6x512x4096xbf16>
}

// CHECK-LABEL: func.func @apply
// CHECK: %[[R:.*]]:2 = xla_gpu.apply_indexing #xla_gpu.indexing_map<"(d0)[s0] -> (d0 floordiv 8, d0 mod 8 + s0), domain: d0 in [0, 31], s0 in [0, 3]">(%{{.*}})[%{{.*}}]
func.func @apply(%d: index, %s: index) -> (index, index) {
  %r:2 = xla_gpu.apply_indexing #xla_gpu.indexing_map<"(d0)[s0] -> (d0 floordiv 8, d0 mod 8 + s0), domain: d0 in [0, 31], s0 in [0, 3]">(%d)[%s]
  return %r#0, %r#1 : index, index
}
