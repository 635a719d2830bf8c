#!/usr/bin/env python3
"""Measure per-token activation bytes, sampling and VAE-decode working memory on a GPU (issue #7).

Random-initialised blocks with the real dimensions of each family (read from the project's compiled
rules), bf16 with rank-16 LoRA, run a training step at several token counts with and without gradient
checkpointing, a sampling forward and VAE decodes; the peaks above the weights give the coefficients
rules/memory.yaml names. Writes measured-activations.json (provenance, every raw measurement, the derived
coefficients) and measured-activations.md (estimate today vs measured) to --out, and prints the table.

  python3 scripts/gpu/measure_activations.py --dry-run      # the cases and dimensions; no PyTorch needed
  python3 scripts/gpu/measure_activations.py --out gpu-out  # on the GPU machine (scripts/gpu-measure.sh)
  python3 scripts/gpu/measure_activations.py --rederive gpu-out/measured-activations.json
  python3 scripts/gpu/measure_activations.py --smoke       # CPU, toy widths: every code path, no numbers
"""

import sys

sys.dont_write_bytecode = True  # importing the sibling modules must not leave __pycache__ in the tree

import argparse  # noqa: E402
import datetime  # noqa: E402
import hashlib  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import platform  # noqa: E402
import shutil  # noqa: E402
import subprocess  # noqa: E402
import time  # noqa: E402

import derive  # noqa: E402
import plan  # noqa: E402
import rules_data  # noqa: E402

SCHEMA = "oomlint-measured-activations/1"
OUTPUT_NAME = "measured-activations"
HERE = os.path.dirname(os.path.abspath(__file__))


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--dry-run", action="store_true", help="print the cases and the dimensions read, then exit")
    p.add_argument("--rederive", metavar="JSON", help="recompute the derived section and table of a saved run")
    p.add_argument("--out", default=os.environ.get("OUT") or "gpu-out", help="output folder (default $OUT or ./gpu-out)")
    p.add_argument("--rules-dir", help="folder with ai-toolkit/architectures.json and memory.json "
                                       "(default: build/gpu/core/rules, then build/release/core/rules)")
    p.add_argument("--architectures", help="architectures.json to read (overrides --rules-dir)")
    p.add_argument("--memory", help="memory.json to read (overrides --rules-dir)")
    p.add_argument("--budget-seconds", type=float, default=300.0,
                   help="stop starting new cases after this many seconds; the rest are recorded as skipped")
    p.add_argument("--tokens", type=_ints, default=(1024, 4096, 8192), help="image tokens per sample (default 1024,4096,8192)")
    p.add_argument("--stacks", type=_ints, default=(2, 4), help="blocks stacked per DiT case (default 2,4)")
    p.add_argument("--rank", type=int, default=16, help="LoRA rank (default 16)")
    p.add_argument("--mode", default="autocast", choices=("autocast", "autocast-cast", "bf16", "aitk"),
                   help="precision mode of the training steps (see scripts/gpu/layers.py Precision)")
    p.add_argument("--only", type=_names, help="comma-separated spec id prefixes to run (e.g. flux,vae)")
    p.add_argument("--no-extras", action="store_true", help="leave out the loosely approximated extra families")
    p.add_argument("--smoke", action="store_true",
                   help="CPU, fp32, tiny widths: exercises every code path without a GPU; measures nothing")
    args = p.parse_args(argv)
    if len(set(args.stacks)) < 2:
        p.error("--stacks needs two different depths to separate per-block from once-per-step terms")
    if len(set(args.tokens)) < 2:
        p.error("--tokens needs two different counts to fit a slope")
    return args


def _ints(text):
    return tuple(sorted({int(x) for x in text.split(",") if x.strip()}))


def _names(text):
    return tuple(x.strip() for x in text.split(",") if x.strip())


# ---- provenance ------------------------------------------------------------------------------------------

