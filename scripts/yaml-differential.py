#!/usr/bin/env python3
"""Differential test of our YAML parser against PyYAML 6.0 (SafeLoader), the parser the trainers use.

For each file, composes it with `yaml.compose(text, Loader=yaml.SafeLoader)` and with DUMP_CMD, and
compares the two trees. DUMP_CMD takes one YAML path and prints one JSON object (exit 0 always):

  {"error": {"line": L, "column": C, "message": "..."}}      on a parse failure
  {"root": NODE}  or  {"root": null}                          for a stream with no document
  NODE: {"kind":"scalar","value":...,"plain":bool,"tag":"!!str"|""|null,"start":[L,C],"end":[L,C]}  (null: not recorded)
        {"kind":"null","empty":bool,"start":[L,C],"end":[L,C]}   (empty value, or plain untagged ~/null/Null/NULL)
        {"kind":"mapping","flow":bool,"entries":[[KEY,VALUE],...],"start":..,"end":..}
        {"kind":"sequence","flow":bool,"items":[NODE,...],"start":..,"end":..}
  Aliases are dumped as a copy of their target. Lines and columns are 1-based; columns count code points
  (PyYAML does not count a U+FEFF as a column, wherever it stands).

Compared: accepted vs rejected (the main thing); the error line (soft: counted, never fails the run); node
kinds, scalar values, plain-ness, written tags, flow style, entry/item counts; positions of every scalar
except empty ones (block scalars: start only, as PyYAML's end mark lies past the trailing line breaks).
A scalar's range is its own text: from its first character (the quote, the `|`), after any `&a !!str`
(PyYAML's node would start at those), to PyYAML's end mark: past the closing quote, or past the last
non-space character of a plain scalar's last line.

Usage: /usr/bin/python3 scripts/yaml-differential.py [--quiet] [--mutants N [--seed S]] DUMP_CMD [FILES or DIRS ...]
Without paths: tests/yaml-conformance, ../shared/corpus, rules/ and tests/fixtures (*.yaml, *.yml). --mutants adds N
files made from the conformance set by a few random insertions, swaps and deletions (the same N for the same seed).
Exit 1 when any disagreement other than an error line exists, or when a tests/yaml-conformance file's name
disagrees with PyYAML (err-* must be rejected, every other file accepted).
"""
import argparse
import bisect
import json
import os
import pathlib
import random
import subprocess
import sys
import tempfile
import time

try:
    import yaml
except ImportError:  # the test suite reads this as skipped (CTest's SKIP_RETURN_CODE)
    print("skipped: PyYAML is not installed (Debian: python3-yaml)")
    sys.exit(77)

ROOT = pathlib.Path(__file__).resolve().parent.parent
CONFORMANCE = ROOT / "tests" / "yaml-conformance"
DEFAULT_PATHS = [CONFORMANCE, ROOT.parent / "shared" / "corpus", ROOT / "rules", ROOT / "tests" / "fixtures"]
NULL_TAG = "tag:yaml.org,2002:null"
SOFT = {"error-line"}
CATEGORIES = ["corpus", "verdict", "kind", "value", "plain", "tag", "flow", "shape", "position", "dump-failed",
              "error-line"]
MAX_DIFFS_PER_FILE = 8
# Aliases are dumped as copies, so an alias bomb (tests/fixtures/input/alias-bomb.yaml: billions of nodes once
# expanded) cannot be compared as a tree; past these limits only the verdict is compared.
MAX_EXPANDED_NODES = 200_000
MAX_DUMP_BYTES = 64 << 20
DUMP_TIMEOUT_S = 20
TOO_LARGE = "too large"  # a root that stands for "accepted, tree not compared"


