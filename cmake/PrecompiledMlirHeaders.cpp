// The translation unit that owns the precompiled MLIR headers
// (PrecompiledMlirHeaders.h); it compiles to nothing.
