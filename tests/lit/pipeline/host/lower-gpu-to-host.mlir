// RUN: xla-gpu-opt %s --xla-gpu-lower-gpu-to-host | FileCheck %s
// RUN: xla-gpu-opt %s --xla-gpu-lower-gpu-to-host --xla-gpu-check-host-accesses --arith-emulate-unsupported-floats="source-types=bf16,f16 target-type=f32" --convert-math-to-libm --convert-scf-to-cf --xla-gpu-convert-to-host-llvm --reconcile-unrealized-casts --xla-gpu-host-kernel-abi | FileCheck %s --check-prefix=LLVM

// Kernels leave their gpu.module; every function with a body takes the
// thread record last and passes it on; ids are loads from the record at
// the offsets of abi/HostKernelAbi.h (threadId 0, blockId 12, blockDim 24,
// gridDim 36); barriers and shuffles call the launcher.
gpu.module @kernels {
  func.func private @helper(%x: f32) -> f32 {
    %t = gpu.thread_id y
    %ti = arith.index_cast %t : index to i32
    %f = arith.sitofp %ti : i32 to f32
    %r = arith.addf %x, %f : f32
    return %r : f32
  }
  func.func @k(%in: memref<64xf32>, %out: memref<64xf32>)
      attributes {xla_gpu.launch = #xla_gpu.launch<grid = [2, 1, 1], block = [64, 1, 1]>} {
    %tid = gpu.thread_id x upper_bound 64
    %bid = gpu.block_id x
    %bdim = gpu.block_dim x
    %gdim = gpu.grid_dim z
    %lane = gpu.lane_id
    %x = memref.load %in[%tid] : memref<64xf32>
    %c1 = arith.constant 1 : i32
    %c32 = arith.constant 32 : i32
    %s, %valid = gpu.shuffle down %x, %c1, %c32 : f32
    %c16 = arith.constant 16 : i32
    %u, %valid2 = gpu.shuffle up %x, %c1, %c16 : f32
    gpu.barrier
    %y = func.call @helper(%s) : (f32) -> f32
    memref.store %y, %out[%lane] : memref<64xf32>
    return
  }
}
// CHECK-NOT:  gpu.module
// CHECK-DAG:  func.func private @__hlo_host_barrier(!llvm.ptr)
// CHECK-DAG:  func.func private @__hlo_host_shuffle(!llvm.ptr, i64, i32, i32, i32, i32, !llvm.ptr) -> i64
// CHECK-LABEL: func.func private @helper(
// CHECK-SAME:    %{{.*}}: f32, %[[HT:.*]]: !llvm.ptr {xla_gpu.host_thread})
// CHECK:        %[[P:.*]] = llvm.getelementptr %[[HT]][4] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK:        llvm.load %[[P]] invariant {alignment = 4 : i64} : !llvm.ptr -> i32
// CHECK-LABEL: func.func @k(
// CHECK-SAME:    %{{.*}}: memref<64xf32>, %{{.*}}: memref<64xf32>, %[[T:.*]]: !llvm.ptr {xla_gpu.host_thread})
// The shuffles' predicates come back through bytes on the stack.
// CHECK:        %[[SLOT2:.*]] = llvm.alloca %{{.*}} x i8
// CHECK:        %[[SLOT:.*]] = llvm.alloca %{{.*}} x i8
// CHECK:        llvm.getelementptr %[[T]][0] :
// CHECK:        llvm.getelementptr %[[T]][12] :
// CHECK:        llvm.getelementptr %[[T]][24] :
// CHECK:        llvm.getelementptr %[[T]][44] :
// The lane: the linear thread id modulo 32.
// CHECK:        arith.remui %{{.*}}, %c32
// Shuffle down across 32 lanes: member mask -1 >> (32 - 32), clamp 32 - 1.
// CHECK:        %[[BITS:.*]] = arith.bitcast %{{.*}} : f32 to i32
// CHECK:        %[[WIDE:.*]] = arith.extui %[[BITS]] : i32 to i64
// CHECK:        %[[LEAD:.*]] = arith.subi %{{.*}}, %[[W32:.*]] : i32
// CHECK:        %[[MASK:.*]] = arith.shrui %{{.*}}, %[[LEAD]] : i32
// CHECK:        %[[CLAMP:.*]] = arith.subi %[[W32]], %{{.*}} : i32
// CHECK:        %[[MODE:.*]] = arith.constant 1 : i32
// CHECK:        call @__hlo_host_shuffle(%[[T]], %[[WIDE]], %[[MODE]], %{{.*}}, %[[CLAMP]], %[[MASK]], %[[SLOT]])
// CHECK:        llvm.load %[[SLOT]] : !llvm.ptr -> i8
// Shuffle up (mode 0): the clamp is 32 - width itself.
// CHECK:        %[[LEADUP:.*]] = arith.subi %{{.*}}, %{{.*}} : i32
// CHECK:        %[[MASKUP:.*]] = arith.shrui %{{.*}}, %[[LEADUP]] : i32
// CHECK:        %[[UP:.*]] = arith.constant 0 : i32
// CHECK:        call @__hlo_host_shuffle(%[[T]], %{{.*}}, %[[UP]], %{{.*}}, %[[LEADUP]], %[[MASKUP]], %[[SLOT2]])
// CHECK:        call @__hlo_host_barrier(%[[T]]) : (!llvm.ptr) -> ()
// CHECK:        call @helper(%{{.*}}, %[[T]]) : (f32, !llvm.ptr) -> f32
// CHECK-NOT:    gpu.

// After the whole host tail: one exported kernel taking (buffers, thread)
// that calls the internal thread function; everything else internal.
// LLVM-DAG:   llvm.func internal @helper(
// LLVM-DAG:   llvm.func internal @k.thread(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr {xla_gpu.host_thread})
// LLVM-DAG:   llvm.func @k(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr) attributes {xla_gpu.concurrent_threads, xla_gpu.launch = #xla_gpu.launch<grid = [2, 1, 1], block = [64, 1, 1]>, xla_gpu.shared_memory_bytes = 0 : i64}
