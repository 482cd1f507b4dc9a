/**
 * How ctx.db turns Postgres's text output into JSON values, column type by column type: numbers,
 * booleans, JSON and arrays of them as JSON; int8 as a number when exact (else text); numeric as
 * text; timestamps and dates as ISO 8601; bytea as base64; every other type as Postgres writes it.
 */

type Parser = (text: string) => unknown;
/** node-postgres's own parser of a type (its defaults: pg-types). */
export type DefaultParsers = (oid: number) => Parser;

// Types whose node-postgres parser already gives the JSON value wanted.
const AS_PARSED = new Set([
  16, // bool
  21, // int2
  23, // int4
  26, // oid
  700, // float4
  701, // float8
  114, // json
  3802, // jsonb
  199, // json[]
  3807, // jsonb[]
  1000, // bool[]
  1005, // int2[]
  1007, // int4[]
  1028, // oid[]
  1021, // float4[]
  1022, // float8[]
  1009, // text[]
  1015, // varchar[]
  1014, // bpchar[]
  1008, // regproc[]
  2951, // uuid[]
  1040, // macaddr[]
  1041, // inet[]
  651, // cidr[]
  791, // money[]
  1183, // time[]
  1270, // timetz[]
  3907, // numrange[]
]);
const TEXT_ARRAY = 1009;
const TIMESTAMPTZ = 1184;
const BYTEA = 17;

const TIMESTAMP = /^(\d{4,})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)(\.\d+)?$/;
const DATE = /^\d{4}-\d\d-\d\d$/;

function int8(text: string): number | string {
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : text;
}

/** `timestamp` (without time zone) read as UTC, like Prisma did; infinity and BC dates stay text. */
function timestamp(text: string): string {
  const m = TIMESTAMP.exec(text);
  if (!m) return text;
  const ms = m[7] ? Math.floor(Number(m[7]) * 1000) : 0;
  const date = new Date(
    Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]), ms),
  );
  if (Number(m[1]) < 100) date.setUTCFullYear(Number(m[1]));
  return Number.isNaN(date.getTime()) ? text : date.toISOString();
}

function date(text: string): string {
  return DATE.test(text) ? `${text}T00:00:00.000Z` : text;
}

function iso(value: unknown, text: string): unknown {
  return value instanceof Date && !Number.isNaN(value.getTime()) ? value.toISOString() : text;
}

/** The parser of each column type, for node-postgres's `types.getTypeParser`. */
export function jsonTypeParser(defaults: DefaultParsers): (oid: number) => Parser {
  const textArray = defaults(TEXT_ARRAY) as (text: string) => string[] | null;
  const arrayOf =
    (parse: (text: string) => unknown): Parser =>
    (text) =>
      textArray(text)?.map((item) => (item === null ? null : parse(item)));
  const timestamptz = defaults(TIMESTAMPTZ);
  const bytea = defaults(BYTEA) as (text: string) => Buffer;
  const special: Record<number, Parser> = {
    20: int8,
    1016: arrayOf(int8),
    1231: textArray, // numeric[] as text, like numeric
    1082: date,
    1182: arrayOf(date),
    1114: timestamp,
    1115: arrayOf(timestamp),
    [TIMESTAMPTZ]: (text) => iso(timestamptz(text), text),
    1185: arrayOf((text) => iso(timestamptz(text), text)),
    [BYTEA]: (text) => bytea(text).toString('base64'),
    1001: arrayOf((text) => bytea(text).toString('base64')),
  };
  return (oid) => special[oid] ?? (AS_PARSED.has(oid) ? defaults(oid) : asText);
}

const asText: Parser = (text) => text;
