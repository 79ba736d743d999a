import { describe, expect, it } from 'vitest';
import { describeCsvError, parseCsvRecords } from './catalog-csv.ts';

async function records(pieces: Buffer[]): Promise<string[][]> {
  const out: string[][] = [];
  for await (const record of parseCsvRecords(
    (async function* () {
      yield* pieces;
    })(),
  ))
    out.push(record);
  return out;
}

async function refusal(pieces: Buffer[]): Promise<string | null> {
  try {
    await records(pieces);
    return null;
  } catch (error) {
    return describeCsvError(error);
  }
}

describe('parseCsvRecords over a file in pieces', () => {
  it('reads a character cut between two pieces, and a semicolon header from the first piece', async () => {
    const whole = Buffer.from('\uFEFFsku;name\r\nA-1;Caf\u00e9\r\nA-2;"two\nlines"\r\n');
    const cut = whole.indexOf(0xc3) + 1;
    expect(await records([whole.subarray(0, cut), whole.subarray(cut, cut + 3), Buffer.alloc(0), whole.subarray(cut + 3)])).toEqual([
      ['sku', 'name'],
      ['A-1', 'Café'],
      ['A-2', 'two\nlines'],
    ]);
  });

  it('refuses bytes that are not UTF-8 CSV text in any piece, and a file that ends inside a character', async () => {
    expect(await refusal([Buffer.from('sku,name\n'), Buffer.from([0x41, 0x00, 0x0a])])).toBe('The file holds binary data (NUL bytes), not CSV text.');
    expect(await refusal([Buffer.from('sku,name\nA,'), Buffer.from([0xc3])])).toBe('The file is not UTF-8 text. Save it as "CSV UTF-8" and upload it again.');
    expect(await refusal([Buffer.from([0xff, 0xfe, 0x41, 0x00])])).toBe('The file is UTF-16 text. Save it as "CSV UTF-8" and upload it again.');
    expect(await refusal([Buffer.alloc(0)])).toBe('The file is empty.');
    expect(await refusal([])).toBe('The file is empty.');
  });
});
