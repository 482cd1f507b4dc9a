import { TOKEN_PATTERN } from './masked-text.js';
import type { StepBody, TargetRole, TextTransform } from './step-types.js';
import { applyTransforms, splitTransforms } from './text-transforms.js';

/**
 * The clause grammar in front of the phrase rules. People write several actions in one sentence
 * and leave out what the clauses share:
 *
 *   Enter the username "ada" and the password "x1" into the text fields   (shared verb and container)
 *   Type "a" in the first field, "b" in the second                        (shared verb and noun)
 *   Fill in Name with "Ada", Email with "a@b.c" and submit                (shared verb, then a new one)
 *   Select Apple, Kiwi and Plum                                           (one verb, a list of objects)
 *
 * A sentence (masked text: quotes and URLs are single tokens) is read in three passes, each linear
 * in its length:
 *   1. tokens → segments: cut at every comma and "and" (quotes cannot be cut, they are one token);
 *   2. segments → clauses: a segment that starts with a verb starts a clause, the others follow the
 *      clause before them as fragments;
 *   3. each clause is read by the phrase rules: first whole (so "click Terms and Conditions" stays
 *      one name), then, when its fragments say they are clauses of their own (a quoted value, a list
 *      after a verb that takes lists, or a whole that does not read), fragment by fragment with the
 *      verb, the container ("into the text fields") and the noun ("the second" field) carried into
 *      the fragment that lacks it.
 * What the clauses name is remembered across the query (`Discourse`): "it" is the last item named,
 * "the password" the password value given before.
 */

/** A read clause: `masked` is the text the step shows (as written), `body` what it does. */
export interface ReadClause {
  masked: string;
  body?: StepBody;
  /** More steps read from the same words ("enter the value of Color into the field": read, then type). */
  extra?: StepBody[];
}

export interface ClauseReader {
  /** One clause through the phrase rules (spends the read budget); undefined when none reads it. */
  read(masked: string): StepBody | undefined;
  /** One clause that is several steps ("enter the value of Color from the table into the field"). */
  readSteps(masked: string): StepBody[] | undefined;
  /** The phrase rules' own fallback: the whole piece, else split where both sides read. */
  readPiece(masked: string): ReadClause[];
}

/** One piece of a sentence between commas and "and"s, with where it sits in the sentence. */
interface Segment {
  text: string;
  start: number;
  end: number;
  verb: boolean;
}

/** Verbs that start a clause. The phrase rules know more forms; these are the ones people chain. */
const CLAUSE_VERBS =
  '(?:open|go|visit|navigate|browse|click|double[- ]?click|right[- ]?click|tap|press|hit|type|enter|fill|input|write|clear|select|choose|pick|check|uncheck|tick|untick|hover|scroll|wait|reload|refresh|verify|assert|expect|ensure|confirm|make sure|submit|focus|delete|remove|change|rename|edit|set|mark|toggle|turn|switch|copy|paste|remember|store|save|apply|continue|send|proceed|publish|update|register|checkout|finish|agree|accept|read|note|add|create|expand|collapse|drag|highlight|attach|upload|log\\s*in|login|sign\\s*in)\\b';
const LEAD_FILLER =
  '(?:(?:please|also|then|now|just|so|finally|next|lastly|first(?:ly)?|and|after(?:wards|\\s+that)?)\\s*,?\\s+)*';
const VERB_START_RE = new RegExp(`^${LEAD_FILLER}${CLAUSE_VERBS}`, 'i');
/** Verbs added here beyond the phrase rules' own list: a clause they start that does not read joins the one before. */
const WEAK_VERB_RE =
  /^(?:(?:please|also|then|now|just|so|finally|next|lastly|and)\s*,?\s+)*(?:change|rename|edit|set|mark|toggle|turn|switch|copy|paste|remember|store|save|apply|continue|send|proceed|publish|update|register|checkout|finish|agree|accept|read|note|add|create|log\s*in|login|sign\s*in)\b/i;