def git_commit(root):
    """HEAD's commit: from git when it is installed, else read from .git without running it."""
    if shutil.which("git"):
        try:
            r = subprocess.run(["git", "-C", root, "rev-parse", "HEAD"], capture_output=True, text=True, timeout=10)
            if r.returncode == 0 and r.stdout.strip():
                return r.stdout.strip()
        except (OSError, subprocess.SubprocessError):
            pass
    return _read_head(os.path.join(root, ".git"))


def _read_head(git_dir):
    if os.path.isfile(git_dir):  # a worktree: `.git` names the real folder
        with open(git_dir, encoding="utf-8") as f:
            line = f.read().strip()
        if not line.startswith("gitdir:"):
            return None
        git_dir = os.path.join(os.path.dirname(git_dir), line.split(":", 1)[1].strip())
    try:
        with open(os.path.join(git_dir, "HEAD"), encoding="utf-8") as f:
            head = f.read().strip()
    except OSError:
        return None
    if not head.startswith("ref:"):
        return head
    ref = head.split(":", 1)[1].strip()
    for base in (git_dir, _common_dir(git_dir)):
        path = os.path.join(base, ref)
        if os.path.isfile(path):
            with open(path, encoding="utf-8") as f:
                return f.read().strip()
        packed = os.path.join(base, "packed-refs")
        if os.path.isfile(packed):
            with open(packed, encoding="utf-8") as f:
                for line in f:
                    parts = line.split()
                    if len(parts) == 2 and parts[1] == ref:
                        return parts[0]
    return None


def _common_dir(git_dir):
    path = os.path.join(git_dir, "commondir")
    if os.path.isfile(path):
        with open(path, encoding="utf-8") as f:
            return os.path.normpath(os.path.join(git_dir, f.read().strip()))
    return git_dir


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def scripts_digest():
    """One hash over scripts/gpu/*.py: which measurement code ran, even where .git did not travel."""
    h = hashlib.sha256()
    for name in sorted(os.listdir(HERE)):
        if name.endswith(".py"):
            h.update(name.encode())
            h.update(open(os.path.join(HERE, name), "rb").read())
    return h.hexdigest()


def nvidia_smi(field):
    if not shutil.which("nvidia-smi"):
        return None
    try:
        r = subprocess.run(["nvidia-smi", "--query-gpu=" + field, "--format=csv,noheader"],
                           capture_output=True, text=True, timeout=20)
        return r.stdout.strip().splitlines()[0] if r.returncode == 0 and r.stdout.strip() else None
    except (OSError, subprocess.SubprocessError):
        return None


def provenance(torch, args, argv, rules, device):
    root = rules_data.repo_root()
    prov = dict(
        date_utc=datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        script=os.path.relpath(os.path.abspath(__file__), root),
        scripts_sha256=scripts_digest(),
        git_commit=git_commit(root),
        command_line=[sys.executable, os.path.relpath(os.path.abspath(__file__), root)] + list(argv),
        python=platform.python_version(),
        platform=platform.platform(),
        torch=torch.__version__,
        cuda=torch.version.cuda,
        cudnn=torch.backends.cudnn.version() if torch.backends.cudnn.is_available() else None,
        fused_attention=hasattr(torch.nn.functional, "scaled_dot_product_attention"),
        alloc_conf=os.environ.get("PYTORCH_CUDA_ALLOC_CONF"),
        device=device,
        rules=dict(how=rules.how, architectures=os.path.relpath(rules.architectures_path, root),
                   memory=os.path.relpath(rules.memory_path, root),
                   architectures_sha256=sha256(rules.architectures_path), memory_sha256=sha256(rules.memory_path)),
    )
    if device == "cuda":
        props = torch.cuda.get_device_properties(0)
        prov.update(gpu_name=props.name, gpu_total_memory=props.total_memory,
                    compute_capability="%d.%d" % (props.major, props.minor),
                    driver=nvidia_smi("driver_version"), gpu_count=torch.cuda.device_count())
    else:
        prov.update(gpu_name="none (CPU smoke run: nothing measured)", driver=None)
    return prov


# ---- output ----------------------------------------------------------------------------------------------

def public_spec(spec):
    """A spec as JSON: tuples become lists; nothing else changes."""
    return json.loads(json.dumps(spec))


