import { describe, expect, it } from '@jest/globals';
import { differsOnlyInCase, saysWhole } from './text-match.js';

describe('saysWhole: a list is not cut short', () => {
  it.each([
    ['You picked: Apple, Kiwi, Plum', 'You picked: Apple, Kiwi, Plum', true],
    ['You picked: Apple, Kiwi, Plum', 'You picked: Apple, Kiwi', false],
    ['You picked: Apple, Kiwi and Plum', 'You picked: Apple, Kiwi', false],
    ['You picked: Apple, Kiwi. Thanks', 'You picked: Apple, Kiwi', true],
    ['answer: Yes, count: 3, level: 0', 'answer: Yes, count: 3', true],
    ['Booked 2011-10-11 at none (born none)', 'Booked 2011-10-11', true],
    ['Status: Saved. Thanks!', 'Saved.', true],
    ['Unsaved', 'saved', false],
    ['Total: 12 items', 'Total: 1', false],
    ['Welcome back, Ada!', 'Welcome back, Ada', true],
  ])('%j says %j: %s', (text, expected, says) => {
    expect(saysWhole(text, expected)).toBe(says);
  });
});

describe('differsOnlyInCase: smart case for text named without a kind', () => {
  it.each([
    [['User: ada'], 'User: ADA', true],
    [['User: ADA'], 'User: ADA', false],
    [['USER: ADA'], 'User: Ada', false],
    [['User: ada'], 'user: ada', false],
    [['Something else'], 'User: ADA', false],
    [['', 'Cobol'], 'COBOL', true],
  ])('%j for %j: %s', (texts, expected, differs) => {
    expect(differsOnlyInCase(texts, expected)).toBe(differs);
  });
});
