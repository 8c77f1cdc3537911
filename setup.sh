#!/usr/bin/env bash
# tpuc setup: installs the Debian 12 packages tpuc needs (only those missing),
# builds, and runs either the main job on the bundled example or every test.
#
#   ./setup.sh            install, build, run the main job on the training demo:
#                         compile examples/mlp_train_step.hlo with its padding
#                         and memory reports, run 100 steps on the emulator
#                         (loss and modeled step time), then the same 100
#                         steps on the reference interpreter
#   ./setup.sh test       install, build, and run every test (lit + unit tests),
#                         then the same again in an ASan+UBSan build (build-asan/),
#                         then short libFuzzer runs of every fuzz target (build-fuzz/)
#   ./setup.sh build      install and build only
#   ./setup.sh deps       install the packages only
#
# Environment: JOBS (parallel build jobs, default: nproc), BUILD_DIR (default
# build), ASAN_BUILD_DIR (default build-asan), FUZZ_BUILD_DIR (default
# build-fuzz).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here"
mode="${1:-demo}"
jobs="${JOBS:-$(nproc)}"
build_dir="${BUILD_DIR:-build}"
asan_dir="${ASAN_BUILD_DIR:-build-asan}"
fuzz_dir="${FUZZ_BUILD_DIR:-build-fuzz}"

# Exactly what the build and the tests use. lit and FileCheck come from
# llvm-22-tools; numpy is for test scripts (run with /usr/bin/python3);
# clang-22 and its runtime (libFuzzer) build the fuzz targets; chromium
# renders the memory viewer in a browser test; Open MPI runs a slice's
# devices over several processes (mpirun -np K tpuc-run, docs/spmd.md).
packages=(
  g++ cmake ninja-build python3 python3-numpy
  llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools
  libabsl-dev libprotobuf-dev protobuf-compiler
  libgtest-dev libgmock-dev libbenchmark-dev
  clang-22 libclang-rt-22-dev chromium
  openmpi-bin libopenmpi-dev
)

install_packages() {
  local missing=()
  for p in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
      missing+=("$p")
    fi
  done
  if [ ${#missing[@]} -eq 0 ]; then
    echo "setup: all ${#packages[@]} packages present"
    return
  fi
  echo "setup: installing ${missing[*]}"
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

configure() { # dir, extra cmake args...
  local dir="$1"; shift
  if [ ! -f "$dir/build.ninja" ]; then
    cmake -G Ninja -S . -B "$dir" \
      -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
      -DCMAKE_BUILD_TYPE=Release "$@"
  fi
}

configure_and_build() { # dir, extra cmake args...
  configure "$@"
  cmake --build "$1" -j "$jobs"
}

run_tests() { # dir
  (cd "$1" && ctest --output-on-failure -j "$jobs")
}

install_packages
case "$mode" in
  deps) ;;
  build) configure_and_build "$build_dir" ;;
  demo)
    configure_and_build "$build_dir"
    tpuc="$build_dir/bin/tpuc"
    run="$build_dir/bin/tpuc-run"
    step="examples/mlp_train_step.hlo"
    data="$build_dir/demo"
    /usr/bin/python3 examples/make_data.py "$data" > /dev/null
    inputs=()
    for f in "$data"/mlp/arg*.npy; do inputs+=("--input=@$f"); done
    echo "== tpuc compile $step --report=padding,memory (tpu-v3)"
    "$tpuc" compile "$step" --report=padding,memory \
      --memory-viewer="$build_dir/mlp_train_memory.html" -o "$build_dir/mlp_train_step.tpx"
    echo "== memory viewer: $build_dir/mlp_train_memory.html"
    echo "== tpuc-run mlp_train_step.tpx --steps=100 (the emulator; parameters stay on the device)"
    "$run" "$build_dir/mlp_train_step.tpx" --steps=100 "${inputs[@]}" \
      --output-dir="$data/mlp-emulator"
    echo "== tpuc interpret $step --steps=100 (the reference interpreter, same steps)"
    "$tpuc" interpret "$step" --steps=100 "${inputs[@]}" --output-dir="$data/mlp-interpreter"
    echo "== results (named after the HLO: neg.48 is the loss): $data/mlp-emulator, $data/mlp-interpreter"
    echo "== tpuc fit $step --batch=x:0 (the largest batch that fits each target)"
    "$tpuc" fit "$step" --batch=x:0
    ;;
  test)
    configure_and_build "$build_dir"
    run_tests "$build_dir"
    echo "setup: sanitizer configuration (ASan+UBSan) in $asan_dir"
    configure_and_build "$asan_dir" -DTPUC_SANITIZE=ON -DTPUC_BUILD_BENCHMARKS=OFF
    # allow_user_poisoning=0: LLVM's BumpPtrAllocator, inlined into our
    # instrumented code, poisons slabs that the uninstrumented libMLIR then
    # allocates from (a known false positive of mixing the two). Every other
    # check (heap/stack overflow, use-after-free, leaks, UB) stays on.
    ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:allow_user_poisoning=0" \
    UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1" run_tests "$asan_dir"
    echo "setup: fuzz targets (clang-22, libFuzzer+ASan+UBSan) in $fuzz_dir"
    configure "$fuzz_dir" -DCMAKE_CXX_COMPILER=clang++-22 -DCMAKE_C_COMPILER=clang-22 \
      -DTPUC_BUILD_FUZZERS=ON -DTPUC_BUILD_BENCHMARKS=OFF
    cmake --build "$fuzz_dir" -j "$jobs" --target tpuc-fuzz-hlo-text tpuc-fuzz-npy tpuc-fuzz-loader
    (cd "$fuzz_dir" && ctest --output-on-failure -R fuzz-smoke)
    ;;
  *) echo "usage: ./setup.sh [demo|test|build|deps]" >&2; exit 2 ;;
esac
