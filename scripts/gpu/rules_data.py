"""The project's compiled knowledge, read as data: architecture dimensions and today's memory constants.

The dimensions live in rules/ai-toolkit/architectures.yaml and the memory constants in rules/memory.yaml;
the C++ build compiles both to JSON (build/<preset>/core/rules/...). This module reads that JSON so the
measurement never carries a second copy of the dimension tables. Standard library only: the dry run and
the re-derivation must work on a machine without PyTorch.
"""

import importlib.util
import json
import os
import re

ARCHITECTURES_REL = os.path.join("ai-toolkit", "architectures.json")
MEMORY_REL = "memory.json"

# Where the compiled rules are looked for, in order, relative to the repository root: the GPU script's own
# build folder first, then the developer build (also what a caller carries to the GPU machine).
DEFAULT_RULES_DIRS = (
    os.path.join("build", "gpu", "core", "rules"),
    os.path.join("build", "release", "core", "rules"),
)


class RulesError(Exception):
    """The rules could not be found or read: the message says where it looked."""


def repo_root():
    # scripts/gpu/rules_data.py -> the repository root two levels up.
    return os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _load_json(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def _load_yaml(path):
    # Only a fallback for a GPU machine where the C++ build could not run and nothing was carried:
    # PyYAML often ships with PyTorch environments. The compiled JSON stays the normal source.
    import yaml  # noqa: PLC0415 (optional dependency, imported only when needed)

    with open(path, encoding="utf-8") as f:
        return yaml.safe_load(f)


def locate(rules_dir=None, architectures=None, memory=None):
    """Returns (architectures_path, memory_path, how), each path a .json or, as a last resort, a .yaml."""
    root = repo_root()
    if architectures and memory:
        return architectures, memory, "given on the command line"
    tried = []
    dirs = [rules_dir] if rules_dir else [os.path.join(root, d) for d in DEFAULT_RULES_DIRS]
    for d in dirs:
        a = architectures or os.path.join(d, ARCHITECTURES_REL)
        m = memory or os.path.join(d, MEMORY_REL)
        if os.path.isfile(a) and os.path.isfile(m):
            return a, m, "compiled rules in " + os.path.relpath(d, root)
        tried.append(d)
    if not rules_dir:
        a = architectures or os.path.join(root, "rules", "ai-toolkit", "architectures.yaml")
        m = memory or os.path.join(root, "rules", "memory.yaml")
        if os.path.isfile(a) and os.path.isfile(m):
            if importlib.util.find_spec("yaml") is not None:
                return a, m, "rules/*.yaml read with PyYAML (no compiled JSON found)"
            tried.append("rules/*.yaml (PyYAML is not installed)")
    raise RulesError(
        "no compiled rules found; looked in: " + ", ".join(tried) +
        ". Build the project (cmake --build --preset release) or pass --rules-dir / --architectures and --memory."
    )


class Rules:
    """Architectures by arch name and the memory constants, plus where they came from."""

    def __init__(self, architectures_path, memory_path, how):
        load = _load_yaml if architectures_path.endswith((".yaml", ".yml")) else _load_json
        self.architectures_path = architectures_path
        self.memory_path = memory_path
        self.how = how
        self.architectures = {a["arch"]: a for a in load(architectures_path)["architectures"]}
        load = _load_yaml if memory_path.endswith((".yaml", ".yml")) else _load_json
        self.memory = load(memory_path)

    def arch(self, name):
        if name not in self.architectures:
            raise RulesError("architecture '%s' is not in %s" % (name, self.architectures_path))
        return self.architectures[name]

    def denoiser(self, arch_name, variant_label=None):
        """The denoiser fields of an arch, with a variant's overrides applied (as the estimator does)."""
        entry = self.arch(arch_name)
        d = dict(entry["denoiser"])
        if variant_label:
            for v in entry.get("variants") or []:
                if v.get("label") == variant_label:
                    d.update(v.get("denoiser") or {})
                    return d
            raise RulesError("arch '%s' has no variant labelled '%s'" % (arch_name, variant_label))
        return d

    def vae(self, arch_name):
        return dict(self.arch(arch_name)["vae"])

    def vae_constants(self, family):
        for v in self.memory.get("vae") or []:
            if v.get("family") == family:
                return v
        return {}

    def activation_constants(self):
        return dict(self.memory.get("activations") or {})

    def overheads(self):
        return dict(self.memory.get("overheads") or {})


def stream_split(dims_source):
    """(double, single) block counts named in a dims_source such as '19 double + 38 single', or None.

    architectures.yaml keeps one `blocks` total for the estimator; the split between FLUX-style double
    and single blocks is only written in the prose that cites it, so it is read from there.
    """
    m = re.search(r"(\d+)\s+double\s*\+\s*(\d+)\s+single", dims_source or "")
    return (int(m.group(1)), int(m.group(2))) if m else None


def load(rules_dir=None, architectures=None, memory=None):
    return Rules(*locate(rules_dir, architectures, memory))