/** A commit verb alone ("save", "apply"): the name of a button when it follows a click. */
const BARE_COMMIT_RE = /^(?:save|apply|continue|send|proceed|publish|update|register|checkout|finish)$/i;
/** A click on a bare name ("Click Save"), which a commit verb after "and" may go on. */
const CLICK_NAME_RE = new RegExp(
  `^${LEAD_FILLER}(?:double[- ]?|right[- ]?)?(?:click|tap|press|hit)(?:\\s+on)?\\s+(?!(?:the|a|an|on|at)\\s)[\\p{L}\\p{N}][^\\s\uE000]*(?:\\s+[^\\s\uE000]+){0,2}$`,
  'iu',
);
/** "in the last box write C": a clause that names its field first. */
const IN_FIELD_WRITE_RE =
  /^(?:then\s+)?in(?:to)?\s+(?:the\s+)?[^\s,]+(?:\s+[^\s,]+){0,4}?\s+(?:write|type|enter|put|fill\s+in)\s+\S/i;
const FILLER_ONLY_RE =
  /^(?:first(?:ly)?|next|then|finally|lastly|now|also|and|so|ok(?:ay)?|please|afterwards|after that|after)$/i;
/** "In the popup, type …": where the next actions happen, which the locator finds on top anyway. */
const SCENE_ONLY_RE =
  /^(?:then\s+)?(?:in|inside|on)\s+(?:the|this|that)\s+(?:popup|pop-up|dialog|modal|window|form|overlay|panel|drawer|menu|menu ?bar|navigation|nav|sidebar|toolbar)$/i;
const SEPARATOR_RE = /\s*,\s*(?:and\s+)?|\s+and\s+/g;

/** The verb phrase a fragment borrows ("fill in", "type", "click on"). */
const VERB_PHRASE_RE = new RegExp(
  `^${LEAD_FILLER}((?:fill(?:\\s+(?:in|out))?|type|enter|input|write|put|select|choose|pick|check|uncheck|tick|untick|(?:double[- ]?|right[- ]?)?click(?:\\s+on)?|tap(?:\\s+on)?|press|hit|hover(?:\\s+over)?|clear|focus(?:\\s+on)?|delete|remove|toggle|mark|set|change|open|expand|collapse)\\b)`,
  'i',
);
/** Actions whose verb a following bare name borrows, and the verbs that may be borrowed. */
const CARRIED_ACTIONS = new Set<string>(['click', 'check', 'uncheck']);
const CARRIED_VERB_RE = new RegExp(
  `^${LEAD_FILLER}((?:expand|collapse|open|(?:double[- ]?)?click(?:\\s+on)?|tap(?:\\s+on)?|check|uncheck|tick|untick))\\s`,
  'i',
);
const LEAD_FILLER_RE = new RegExp(`^${LEAD_FILLER}`, 'i');
/** A bare name: one to four words, nothing quoted, no clause of its own. */
const BARE_NAME_RE = /^[\p{L}\p{N}][\p{L}\p{N}._-]*(?:\s+[\p{L}\p{N}][\p{L}\p{N}._-]*){0,3}$/u;
/** "that value", "this value", "the same value", "the value read": the value read last. */
const THAT_VALUE_RE =
  /\b(?:that|this|the same|the (?:copied|read|noted|remembered))\s+(?:value|number|code|text)\b/i;
const LIST_VERB_RE = /^(?:select|choose|pick|check|uncheck|tick|untick)$/i;
const TYPING_VERB_RE = /^(?:type|enter|input|write|put|fill(?:\s+in)?)$/i;
/** A fragment that is a value and where it goes: "lovelace in the password box". */
const VALUE_INTO_FIELD_RE = /^\S+(?:\s+\S+){0,3}\s+(?:in|into|inside)\s+the\s+\S/i;

