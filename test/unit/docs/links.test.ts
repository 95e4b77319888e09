import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..', '..');
const documents = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => join('docs', name)),
];

/** Relative Markdown link targets (`[text](path#anchor)`), without external URLs. */
const linksOf = (text: string): string[] =>
  [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => match[1] as string)
    .filter((target) => !/^[a-z]+:/i.test(target) && !target.startsWith('#'))
    .map((target) => target.replace(/#.*$/, ''));

describe.each(documents)('%s', (document) => {
  const text = readFileSync(join(ROOT, document), 'utf8');

  it('links only to files that exist inside the repository', () => {
    // Act
    const outside = linksOf(text).filter((target) => {
      const path = resolve(dirname(join(ROOT, document)), target);
      return relative(ROOT, path).startsWith('..') || !existsSync(path);
    });
    // Assess
    expect(outside).toEqual([]);
  });

  it('names no file outside the repository (no ../shared)', () => {
    // Assess
    expect(text).not.toMatch(/\.\.\/shared|`\.\.\//);
  });
});