class SourceRecordingLoader(yaml.SafeLoader):
    """SafeLoader that keeps what nodes lose: each tag as written (`!!str`, where the node holds
    `tag:yaml.org,2002:str`) and where each scalar's own text starts (a node starts at its first property, `&a`
    or `!!str`). Only leaf calls are overridden, never the composer's recursion, so deep nesting fails here where
    it fails in `yaml.compose` (~490 levels, give or take one: the limit is Python's stack, not a rule)."""

    def __init__(self, stream):
        super().__init__(stream)
        self.tag_starts = []  # source indexes of tag tokens, ascending (the scanner runs forward)
        self.tag_texts = {}
        # Keyed by the id of a mark the node shares with its event (and the event with its token); the mark is
        # kept in the value so that the id stays its own.
        self.written_tag = {}  # id(start mark) -> (mark, tag as written)
        self.text_start = {}  # id(end mark) -> (mark, start mark of the scalar's token)

    def scan_tag(self):
        token = super().scan_tag()
        self.tag_starts.append(token.start_mark.index)
        # For str input the reader's buffer is the whole text, indexed like the marks.
        self.tag_texts[token.start_mark.index] = self.buffer[token.start_mark.index:token.end_mark.index]
        return token

    def _scalar(self, token):
        self.text_start[id(token.end_mark)] = (token.end_mark, token.start_mark)
        return token

    def scan_plain(self):
        return self._scalar(super().scan_plain())

    def scan_flow_scalar(self, style):
        return self._scalar(super().scan_flow_scalar(style))

    def scan_block_scalar(self, style):
        return self._scalar(super().scan_block_scalar(style))

    def parse_node(self, block=False, indentless_sequence=False):
        event = super().parse_node(block, indentless_sequence)
        if getattr(event, "tag", None) is not None:
            # The event starts at its first property; its tag token is the first one at or after that.
            at = bisect.bisect_left(self.tag_starts, event.start_mark.index)
            self.written_tag[id(event.start_mark)] = (event.start_mark, self.tag_texts[self.tag_starts[at]])
        return event


def read_text(path):
    """The file as `open(path)` in text mode gives it to PyYAML: UTF-8, universal newlines, BOM kept."""
    with open(path, encoding="utf-8") as stream:
        return stream.read()


def pyyaml_error(text, exc):
    if isinstance(exc, yaml.MarkedYAMLError):
        mark = exc.problem_mark or exc.context_mark
        # The problem mark can lie past the culprit (`stray` word: the next line; unclosed quote: the end), so
        # the context mark's line (the key, the opening quote) also counts as agreeing.
        lines = {m.line + 1 for m in (exc.problem_mark, exc.context_mark) if m is not None}
        return {"line": mark.line + 1, "column": mark.column + 1, "message": exc.problem or exc.context,
                "lines": sorted(lines)}
    if isinstance(exc, yaml.reader.ReaderError):  # a non-printable character: only its index is known
        before = text[:exc.position]
        line = sum(before.count(ch) for ch in "\n\x85\u2028\u2029") + 1
        return {"line": line, "column": None, "message": exc.reason}
    return {"line": None, "column": None, "message": f"{type(exc).__name__}: {exc}"}


def expected_dump(path):
    """PyYAML's verdict on `path` in the dump format."""
    try:
        text = read_text(path)
    except UnicodeDecodeError as exc:
        raw = pathlib.Path(path).read_bytes()
        return {"error": {"line": raw[:exc.start].count(b"\n") + 1, "column": None, "message": str(exc)}}
    try:
        loader = SourceRecordingLoader(text)  # the reader rejects non-printable characters right here
        try:
            root = loader.get_single_node()
        finally:
            loader.dispose()
    # Not only YAMLError: `"\U00110000"` is a ValueError from chr(), deep nesting a RecursionError; both reject.
    except Exception as exc:  # noqa: BLE001
        return {"error": pyyaml_error(text, exc)}
    if root is None:
        return {"root": None}
    # PyYAML composes up to ~490 levels under Python's default limit; walking its tree takes more frames a level.
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 5000))
    try:
        if expanded_size(root, {}, set()) > MAX_EXPANDED_NODES:
            return {"root": TOO_LARGE}
        return {"root": to_dump(root, loader, set())}
    finally:
        sys.setrecursionlimit(limit)


def expanded_size(node, memo, ancestors):
    """Node count once aliases are copied out; shared nodes are counted once per use but computed once."""
    if id(node) in memo:
        return memo[id(node)]
    if id(node) in ancestors or isinstance(node, yaml.ScalarNode):
        return 1
    inner = ancestors | {id(node)}
    children = node.value if isinstance(node, yaml.SequenceNode) else [n for pair in node.value for n in pair]
    memo[id(node)] = 1 + sum(expanded_size(child, memo, inner) for child in children)
    return memo[id(node)]


def mark(m):
    """PyYAML's mark as oomlint places it: lines end at LF, CR or CRLF only, and every character is a column
    (PyYAML also ends lines at NEL, LS and PS, and never counts a U+FEFF), as the editors that show
    oomlint's findings count them."""
    before = m.buffer[:m.index] if m.buffer is not None else None
    if before is None:
        return [m.line + 1, m.column + 1]
    line_start = max(before.rfind("\n"), before.rfind("\r")) + 1
    lines = before.count("\n") + before.count("\r") - before.count("\r\n")
    return [lines + 1, m.index - line_start + 1]


