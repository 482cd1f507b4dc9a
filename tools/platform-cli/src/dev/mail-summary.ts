const LINK = /https?:\/\/[^\s<>"')]+/g;
const CODE_LINE = /\bcode:?\s+(\S+)\s*$/i;

/** What a developer needs of a mail: who it is for, its subject, its links and codes. */
export function mailSummary(mail: { to: string; subject: string; text: string }): string {
  const lines = [`to ${mail.to}: ${mail.subject}`];
  for (const link of new Set(mail.text.match(LINK) ?? [])) lines.push(`  link: ${link}`);
  for (const line of mail.text.split('\n')) {
    const code = CODE_LINE.exec(line.trim())?.[1];
    if (code) lines.push(`  code: ${code}`);
  }
  return lines.join('\n');
}