class Output:
    """The result file, rewritten after every case so a run cut short still leaves its measurements."""

    def __init__(self, out_dir, data):
        os.makedirs(out_dir, exist_ok=True)
        self.json_path = os.path.join(out_dir, OUTPUT_NAME + ".json")
        self.md_path = os.path.join(out_dir, OUTPUT_NAME + ".md")
        self.data = data

    def record(self, measurement):
        self.data["measurements"].append(measurement)
        self.write()

    def write(self):
        tmp = self.json_path + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(self.data, f, indent=1, sort_keys=False)
            f.write("\n")
        os.replace(tmp, self.json_path)

    def finish(self):
        self.data["derived"] = derive.derive(self.data)
        self.write()
        table = derive.markdown(self.data)
        with open(self.md_path, "w", encoding="utf-8") as f:
            f.write(table)
        return table


# ---- the three ways to run ---------------------------------------------------------------------------------

def dry_run(rules, specs, settings):
    print("rules: %s" % rules.how)
    print("  architectures: %s" % rules.architectures_path)
    print("  memory: %s" % rules.memory_path)
    print("settings: " + " ".join("%s=%s" % (k, ",".join(map(str, v)) if isinstance(v, (list, tuple)) else v)
                                  for k, v in sorted(settings.items())))
    est = derive.estimate_side(rules)
    print("estimate today: " + " ".join("%s=%s" % (k, v) for k, v in est.items() if not isinstance(v, dict)))
    total = 0
    for spec in specs:
        print(plan.describe_spec(spec))
        for note in spec.get("notes") or []:
            print("  note: " + note)
        for case in plan.cases_for(spec, settings["tokens"], settings["stacks"], settings["mode"]):
            print("  " + plan.describe_case(case))
            total += 1
    print("%d specs, %d cases" % (len(specs), total))


def rederive(path, out_dir):
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    if data.get("schema") != SCHEMA:
        raise SystemExit("%s is not a %s file" % (path, SCHEMA))
    table = Output(out_dir, data).finish()
    print(table)


def measure(args, argv, rules, specs, settings):
    import torch  # noqa: PLC0415 - only the measuring path needs PyTorch

    device = "cpu" if args.smoke else "cuda"
    if device == "cuda" and not torch.cuda.is_available():
        raise SystemExit("no CUDA device visible to PyTorch %s (use --smoke to test on the CPU)" % torch.__version__)
    import runner  # noqa: PLC0415 - imports torch and the model modules

    settings = dict(settings, device=device, smoke=args.smoke)
    prov = provenance(torch, args, argv, rules, device)
    prov["context_probe"] = runner.context_probe(device)
    out = Output(args.out, dict(
        schema=SCHEMA, provenance=prov, settings=settings, estimate_side=derive.estimate_side(rules),
        specs={s["id"]: public_spec(s) for s in specs}, measurements=[], derived=None))
    out.write()
    start = time.monotonic()
    infos = runner.run(specs, settings, out.record)
    for sid, info in infos.items():
        out.data["specs"][sid]["built"] = info
    prov["measure_seconds"] = round(time.monotonic() - start, 1)
    table = out.finish()
    print(table)
    print("wrote %s and %s" % (out.json_path, out.md_path))


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    args = parse_args(argv)
    if args.rederive:
        rederive(args.rederive, args.out)
        return 0
    try:
        rules = rules_data.load(args.rules_dir, args.architectures, args.memory)
        specs = plan.build_specs(rules, include_extras=not args.no_extras, smoke=args.smoke, only=args.only)
    except (rules_data.RulesError, ValueError, KeyError) as exc:
        print("measure_activations: %s" % exc, file=sys.stderr)
        return 2
    settings = dict(tokens=plan.SMOKE_TOKENS if args.smoke else args.tokens, stacks=args.stacks, rank=args.rank,
                    mode=args.mode, budget_seconds=args.budget_seconds)
    if args.dry_run:
        dry_run(rules, specs, settings)
        return 0
    measure(args, argv, rules, specs, settings)
    return 0


if __name__ == "__main__":
    sys.exit(main())
