/**
 * `npm test`'s Jest run, as shards run one after the other (`JEST_SHARDS`, default 3), each a Jest
 * process of its own, so each starts a fresh DynamoDB Local (the integration project's global
 * setup). DynamoDB Local slows down as it accumulates a run's tables and stream records, deleted
 * tables included: in one run of every file, `retry-engine.test.ts` took 130 s as the 78th file
 * against 8 s alone. Every shard runs whatever the others did; the exit code is the first non-zero
 * one. Arguments go to every shard (`npm test -- --selectProjects unit`).
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

const jest = createRequire(import.meta.url).resolve('jest/bin/jest');

const shards = Number(process.env.JEST_SHARDS ?? 3);
if (!Number.isInteger(shards) || shards < 1) {
  process.stderr.write(`JEST_SHARDS must be a positive integer, not ${process.env.JEST_SHARDS}\n`);
  process.exit(2);
}
const args = process.argv.slice(2);
const results = [];
for (let shard = 1; shard <= shards; shard += 1) {
  process.stdout.write(`\n== Jest shard ${shard}/${shards}\n`);
  const started = Date.now();
  const run = spawnSync(process.execPath, [jest, ...(shards > 1 ? [`--shard=${shard}/${shards}`] : []), '--passWithNoTests', ...args], { stdio: 'inherit' });
  const status = run.status ?? 1;
  results.push({ shard, status, seconds: Math.round((Date.now() - started) / 1000) });
}
for (const { shard, status, seconds } of results)
  process.stdout.write(`Jest shard ${shard}/${shards}: ${status === 0 ? 'passed' : `FAILED (exit ${status})`} in ${seconds} s\n`);
process.exit(results.find((result) => result.status !== 0)?.status ?? 0);