const QUOTE_RE = new RegExp(TOKEN_PATTERN.replace('[qu]', 'q'));
const QUOTE_ONLY_RE = new RegExp(`^${TOKEN_PATTERN.replace('[qu]', 'q')}$`);
/** A shared container at the end of the last fragment: "… into the text fields". */
const TAIL_RE = /\s+((?:into|in|inside|within|on|onto|to|from)\s+(?![^\uE000]*\uE000)[^,]+)$/i;
const PREPOSITION_RE = /\s(?:into|in|inside|within|on|onto|to|from|with|as|for)\s/i;
/** A fragment that names its target only by position: "the second", "the last one", "the 3rd". */
const BARE_ORDINAL_RE =
  /(?:^|\s)((?:the\s+)?(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|last|other|next|\d{1,3}(?:st|nd|rd|th)|(?:second|third)[- ]to[- ]last|next[- ]to[- ]last|penultimate))(?:\s+one)?$/i;

const ROLE_NOUN: Partial<Record<TargetRole, string>> = {
  textbox: 'field',
  checkbox: 'checkbox',
  radio: 'radio button',
  button: 'button',
  link: 'link',
  combobox: 'dropdown',
  listitem: 'item',
  row: 'row',
  cell: 'cell',
  heading: 'heading',
  tab: 'tab',
  switch: 'switch',
  spinbutton: 'spinner',
  slider: 'slider',
  img: 'image',
  option: 'option',
  menuitem: 'menu item',
  searchbox: 'search box',
  columnheader: 'column header',
  treeitem: 'tree item',
  editor: 'editor',
};

/** At most this many fragments of one clause are read one by one (the rest reads whole). */
const MAX_FRAGMENTS = 24;

/** Cuts a sentence into segments at commas and "and"; linear in its length. */
function segmentsOf(sentence: string): Segment[] {
  const out: Segment[] = [];
  let start = 0;
  const push = (end: number) => {
    const raw = sentence.slice(start, end);
    const lead = raw.length - raw.trimStart().length;
    const text = raw.trim();
    if (text)
      out.push({
        text,
        start: start + lead,
        end: start + lead + text.length,
        verb: VERB_START_RE.test(text) || IN_FIELD_WRITE_RE.test(text),
      });
  };
  for (const match of sentence.matchAll(SEPARATOR_RE)) {
    push(match.index);
    start = match.index + match[0].length;
  }
  push(sentence.length);
  return out;
}

/** Segments grouped into clauses: a verb starts one, fragments follow it, filler words lead the next. */
function clausesOf(sentence: string): Segment[][] {
  const clauses: Segment[][] = [];
  let filler: Segment | undefined;
  for (const segment of segmentsOf(sentence)) {
    if (SCENE_ONLY_RE.test(segment.text)) continue;
    if (FILLER_ONLY_RE.test(segment.text)) {
      filler ??= segment;
      continue;
    }
    const lead = filler
      ? { ...segment, start: filler.start, text: sentence.slice(filler.start, segment.end) }
      : segment;
    filler = undefined;
    const last = clauses.at(-1);
    // "Click Save and Continue": a button's name, not a second clause ("… and continue" after typing is).
    const named =
      segment.verb &&
      BARE_COMMIT_RE.test(segment.text) &&
      last?.length === 1 &&
      CLICK_NAME_RE.test(last[0]?.text ?? '');
    if ((segment.verb && !named) || !last) clauses.push([lead]);
    else last.push(lead);
  }
  if (filler) {
    const last = clauses.at(-1);
    if (last) last.push(filler);
    else clauses.push([filler]);
  }
  return clauses;
}

/** How many clauses (steps, before the phrase rules read them) a sentence has. */
export function clauseTexts(sentence: string): string[] {
  return clausesOf(sentence).map((clause) => textOf(sentence, clause));
}

function textOf(sentence: string, clause: readonly Segment[]): string {
  const first = clause[0];
  const last = clause.at(-1);
  return first && last ? sentence.slice(first.start, last.end) : '';
}

