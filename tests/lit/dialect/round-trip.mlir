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

// The threads' cooperation: shared tiles, barriers, shuffle reductions,
// predicated accesses.
func.func private @argmax(%a: f32, %ai: i32, %b: f32, %bi: i32) -> (f32, i32) {
  return %a, %ai : f32, i32
}
// CHECK-LABEL: func.func @cooperation
// CHECK:         %[[TILE:.*]] = xla_gpu.allocate_shared : tensor<8x33xf32>
// CHECK:         %[[W:.*]] = tensor.insert %{{.*}} into %[[TILE]]
// CHECK:         %[[SYNCED:.*]]:2 = xla_gpu.sync_threads %[[W]], %{{.*}} : tensor<8x33xf32>, tensor<8x33xi32>
// CHECK:         %[[V:.*]] = xla_gpu.predicated_extract %[[SYNCED]]#0[%{{.*}}, %{{.*}}] if %{{.*}} else %{{.*}} : tensor<8x33xf32>
// CHECK:         %{{.*}}:2 = xla_gpu.shuffle_reduce(%[[V]], %{{.*}}) to 4 combiner=@argmax : f32, i32
// CHECK:         xla_gpu.predicated_insert %{{.*}} into %{{.*}}[%{{.*}}] if %{{.*}} : tensor<16xf32>
func.func @cooperation(%x: f32, %i: i32, %c: i1, %r: index, %s: index, %out: tensor<16xf32>) -> tensor<16xf32> {
  %tile = xla_gpu.allocate_shared : tensor<8x33xf32>
  %indices = xla_gpu.allocate_shared : tensor<8x33xi32>
  %w = tensor.insert %x into %tile[%r, %s] : tensor<8x33xf32>
  %wi = tensor.insert %i into %indices[%r, %s] : tensor<8x33xi32>
  %synced:2 = xla_gpu.sync_threads %w, %wi : tensor<8x33xf32>, tensor<8x33xi32>
  %v = xla_gpu.predicated_extract %synced#0[%r, %s] if %c else %x : tensor<8x33xf32>
  %vi = xla_gpu.predicated_extract %synced#1[%r, %s] if %c else %i : tensor<8x33xi32>
  %m:2 = xla_gpu.shuffle_reduce(%v, %vi) to 4 combiner=@argmax : f32, i32
  %o = xla_gpu.predicated_insert %m#0 into %out[%r] if %c : tensor<16xf32>
  return %o : tensor<16xf32>
}

// CHECK-LABEL: func.func @atomic_rmw
// CHECK:         %[[R:.*]] = xla_gpu.atomic_rmw %{{.*}}[%{{.*}}, %{{.*}}] : tensor<8x8xf32> {
// CHECK-NEXT:    ^bb0(%[[CURRENT:.*]]: f32):
// CHECK-NEXT:      %[[SUM:.*]] = arith.addf %[[CURRENT]], %{{.*}} : f32
// CHECK-NEXT:      xla_gpu.yield %[[SUM]] : f32
// CHECK-NEXT:    }
func.func @atomic_rmw(%t: tensor<8x8xf32>, %i: index, %j: index, %x: f32) -> tensor<8x8xf32> {
  %r = xla_gpu.atomic_rmw %t[%i, %j] : tensor<8x8xf32> {
  ^bb0(%current: f32):
    %sum = arith.addf %current, %x : f32
    xla_gpu.yield %sum : f32
  }
  return %r : tensor<8x8xf32>
}
