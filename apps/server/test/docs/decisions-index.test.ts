import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * docs/decisions/README.md indexes every record with the date and status the record itself states,
 * and a status that points at another record points at one that exists.
 */

const folder = new URL('../../../../docs/decisions/', import.meta.url);
const records = readdirSync(folder)
  .filter((name) => /^\d{3}-.+\.md$/.test(name))
  .sort();

interface Entry {
  number: string;
  title: string;
  file: string;
  date: string;
  status: string;
}

/** Title, date and status as the record writes them: `# NNN Title`, then `Date: … · Status: …`. */
function fromRecord(file: string): Entry {
  const [heading, , stamp] = readFileSync(new URL(file, folder), 'utf8').split('\n');
  const title = /^# (\d{3}) (.+)$/.exec(heading ?? '');
  const line = /^Date: (\d{4}-\d{2}-\d{2}) · Status: (.+)$/.exec(stamp ?? '');
  if (!title || !line) throw new Error(`${file} must start with "# NNN Title", a blank line, then "Date: YYYY-MM-DD · Status: …"`);
  return { number: title[1]!, title: title[2]!, file, date: line[1]!, status: line[2]! };
}

/** The index's rows: `| NNN | [Title](file) | date | status |`. */
function fromIndex(): Entry[] {
  return readFileSync(new URL('README.md', folder), 'utf8')
    .split('\n')
    .map((line) => /^\| (\d{3}) \| \[(.+)\]\(([^)]+)\) \| ([^|]+) \| (.+) \|$/.exec(line))
    .filter((row) => row !== null)
    .map((row) => ({ number: row[1]!, title: row[2]!, file: row[3]!, date: row[4]!.trim(), status: row[5]!.trim() }));
}

describe('docs/decisions/README.md', () => {
  const rows = fromIndex();

  it('has one row per record, in order, with the title, date and status the record states', () => {
    expect(records.length, 'records in docs/decisions/').toBeGreaterThan(0);
    expect(rows).toEqual(records.map(fromRecord));
  });

  it('points every superseded or amended record at one that exists', () => {
    const numbers = new Set(records.map((file) => file.slice(0, 3)));
    const pointers = rows.flatMap((row) => [...row.status.matchAll(/\b(?:superseded by|amended by|amends|and) (\d{3})\b/g)].map((match) => ({ from: row.number, to: match[1]! })));
    expect(pointers.length, 'statuses that name another record').toBeGreaterThan(0);
    expect(pointers.filter((pointer) => !numbers.has(pointer.to))).toEqual([]);
  });

  it('is either accepted or superseded by a later record', () => {
    const wrong = rows.filter((row) => {
      const superseded = /^superseded by (\d{3})\b/.exec(row.status);
      if (superseded) return Number(superseded[1]) <= Number(row.number);
      return !row.status.startsWith('accepted');
    });
    expect(wrong).toEqual([]);
  });
});