/** Reads one sentence (a chunk the splitter made) into steps, in order. */
export function readSentence(sentence: string, reader: ClauseReader, discourse: Discourse): ReadClause[] {
  const results: ReadClause[][] = [];
  let previous: Segment[] | undefined;
  for (const clause of clausesOf(sentence)) {
    const read = readClause(sentence, clause, reader, discourse);
    // "Click Save and update": a verb only this grammar splits at, reading as no step, is part of a name.
    if (previous && read.some((r) => !r.body) && WEAK_VERB_RE.test(clause[0]?.text ?? '')) {
      const merged = [...previous, ...clause];
      const again = readClause(sentence, merged, reader, discourse);
      if (again.every((r) => r.body)) {
        results[results.length - 1] = again;
        noteAll(again, discourse);
        previous = merged;
        continue;
      }
    }
    noteAll(read, discourse);
    results.push(read);
    previous = clause;
  }
  return results.flat();
}

function noteAll(read: readonly ReadClause[], discourse: Discourse): void {
  for (const r of read) if (r.body) discourse.note(r.masked, r.body);
}

function readClause(
  sentence: string,
  clause: readonly Segment[],
  reader: ClauseReader,
  discourse: Discourse,
): ReadClause[] {
  const whole = textOf(sentence, clause);
  if (clause.length === 1) return [readOne(whole, whole, reader, discourse) ?? { masked: whole }];
  const fragments = clause.slice(1);
  const wholeRead = readOne(whole, whole, reader, discourse);
  // A reading that made several steps of the whole clause read its list itself ("add "A" and "B"").
  if (wholeRead?.extra?.length) return [wholeRead];
  const verb = VERB_PHRASE_RE.exec(clause[0]?.text ?? '')?.[1];
  const wantsSplit =
    !wholeRead ||
    fragments.some((f) => QUOTE_RE.test(f.text)) ||
    (verb !== undefined && isList(verb, fragments, clause[0]?.text ?? '')) ||
    // "Type ada in the username box and lovelace in the password box": a value and its field each.
    (verb !== undefined &&
      TYPING_VERB_RE.test(verb) &&
      fragments.some((f) => VALUE_INTO_FIELD_RE.test(f.text)));
  if (wantsSplit && clause.length <= MAX_FRAGMENTS + 1) {
    const split = readFragments(clause, verb, reader, discourse);
    if (split) return split;
  }
  if (wholeRead) return [wholeRead];
  return reader.readPiece(whole);
}

/**
 * "Select Apple, Kiwi and Plum", "select Apple and Kiwi": a list after a verb that takes one. Two
 * unquoted items after "check" stay one name ("Check the Terms and conditions checkbox"), as does a
 * list that ends in a kind of control.
 */
function isList(verb: string, fragments: readonly Segment[], head = ''): boolean {
  if (!LIST_VERB_RE.test(verb)) return false;
  if (fragments.some((f) => PREPOSITION_RE.test(` ${f.text} `))) return false;
  // "Tick the newsletter box and the terms box": each part names its own control.
  const eachNamed =
    CONTROL_NOUN_END_RE.test(head) && fragments.every((f) => CONTROL_NOUN_END_RE.test(f.text));
  if (CONTROL_NOUN_END_RE.test(fragments.at(-1)?.text ?? '') && !eachNamed) return false;
  return eachNamed || fragments.length >= 2 || /^(?:select|choose|pick)$/i.test(verb);
}
const CONTROL_NOUN_END_RE =
  /\b(?:check ?box(?:es)?|tick ?box(?:es)?|box(?:es)?|buttons?|radio(?: buttons?)?|options?|switch(?:es)?|toggles?)$/i;

