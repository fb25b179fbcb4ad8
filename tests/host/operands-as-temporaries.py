#!/usr/bin/env python3
"""The memory plan's reuse, checked on the corpus' fusions: each module's
entry parameters (arrays, not pred) are first doubled by an elementwise
instruction, `NAME_twice = add(NAME, NAME)`, which every use then reads.
The fusions' operands are then temporaries the plan may write a result
over (a loop fusion's result, a reduction's side output: `may_reuse`),
where the module's own parameters never are. Each such module is compiled
for the host and run whole by hlo-run against the interpreter.

  operands-as-temporaries.py HLO_COMPILE HLO_RUN WORK_DIR (MODULE.hlo | DIR)...

A directory stands for its modules (recursively) that have fusions
(`kind=k...`): ctest runs it on ../shared/corpus/xla (77 modules, ~15 s).

A module whose original does not compile here, or that is too large for
the interpreter, is skipped; any other failure fails the run. Prints one
line per module and the counts, among them how many plans wrote an output
over an operand.

Found: a reduction's root computed from its reduce's result (XLA's
FindReduceHeroEpilogueFusionHeroAlsoUsedAsNonHero) written over the
operand the reduction was still reading.
"""
import json
import os
import re
import subprocess
import sys

PARAMETER = re.compile(r"^(\s*)%?([\w.\-]+) = ((\w+)\[[^\]]*\](?:\{[^}]*\})?) parameter\(\d+\)")


def double_parameters(text):
    """The module with its entry's array parameters doubled first; None if
    it has none to double."""
    lines = text.split("\n")
    out, renamed, in_entry = [], [], False
    for line in lines:
        if line.startswith("ENTRY"):
            in_entry = True
            out.append(line)
            continue
        if in_entry and line.startswith("}"):
            in_entry = False
        if not in_entry:
            out.append(line)
            continue
        match = PARAMETER.match(line)
        if match and not line.lstrip().startswith("ROOT"):
            indent, name, shape, element = match.groups()
            out.append(line)
            if element not in ("pred", "token") and not re.match(r"\w+\[\]", shape):
                out.append(f"{indent}%{name}_twice = {shape} add(%{name}, %{name})")
                renamed.append(name)
            continue
        for name in renamed:
            line = re.sub(r"(?<![\w.\-%])%?" + re.escape(name) + r"(?![\w.\-])",
                          "%" + name + "_twice", line)
        out.append(line)
    return "\n".join(out) if renamed else None


def run(command, timeout=300):
    try:
        return subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    hlo_compile, hlo_run, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    counts = {"PASS": 0, "FAIL": 0, "skipped": 0}
    reused = 0
    modules = []
    for argument in sys.argv[4:]:
        if not os.path.isdir(argument):
            modules.append(argument)
            continue
        for root, _, files in sorted(os.walk(argument)):
            for file in sorted(files):
                path = os.path.join(root, file)
                if file.endswith(".hlo") and "kind=k" in open(path, errors="replace").read():
                    modules.append(path)
    for module in modules:
        name = os.path.basename(os.path.dirname(module)) + "__" + os.path.basename(module)[:-4]
        doubled = double_parameters(open(module).read())
        original = run([hlo_compile, "-w", "--target=host", module, "-o",
                        os.path.join(work, name + ".orig.so")])
        if doubled is None or original is None or original.returncode != 0:
            counts["skipped"] += 1
            print(f"{name}: skipped (nothing to double, or the original does not compile)")
            continue
        path = os.path.join(work, name + ".hlo")
        open(path, "w").write(doubled)
        library = os.path.join(work, name + ".so")
        compiled = run([hlo_compile, "-w", "--target=host", path, "-o", library])
        if compiled is None or compiled.returncode != 0:
            counts["FAIL"] += 1
            print(f"{name}: FAIL: the doubled module does not compile: "
                  f"{(compiled.stderr if compiled else 'timeout')[:300]}")
            continue
        manifest = json.load(open(library + ".json"))
        joined = sum(1 for allocation in manifest.get("allocations", [])
                     for buffer in allocation.get("buffers", [])
                     if len(buffer["names"]) > 1 and
                     any(not n.startswith("<") and "#" not in n for n in buffer["names"]))
        result = run([hlo_run, path, "--manifest", library + ".json"])
        output = (result.stdout + result.stderr) if result else "timeout"
        last = output.strip().splitlines()[-1] if output.strip() else ""
        if result is not None and result.returncode == 0 and last == "PASS":
            counts["PASS"] += 1
            reused += joined > 0
            print(f"{name}: PASS ({joined} buffer(s) shared by values)")
        elif "--max-elements" in output or "--skip-oversized" in output:
            counts["skipped"] += 1
            print(f"{name}: skipped (too large for the interpreter)")
        else:
            counts["FAIL"] += 1
            print(f"{name}: FAIL\n{output[-1500:]}")
    print(f"{counts['PASS']} passed ({reused} with values sharing a buffer), "
          f"{counts['FAIL']} failed, {counts['skipped']} skipped")
    return 1 if counts["FAIL"] else 0


if __name__ == "__main__":
    sys.exit(main())
