import { describe, expect, it } from '@jest/globals';
import { hasSeveralStatements, parseStatement, statementKind } from './sql-statement.js';

describe('hasSeveralStatements', () => {
  it('accepts one statement, with or without a final semicolon', () => {
    expect(hasSeveralStatements('SELECT 1')).toBe(false);
    expect(hasSeveralStatements('SELECT $1::int;  \n')).toBe(false);
  });

  it('ignores semicolons inside literals, identifiers, comments and dollar quotes', () => {
    expect(hasSeveralStatements(`SELECT 'a;b', "x;y" FROM t -- c;d\nWHERE b = $1`)).toBe(false);
    expect(hasSeveralStatements('SELECT /* ; */ 1')).toBe(false);
    expect(hasSeveralStatements(`SELECT 'it''s; fine'`)).toBe(false);
    expect(hasSeveralStatements('DO $body$ BEGIN PERFORM 1; END $body$')).toBe(false);
    expect(hasSeveralStatements('SELECT $$a;b$$')).toBe(false);
  });

  it('finds a second statement', () => {
    expect(hasSeveralStatements('SELECT 1; SELECT 2')).toBe(true);
    expect(hasSeveralStatements(`SELECT ';'; DROP TABLE t`)).toBe(true);
    expect(hasSeveralStatements('SELECT $1; DELETE FROM t')).toBe(true);
  });
});

describe('statementKind', () => {
  it('reads the first words after whitespace and comments, nested ones too', () => {
    expect(statementKind('  vacuum full t')).toBe('vacuum');
    expect(statementKind('-- note\n/* a /* b */ c */ VACUUM')).toBe('vacuum');
    expect(statementKind('DELETE FROM t')).toBe('frees');
    expect(statementKind('truncate t')).toBe('frees');
    expect(statementKind('/**/drop table t')).toBe('frees');
    expect(statementKind('SELECT 1')).toBe('other');
  });

  it('never takes a word inside a comment for the statement', () => {
    // Postgres ends the nested comment at the second */: the statement is the INSERT.
    expect(statementKind('/* /* */ VACUUM */ INSERT INTO t VALUES (1)')).toBe('other');
    expect(statementKind('/* unterminated VACUUM')).toBe('other');
    expect(statementKind('vacuum1 t')).toBe('other');
    expect(statementKind('WITH d AS (DELETE FROM t RETURNING *) SELECT 1')).toBe('other');
  });

  it('finds transaction control, which ctx.db refuses with a message', () => {
    for (const sql of [
      'BEGIN',
      'start transaction',
      'COMMIT',
      'end',
      'ROLLBACK',
      'abort',
      'SAVEPOINT a',
      'RELEASE a',
    ]) {
      expect(statementKind(sql)).toBe('transaction-control');
    }
    expect(statementKind("PREPARE TRANSACTION 'x'")).toBe('transaction-control');
    expect(statementKind('PREPARE q AS SELECT 1')).toBe('other');
    expect(() => parseStatement({ sql: '/* x */ commit' })).toThrow(
      'ctx.db.query: BEGIN, COMMIT, ROLLBACK and SAVEPOINT are not available: each call runs in a transaction of its own',
    );
  });
});
