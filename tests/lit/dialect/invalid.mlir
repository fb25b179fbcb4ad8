// The verifiers of the xla_gpu ops.
// RUN: xla-gpu-opt %s -split-input-file -verify-diagnostics

func.func @wrong_operand_count(%d: index) -> index {
  // expected-error @+1 {{expects 2 operands (dimensions and symbols of the map), but has 1}}
  %r = xla_gpu.apply_indexing #xla_gpu.indexing_map<"(d0)[s0] -> (d0 + s0), domain: d0 in [0, 3], s0 in [0, 3]">(%d)
  return %r : index
}

// -----

func.func @bad_map(%d: index) -> index {
  // expected-error @+1 {{invalid indexing map: unknown variable 'd1'}}
  %r = xla_gpu.apply_indexing #xla_gpu.indexing_map<"(d0) -> (d1), domain: d0 in [0, 3]">(%d)
  return %r : index
}

// -----

func.func @missing_callee(%d: index) -> f32 {
  // expected-error @+1 {{calls 'nowhere', which does not exist}}
  %r = xla_gpu.pure_call @nowhere(%d) : (index) -> f32
  return %r : f32
}

// -----

func.func private @callee(%d: index) -> f32
func.func @wrong_types(%d: index) -> i32 {
  // expected-error @+1 {{types do not match the callee's}}
  %r = xla_gpu.pure_call @callee(%d) : (index) -> i32
  return %r : i32
}
