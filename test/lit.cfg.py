# -*- Python -*-
import os
import shutil

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "TPUC"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".hlo", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tpuc_obj_root, "test")
# Inputs that are not tests (corpora, helper scripts, fuzz seeds).
config.excludes = ["Inputs", "fuzz", "unit", "benchmarks", "CMakeLists.txt",
                   "lit.cfg.py", "lit.site.cfg.py"]

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%tpuc_src_root", config.tpuc_src_root))
config.substitutions.append(("%tpuc_bin", config.tpuc_tools_dir))
# Real XLA HLO dumps (a copy of ../shared/corpus/hlo, see its SOURCES.md).
config.substitutions.append(
    ("%corpus", os.path.join(config.tpuc_src_root, "test", "Inputs", "corpus", "hlo")))
# Scripts that need numpy use Debian's interpreter explicitly.
config.substitutions.append(("%python_numpy", "/usr/bin/python3"))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP",
                                     "ASAN_OPTIONS", "UBSAN_OPTIONS"])
llvm_config.use_default_substitutions()

tool_dirs = [config.tpuc_tools_dir, config.llvm_tools_dir]
tools = ["tpuc-opt", "tpuc", ToolSubst("tpuc-run", unresolved="ignore"),
         ToolSubst("FileCheck", config.filecheck), "not", "count", "split-file"]
llvm_config.add_tool_substitutions(tools, tool_dirs)

if config.tpuc_sanitize:
    config.available_features.add("asan")

# tpuc-run built with Open MPI (setup.sh installs it) and mpirun to start it.
if config.tpuc_have_mpi:
    config.available_features.add("mpi-build")
    if shutil.which("mpirun"):
        config.available_features.add("mpi")

# Headless Chromium (Debian's `chromium`, installed by setup.sh) for tests that
# render pages. It runs as root in CI, offline, with a fresh profile.
if os.path.exists("/usr/bin/chromium"):
    config.available_features.add("chromium")
    config.substitutions.append((
        "%chromium",
        "/usr/bin/chromium --headless --no-sandbox --disable-gpu "
        "--disable-background-networking --disable-component-update "
        "--disable-sync --no-first-run --disable-quic "
        "--user-data-dir=%t/chromium-profile"))
