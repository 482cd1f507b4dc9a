import type { Attempt } from '../run/run-result.js';

export interface Attachment {
  name: string;
  contentType: string;
  path: string;
}

/** The job page, video and failure screenshot of an attempt, as report attachments. */
export function attachmentsOf(attempt: Attempt | undefined): Attachment[] {
  if (!attempt) return [];
  const links = attempt.links;
  return [
    ...(links.page ? [{ name: 'job page', contentType: 'text/html', path: links.page }] : []),
    ...(links.video ? [{ name: 'video', contentType: 'video/mp4', path: links.video }] : []),
    ...(links.screenshot ? [{ name: 'screenshot', contentType: 'image/png', path: links.screenshot }] : []),
  ];
}
