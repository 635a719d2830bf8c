#!/usr/bin/env python3
"""Scores oomlint on the seed thread's claims (tests/webui-seed/claims.yaml): each claim's profile is
checked with the CLI against the thread's card and the outcome compared with the claim's label.

A report, not a test (tests/webui_seed_test.cpp checks the same claims). `fits` / `oom` claims agree when
the verdict is that word (borderline agrees with neither); the flag descriptions' claims are read from
the phases' components.

usage: scripts/webui-seed-score.py [--cli build/release/native/oomlint]
"""
import argparse, json, os, subprocess, sys, tempfile

import yaml

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODELS = ("text encoder weights", "UNet weights", "VAE weights")


def report_of(cli, profile, gpu):
    with tempfile.NamedTemporaryFile("w", suffix=".yaml", delete=False) as f:
        f.write(profile)
    try:
        out = subprocess.run([cli, "check", "--format", "json", "--gpu", gpu, "--fail-on", "never", f.name],
                             capture_output=True, text=True)
    finally:
        os.unlink(f.name)
    return json.loads(out.stdout)["files"][0]["estimate"]


def component(phase, name):
    return sum(c["bytes"] for c in phase["components"] if c["name"] == name)


def outcome(cli, claim, gpu):
    """(what oomlint says, agrees?)"""
    est = report_of(cli, claim["profile"], gpu)
    said = "%s %.2f GiB in %s" % (est["verdict"], est["peak_bytes"] / 2**30, est["peak_phase"])
    expect = claim["expect"]
    if expect in ("fits", "oom"):
        return said, est["verdict"] == expect
    if expect == "one_of_te_unet_vae":
        worst = max(sum(component(p, m) > 0 for m in MODELS) for p in est["phases"])
        return "at most %d of TE/UNet/VAE resident in a phase" % worst, worst <= 1
    if expect == "unet_one_module":
        plain = report_of(cli, "\n".join(l for l in claim["profile"].splitlines() if "args:" not in l) + "\n", gpu)
        denoise = lambda e: next(p for p in e["phases"] if p["name"] == "denoise")
        part, whole = component(denoise(est), "UNet weights"), component(denoise(plain), "UNet weights")
        return "denoise holds %.2f of %.2f GiB of UNet weights" % (part / 2**30, whole / 2**30), 0 < part < whole
    sys.exit("unknown expectation " + expect)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", default=os.path.join(root, "build/release/native/oomlint"))
    args = ap.parse_args()
    data = yaml.safe_load(open(os.path.join(root, "tests/webui-seed/claims.yaml")))
    right = 0
    for claim in data["claims"]:
        said, agrees = outcome(args.cli, claim, data["gpu"])
        right += agrees
        print("%s\t%s\t%s\t%s" % (claim["id"], claim["expect"], said, "agrees" if agrees else "differs"))
    print("# %d of %d claims agree" % (right, len(data["claims"])))


main()
