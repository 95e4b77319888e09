#!/usr/bin/env node
/**
 * Runs a TypeScript command-line script (`bin/admin.ts`, `bin/job.ts`, `bin/stripe-webhook.ts`) from a bundle that esbuild
 * makes at first use into `.local/cli/`, and again whenever one of the script's own source files
 * (or package-lock.json, or this file) is newer than the bundle. `npm run admin` and `npm run job`
 * go through it:
 *
 *   node bin/cli.mjs admin merchants list
 *
 * Why: run through tsx, every call started two Node processes and compiled (or checked the cache
 * of) the whole import graph, 1.3-2.1 s of CPU before the first line of the script; the bundle is
 * one file that Node loads in a few hundred milliseconds. Plain JavaScript, so nothing compiles it.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SCRIPTS = ['admin', 'job', 'stripe-webhook'];

const mtime = (path) => {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
};

/** Whether the bundle is missing or older than any of its own inputs (node_modules: through package-lock.json). */
function isStale(bundle, metaFile) {
  if (!existsSync(bundle) || !existsSync(metaFile)) return true;
  const built = mtime(bundle);
  let inputs;
  try {
    inputs = Object.keys(JSON.parse(readFileSync(metaFile, 'utf8')).inputs ?? {});
  } catch {
    return true;
  }
  const watched = [
    ...inputs.filter((input) => !input.includes('node_modules/')).map((input) => join(ROOT, input)),
    join(ROOT, 'package-lock.json'),
    fileURLToPath(import.meta.url),
  ];
  return watched.some((path) => mtime(path) > built);
}

async function build(script, bundle, metaFile) {
  const { build: esbuild } = await import('esbuild');
  mkdirSync(dirname(bundle), { recursive: true });
  const temporary = `${bundle}.${process.pid}.tmp`;
  const result = await esbuild({
    absWorkingDir: ROOT,
    entryPoints: [join('bin', `${script}.ts`)],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    outfile: temporary,
    metafile: true,
    logLevel: 'error',
  });
  // Each writer renames its own complete files into place, so concurrent first runs never see a half-written bundle.
  writeFileSync(`${metaFile}.${process.pid}.tmp`, JSON.stringify({ inputs: result.metafile.inputs }));
  renameSync(`${metaFile}.${process.pid}.tmp`, metaFile);
  renameSync(temporary, bundle);
}

const [script, ...args] = process.argv.slice(2);
if (!SCRIPTS.includes(script ?? '')) {
  process.stderr.write(`cli: unknown script "${script ?? ''}" (one of ${SCRIPTS.join(', ')})\n`);
  process.exit(2);
}
const bundle = join(ROOT, '.local', 'cli', `${script}.cjs`);
const metaFile = join(ROOT, '.local', 'cli', `${script}.meta.json`);
if (isStale(bundle, metaFile)) await build(script, bundle, metaFile);
// The bundle reads its arguments from process.argv.slice(2), as it would run on its own.
process.argv = [process.argv[0] ?? process.execPath, bundle, ...args];
createRequire(import.meta.url)(bundle);
