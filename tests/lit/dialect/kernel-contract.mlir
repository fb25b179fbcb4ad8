// The kernel contract's attributes (dialect/KernelContract.h): verified
// wherever they appear, and printed back as written.
// RUN: xla-gpu-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @kernel
// CHECK-SAME:    xla_gpu.emitter = "kLoop/LoopFusion", xla_gpu.kernel_index = 3 : i64,
// CHECK-SAME:    xla_gpu.launch = #xla_gpu.launch<grid = [24576, 2, 1], block = [128, 1, 1]>
func.func @kernel() attributes {
    xla_gpu.launch = #xla_gpu.launch<grid = [24576, 2, 1], block = [128, 1, 1]>,
    xla_gpu.emitter = "kLoop/LoopFusion", xla_gpu.kernel_index = 3 : i64} {
  return
}

// -----

// expected-error @+1 {{a launch's block has three extents, not 2}}
func.func @two_extents() attributes {xla_gpu.launch = #xla_gpu.launch<grid = [1, 1, 1], block = [32, 1]>} {
  return
}

// -----

// expected-error @+1 {{a launch's grid extents are at least 1}}
func.func @empty_grid() attributes {xla_gpu.launch = #xla_gpu.launch<grid = [0, 1, 1], block = [32, 1, 1]>} {
  return
}

// -----

// expected-error @+1 {{'xla_gpu.launch' is a #xla_gpu.launch}}
func.func @old_form() attributes {xla_gpu.launch = array<i64: 128, 1, 1>} {
  return
}

// -----

func.func @not_a_function() {
  // expected-error @+1 {{'xla_gpu.launch' belongs on a kernel's function}}
  %0 = arith.constant {xla_gpu.launch = #xla_gpu.launch<grid = [1, 1, 1], block = [1, 1, 1]>} 0 : index
  return
}

// -----

// expected-error @+1 {{'xla_gpu.shared_memory_bytes' is a non-negative integer}}
func.func @negative_shared() attributes {xla_gpu.shared_memory_bytes = -4 : i64} {
  return
}
