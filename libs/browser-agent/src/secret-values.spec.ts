import { describe, expect, it } from '@jest/globals';
import { parseInstructions } from './instruction-parser.js';
import { SecretValues, secretFieldValues, secretsFromMetadata } from './secret-values.js';

describe('secrets', () => {
  it('redacts values to placeholders and reveals placeholders, longest value first', () => {
    const secrets = new SecretValues({ short: 'abc', long: 'abcdef' });
    expect(secrets.redact('x abcdef y abc')).toBe('x {{secret.long}} y {{secret.short}}');
    expect(secrets.reveal('{{secret.short}}!')).toBe('abc!');
  });

  it('reveals a step where it reaches the page, never in the text the log shows', () => {
    const secrets = new SecretValues({ password: 'hunter2' });
    const [step] = parseInstructions('type "{{secret.password}}" into the Password field').steps;
    if (!step) throw new Error('not parsed');
    expect(secrets.revealStep(step)).toMatchObject({
      value: 'hunter2',
      text: 'type "{{secret.password}}" into the Password field',
    });
  });

  it('reads string secrets from job metadata and ignores the rest', () => {
    expect(secretsFromMetadata({ secrets: { password: 'p', pin: 1234 } })).toEqual({ password: 'p' });
    expect(secretsFromMetadata({ secrets: ['p'] })).toEqual({});
    expect(secretsFromMetadata(undefined)).toEqual({});
  });

  it('finds the values typed into fields that look secret', () => {
    const { steps } = parseInstructions(
      'type "ada" into the Email field, then type "s3cret" into the Password field',
    );
    expect(secretFieldValues(steps)).toEqual(['s3cret']);
  });
});