/** Each segment as a clause of its own, borrowing what it lacks from the others; undefined if one does not read. */
function readFragments(
  clause: readonly Segment[],
  verb: string | undefined,
  reader: ClauseReader,
  discourse: Discourse,
): ReadClause[] | undefined {
  const tail = TAIL_RE.exec(clause.at(-1)?.text ?? '')?.[1];
  const listVerb = verb !== undefined && LIST_VERB_RE.test(verb) ? verb : undefined;
  const out: ReadClause[] = [];
  let previous: StepBody | undefined;
  for (const [index, segment] of clause.entries()) {
    const own = segment.text;
    // A lone quote after a clause with no verb to lend ("the table shows "Ada" and "Grace"") is
    // part of that clause: the whole reads it.
    if (index > 0 && !verb && QUOTE_ONLY_RE.test(own)) return undefined;
    const borrowed = index === 0 || !verb ? own : `${verb} ${own}`;
    const candidates: string[] = [];
    // "Select Apple, Kiwi and Plum": each a check step by its label.
    // "Select "Food" and "Hiking" in Interests": options of the list named at the end, not checkboxes.
    const choosingIn = tail !== undefined && /^(?:select|choose|pick)$/i.test(listVerb ?? '');
    if (listVerb && !choosingIn && !PREPOSITION_RE.test(` ${own} `)) {
      const item = index === 0 ? own.slice((VERB_PHRASE_RE.exec(own)?.[0] ?? '').length).trim() : own;
      const read = item ? listItem(listVerb, item, reader) : undefined;
      if (read) {
        out.push({ masked: own, body: read });
        previous = read;
        continue;
      }
    }
    // "… "b" in the second": the position alone names the same kind of thing as before.
    const ordinal = BARE_ORDINAL_RE.exec(borrowed);
    const noun =
      previous && 'target' in previous
        ? previous.target && ROLE_NOUN[previous.target.role ?? 'textbox']
        : undefined;
    if (ordinal?.[1] && noun)
      candidates.push(`${borrowed.slice(0, ordinal.index)} ${ordinal[1]} ${noun}`.trim());
    // A lone quote among fragments is an object of the clause's verb, never a step of its own.
    if (index > 0 && !VERB_START_RE.test(own) && !QUOTE_ONLY_RE.test(own)) candidates.push(own);
    candidates.push(borrowed);
    if (tail && index < clause.length - 1 && !PREPOSITION_RE.test(` ${own} `)) {
      if (choosingIn) candidates.unshift(`${borrowed} ${tail}`);
      else candidates.push(`${borrowed} ${tail}`);
    }
    let read: ReadClause | undefined;
    for (const text of [...new Set(candidates)]) {
      read = readOne(own, text, reader, discourse);
      if (read) break;
    }
    if (!read) return undefined;
    out.push(read);
    previous = read.body;
  }
  return out;
}

function listItem(verb: string, item: string, reader: ClauseReader): StepBody | undefined {
  const body = reader.read(`${/^un/i.test(verb) ? 'uncheck' : 'check'} ${item}`);
  return body && (body.action === 'check' || body.action === 'uncheck') ? body : undefined;
}

/** Reads `text` (shown as `shown`), resolving "it", named values and "in lower case" when needed. */
function readOne(
  shown: string,
  text: string,
  reader: ClauseReader,
  discourse: Discourse,
): ReadClause | undefined {
  const split = splitTransforms(text);
  const tries = split.transforms.length > 0 ? [split, { text, transforms: [] }] : [split];
  for (const { text: clause, transforms } of tries) {
    for (const variant of discourse.readings(clause)) {
      const many = reader
        .readSteps(variant)
        ?.map((b) => (b.action === 'type' ? withTransforms(b, transforms) : b));
      if (many?.[0] && many.every((b) => b !== undefined))
        return { masked: shown, body: many[0], extra: many.slice(1) as StepBody[] };
      const read = reader.read(variant);
      const body = read && withTransforms(discourse.narrow(discourse.resolve(read)), transforms);
      if (body && discourse.accepts(body)) return { masked: shown, body };
    }
  }
  return undefined;
}

