import type { OutgoingMail } from '@suite/project-runtime';

// The five mails of end-user auth, as plain text with an HTML twin. Every value that comes from a
// user or a project is escaped in the HTML; links are built by the caller from validated parts.

export interface MailProject {
  name: string;
}

/** How much of a user's name a mail shows. */
export const MAIL_NAME_MAX_LENGTH = 50;

/**
 * A user's name as a mail may show it, or null. Anyone can register any address with any name, so
 * the name is the sender's words in the project's mail: it is cut to MAIL_NAME_MAX_LENGTH, loses
 * invisible and direction-changing characters, and is left out when it reads like a link or an
 * address (mail clients turn those into links: a phishing lure in a trusted mail). The HTML is
 * escaped as every value is.
 */
export function nameForMail(name: string | null): string | null {
  if (!name) return null;
  const visible = name
    .normalize('NFKC')
    // Bidirectional overrides and zero-width characters disguise what a name says.
    .replace(/[\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  if (!visible) return null;
  if (/[:/\\@<>]|www\.|\.[a-z]{2,}\b/i.test(visible)) return null;
  return visible.length > MAIL_NAME_MAX_LENGTH ? `${visible.slice(0, MAIL_NAME_MAX_LENGTH - 1)}…` : visible;
}

export function welcomeMail(project: MailProject, to: string, name: string | null): OutgoingMail {
  const shown = nameForMail(name);
  const greeting = shown ? `Hello ${shown},` : 'Hello,';
  const body = `your ${project.name} account (${to}) is ready. You can sign in with your email and password.`;
  return build('welcome', to, `Welcome to ${project.name}`, [greeting, body]);
}

export function magicLinkMail(project: MailProject, to: string, link: string, minutes: number): OutgoingMail {
  return build('magic-link', to, `Your sign-in link for ${project.name}`, [
    `Use this link to sign in to ${project.name}. It works once and expires in ${minutes} minutes:`,
    { link },
    'If you did not ask for it, ignore this mail: nobody can sign in without the link.',
  ]);
}

export function forgotPasswordMail(
  project: MailProject,
  to: string,
  code: string,
  link: string,
  minutes: number,
): OutgoingMail {
  return build('forgot-password', to, `Reset your ${project.name} password`, [
    `Someone asked to reset the password of your ${project.name} account. Open this link to choose a new one:`,
    { link },
    { label: 'Or enter this code:', code },
    `The code works once and expires in ${minutes} minutes. If you did not ask for it, ignore this mail; your password stays as it is.`,
  ]);
}

export function emailChangeMail(
  project: MailProject,
  to: string,
  code: string,
  link: string,
  minutes: number,
): OutgoingMail {
  return build('email-change', to, `Confirm your new email address for ${project.name}`, [
    `Confirm that ${to} should become the email address of your ${project.name} account:`,
    { link },
    { label: 'Or enter this code:', code },
    `The code works once and expires in ${minutes} minutes. If you did not ask for this, ignore this mail.`,
  ]);
}

export function emailChangedMail(project: MailProject, oldAddress: string, newAddress: string): OutgoingMail {
  return build('auth.email-changed', oldAddress, `Your ${project.name} email address was changed`, [
    `The email address of your ${project.name} account was changed from ${oldAddress} to ${newAddress}.`,
    'If you did not make this change, contact the project team at once.',
  ]);
}

type Part = string | { link: string } | { label: string; code: string };

function build(kind: OutgoingMail['kind'], to: string, subject: string, parts: Part[]): OutgoingMail {
  const text = parts
    .map((part) =>
      typeof part === 'string' ? part : 'link' in part ? part.link : `${part.label} ${part.code}`,
    )
    .join('\n\n');
  const html = parts
    .map((part) => {
      if (typeof part === 'string') return `<p>${escapeHtml(part)}</p>`;
      if ('link' in part) return `<p><a href="${escapeHtml(part.link)}">${escapeHtml(part.link)}</a></p>`;
      return `<p>${escapeHtml(part.label)} <code>${escapeHtml(part.code)}</code></p>`;
    })
    .join('\n');
  // The mail log's preview hides the code and the link (they sign the reader in).
  const secrets = parts.flatMap((part) =>
    typeof part === 'string' ? [] : 'link' in part ? [part.link] : [part.code],
  );
  return { kind, to, subject: oneLine(subject), text: `${text}\n`, html, secrets };
}

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Header values must not carry line breaks (header injection). */
function oneLine(value: string): string {
  return value.replace(/[\r\n]+/g, ' ').slice(0, 200);
}
