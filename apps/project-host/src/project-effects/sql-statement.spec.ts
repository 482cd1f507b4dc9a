import { describe, expect, it } from '@jest/globals';
import { hasSeveralStatements } from './project-database.js';

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