def to_dump(node, loader, ancestors):
    """A PyYAML node in the dump format; a recursive alias (`&a [*a]`, which PyYAML accepts) ends as "recursive"."""
    if id(node) in ancestors:
        return {"kind": "recursive"}
    base = {"start": mark(node.start_mark), "end": mark(node.end_mark)}
    if isinstance(node, yaml.ScalarNode):
        tag = loader.written_tag.get(id(node.start_mark), (None, ""))[1]
        if id(node.end_mark) in loader.text_start:  # not for an empty value, which has no token
            base["start"] = mark(loader.text_start[id(node.end_mark)][1])
        # The non-specific tag `!` types a plain scalar from its text, as no tag does.
        if node.tag == NULL_TAG and tag in ("", "!") and node.style is None:
            return {"kind": "null", "empty": node.value == "", **base}
        return {"kind": "scalar", "value": node.value, "plain": node.style is None, "tag": tag,
                "style": node.style, **base}  # style: which positions to compare; the dump has no such field
    inner = ancestors | {id(node)}
    if isinstance(node, yaml.SequenceNode):
        return {"kind": "sequence", "flow": bool(node.flow_style),
                "items": [to_dump(item, loader, inner) for item in node.value], **base}
    return {"kind": "mapping", "flow": bool(node.flow_style),
            "entries": [[to_dump(k, loader, inner), to_dump(v, loader, inner)] for k, v in node.value], **base}


