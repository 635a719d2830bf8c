#!/usr/bin/env python3
"""Formats extract-trainer-args.py's JSON as the `scripts:` and `groups:` blocks of rules/sd-scripts.yaml or
rules/musubi-tuner.yaml (the header, `recognise:` and the GUI tables are written by hand).

usage: trainer-rules-yaml.py ARGS.json MAP.json > blocks.yaml
  MAP.json: {"flux_train_network.py": ["flux", "lora"], "wan_train_network.py": ["wan21", "lora", [["t2v-14B", "wan21"], …]], …}
            (script → arch in rules/ai-toolkit/architectures.yaml, training role, optional --task → arch)
"""
import json
import sys


def q(v):
    return json.dumps(v, ensure_ascii=False)


def body(args_json, scripts):
    d = json.load(open(args_json))
    out = ['scripts:']
    for s, meta in scripts.items():
        parts = [f'name: {q(s)}', f'arch: {q(meta[0])}', f'training: {meta[1]}', 'groups: [' + ', '.join(q(g) for g in d['scripts'][s]) + ']']
        if len(meta) > 2:
            parts.append('task_archs: [' + ', '.join('{task: %s, arch: %s}' % (q(t), q(a)) for t, a in meta[2]) + ']')
        out.append('  - {' + ', '.join(parts) + '}')
    out.append('groups:')
    for g, args in sorted(d['groups'].items()):
        if not args:
            out.append(f'  - {{id: {q(g)}, args: []}}')
            continue
        out.append(f'  - id: {q(g)}')
        out.append('    args:')
        seen = set()
        for a in args:
            if a['name'] in seen:
                continue
            seen.add(a['name'])
            p = [f'name: {q(a["name"])}']
            if 'aliases' in a:
                p.append('aliases: [' + ', '.join(q(x) for x in a['aliases']) + ']')
            if a.get('flag'):
                p.append('flag: true')
            if a.get('list'):
                p.append('list: true')
            if 'default' in a:
                p.append(f'default: {q(a["default"])}')
            out.append('      - {' + ', '.join(p) + '}')
    return '\n'.join(out) + '\n'


if __name__ == '__main__':
    sys.stdout.write(body(sys.argv[1], json.load(open(sys.argv[2]))))
