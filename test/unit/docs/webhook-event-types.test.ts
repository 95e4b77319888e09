import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type CatalogueEntry, EVENT_CATALOGUE } from '#core/webhooks/events';

const DOC = readFileSync(join(resolve(__dirname, '..', '..', '..'), 'docs', 'webhooks.md'), 'utf8');

interface Row {
  readonly a: string | undefined;
  readonly b: string | undefined;
  readonly when: string;
  readonly fields: string[];
  readonly recorded: string;
}

/** The rows of the table under `## Event types` in docs/webhooks.md (B's "(same)" is A's name). */
function documentedRows(): Row[] {
  const section = DOC.split(/^## /m).find((part) => part.startsWith('Event types\n')) ?? '';
  const names = (cell: string): string[] => [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1] as string);
  return section
    .split('\n')
    .filter((line) => line.startsWith('| ') && !line.startsWith('| A name'))
    .map((line) => line.split('|').map((cell) => cell.trim()))
    .map(([, a = '', b = '', when = '', fields = '', recorded = '']) => {
      const aName = names(a)[0];
      return { a: aName, b: b === '(same)' ? aName : names(b)[0], when, fields: names(fields), recorded };
    });
}

const label = (entry: CatalogueEntry): string => `${entry.a ?? '—'} / ${entry.b ?? '—'}`;

describe('docs/webhooks.md "Event types"', () => {
  const rows = documentedRows();

  it('has one row per catalogue entry, in catalogue order, with its A and B names', () => {
    // Assess
    expect(rows.map((row) => `${row.a ?? '—'} / ${row.b ?? '—'}`)).toEqual(EVENT_CATALOGUE.map(label));
  });

  it.each(EVENT_CATALOGUE.map((entry) => [label(entry), entry] as const))('documents %s with its object fields and whether it is recorded', (_, entry) => {
    // Prepare
    const row = rows.find((candidate) => candidate.a === entry.a && candidate.b === entry.b);
    // Assess
    expect(row).toBeDefined();
    expect(row?.when.length).toBeGreaterThan(10);
    expect([...(row?.fields ?? [])].sort()).toEqual(Object.keys(entry.sampleObject()).sort());
    expect(row?.recorded).toBe(entry.recorded ? 'yes' : 'not yet');
  });
});
