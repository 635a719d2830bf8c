// What the module's bytes are: its sections, and its function bodies summed by what they belong to.
// Needs function names, so a build linked with --profiling-funcs (docs/performance.md, "The web page"):
//   cmake --preset wasm -B build/wasm-names -DCMAKE_EXE_LINKER_FLAGS_MINSIZEREL="-Oz -flto --profiling-funcs"
//   cmake --build build/wasm-names --target oomlint_wasm -j2
//   node wasm/code-sizes.mjs build/wasm-names/wasm/oomlint.wasm [REGEX [N]]   (REGEX: list the N largest matching functions)
import fs from 'node:fs';
import zlib from 'node:zlib';

const bytes = fs.readFileSync(process.argv[2]);
let at = 8; // after the magic number and version
const uleb = () => {
  let value = 0;
  let shift = 0;
  let byte;
  do {
    byte = bytes[at++];
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
  } while (byte & 0x80);
  return value;
};
const skipLimits = () => {
  const flags = bytes[at++];
  uleb();
  if (flags & 1) uleb();
};

const sectionNames = ['custom', 'type', 'import', 'function', 'table', 'memory', 'global', 'export', 'start', 'element', 'code', 'data', 'data count', 'tag'];
const sections = [];
const bodies = [];
const names = new Map();
let importedFunctions = 0;
while (at < bytes.length) {
  const id = bytes[at++];
  const size = uleb();
  const end = at + size;
  let label = sectionNames[id] ?? `section ${id}`;
  if (id === 0) {
    const length = uleb();
    label = `custom "${bytes.subarray(at, at + length).toString()}"`;
    at += length;
    if (label === 'custom "name"') {
      while (at < end) {
        const sub = bytes[at++];
        const subEnd = uleb() + at;
        if (sub === 1) {
          for (let count = uleb(); count > 0; count--) {
            const index = uleb();
            const length = uleb();
            names.set(index, bytes.subarray(at, at + length).toString());
            at += length;
          }
        }
        at = subEnd;
      }
    }
  } else if (id === 2) {
    for (let count = uleb(); count > 0; count--) {
      at += uleb(); // module
      at += uleb(); // field
      const kind = bytes[at++];
      if (kind === 0) {
        uleb();
        importedFunctions++;
      } else if (kind === 1) {
        at++;
        skipLimits();
      } else if (kind === 2) skipLimits();
      else if (kind === 3) at += 2;
      else if (kind === 4) {
        at++;
        uleb();
      }
    }
  } else if (id === 10) {
    for (let count = uleb(); count > 0; count--) {
      const length = uleb();
      bodies.push({ size: length, name: '' });
      at += length;
    }
  }
  sections.push([label, size, zlib.gzipSync(bytes.subarray(end - size, end), { level: 9 }).length]);
  at = end;
}
// The name section comes after the code: name the bodies now (function indices count imports first).
bodies.forEach((body, i) => {
  body.name = names.get(importedFunctions + i) ?? '(no name)';
});

// Each section gzipped on its own (gzip -9, as the page's figures): what a change to the code or to
// the data weighs in the download.
console.log('sections (bytes, and gzipped alone):');
for (const [label, size, gzipped] of sections) console.log(`  ${label.padEnd(20)} ${String(size).padStart(9)} ${String(gzipped).padStart(9)}`);
if (!names.size) {
  console.log('no function names: link with --profiling-funcs to see the code by group');
  process.exit(0);
}

// The first pattern a function's (demangled) name matches decides its group.
const groups = [
  ['YAML reader', /\bYaml(Scanner|Parser)\b/],
  ['nlohmann::json', /nlohmann::/],
  ['iostreams and locales', /basic_(i|o|io)stream|basic_ios\b|streambuf|stringbuf|locale|ctype|num_get|num_put|codecvt|collate|money_|moneypunct|time_get|time_put|messages|numpunct|ios_base|stdinbuf|stdoutbuf|filebuf|mbsrtowcs|wcsrtombs|mbrtowc|wcrtomb/],
  ['Embind', /emscripten::|embind/i],
  ['malloc', /^(malloc|free|realloc|calloc|memalign|aligned_alloc|emmalloc|dlmalloc|sbrk)/],
  ['printf, scanf, float parsing', /printf|scanf|floatscan|intscan|strto[dfl]|fmt_fp|pop_arg|__shgetc|__shlim/],
  ['libc++ strings and containers', /std::__2::(basic_string|vector|__tree|__hash_table|map|unordered_map|deque|__split_buffer)/],
  ['exceptions', /__cxa_|__cxxabiv1|_Unwind|__gxx_personality/],
  ['oomlint', /oomlint/],
];
const sums = new Map([...groups.map(([name]) => [name, 0]), ['the rest', 0]]);
for (const { size, name } of bodies) {
  const group = groups.find(([, pattern]) => pattern.test(name))?.[0] ?? 'the rest';
  sums.set(group, sums.get(group) + size);
}
console.log(`\nfunction bodies by group (bytes, ${bodies.length} functions):`);
for (const [group, size] of [...sums].sort((a, b) => b[1] - a[1])) console.log(`  ${group.padEnd(32)} ${String(size).padStart(9)}`);

if (process.argv[3]) {
  const pattern = new RegExp(process.argv[3]);
  const count = Number(process.argv[4]) || 40;
  console.log(`\nthe ${count} largest functions matching /${process.argv[3]}/:`);
  for (const { size, name } of bodies.filter((b) => pattern.test(b.name)).sort((a, b) => b.size - a.size).slice(0, count)) {
    console.log(`  ${String(size).padStart(7)} ${name.slice(0, 160)}`);
  }
}
