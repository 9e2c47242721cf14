import { isStorableNumber, MAX_PROBLEMS, NUMBER_RULE, type JsonPath, type JsonProblem } from './free-form';

/**
 * Numbers that `JSON.parse` changed on the way in: `1e309` becomes Infinity, `9007199254740993` becomes
 * 9007199254740992, `1e-400` becomes 0, `0.10000000000000000001` becomes 0.1. The parsed value cannot tell,
 * so this reads the body text: each number as written is compared, as an exact decimal, with the shortest
 * decimal of the double it parsed to (what the API stores and answers). Any difference, or a number the
 * storage cannot hold, is a problem at that number's path. Reads the text once, with its own stack.
 */
export const inexactNumbers = (text: string): JsonProblem[] => {
  interface Frame {
    array: boolean;
    index: number;
    key?: string;
    expectKey: boolean;
  }
  const frames: Frame[] = [];
  const problems: JsonProblem[] = [];
  const pathHere = (): JsonPath => frames.map((f) => (f.array ? f.index : f.key!));
  const NUMBER = /-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/y;
  let i = 0;
  while (i < text.length && problems.length < MAX_PROBLEMS) {
    const c = text[i]!;
    const top = frames[frames.length - 1];
    if (c === '{' || c === '[') {
      frames.push({ array: c === '[', index: 0, expectKey: c === '{' });
      i++;
    } else if (c === '}' || c === ']') {
      frames.pop();
      i++;
    } else if (c === ',') {
      if (top?.array) top.index++;
      else if (top) top.expectKey = true;
      i++;
    } else if (c === ':') {
      top!.expectKey = false;
      i++;
    } else if (c === '"') {
      let end = i + 1;
      while (end < text.length && text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      if (top && !top.array && top.expectKey) top.key = JSON.parse(text.slice(i, end + 1)) as string;
      i = end + 1;
    } else if (c === '-' || (c >= '0' && c <= '9')) {
      NUMBER.lastIndex = i;
      const written = NUMBER.exec(text)![0];
      const parsed = Number(written);
      if (!isStorableNumber(parsed) || exactDecimal(written) !== exactDecimal(String(parsed)))
        problems.push({ path: pathHere(), message: NUMBER_RULE });
      i += written.length;
    } else i++;
  }
  return problems;
};

/** A decimal numeral reduced to `<sign><digits>e<exponent>` with no leading or trailing zeros: equal numerals, equal values. */
const exactDecimal = (numeral: string): string => {
  const [, sign, whole, fraction = '', exponent = '0'] = /^(-?)([0-9]+)(?:\.([0-9]+))?(?:[eE]([+-]?[0-9]+))?$/.exec(numeral)!;
  const digits = `${whole}${fraction}`.replace(/^0+/, '');
  if (digits === '') return '0';
  const significant = digits.replace(/0+$/, '');
  return `${sign}${significant}e${BigInt(exponent) - BigInt(fraction.length) + BigInt(digits.length - significant.length)}`;
};
