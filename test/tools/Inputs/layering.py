"""Checks that no source folder includes a header of a higher layer.

usage: layering.py ROOT

The layers, lowest first (docs/architecture.md, "Layers"):
  runtime   the executable format, loader and emulator: Abseil + Protobuf only
  dialects  the hlo and tpu dialects: MLIR only
  compiler  front end and analyses (hlo_text, importer, interpreter, layout,
            fusion, analysis, report, serializer)
  passes    the passes and the pipelines they form
  driver    what runs pipelines: codegen, the tpuc subcommands
  tools     main() only
A file may include headers of its own layer and of lower ones. Every
C++ file under ROOT's top-level folders (test/ and third_party/ aside) must
sit in a known layer, so a new folder has to be placed here first. Prints
one line per violation (file:line) and exits 1; else prints a summary.
"""
import os
import re
import sys

LAYERS = ["runtime", "dialects", "compiler", "passes", "driver", "tools"]
# Top-level folders that are not layers of the product.
IGNORED = {"test", "third_party", "docs", "examples", "cmake", "build"}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"/]+)/')
SOURCE_SUFFIXES = (".h", ".cpp", ".def", ".inc", ".td")


def main():
    root = sys.argv[1]
    rank = {name: i for i, name in enumerate(LAYERS)}
    errors = []
    files = includes = 0
    for top in sorted(os.listdir(root)):
        path = os.path.join(root, top)
        if not os.path.isdir(path) or top.startswith(".") or top in IGNORED \
                or top.startswith("build"):
            continue
        if top not in rank:
            has_sources = any(name.endswith(SOURCE_SUFFIXES)
                              for _, _, names in os.walk(path)
                              for name in names)
            if has_sources:
                errors.append(f"{top}/: a source folder in no layer "
                              f"(add it to LAYERS in {sys.argv[0]})")
            continue
        for folder, _, names in sorted(os.walk(path)):
            for name in sorted(names):
                if not name.endswith(SOURCE_SUFFIXES):
                    continue
                files += 1
                file = os.path.join(folder, name)
                rel = os.path.relpath(file, root)
                with open(file, encoding="utf-8", errors="replace") as f:
                    for number, line in enumerate(f, 1):
                        m = INCLUDE.match(line)
                        if not m or m.group(1) not in rank:
                            continue
                        includes += 1
                        if rank[m.group(1)] > rank[top]:
                            errors.append(
                                f"{rel}:{number}: layer '{top}' includes "
                                f"'{line.strip().split(None, 1)[1]}' of the "
                                f"higher layer '{m.group(1)}'")
    for error in errors:
        print(error)
    if errors:
        sys.exit(1)
    print(f"layering ok: {files} files, {includes} includes of our folders, "
          f"layers {' < '.join(LAYERS)}")


if __name__ == "__main__":
    main()
