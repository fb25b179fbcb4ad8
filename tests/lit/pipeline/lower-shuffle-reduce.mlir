// RUN: xla-gpu-opt %s --xla-gpu-lower-shuffle-reduce | FileCheck %s

func.func private @add(%a: f32, %b: f32) -> f32 {
  %s = arith.addf %a, %b : f32
  return %s : f32
}

// Distances 4, 2, 1 over the warp's 32 lanes, each a shuffle down and a
// call of the combiner (own value first).
func.func @sum(%x: f32) -> f32 attributes {xla_gpu.launch = #xla_gpu.launch<grid = [1, 1, 1], block = [256, 1, 1]>} {
  %r = xla_gpu.shuffle_reduce(%x) to 4 combiner=@add : f32
  return %r : f32
}
// CHECK-LABEL: func.func @sum(
// CHECK-SAME:    %[[X:.*]]: f32)
// CHECK-DAG:     %[[C32:.*]] = arith.constant 32 : i32
// CHECK-DAG:     %[[B0:.*]] = arith.bitcast %[[X]] : f32 to i32
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : i32
// CHECK:         %[[S0:.*]], %{{.*}} = gpu.shuffle  down %[[B0]], %[[C4]], %[[C32]] : i32
// CHECK:         %[[O0:.*]] = arith.bitcast %[[S0]] : i32 to f32
// CHECK:         %[[R0:.*]] = xla_gpu.pure_call @add(%[[X]], %[[O0]])
// CHECK:         gpu.shuffle  down %{{.*}}, %{{.*}}, %{{.*}} : i32
// CHECK:         xla_gpu.pure_call @add
// CHECK:         gpu.shuffle  down %{{.*}}, %{{.*}}, %{{.*}} : i32
// CHECK:         %[[R2:.*]] = xla_gpu.pure_call @add
// CHECK:         return %[[R2]]
// CHECK-NOT:     shuffle_reduce

func.func private @max64(%a: f64, %b: i8, %c: f64, %d: i8) -> (f64, i8) {
  return %a, %b : f64, i8
}

// 64-bit values cross as two 32-bit words, narrow ones widened; a block of
// 6 threads shuffles over its 6 lanes only.
func.func @words(%x: f64, %i: i8) -> (f64, i8) attributes {xla_gpu.launch = #xla_gpu.launch<grid = [1, 1, 1], block = [6, 1, 1]>} {
  %r:2 = xla_gpu.shuffle_reduce(%x, %i) to 1 combiner=@max64 : f64, i8
  return %r#0, %r#1 : f64, i8
}
// CHECK-LABEL: func.func @words(
// CHECK:         %[[C6:.*]] = arith.constant 6 : i32
// CHECK:         arith.bitcast %{{.*}} : f64 to i64
// CHECK:         %[[LOW:.*]] = arith.trunci %{{.*}} : i64 to i32
// CHECK:         %[[HIGH:.*]] = arith.trunci %{{.*}} : i64 to i32
// CHECK:         gpu.shuffle  down %[[LOW]], %{{.*}}, %[[C6]] : i32
// CHECK:         gpu.shuffle  down %[[HIGH]], %{{.*}}, %{{.*}} : i32
// CHECK:         arith.bitcast %{{.*}} : i64 to f64
// CHECK:         arith.extui %{{.*}} : i8 to i32
// CHECK:         gpu.shuffle  down %{{.*}}, %{{.*}}, %{{.*}} : i32
// CHECK:         arith.trunci %{{.*}} : i32 to i8
// CHECK:         xla_gpu.pure_call @max64

// A block of 72 threads: two full warps and one of 8. The shuffles' width
// is the lanes left from the first of this thread's warp to the block's
// end, at most 32 (the last warp's member mask names its 8 threads).
func.func @partial(%x: f32) -> f32 attributes {xla_gpu.launch = #xla_gpu.launch<grid = [1, 1, 1], block = [72, 1, 1]>} {
  %r = xla_gpu.shuffle_reduce(%x) to 4 combiner=@add : f32
  return %r : f32
}
// CHECK-LABEL: func.func @partial(
// CHECK:         %[[TID:.*]] = gpu.thread_id  x
// CHECK:         %[[T32:.*]] = arith.index_castui %{{.*}} : index to i32
// CHECK:         %[[WARP:.*]] = arith.andi %[[T32]], %{{.*}} : i32
// CHECK:         %[[LEFT:.*]] = arith.subi %{{.*}}, %[[WARP]] : i32
// CHECK:         %[[LANES:.*]] = arith.minui %[[LEFT]], %{{.*}} : i32
// CHECK:         gpu.shuffle  down %{{.*}}, %{{.*}}, %[[LANES]] : i32
