import { EffectError, isRecord } from './effect-error.js';

const MAX_SQL_LENGTH = 100_000;
const MAX_PARAMS = 1_000;

/**
 * How ctx.db runs a statement:
 * - `transaction-control`: refused (each call is a transaction of its own);
 * - `vacuum`: outside a transaction (Postgres requires it), in a read-only session;
 * - `frees`: DELETE, TRUNCATE, DROP: allowed over the storage quota as long as the database does
 *   not grow;
 * - `other`: everything else.
 */
export type StatementKind = 'transaction-control' | 'vacuum' | 'frees' | 'other';

export interface ProjectStatement {
  sql: string;
  params: unknown[];
  kind: StatementKind;
}

/** ctx.db.query's arguments, checked: one statement of SQL and its parameters. */
export function parseStatement(input: unknown): ProjectStatement {
  const sql = isRecord(input) ? input.sql : undefined;
  const params = isRecord(input) ? (input.params ?? []) : undefined;
  if (typeof sql !== 'string' || sql.trim() === '') {
    throw new EffectError('ctx.db.query: sql must be a non-empty string');
  }
  if (sql.length > MAX_SQL_LENGTH) {
    throw new EffectError(`ctx.db.query: sql is limited to ${MAX_SQL_LENGTH} characters`);
  }
  if (hasSeveralStatements(sql)) {
    throw new EffectError('ctx.db.query: one statement per call (pass values as $1, $2... parameters)');
  }
  if (!Array.isArray(params)) throw new EffectError('ctx.db.query: params must be an array');
  if (params.length > MAX_PARAMS) {
    throw new EffectError(`ctx.db.query: at most ${MAX_PARAMS} parameters`);
  }
  const kind = statementKind(sql);
  if (kind === 'transaction-control') {
    throw new EffectError(
      'ctx.db.query: BEGIN, COMMIT, ROLLBACK and SAVEPOINT are not available: each call runs in a transaction of its own',
    );
  }
  // Objects and arrays travel as JSON text (cast with $1::jsonb); the rest as they are.
  return {
    sql,
    params: params.map((p) => (p !== null && typeof p === 'object' ? JSON.stringify(p) : p)),
    kind,
  };
}

/**
 * True when a `;` separates statements: outside quotes ('...', "...", $tag$...$tag$) and comments.
 * Only for a clear message: the statement goes over the extended protocol, where Postgres itself
 * refuses a second one.
 */
export function hasSeveralStatements(sql: string): boolean {
  const skip =
    /'(?:[^']|'')*'|"(?:[^"]|"")*"|--[^\n]*|\/\*[\s\S]*?\*\/|(\$(?:[A-Za-z_][A-Za-z_0-9]*)?\$)[\s\S]*?\1/y;
  for (let i = 0; i < sql.length;) {
    skip.lastIndex = i;
    if ('\'"$-/'.includes(sql[i]!) && skip.test(sql)) {
      i = skip.lastIndex;
      continue;
    }
    if (sql[i] === ';' && sql.slice(i + 1).trim() !== '') return true;
    i++;
  }
  return false;
}

const TRANSACTION_CONTROL = new Set([
  'begin',
  'start',
  'commit',
  'end',
  'rollback',
  'abort',
  'savepoint',
  'release',
]);
const FREES = new Set(['delete', 'truncate', 'drop']);

export function statementKind(sql: string): StatementKind {
  const [first, second] = leadingWords(sql, 2);
  if (!first) return 'other';
  if (TRANSACTION_CONTROL.has(first) || (first === 'prepare' && second === 'transaction')) {
    return 'transaction-control';
  }
  if (first === 'vacuum') return 'vacuum';
  if (FREES.has(first)) return 'frees';
  return 'other';
}

/**
 * The first `count` keywords of a statement, lower-case, after whitespace and comments (block
 * comments nest, as in Postgres's lexer). Stops at anything that is not a plain word.
 */
export function leadingWords(sql: string, count: number): string[] {
  const words: string[] = [];
  let i = 0;
  while (words.length < count && i < sql.length) {
    const c = sql[i]!;
    if (' \t\n\r\f\v'.includes(c)) {
      i++;
    } else if (sql.startsWith('--', i)) {
      while (i < sql.length && sql[i] !== '\n' && sql[i] !== '\r') i++;
    } else if (sql.startsWith('/*', i)) {
      let depth = 0;
      do {
        if (sql.startsWith('/*', i)) {
          depth++;
          i += 2;
        } else if (sql.startsWith('*/', i)) {
          depth--;
          i += 2;
        } else {
          i++;
        }
      } while (depth > 0 && i < sql.length);
      if (depth > 0) break;
    } else {
      const word = /^[A-Za-z_\u0080-\uffff][A-Za-z0-9_$\u0080-\uffff]*/.exec(sql.slice(i, i + 64))?.[0];
      if (!word) break;
      words.push(word.toLowerCase());
      i += word.length;
    }
  }
  return words;
}
