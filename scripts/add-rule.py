#!/usr/bin/env python3
"""Adds a rule's pieces at once, as clang-tidy's add_new_check.py does, so the pattern never decays:

  - its entry in rules/catalog.yaml (the RuleId enum is generated from it: RuleId::OLnnn compiles after);
  - an AI Toolkit check in core/systems/aitk/checks/<name>_check.cpp, taking the AitkCheckContext (the
    trainer process and the knowledge), listed in the registry (checks.cpp, in code order) and in
    core/CMakeLists.txt;
  - its page docs/rules/OLnnn.md with the sections every page has, and its row and link in the index;
  - its fixture tests/fixtures/rules/OLnnn-<name>.yaml with an expectation to fill in.

Usage: scripts/add-rule.py OLnnn kebab-name SEVERITY "Title" [--dry-run]
The check it writes reports nothing yet; the fixture's expectation fails until it does (write the check,
then the page's text). --dry-run prints what would be written and changes nothing.
"""
import argparse
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def camel(name):
    return "".join(part.capitalize() for part in name.split("-"))


def insert_sorted_block(text, code, block, pattern):
    """Inserts `block` before the first entry whose code sorts after `code` (catalog order is code order), and
    before the comment lines that head that entry (a section's heading belongs to the entries after it)."""
    for match in re.finditer(pattern, text, re.M):
        if match.group(1) > code:
            at = match.start()
            while True:
                line_start = text.rfind("\n", 0, max(at - 1, 0)) + 1
                if at == 0 or not text[line_start:at].lstrip().startswith("#"):
                    break
                at = line_start
            return text[:at] + block + text[at:]
    return None


def insert_line_sorted(text, key, line, pattern):
    """Inserts `line` before the first line matching `pattern` whose group 1 sorts after `key`, else after
    the last matching line."""
    matches = list(re.finditer(pattern, text, re.M))
    after = next((m for m in matches if m.group(1) > key), None)
    at = after.start() if after else matches[-1].end() + 1
    return text[:at] + line + text[at:]


TRAINER_ENTRY = r'^      \{"[a-z0-9-]+", (check\w+)\}, +// (OL\d{3})$'
TRAINER_DECLARATION = r"^void (check\w+)\(const AitkCheckContext&, Findings&\);$"


def register_check(checks_cpp, code, name, fn):
    """Lists the check in aitkTrainerChecks() in code order, and declares it where the declarations follow
    the list's order."""
    body = re.search(r"aitkTrainerChecks\(\) \{\n.*?\n  return kChecks;", checks_cpp, re.S)
    entries = list(re.finditer(TRAINER_ENTRY, body.group(0), re.M))
    following = next((m for m in entries if m.group(2) > code), None)
    entry = f'      {{"{name}", {fn}}},'
    entry = f"{entry:<{entries[0].group(0).index('//') - 2}}  // {code}\n"
    at = following.start() if following else entries[-1].end() + 1
    listed = body.group(0)[:at] + entry + body.group(0)[at:]
    declarations = list(re.finditer(TRAINER_DECLARATION, checks_cpp, re.M))
    before = next((m for m in declarations if following and m.group(1) == following.group(1)), None)
    declared_at = before.start() if before else declarations[-1].end() + 1  # the declarations precede the list
    return (checks_cpp[:declared_at] + f"void {fn}(const AitkCheckContext&, Findings&);\n" +
            checks_cpp[declared_at:body.start()] + listed + checks_cpp[body.end():])


