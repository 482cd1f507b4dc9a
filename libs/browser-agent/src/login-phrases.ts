import { type MaskToken, quotedValue, TOKEN_PATTERN, unmask } from './masked-text.js';
import type { StepBody } from './step-types.js';

/**
 * Signing in as people write it in one clause: "log in as ada with the password lovelace", "sign
 * in with the email "a@b.io" and password "x1"", "login as admin / secret". Three steps, as a
 * person does them: the user name (or email) into its field, the password into the password
 * field, then the form submitted (its one submit button, or Enter).
 */

const Q = TOKEN_PATTERN.replace('[qu]', 'q');
const VALUE = `(${Q}|[^\\s"']+)`;
const LOGIN_RE = new RegExp(
  `^(?:log\\s*in|login|sign\\s*in|signin)\\s+(?:to\\s+the\\s+(?:app|site|account)\\s+)?(?:as|with(?:\\s+the)?\\s+(?:user(?:\\s*name)?|e-?mail(?:\\s+address)?|account|login))\\s+${VALUE}\\s*(?:,\\s*|\\s+)(?:(?:and|with|using|,)\\s+)?(?:the\\s+|a\\s+)?(?:password|pass|pw|pwd)\\s+(?:of\\s+)?${VALUE}$`,
  'i',
);

/** "Log in with ada@example.com / secret123", "login as admin / secret": user / password. */
const SLASH_RE = new RegExp(
  `^(?:log\\s*in|login|sign\\s*in|signin)\\s+(?:to\\s+the\\s+(?:app|site|account)\\s+)?(?:as|with|using)\\s+${VALUE}\\s*\\/\\s*${VALUE}$`,
  'i',
);

function valueOf(text: string, tokens: readonly MaskToken[]): string | undefined {
  const value = quotedValue(text, tokens) ?? unmask(text, tokens).trim();
  return value && !/\uE000/.test(value) ? value : undefined;
}

/** The steps of a one-clause sign-in, or undefined when the clause is not one. */
export function loginSteps(s: string, tokens: readonly MaskToken[]): StepBody[] | undefined {
  const match = LOGIN_RE.exec(s) ?? SLASH_RE.exec(s);
  if (!match?.[1] || !match[4]) return undefined;
  const user = valueOf(match[1], tokens);
  const password = valueOf(match[4], tokens);
  if (!user || !password) return undefined;
  return [
    {
      action: 'type',
      value: user,
      target: { name: user.includes('@') ? 'email' : 'username', role: 'textbox' },
    },
    { action: 'type', value: password, target: { name: 'password', role: 'textbox' } },
    { action: 'submit' },
  ];
}
