import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { neutralizeCell } from '../../../shared/domain/exports/export';

describe('CSV injection', () => {
  it.each(['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx'])('prefixes %j with a quote', (cell) => {
    expect(neutralizeCell(cell)).toBe(`'${cell}`);
  });

  it('leaves every other cell as it is', () => {
    fc.assert(
      fc.property(
        fc.string().filter((s) => !/^[=+\-@\t\r]/.test(s)),
        (cell) => {
          expect(neutralizeCell(cell)).toBe(cell);
        },
      ),
    );
  });
});