def plan(code, name, severity, title):
    fn = f"check{camel(name)}"
    files = {}
    catalog = (ROOT / "rules/catalog.yaml").read_text()
    if re.search(rf"^  - code: {code}$", catalog, re.M):
        sys.exit(f"add-rule: {code} is already in rules/catalog.yaml")
    entry = (f"  - code: {code}\n    name: {name}\n    severity: {severity}\n    title: {title}\n"
             f"    summary: TODO one sentence: what goes wrong for the user.\n"
             f"    anchor: TODO where the finding's range is\n    source: \"TODO reference section\"\n")
    updated = insert_sorted_block(catalog, code, entry, r"^  - code: (OL\d{3})$")
    if updated is None:
        updated = catalog.rstrip("\n") + "\n" + entry
    files["rules/catalog.yaml"] = updated

    source = f"{name.replace('-', '_')}_check.cpp"
    files[f"core/systems/aitk/checks/{source}"] = f"""// {code} {name}: {title}.
#include "systems/aitk/checks/checks.h"
#include "systems/aitk/checks/util.h"

namespace oomlint {{

void {fn}(const AitkCheckContext& c, Findings& findings) {{
  // Read the setting through c.process's sections (they keep each value's node for its range) and any
  // figure from c.knowledge; report with findings.report(RuleId::{code}, range, path, message).
  (void)c;
  (void)findings;
}}

}}  // namespace oomlint
"""
    checks_cpp = (ROOT / "core/systems/aitk/checks/checks.cpp").read_text()
    files["core/systems/aitk/checks/checks.cpp"] = register_check(checks_cpp, code, name, fn)
    cmake = (ROOT / "core/CMakeLists.txt").read_text()
    files["core/CMakeLists.txt"] = insert_line_sorted(cmake, source, f"  systems/aitk/checks/{source}\n",
                                                      r"^  systems/aitk/checks/(\w+_check\.cpp)$")

    files[f"docs/rules/{code}.md"] = f"""# {code} {name}

Severity: {severity}

## What it does
TODO: what the check reports, and where.

## Why it matters
TODO: what goes wrong for the user, in memory or in the run.

## Example
```yaml
TODO
```

## Use instead
```yaml
TODO
```

## Source
TODO: the reference section or trainer source that shows the behaviour.
"""
    index = (ROOT / "docs/rules/README.md").read_text()
    row = f"[{code}]|{name}|{severity}|{title}\n"
    index = insert_sorted_block(index, code, row, r"^\[(OL\d{3})\]\|") or index + row
    link = f"[{code}]: {code}.md\n"
    index = insert_sorted_block(index, code, link, r"^\[(OL\d{3})\]: ") or index + link
    files["docs/rules/README.md"] = index

    files[f"tests/fixtures/rules/{code}-{name}.yaml"] = f"""# {code}: TODO the smallest real AI Toolkit config that triggers it.
job: extension
config:
  name: fixture_lora
  process:
    - type: sd_trainer
      training_folder: output
      device: cuda:0
      model:
        name_or_path: black-forest-labs/FLUX.1-dev
        arch: flux
      train:
        batch_size: 1  # expect: {code}:9 "TODO a substring of the message"
"""
    return files


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("code", help="OLnnn, not yet in the catalog")
    parser.add_argument("name", help="kebab-case name, e.g. frames-off-grid")
    parser.add_argument("severity", choices=["error", "warning", "info"])
    parser.add_argument("title")
    parser.add_argument("--dry-run", action="store_true")
    args = parser.parse_args()
    if not re.fullmatch(r"OL[1-9]\d{2}", args.code):
        sys.exit("add-rule: the code is OL and three digits, e.g. OL420")
    if not re.fullmatch(r"[a-z][a-z0-9]*(-[a-z0-9]+)*", args.name):
        sys.exit("add-rule: the name is kebab-case, e.g. frames-off-grid")
    files = plan(args.code, args.name, args.severity, args.title)
    new = [path for path in files if path.startswith(("docs/rules/OL", "tests/fixtures/", "core/systems/aitk/checks/"))
           and path.endswith((".md", ".yaml", "_check.cpp"))]
    for path in new:
        if (ROOT / path).exists():
            sys.exit(f"add-rule: {path} exists")
    for path, text in files.items():
        if args.dry_run:
            print(f"=== {path}\n{text}", end="")
            continue
        (ROOT / path).write_text(text)
        print(f"add-rule: wrote {path}")


if __name__ == "__main__":
    main()