/** A clause's transforms on what it types: now for a value written, at run time for one read. */
function withTransforms(body: StepBody, transforms: readonly TextTransform[]): StepBody | undefined {
  if (transforms.length === 0) return body;
  if (body.action === 'type')
    return body.valueFrom === undefined
      ? { ...body, value: applyTransforms(body.value, transforms) }
      : { ...body, transforms: [...(body.transforms ?? []), ...transforms] };
  if (body.action === 'readValue')
    return { ...body, transforms: [...(body.transforms ?? []), ...transforms] };
  return undefined;
}

const PRONOUN_RE = /\b(?:it|them)\b/i;
const ONE_RE =
  /\b((?:first|second|third|fourth|fifth|last|next|other|\d{1,3}(?:st|nd|rd|th)|(?:second|third|next)[- ]to[- ]last))\s+one\b/i;
/** "the password", "my email": a value named by what it is, typed earlier in the test. */
const VALUE_REF_RE = /^(?:the|my|your|our|same|that)\s+(?:same\s+)?([a-z][\w-]*(?:\s[a-z][\w-]*){0,2})$/i;
const NAMED_QUOTE_RE = new RegExp(
  `(?:^|\\s)(?:the\\s+|my\\s+|your\\s+|a\\s+)?([a-z][a-z-]*(?:\\s[a-z][a-z-]*)?)\\s+(${TOKEN_PATTERN.replace('[qu]', 'q')})`,
  'gi',
);
const GENERIC_WORDS =
  /^(?:type|enter|input|write|put|fill|in|the|text|value|with|and|into|to|as|click|check|select|press)$/i;

/**
 * What the test has named so far: the last item acted on ("it") and values by what they are ("the
 * password"). Readings of a clause are tried plain first, so a phrase rule that understands "it"
 * itself ("change it to …", the field with the caret) keeps it.
 */
export class Discourse {
  /** The quote token of the item last named. */
  private item: string | undefined;
  private readonly values = new Map<string, string>();
  /** Names of values read from the page ("ORDER", "order number"), for the steps that type them. */
  private readonly kept = new Set<string>();
  /** What kind of thing the last target was ("field"), for "the second one". */
  private noun: string | undefined;
  /** The name of the value read last ("code"), for "that value". */
  private lastKept: string | undefined;
  /** A value typed without quotes ("write Oslo"), for "it" when no quoted item was named. */
  private typed: string | undefined;
  /** The verb of the last clause when it was a click-like action ("expand"), for a bare name next. */
  private verb: string | undefined;

  constructor(private readonly quoteValue: (token: string) => string | undefined) {}

  /** The clause as written, then with "it" as the last item and "the X" as the value named X. */
  *readings(text: string): Generator<string> {
    // "Expand src, then components", "click "Try it out" and then "Execute"": a bare name that goes
    // on from an action is the same action on it (before any other reading of a lone quote).
    const bare = text.replace(LEAD_FILLER_RE, '').trim();
    const borrowed =
      this.verb && (BARE_NAME_RE.test(bare) || QUOTE_ONLY_RE.test(bare)) && !VERB_START_RE.test(bare)
        ? `${this.verb} ${bare}`
        : undefined;
    if (borrowed) yield borrowed;
    yield text;
    if (this.item && PRONOUN_RE.test(text)) yield text.replace(PRONOUN_RE, this.item);
    // "In City write Oslo and choose it": the value typed without quotes.
    else if (this.typed && PRONOUN_RE.test(text)) yield text.replace(PRONOUN_RE, this.typed);
    // "Read the Code from the table, then enter that value in "Answer"": the value last read.
    if (this.lastKept && /^[\w-]+$/.test(this.lastKept) && THAT_VALUE_RE.test(text))
      yield text.replace(THAT_VALUE_RE, this.lastKept);
    if (this.noun && ONE_RE.test(text)) yield text.replace(ONE_RE, `$1 ${this.noun}`);
    const ref =
      /^(\S+(?:\s+(?:in|out))?)\s+((?:the|my|your|our|same|that)\s+[a-z][\w -]*?)(\s+(?:into|in|to|on)\s+.+)$/i.exec(
        text,
      );
    if (ref?.[1] && ref[2] && ref[3]) {
      const token = this.valueFor(ref[2]);
      if (token) {
        this.refKind = VALUE_REF_RE.exec(ref[2].trim())?.[1]?.toLowerCase();
        yield `${ref[1]} ${token}${ref[3]}`;
        this.refKind = undefined;
      }
    }
  }

