import { describe, expect, it } from '@jest/globals';
import { jsonTypeParser } from './sql-values.js';

// Stand-ins for node-postgres's own parsers of the few types the host builds on.
const defaults = (oid: number) => {
  if (oid === 1009)
    return (text: string) =>
      text
        .slice(1, -1)
        .split(',')
        .map((s) => (s === 'NULL' ? null : s));
  if (oid === 17) return (text: string) => Buffer.from(text.slice(2), 'hex');
  if (oid === 1184) return (text: string) => new Date(text.replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00'));
  if (oid === 23) return (text: string) => parseInt(text, 10);
  return (text: string) => `default:${text}`;
};
const parse = (oid: number, text: string) => jsonTypeParser(defaults)(oid)(text);

describe('jsonTypeParser', () => {
  it('gives int8 as a number when exact, else as text', () => {
    expect(parse(20, '12345678901')).toBe(12345678901);
    expect(parse(20, '9223372036854775807')).toBe('9223372036854775807');
    expect(parse(1016, '{1,NULL,9223372036854775807}')).toEqual([1, null, '9223372036854775807']);
  });

  it('gives timestamps and dates as ISO 8601 (timestamp without zone read as UTC)', () => {
    expect(parse(1114, '2024-03-01 10:20:30.123456')).toBe('2024-03-01T10:20:30.123Z');
    expect(parse(1114, 'infinity')).toBe('infinity');
    expect(parse(1082, '2024-03-01')).toBe('2024-03-01T00:00:00.000Z');
    expect(parse(1184, '2024-03-01 10:20:30+02')).toBe('2024-03-01T08:20:30.000Z');
    expect(parse(1184, '-infinity')).toBe('-infinity');
  });

  it('gives bytea as base64, numeric as text, known types parsed, others as Postgres writes them', () => {
    expect(parse(17, '\\x0102ff')).toBe('AQL/');
    expect(parse(1700, '1.50')).toBe('1.50');
    expect(parse(23, '42')).toBe(42);
    expect(parse(1186, '01:00:00')).toBe('01:00:00');
    expect(parse(600, '(1,2)')).toBe('(1,2)');
  });
});
