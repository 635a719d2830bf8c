#!/usr/bin/env python3
"""Extracts the argparse arguments of a trainer's scripts (kohya-ss sd-scripts, musubi-tuner) from its
source, for rules/<tool>.yaml: each `add_*arguments` / `setup_parser` function becomes an argument group
(every add_argument in it, conditional ones included: accepting too much is safer than reporting a real
argument as unknown), and each training script lists the groups its setup_parser reaches.

usage: extract-trainer-args.py SOURCE_DIR SCRIPT.py... > groups.yaml   (SOURCE_DIR: a checkout)
"""
import ast
import json
import pathlib
import re
import sys


def literal(node):
    try:
        return ast.literal_eval(node)
    except Exception:
        return None


def main():
    root = pathlib.Path(sys.argv[1])
    scripts = sys.argv[2:]
    functions = {}  # "module.func" -> {"args": [...], "calls": [...]}
    entries = {}  # module -> the parser functions its main() or __main__ block calls (musubi-tuner's scripts)
    imports = {}  # module -> {name imported: the module it comes from}, to follow re-exports
    for path in list(root.glob("*.py")) + list(root.glob("library/*.py")) + list(root.glob("src/musubi_tuner/**/*.py")):
        module = path.stem
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"))
        except SyntaxError:
            continue
        imported = {}  # a name imported from another module -> that module's stem
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                for alias in node.names:
                    imported[alias.asname or alias.name] = node.module.split(".")[-1]
        imports[module] = imported
        def resolve(f):
            if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name):
                return f"{f.value.id}.{f.attr}"
            if isinstance(f, ast.Name):
                return f"{imported.get(f.id, module)}.{f.id}"
            return None
        for fn in ast.walk(tree):
            if isinstance(fn, (ast.FunctionDef, ast.If)) and (getattr(fn, "name", "") == "main" or isinstance(fn, ast.If) and "__main__" in ast.dump(fn.test)):
                for node in ast.walk(fn):
                    if isinstance(node, ast.Call):
                        name = resolve(node.func)
                        if name and "setup_parser" in name:
                            entries.setdefault(module, []).append(name)
            if not isinstance(fn, ast.FunctionDef):
                continue
            args, calls = [], []
            for node in ast.walk(fn):
                if not isinstance(node, ast.Call):
                    continue
                f = node.func
                name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else None
                if name == "add_argument" and node.args:
                    names = [literal(a) for a in node.args if isinstance(literal(a), str)]
                    long = [n for n in names if n.startswith("--")]
                    if not long:
                        continue
                    kw = {k.arg: k.value for k in node.keywords}
                    action = literal(kw["action"]) if "action" in kw else None
                    default = literal(kw["default"]) if "default" in kw else None
                    nargs = literal(kw["nargs"]) if "nargs" in kw else None
                    entry = {"name": long[0][2:]}
                    if len(long) > 1:
                        entry["aliases"] = [n[2:] for n in long[1:]]
                    if action in ("store_true", "store_false"):
                        entry["flag"] = True
                    if nargs in ("*", "+") or isinstance(nargs, int) and nargs > 1:
                        entry["list"] = True
                    if default is not None and isinstance(default, (int, float, str, bool)) and action not in ("store_true",):
                        entry["default"] = default
                    args.append(entry)
                elif name and (re.match(r"_?add_\w*arg(s|uments)$", name) or "setup_parser" in name):
                    calls.append(resolve(f))
            functions[f"{module}.{fn.name}"] = {"args": args, "calls": calls}
    out = {"groups": {}, "scripts": {}}
    for script in scripts:
        stem = pathlib.Path(script).stem
        start = [f"{stem}.setup_parser"] if f"{stem}.setup_parser" in functions else entries.get(stem, [])
        seen, stack = [], list(reversed(start))
        while stack:
            name = stack.pop()
            for _ in range(5):  # a function re-exported through another module's import
                owner, _, fn = name.partition(".")
                if name in functions or fn not in imports.get(owner, {}):
                    break
                name = f"{imports[owner][fn]}.{fn}"
            if name in seen or name not in functions:
                continue
            seen.append(name)
            stack.extend(reversed(functions[name]["calls"]))
        out["scripts"][script] = seen
        for name in seen:
            out["groups"][name] = functions[name]["args"]
    json.dump(out, sys.stdout, indent=1, ensure_ascii=False)


if __name__ == "__main__":
    main()
