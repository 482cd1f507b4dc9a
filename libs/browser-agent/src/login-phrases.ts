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

/**
 * Signing up in one sentence: "Create an account for Tom Baker with tom@example.com and the
 * password "S3cret!" on the Free plan, accepting the terms". The steps a person takes: the name
 * (a first and a last name, or one name field), the email, the password, the plan, the terms box,
 * then the form submitted. Each part is optional but the account and at least an email or name.
 */
const SIGN_UP_RE = new RegExp(
  `^(?:create|open|register|make|set\\s+up)\\s+(?:an?\\s+|the\\s+|a\\s+new\\s+)?(?:new\\s+)?(?:account|profile|user)` +
    `(?:\\s+for\\s+(?<name>\\p{Lu}[\\p{L}'’-]*(?:\\s+\\p{Lu}[\\p{L}'’-]*){0,2}))?` +
    `(?:\\s+(?:with|using)\\s+(?:the\\s+)?(?:e-?mail(?:\\s+address)?\\s+)?(?<email>${Q}|[^\\s@"']+@[^\\s"']+))?` +
    `(?:\\s*,?\\s+(?:and|with)\\s+(?:the\\s+|a\\s+)?password\\s+(?<password>${VALUE}))?` +
    `(?:\\s*,?\\s+(?:on|with)\\s+the\\s+(?<plan>\\p{L}[\\p{L}\\d+-]*(?:\\s+\\p{L}[\\p{L}\\d+-]*)?)\\s+plan)?` +
    `(?:\\s*,?\\s+(?:and\\s+)?(?:accepting|agreeing\\s+to|accept(?:ing)?)\\s+the\\s+(?<terms>terms(?:\\s+(?:of\\s+(?:service|use)|and\\s+conditions))?|conditions))?$`,
  'iu',
);

export function signUpSteps(s: string, tokens: readonly MaskToken[]): StepBody[] | undefined {
  const groups = SIGN_UP_RE.exec(s)?.groups;
  if (!groups || (!groups.name && !groups.email)) return undefined;
  const steps: StepBody[] = [];
  if (groups.name) {
    const [first, ...rest] = groups.name.split(/\s+/);
    if (first && rest.length > 0) {
      steps.push({ action: 'type', value: first, target: { name: 'first name' } });
      steps.push({ action: 'type', value: rest.join(' '), target: { name: 'last name' } });
    } else steps.push({ action: 'type', value: groups.name, target: { name: 'name' } });
  }
  const email = groups.email ? valueOf(groups.email, tokens) : undefined;
  if (groups.email && !email) return undefined;
  if (email) steps.push({ action: 'type', value: email, target: { name: 'email' } });
  const password = groups.password ? valueOf(groups.password, tokens) : undefined;
  if (groups.password && !password) return undefined;
  if (password)
    steps.push({ action: 'type', value: password, target: { name: 'password', role: 'textbox' } });
  if (groups.plan) steps.push({ action: 'check', target: { name: groups.plan, role: 'radio' } });
  if (groups.terms) steps.push({ action: 'check', target: { name: 'terms', role: 'checkbox' } });
  steps.push({ action: 'submit' });
  return steps;
}