  /** What the value being read was named by ("password" in "type the password into …"), during `readings`. */
  private refKind: string | undefined;

  /**
   * "Type the password into both fields": the fields are the password fields (by their input type:
   * a "Confirm password" field is named otherwise), not every field of the form.
   */
  narrow(body: StepBody): StepBody {
    if (
      body.action !== 'type' ||
      !body.target?.all ||
      body.target.name ||
      !this.refKind?.includes('password')
    )
      return body;
    const { role: _role, ...target } = body.target;
    return { ...body, target: { ...target, name: 'input[type="password"]' } };
  }

  /** "Type ORDER into …", "type the order number into …": the value a step read earlier. */
  resolve(body: StepBody): StepBody {
    if (body.action !== 'type' || body.valueFrom !== undefined || !body.value) return body;
    const key = this.kept.has(body.value)
      ? body.value
      : VALUE_REF_RE.exec(body.value)?.[1]?.toLowerCase().trim();
    if (key === undefined || !this.kept.has(key)) return body;
    return { ...body, value: '', valueFrom: key };
  }

  /** A typed value that names an earlier value ("the password") must have been given: else it is unknown. */
  accepts(body: StepBody): boolean {
    return !(body.action === 'type' && body.target && VALUE_REF_RE.test(body.value));
  }

  private valueFor(phrase: string): string | undefined {
    const key = VALUE_REF_RE.exec(phrase.trim())?.[1]?.toLowerCase().trim();
    if (!key) return undefined;
    return this.values.get(key) ?? this.values.get(key.split(' ').at(-1) ?? key);
  }

  /** A new sentence starts: it borrows the last verb only when it goes on from the one before. */
  goesOn(continues: boolean): void {
    if (!continues) this.verb = undefined;
  }

  /** Remembers what an understood clause named. */
  note(masked: string, body: StepBody): void {
    this.verb = CARRIED_ACTIONS.has(body.action) ? CARRIED_VERB_RE.exec(masked)?.[1] : undefined;
    if (body.action === 'readValue') {
      this.kept.add(body.name);
      this.lastKept = body.name;
    }
    const role = 'target' in body ? body.target?.role : undefined;
    if (role) this.noun = ROLE_NOUN[role];
    for (const match of masked.matchAll(NAMED_QUOTE_RE)) {
      const words = match[1]?.toLowerCase();
      if (!words || !match[2] || words.split(' ').some((w) => GENERIC_WORDS.test(w))) continue;
      this.values.set(words, match[2]);
      this.values.set(words.split(' ').at(-1) ?? words, match[2]);
    }
    const quotes = [...masked.matchAll(new RegExp(TOKEN_PATTERN.replace('[qu]', 'q'), 'g'))].map((m) => m[0]);
    const token = (value: string | undefined) =>
      value === undefined ? undefined : quotes.find((q) => this.quoteValue(q) === value);
    if (body.action === 'type') {
      const value = token(body.value);
      const field = body.target?.name.toLowerCase().trim();
      if (value && field && /^[a-z][\w -]{0,30}$/.test(field)) {
        this.values.set(field, value);
        this.values.set(field.split(' ').at(-1) ?? field, value);
      }
      if (value) this.item = value;
      this.typed =
        !value && /^[\p{L}\p{N}][\p{L}\p{N} .'-]{0,40}$/u.test(body.value) ? body.value : undefined;
      return;
    }
    if ('target' in body && body.target) {
      const named = token(body.target.near) ?? token(body.target.name);
      if (named) this.item = named;
    }
  }
}

export function isQuoteOnly(text: string): boolean {
  return QUOTE_ONLY_RE.test(text.trim());
}
