# lit configuration: FileCheck tests of hlo-compile's output at each stage.
import os
import lit.formats

config.name = "hlo-compile"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".hlo", ".test", ".mlir"]
config.excludes = ["Inputs", "lit.cfg.py", "lit.site.cfg.py", "CMakeLists.txt"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(os.path.dirname(config.hlo_bin_dir),
                                     "tests", "lit-out")

config.environment["PATH"] = os.pathsep.join(
    [config.hlo_bin_dir, config.llvm_tools_dir, config.environment.get("PATH", "")])
# No kernel cache unless a test names one (--cache-dir): what a test
# prints must not depend on what earlier runs left in ~/.cache.
config.environment["HLO_COMPILE_CACHE"] = "off"
# The tests verify the IR after every MLIR pass (users' runs verify it
# before and after the pipeline): a pass that breaks it fails at that pass.
config.substitutions.append(("%hlo-compile",
                             os.path.join(config.hlo_bin_dir, "hlo-compile") + " --verify-each"))
config.substitutions.append(("%hlo_build_dir", os.path.dirname(config.hlo_bin_dir)))
config.substitutions.append(("%hlo_source_dir", config.hlo_source_dir))
config.substitutions.append(("%hlo-run", os.path.join(config.hlo_bin_dir, "hlo-run")))
# A CUDA driver stand-in (tests/tools/fake-libcuda.cpp) for hlo-run's GPU
# path on machines without a GPU.
config.substitutions.append(("%fake-libcuda", os.path.join(
    os.path.dirname(config.hlo_bin_dir), "lib", "libcuda-fake.so")))
# A cuBLASLt stand-in (tests/tools/fake-cublaslt.cpp) for its GEMM steps.
config.substitutions.append(("%fake-cublaslt", os.path.join(
    os.path.dirname(config.hlo_bin_dir), "lib", "libcublasLt-fake.so")))
# Tests that run kernels on a real GPU say `REQUIRES: gpu`.
if os.path.exists("/dev/nvidia0") or os.path.exists("/dev/nvidiactl"):
    config.available_features.add("gpu")
config.substitutions.append(("%corpus", config.hlo_corpus_dir))
config.substitutions.append(("%examples", os.path.join(config.hlo_source_dir, "examples")))
if os.path.isdir(config.hlo_corpus_dir):
    config.available_features.add("corpus")

# The CUDA toolkit's ptxas checks the PTX we write (CUDA_HOME, else
# /usr/local/cuda); tests that need it say `REQUIRES: ptxas`.
cuda_home = os.environ.get("CUDA_HOME") or "/usr/local/cuda"
ptxas = os.path.join(cuda_home, "bin", "ptxas")
config.substitutions.append(("%cuda_home", cuda_home))
# Code generation links libdevice: tests that produce PTX say
# `REQUIRES: cuda`.
if os.path.exists(os.path.join(cuda_home, "nvvm", "libdevice", "libdevice.10.bc")):
    config.available_features.add("cuda")
if os.access(ptxas, os.X_OK):
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))
