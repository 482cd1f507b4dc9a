import type { TextTransform } from './step-types.js';

/**
 * "Type "ADA" in lower case", "… without spaces", "… reversed", "… trimmed": the phrase that asks
 * for a transform, as the clause grammar strips it from a typing clause. Linear: one scan.
 */
const TRANSFORM_PHRASE_RE =
  /\s+(?:(?:in|into|as|to|using)\s+)?(?:all\s+)?(lower[- ]?case|small letters|upper[- ]?case|capital letters|capitals|all caps|caps)(?:\s+letters)?(?=\s+(?:into|in|to|on)\s|$)|\s+(without|with no)\s+(?:any\s+)?(?:spaces|whitespace|blanks)(?=\s+(?:into|in|to|on)\s|$)|\s+(reversed|backwards|in reverse(?:\s+order)?)(?=\s+(?:into|in|to|on)\s|$)|\s+(trimmed|with(?:out)? (?:the )?(?:leading and trailing|surrounding) (?:spaces|whitespace) (?:removed|trimmed))(?=\s+(?:into|in|to|on)\s|$)/gi;
const TYPING_RE = /^(?:type|enter|input|write|put|fill|paste|key in)\b/i;

/** The clause without its transform phrases, and the transforms in the order written. */
export function splitTransforms(clause: string): { text: string; transforms: TextTransform[] } {
  if (!TYPING_RE.test(clause.trim())) return { text: clause, transforms: [] };
  const transforms: TextTransform[] = [];
  const text = clause.replace(
    TRANSFORM_PHRASE_RE,
    (_m, kase?: string, spaces?: string, reverse?: string, trim?: string) => {
      if (kase) transforms.push(/^(?:lower|small)/i.test(kase) ? 'lowercase' : 'uppercase');
      else if (spaces) transforms.push('noSpaces');
      else if (reverse) transforms.push('reversed');
      else if (trim) transforms.push('trimmed');
      return '';
    },
  );
  return { text: text.trim(), transforms };
}

export function applyTransforms(value: string, transforms: readonly TextTransform[] = []): string {
  let out = value;
  for (const transform of transforms) {
    if (transform === 'lowercase') out = out.toLowerCase();
    else if (transform === 'uppercase') out = out.toUpperCase();
    else if (transform === 'noSpaces') out = out.replace(/\s+/g, '');
    else if (transform === 'reversed') out = [...out].reverse().join('');
    else if (transform.startsWith('word:')) out = nthWord(out, Number(transform.slice(5)));
    else out = out.trim();
  }
  return out;
}

/** The same transforms as a JavaScript expression on `expr`, for exported scripts. */
export function transformExpression(expr: string, transforms: readonly TextTransform[] = []): string {
  let out = expr;
  for (const transform of transforms) {
    if (transform === 'lowercase') out = `${out}.toLowerCase()`;
    else if (transform === 'uppercase') out = `${out}.toUpperCase()`;
    else if (transform === 'noSpaces') out = `${out}.replace(/\\s+/g, '')`;
    else if (transform === 'reversed') out = `[...${out}].reverse().join('')`;
    else if (transform.startsWith('word:'))
      out = `${out}.split(/\\s+/).map((w) => w.replace(/^[^\\p{L}\\p{N}]+|[^\\p{L}\\p{N}]+$/gu, '')).filter(Boolean).at(${Number(transform.slice(5)) > 0 ? Number(transform.slice(5)) - 1 : Number(transform.slice(5))}) ?? ''`;
    else out = `${out}.trim()`;
  }
  return out;
}

/** The Nth word of a text (1-based; negative counts from the end), without the punctuation around it. */
export function nthWord(text: string, n: number): string {
  const words = text
    .split(/\s+/)
    .map((w) => w.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ''))
    .filter(Boolean);
  return (n > 0 ? words[n - 1] : words[words.length + n]) ?? '';
}
