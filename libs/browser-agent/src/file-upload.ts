import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { ElementHandle } from 'puppeteer-core';
import type { DomElement } from './page-dom.js';
import { disposeQuietly, findElement, type StepContext } from './step-context.js';
import { StepFailedError } from './run-limits.js';
import type { UploadStep } from './step-types.js';

/**
 * "Upload a file named "cv.pdf"": the runner makes a small file of that name and puts it into the
 * page's file input. The file's content is made here, by its extension (a one-page PDF, a 1×1 PNG,
 * a line of text); nothing of the machine the worker runs on is ever read or sent, whatever the
 * test names (a test is someone else's input: "upload /etc/passwd" is not understood, and a name is
 * only ever a base name).
 */
export async function upload(ctx: StepContext, step: UploadStep): Promise<string> {
  const name = safeFileName(step.fileName);
  const input = await fileInputOf(ctx, step);
  try {
    const path = await madeFile(ctx.page, name);
    // Puppeteer sets the files and fires the input's `input` and `change` events, as a picker does.
    await (input.handle as unknown as { uploadFile(...paths: string[]): Promise<void> }).uploadFile(path);
    return `chose the file "${name}" in ${input.describe}`;
  } finally {
    await disposeQuietly(input.handle);
  }
}

/** A base name of at most 120 characters of letters, digits, spaces, dots, dashes and underscores. */
export function safeFileName(written: string): string {
  const name = basename(written.replace(/\\/g, '/')).trim();
  if (!name || name === '.' || name === '..' || name.length > 120 || !/^[\p{L}\p{N} ._-]+$/u.test(name))
    throw new StepFailedError(`"${written}" is not a file name the runner can make up`);
  return name;
}

async function fileInputOf(
  ctx: StepContext,
  step: UploadStep,
): Promise<{ handle: ElementHandle; describe: string }> {
  if (step.target) {
    const found = await findElement(ctx, step.target, { requireVisible: false });
    const input = (await found.handle.evaluateHandle(fileInputNear)).asElement() as ElementHandle | null;
    await disposeQuietly(found.handle);
    if (!input) throw new StepFailedError(`${found.describe} is not a file input and holds none`);
    return { handle: input, describe: found.describe };
  }
  const inputs = await ctx.page.$$('input[type="file"]');
  if (inputs.length === 1 && inputs[0]) return { handle: inputs[0], describe: 'the file input' };
  for (const input of inputs) await disposeQuietly(input);
  throw new StepFailedError(
    inputs.length === 0
      ? 'the page has no file input to upload into'
      : `the page has ${inputs.length} file inputs: say which one, e.g. "upload "cv.pdf" to "Resume""`,
  );
}

/** In the page: the file input `el` is, labels, holds, or sits beside in a small container. */
function fileInputNear(el: DomElement): DomElement | null {
  const isFile = (node: DomElement | null | undefined) =>
    node?.tagName === 'INPUT' && (node.getAttribute('type') ?? '').toLowerCase() === 'file';
  if (isFile(el)) return el;
  const labelled = (el.closest('label') as { control?: DomElement | null } | null)?.control;
  if (isFile(labelled)) return labelled ?? null;
  for (let scope: DomElement | null = el, up = 0; scope && up < 4; scope = scope.parentElement, up++) {
    const inside = Array.from(scope.querySelectorAll('input[type="file" i]'));
    if (inside.length === 1) return inside[0] ?? null;
    if (inside.length > 1) return null;
  }
  return null;
}

const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

function minimalPdf(title: string): Buffer {
  const text = title.replace(/[()\\]/g, '');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 100] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${`BT /F1 12 Tf 20 50 Td (${text}) Tj ET`.length} >>\nstream\nBT /F1 12 Tf 20 50 Td (${text}) Tj ET\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(Buffer.byteLength(body));
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = Buffer.byteLength(body);
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body);
}

/** Content a page accepts for the extension: made up, small, the same on every run. */
export function madeContent(name: string): Buffer {
  const extension = /\.([^.]+)$/.exec(name)?.[1]?.toLowerCase() ?? '';
  if (extension === 'pdf') return minimalPdf(name);
  if (extension === 'png') return PNG_1X1;
  if (extension === 'json') return Buffer.from(`{"file": ${JSON.stringify(name)}}\n`);
  if (extension === 'csv') return Buffer.from('name,value\nexample,1\n');
  return Buffer.from(`A test file named ${name}, made up by the test runner.\n`);
}

/** The folders of made-up files, per page: removed when its run ends (`removeMadeFiles`). */
const madeDirs = new WeakMap<object, string[]>();

/** Removes the files made for `page`'s uploads (the page has read them by the end of its run). */
export async function removeMadeFiles(page: object): Promise<void> {
  const dirs = madeDirs.get(page) ?? [];
  madeDirs.delete(page);
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }).catch(() => undefined)));
}

async function madeFile(page: object, name: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'suite-upload-'));
  madeDirs.set(page, [...(madeDirs.get(page) ?? []), dir]);
  const path = join(dir, name);
  await writeFile(path, madeContent(name), { mode: 0o600 });
  return path;
}