def actual_dump(dump_cmd, path, tree_wanted):
    """The dump's JSON, or (None, why not). Output past MAX_DUMP_BYTES is cut off; when PyYAML's tree is too large
    to compare anyway, a cut-off output that began as a root counts as "accepted"."""
    with tempfile.TemporaryFile() as out_file, tempfile.TemporaryFile() as err_file:
        try:
            proc = subprocess.Popen([dump_cmd, str(path)], stdout=out_file, stderr=err_file)
        except OSError as exc:
            return None, f"could not run: {exc}"
        # Files rather than pipes, watched for size and time: an alias bomb's dump may never end on its own.
        deadline = time.monotonic() + DUMP_TIMEOUT_S
        while True:
            try:
                proc.wait(timeout=0.02)
                break
            except subprocess.TimeoutExpired:
                pass
            if os.fstat(out_file.fileno()).st_size > MAX_DUMP_BYTES or time.monotonic() > deadline:
                proc.kill()
                proc.wait()
                out_file.seek(0)
                if not tree_wanted and out_file.read(16).lstrip().startswith(b'{"root"'):
                    return {"root": TOO_LARGE}, None
                return None, f"output over {MAX_DUMP_BYTES >> 20} MiB or over {DUMP_TIMEOUT_S} s"
        out_file.seek(0)
        out = out_file.read()
        err_file.seek(0)
        err = err_file.read()
    if proc.returncode != 0:
        return None, f"exit {proc.returncode}: {err.decode(errors='replace').strip()[:200]}"
    try:
        # surrogatepass: PyYAML accepts "\ud800", which a C++ dump may well print as WTF-8
        result = json.loads(out.decode("utf-8", errors="surrogatepass"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        return None, f"not JSON ({exc}): {out[:200]!r}"
    if not isinstance(result, dict) or not ("error" in result or "root" in result):
        return None, f"neither 'error' nor 'root': {out[:200]!r}"
    return result, None


STYLE_NAMES = {"'": "single-quoted", '"': "double-quoted", "|": "literal", ">": "folded"}


def text(value, limit=60):
    """JSON-quoted for visible escapes, non-ASCII left readable."""
    quoted = json.dumps(value, ensure_ascii=False)
    for ch in "\x85\u2028\u2029\ufeff":  # line breaks to PyYAML, invisible or breaking in a terminal
        quoted = quoted.replace(ch, f"\\u{ord(ch):04x}")
    return quoted if len(quoted) <= limit else quoted[:limit] + "..."


def short(node):
    """A node in a few characters, for diff lines."""
    if node is None:
        return "nothing"
    if node == TOO_LARGE:
        return "a tree too large to compare"
    kind = node.get("kind")
    if kind == "scalar":
        # PyYAML's side knows the style; the dump only says plain or not
        style = STYLE_NAMES.get(node.get("style"), "plain" if node.get("plain") else "non-plain")
        return f"{style} {text(node.get('value'))}"
    if kind == "null":
        return "empty null" if node.get("empty") else "null word"
    if kind == "mapping":
        return f"{'flow' if node.get('flow') else 'block'} mapping of {len(node.get('entries') or [])}"
    if kind == "sequence":
        return f"{'flow' if node.get('flow') else 'block'} sequence of {len(node.get('items') or [])}"
    return str(kind)


def key_label(key):
    if key and key.get("kind") == "scalar":
        return "." + str(key.get("value"))[:40]
    if key and key.get("kind") == "null":
        return ".~"
    return ".<complex key>"


def compare_nodes(exp, act, path, diffs):
    """Appends (category, text) for each way `act` differs from `exp`; does not descend below a kind or count
    mismatch, where pairing the children would only add noise."""
    if not isinstance(act, dict) or act.get("kind") != exp["kind"]:
        got = short(act) if isinstance(act, dict) else repr(act)
        diffs.append(("kind", f"{path}: PyYAML {short(exp)}, ours {got}"))
        return
    kind = exp["kind"]
    if kind == "scalar":
        for field in ("value", "plain", "tag"):
            if field == "tag" and act.get("tag", "") is None:
                continue  # a dump that does not record tags as written (oomlint's: a node keeps its type alone)
            if act.get(field) != exp[field]:
                diffs.append((field, f"{path}: {field} PyYAML {text(exp[field])}, ours {text(act.get(field))}"))
        empty = exp["value"] == "" and exp["plain"]  # `key: !!str` has no content to place
        if not empty:
            block = exp["style"] in ("|", ">")
            fields = ("start",) if block else ("start", "end")
            wrong = [f"{f} PyYAML {exp[f]}, ours {act.get(f)}" for f in fields if act.get(f) != exp[f]]
            if wrong:
                diffs.append(("position", f"{path} ({short(exp)}): " + "; ".join(wrong)))
    elif kind == "null":
        if bool(act.get("empty")) != exp["empty"]:
            diffs.append(("value", f"{path}: PyYAML {short(exp)}, ours {short(act)}"))
        elif not exp["empty"]:
            wrong = [f"{f} PyYAML {exp[f]}, ours {act.get(f)}" for f in ("start", "end") if act.get(f) != exp[f]]
            if wrong:
                diffs.append(("position", f"{path} (null word): " + "; ".join(wrong)))
    elif kind in ("mapping", "sequence"):
        if bool(act.get("flow")) != exp["flow"]:
            diffs.append(("flow", f"{path}: PyYAML {short(exp)}, ours {short(act)}"))
        field = "entries" if kind == "mapping" else "items"
        theirs = act.get(field)
        if not isinstance(theirs, list) or len(theirs) != len(exp[field]):
            diffs.append(("shape", f"{path}: PyYAML {short(exp)}, ours "
                                   f"{len(theirs) if isinstance(theirs, list) else repr(theirs)} {field}"))
            return
        for i, (mine, other) in enumerate(zip(exp[field], theirs)):
            if kind == "sequence":
                compare_nodes(mine, other, f"{path}[{i}]", diffs)
            elif not (isinstance(other, list) and len(other) == 2):
                diffs.append(("shape", f"{path}{{{i}}}: entry is not a [key, value] pair: {other!r:.80}"))
            else:
                compare_nodes(mine[0], other[0], f"{path}{{key {i}}}", diffs)
                compare_nodes(mine[1], other[1], f"{path}{key_label(mine[0])}", diffs)


def compare(exp, act):
    diffs = []
    if "error" in exp or "error" in act:
        if ("error" in exp) != ("error" in act):
            if "error" in exp:
                e = exp["error"]
                diffs.append(("verdict", f"PyYAML rejects (line {e['line']}: {e['message']}), ours accepts"))
            else:
                e = act["error"] if isinstance(act["error"], dict) else {}
                diffs.append(("verdict", f"PyYAML accepts, ours rejects (line {e.get('line')}: {e.get('message')})"))
        else:
            line = act["error"].get("line") if isinstance(act["error"], dict) else None
            lines = exp["error"].get("lines", [exp["error"]["line"]])
            if exp["error"]["line"] is not None and line not in lines:
                diffs.append(("error-line", f"error line PyYAML {' or '.join(map(str, lines))} "
                                            f"({exp['error']['message']}), ours {line}"))
        return diffs
    if exp["root"] == TOO_LARGE:  # accepted on both sides is all that can be checked
        return diffs
    if exp["root"] is None or act["root"] is None or act["root"] == TOO_LARGE:
        if exp["root"] is not act["root"]:
            diffs.append(("kind", f"$: PyYAML {short(exp['root'])}, ours {short(act['root'])}"))
        return diffs
    compare_nodes(exp["root"], act["root"], "$", diffs)
    return diffs


def collect(paths):
    files = []
    for p in paths:
        p = pathlib.Path(p)
        if p.is_dir():
            files += sorted(f for f in p.rglob("*") if f.suffix in (".yaml", ".yml") and f.is_file())
        elif p.is_file():
            files.append(p)
        else:
            print(f"warning: {p} does not exist, skipped", file=sys.stderr)
    return files


def display(path):
    return os.path.relpath(path, ROOT)


# Bytes a mutation inserts or swaps in: YAML's indicators, breaks, indentation, document markers, a multi-byte
# character, an escape. The inputs near the grammar's edges that hand-written files miss (found this way: the
# directive and tag-URI cases, and a message that cut a UTF-8 character in half).
MUTATION_PIECES = [c.encode() for c in " \t\n-?:,[]{}#&*!|>'\"%@`~.09aé\\"] + \
                  [b"\n  ", b"  ", b"---", b"...", b"- ", b": ", b"\r\n"]


def mutants(count, seed, folder):
    """`count` files in `folder`, each a conformance file with one to three pieces inserted, swapped in or deleted;
    the same files for the same seed."""
    rng = random.Random(seed)
    sources = sorted(CONFORMANCE.glob("*.yaml"))
    made = []
    for k in range(count):
        text = bytearray(rng.choice(sources).read_bytes())
        for _ in range(rng.randint(1, 3)):
            at = rng.randint(0, len(text))
            piece = rng.choice(MUTATION_PIECES)
            op = rng.random()
            if op < 0.45 or not text:
                text[at:at] = piece
            elif op < 0.75:
                del text[at:at + rng.randint(1, 3)]
            else:
                text[at:at + 1] = piece
        path = pathlib.Path(folder) / f"mutant-{seed}-{k:05d}.yaml"
        path.write_bytes(bytes(text))
        made.append(path)
    return made


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dump_cmd")
    parser.add_argument("paths", nargs="*")
    parser.add_argument("--quiet", action="store_true", help="print only the summary")
    parser.add_argument("--mutants", type=int, default=0, metavar="N",
                        help="also N mutations of the conformance files (a fixed seed: the same files every run)")
    parser.add_argument("--seed", type=int, default=20261206)
    args = parser.parse_args()

    files = collect(args.paths or DEFAULT_PATHS)
    scratch = tempfile.TemporaryDirectory(prefix="yaml-mutants-") if args.mutants else None
    if scratch:
        files += mutants(args.mutants, args.seed, scratch.name)
    files_in = {c: 0 for c in CATEGORIES}  # files with at least one disagreement of the category
    agree = failing = 0
    for path in files:
        exp = expected_dump(path)
        act, failure = actual_dump(args.dump_cmd, path, tree_wanted="root" in exp and exp["root"] != TOO_LARGE)
        diffs = [("dump-failed", failure)] if failure else compare(exp, act)
        # The conformance corpus states PyYAML's verdict in each name; a wrong name is a broken test, not ours.
        if path.resolve().parent == CONFORMANCE and path.name.startswith("err-") != ("error" in exp):
            diffs.insert(0, ("corpus", "named err- but PyYAML accepts" if "error" not in exp
                                       else f"PyYAML rejects (line {exp['error']['line']}: {exp['error']['message']}), "
                                            "but the name lacks err-"))
        for category in {c for c, _ in diffs}:
            files_in[category] += 1
        if any(c not in SOFT for c, _ in diffs):
            failing += 1
        elif not diffs:
            agree += 1
        if diffs and not args.quiet:
            print(f"{display(path)}:")
            for category, line in diffs[:MAX_DIFFS_PER_FILE]:
                print(f"  [{category}] {line}")
            if len(diffs) > MAX_DIFFS_PER_FILE:
                print(f"  ... {len(diffs) - MAX_DIFFS_PER_FILE} more")

    soft_only = len(files) - agree - failing
    print(f"{len(files)} files: {agree} agree, {failing} disagree, {soft_only} differ only in error line")
    for category in CATEGORIES:
        if files_in[category]:
            print(f"  {category}: {files_in[category]} file(s){' (soft)' if category in SOFT else ''}")
    return 1 if failing else 0


if __name__ == "__main__":
    sys.exit(main())
