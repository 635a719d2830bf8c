// Shared by the Node tests: where things are, and how to run the CLI.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const sourceDir = process.env.OOMLINT_SOURCE_DIR ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const cli = process.env.OOMLINT_CLI ?? path.join(sourceDir, 'build/release/native/oomlint');
export const wasmDir = process.env.OOMLINT_WASM_DIR ?? path.join(sourceDir, 'build/wasm/wasm');
export const fixture = (name) => path.join(sourceDir, 'tests/fixtures', name);
// ../shared beside the clone (the corpus and calibration set); OOMLINT_SHARED_DIR overrides it.
export const sharedDir = process.env.OOMLINT_SHARED_DIR || path.resolve(sourceDir, '../shared');
// For node:test's `skip` option on a test that reads the shared corpus: false where it is there, else the
// reason, so that the runner reports the test skipped instead of passing it or failing to load the file.
export const sharedSkip = fs.existsSync(path.join(sharedDir, 'corpus')) ? false : `${sharedDir}/corpus is missing`;

export function runCli(args, input, cwd) {
  const result = spawnSync(cli, args, { input, cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '' } });
  if (result.error) throw result.error;
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}
