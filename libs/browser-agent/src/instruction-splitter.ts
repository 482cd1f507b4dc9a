/**
 * Cuts a masked query (see masked-text.ts) into step-sized chunks: list items, lines, sentences and
 * "then" chains. Conjunctions ("…, and click …") are left to the parser, which knows which verbs
 * start a step.
 */
const LIST_MARKER_RE =
  /^\s*(?:(?:step\s*)?\d{1,3}\s*[.):-](?=\s|$)|step\s+\d{1,3}\b|\(\d{1,3}\)|[-*•·‣▪◦–—]|[a-h][.)](?=\s))\s*/i;
const INLINE_STEP_MARKER_RE = /\s+(?=step\s+\d{1,3}\s*[:.)-])/gi;
/** A Markdown task box ("[ ] Click Save", "[x] …") before a step. */
const TASK_BOX_RE = /^\[[ xX]\]\s+/;
/**
 * Lines that hold no step: Markdown headings, rules and fences, comments and Gherkin's section
 * headers ("Scenario: …"). A "Note: …" line is not skipped: it may say what is expected, so it is
 * refused as not understood rather than dropped.
 */
const NOT_A_STEP_LINE_RE =
  /^\s*(?:#{1,6}(?:\s|$)|(?:feature|scenario(?:\s+(?:outline|template))?|background|examples|scenarios|rule)\s*:|\/\/|<!--|-->|```|-{3,}\s*$|\*{3,}\s*$)/i;
const SENTENCE_END_RE = /(?<=[.!?;])\s+(?=\S)/;
const ABBREVIATION_RE = /(?:^|\s)(?:e\.g|i\.e|etc|vs|approx|mr|mrs|ms|dr|no|st)\.$/i;
// ", so X" starts a step of its own ("There should be no suggestions, so "Cobol" is not offered");
// ", so that X" is a purpose and stays.
// "… should then read X": "then" after a modal verb is an adverb, not a new step.
const THEN_RE =
  /(?<!\b(?:should|must|will|would|can|could|shall|may|might))(?:\s*,\s*|\s+)(?:and\s+)?(?:then|after\s+that|afterwards|and\s+finally)\b\s*,?\s*|^\s*(?:then|after\s+that|afterwards)\b\s*,?\s*|\s*[,;]\s*so\s+(?!that\b|as\b|far\b|much\b|many\b|long\b)/gi;

// Runs of spaces become one first: patterns that start with \s+ would otherwise rescan a long run
// from each of its characters (quadratic time on a line of 20,000 spaces).
const HORIZONTAL_SPACE_RE = /[^\S\r\n]+/g;

export function splitMaskedQuery(masked: string): string[] {
  return splitMaskedChunks(masked).map((chunk) => chunk.text);
}

/** A chunk of a query, and whether it goes on from the one before ("…, then components"). */
export interface QueryChunk {
  text: string;
  continues: boolean;
}

/** As `splitMaskedQuery`, saying which chunks were cut from the sentence before at a "then". */
export function splitMaskedChunks(masked: string): QueryChunk[] {
  const chunks: QueryChunk[] = [];
  for (const raw of masked.replace(HORIZONTAL_SPACE_RE, ' ').split(/\r\n|\r|\n/)) {
    // A Markdown quote ("> …") is read as its text.
    const line = raw.replace(/^\s*>\s?/, '');
    if (NOT_A_STEP_LINE_RE.test(line)) continue;
    for (const item of splitInlineList(line)) {
      const body = item.replace(LIST_MARKER_RE, '').replace(TASK_BOX_RE, '');
      for (const sentence of splitSentences(body)) {
        for (const [index, part] of sentence.split(THEN_RE).entries()) {
          const cleaned = cleanChunk(part);
          if (cleaned) chunks.push({ text: cleaned, continues: index > 0 });
        }
      }
    }
  }
  return chunks;
}

/** "1. open x 2. click y" on one line, and "Step 1: … Step 2: …". Numbers must follow on. */
function splitInlineList(line: string): string[] {
  const pieces = line.split(INLINE_STEP_MARKER_RE);
  const out: string[] = [];
  for (const piece of pieces) {
    const first = /^\s*(\d{1,3})\s*[.)]\s/.exec(piece);
    if (!first) {
      out.push(piece);
      continue;
    }
    let rest = piece;
    let next = Number(first[1]) + 1;
    for (;;) {
      const marker = new RegExp(`\\s(?=${next}\\s*[.)]\\s)`).exec(rest);
      if (!marker) break;
      out.push(rest.slice(0, marker.index));
      rest = rest.slice(marker.index + 1);
      next += 1;
    }
    out.push(rest);
  }
  return out;
}

function splitSentences(text: string): string[] {
  const parts = text.split(SENTENCE_END_RE);
  const out: string[] = [];
  for (const part of parts) {
    const previous = out.at(-1);
    // Only the end can be an abbreviation: testing all of a growing sentence would be quadratic.
    if (previous !== undefined && ABBREVIATION_RE.test(previous.slice(-10))) {
      out[out.length - 1] = `${previous} ${part}`;
    } else {
      out.push(part);
    }
  }
  return out;
}

function cleanChunk(chunk: string | undefined): string {
  if (!chunk) return '';
  return trimTrailing(chunk.replace(/\s+/g, ' ').replace(/^[\s,;:]+/, ''), ' .!;:,').trim();
}

/** `text` without the trailing characters in `chars` (whitespace counts as a space); linear time. */
export function trimTrailing(text: string, chars: string): string {
  let end = text.length;
  while (end > 0) {
    const c = text[end - 1]!;
    if (!chars.includes(c) && !(chars.includes(' ') && /\s/.test(c))) break;
    end -= 1;
  }
  return text.slice(0, end);
}
