import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * Physical key formats live only in functions/data/keys.ts (and the entity definitions, which call
 * its builders): a key prefix spelled anywhere else under functions/ fails here. The prefixes are
 * read from keys.ts itself (every `XYZ#` its literals start with), so a new one is covered at once.
 */
const ROOT = join(__dirname, '..', '..', '..', '..');
const KEYS_FILE = join(ROOT, 'functions', 'data', 'keys.ts');
const ENTITIES_DIR = join(ROOT, 'functions', 'data', 'entities');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

const keysSource = readFileSync(KEYS_FILE, 'utf8');
const prefixes = [
  ...new Set([...keysSource.matchAll(/[`'"]([A-Z][A-Z0-9_]*)#/g), ...keysSource.matchAll(/\}#([A-Z][A-Z0-9_]*)#/g)].map((m) => m[1] as string)),
];
const literal = new RegExp(`[\`'"](${prefixes.sort((a, b) => b.length - a.length).join('|')})#`);
const isComment = (line: string): boolean => /^\s*(\*|\/\/|\/\*)/.test(line);

describe('key formats', () => {
  it('finds the key prefixes in keys.ts', () => {
    expect(prefixes).toEqual(expect.arrayContaining(['M', 'PAY', 'CUST', 'MSG', 'SUPP', 'IDEM']));
  });

  it('are spelled nowhere under functions/ but in data/keys.ts and data/entities/', () => {
    const leaks = sourceFiles(join(ROOT, 'functions'))
      .filter((file) => file !== KEYS_FILE && !file.startsWith(ENTITIES_DIR))
      .flatMap((file) =>
        readFileSync(file, 'utf8')
          .split('\n')
          .flatMap((line, index) => (!isComment(line) && literal.test(line) ? [`${relative(ROOT, file)}:${index + 1}: ${line.trim()}`] : [])),
      );
    expect(leaks).toEqual([]);
  });
});
