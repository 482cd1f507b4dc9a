import { plainTaskSentence } from './task-phrases.js';
import { NUMBER_WORDS } from './text-match.js';
import {
  INSTRUCTION_LIMITS,
  InstructionLimitError,
  ReadBudget,
  stepTooLong,
  tooManySteps,
} from './instruction-limits.js';
import { clauseTexts, type ClauseReader, Discourse, readSentence } from './clause-grammar.js';
import { type QueryChunk, splitMaskedChunks, trimTrailing } from './instruction-splitter.js';
import { parseKeys } from './key-names.js';
import {
  containsQuote,
  FILE_NAME_RE,
  lengthOutsideTokens,
  maskQuery,
  type MaskToken,
  quotedValue,
  TOKEN_PATTERN,
  unmask,
  urlValue,
} from './masked-text.js';
import type {
  CountComparison,
  ElementState,
  MatchMode,
  Step,
  StepBody,
  Target,
  TargetRole,
} from './step-types.js';
import { phraseVariants } from './phrase-variants.js';
import { namedControlStep, saidInOtherWordsStep } from './control-phrase.js';
import { isAssertion } from './step-types.js';
import { TABLE_PHRASINGS, tableAssertion } from './table-phrases.js';
import { EARLY_RULES, LATE_RULES, ordinalListSteps, startsEndsSteps, valueSteps } from './sentence-rules.js';
import { listOnlySteps, todoSteps } from './todo-phrases.js';
import { loginSteps, signUpSteps } from './login-phrases.js';
import { parseTarget } from './target-phrase.js';
import { meansAndPurpose, WIDGET_RULES } from './widget-rules.js';

export interface UnknownStep {
  /** 1-based position in the query, counted together with the understood steps. */
  index: number;
  text: string;
}

export interface ParseResult {
  steps: Step[];
  unknown: UnknownStep[];
}

/** One example per construct, shown to people whose query had steps we could not read. */
export const SUPPORTED_PHRASINGS: string[] = [
  'open https://example.com (also: go to / visit / navigate to localhost:3000/login)',
  'go back / go forward / reload the page',
  'Given I am on localhost:3000/login / When I click Save / Then I should see "Saved" (Gherkin keywords)',
  'click "Sign in" (also: click the Submit button, tap the link Learn more, double-click X, right-click X)',
  'type "jane@example.com" into the email field',
  'fill the "Password" field with "secret"',
  'Username: ada (also: full name = Li Wei, In City write Oslo: a form line, label then value)',
  'clear the search field',
  'press Enter (also: press Tab 3 times, press Ctrl+A, press Escape in the search field)',
  'select "Blue" from the Color dropdown',
  'check the "Remember me" checkbox / uncheck "Subscribe"',
  'hover over the Products menu',
  'focus the email field',
  'scroll down (also: scroll down 500 pixels, scroll to the bottom, scroll to the footer)',
  'submit the form',
  'wait 2 seconds',
  'wait for "Saved" to appear / wait for "Loading" to disappear',
  'wait until the URL contains "/dashboard"',
  'verify the page contains "Welcome" (also: does not contain, I should see "Welcome", Expect "Welcome", "Welcome" is shown)',
  'the title is "Dashboard" (also: contains, starts with, ends with)',
  'the URL ends with "/dashboard" (also: is, contains, starts with)',
  'the Submit button is disabled (also: visible, hidden, enabled, checked, unchecked, focused, empty)',
  'the email field has value "jane@example.com"',
  'the status message contains "Done" (also: has text "Done")',
  'there are 3 "Delete" buttons (also: at least 2 links)',
  'check the checkbox next to "Buy milk" (also: beside, in the row with, for, of: the smallest list item, table row or card holding the text)',
  'click Edit in the row with "Ada Lovelace" / the price of "Blue mug" is "€12" (the cell under the "Price" column)',
  'click the second item / the last row / the first "Delete" button',
  'delete "Walk the dog" (also: remove; clicks the delete, remove, × or trash button in its row)',
  'mark "Buy milk" as done (also: as not done; toggle all; mark all as complete; "Buy milk" is completed)',
  'turn on "Send me news" (also: turn off, switch on, enable: a switch or checkbox named by its label)',
  'double-click "Buy milk" then change it to "Buy bread" (also: edit "Buy milk" to "Buy bread"; press Enter to save)',
  'click the Help link / the x / the close button / the bullet list button (also: text with a click handler, an icon-only ×, a toolbar icon named by its tooltip or class)',
  'type "Nice post" into the comment editor / the search box / the spinner (also: set the slider to 30)',
  'select "Bobine" from the list (also: choose 5ft 9in from the dropdown; pick "Berlin" from the suggestions: native, custom and autocomplete lists)',
  'enter 10/11/2011 as the date / enter 8:04 PM as the time / pick 15 March 2024 in the date picker',
  'select -3 with the spinner / increase the quantity to 4',
  'open File > Export > PDF (also: each menu level is opened in turn)',
  'sort by "Orders" / sort the table by Name descending (also: clicks the header until the column reads that way)',
  'search for "Hello" (also: types into the search box and presses Enter)',
  'replace "Hello World" with "Hi" / select all the text (Ctrl+A) (also: in the focused field or the editor)',
  'close the dialog by clicking the x / close the dialog (also: a means after "by" is the step; a purpose after "to" is left out)',
  'expand Documents in the tree / expand the section below',
  ...TABLE_PHRASINGS,
  'enter the username "ada" and the password "x1" into the text fields and press Log in (also: several actions in one sentence joined by commas, "and", "then", "after that" or ";")',
  'fill in Name with "Ada", Email with "a@b.c" and submit (also: type "a" in the first field, "b" in the second)',
  'select Apple, Kiwi and Plum (also: check "A" and "B"; one check step per label)',
  'click the second-to-last row (also: the 2nd text box, the third checkbox, the last link, the first Delete button in the 2nd row, then the second one)',
  'check all the checkboxes (also: uncheck every item; click Reply on every post by @ada; type the password into both fields: each match in page order)',
  'enter the value of Color from the table into the field (also: copy the text in the textarea and paste it into the Notes box; remember the order number as ORDER, then type ORDER into the Reference field)',
  'type "ADA" in lower case into the Name field (also: in upper case, without spaces, reversed, trimmed)',
  'double-click "Buy milk", change it to "Buy bread", press Enter, then delete it (also: "it" is the item named last)',
  'Create account / delete the account / cancel the confirmation / Open Warranty (a short imperative clicks the control those words name)',
  'drag "Fix bug" to the Done column / drag "Write report" to the top of the list (also: HTML5 drag and drop; a drop the page ignores fails)',
  'upload a file named "cv.pdf" to "Attach your CV" (also: attach notes.txt as the CV; the runner makes up a small file of that name)',
  'make the Notes box taller by dragging its corner / resize the textarea so that its width is smaller',
  'Create an account for Tom Baker with tom@example.com and the password "x1" on the Free plan, accepting the terms',
  'It should thank Grace for notes.txt (also: it should welcome …, it tells me to …: one message of the page says every word)',
];

type Rule = (s: string, tokens: readonly MaskToken[]) => StepBody | undefined;

const Q = TOKEN_PATTERN.replace('[qu]', 'q');

const VERB_START =
  '(?:open|go|visit|navigate|browse|click|double[- ]?click|right[- ]?click|tap|press|hit|type|enter|fill|input|write|clear|select|choose|pick|check|uncheck|tick|untick|hover|scroll|wait|reload|refresh|verify|assert|expect|ensure|confirm|make sure|submit|focus|delete|remove|drag|highlight|attach|upload)\\b';
const CONJUNCTION_RE = /\s*,\s*(?:and\s+)?|\s+and\s+/g;

/**
 * The query cut into sentences (masked text) and its tokens, in time linear in its length; each
 * sentence's clauses count as steps for the limits. Throws `InstructionLimitError` past
 * `INSTRUCTION_LIMITS` (too many steps, a step too long).
 */
function stepPieces(query: string): { sentences: QueryChunk[]; tokens: MaskToken[] } {
  const { masked, tokens } = maskQuery(query);
  const sentences: QueryChunk[] = [];
  let count = 0;
  for (const chunk of splitMaskedChunks(masked)) {
    sentences.push(chunk);
    for (const piece of clauseTexts(chunk.text)) {
      count += 1;
      if (count > INSTRUCTION_LIMITS.steps) throw tooManySteps();
      const length = lengthOutsideTokens(piece);
      if (length > INSTRUCTION_LIMITS.stepLength) throw stepTooLong(count, length);
    }
  }
  return { sentences, tokens };
}

/** Why the query is over the interpreter's limits, or undefined; cuts it into steps, reads none. */
export function instructionLimitProblem(query: string): string | undefined {
  try {
    stepPieces(query);
    return undefined;
  } catch (error) {
    if (error instanceof InstructionLimitError) return error.message;
    throw error;
  }
}

/** Throws `InstructionLimitError` when the query is over `INSTRUCTION_LIMITS`. */
export function parseInstructions(query: string): ParseResult {
  const { sentences, tokens } = stepPieces(query);
  const budget = new ReadBudget();
  const steps: Step[] = [];
  const unknown: UnknownStep[] = [];
  const reader: ClauseReader = {
    read: (text) => {
      const trimmed = trimTrailing(text.trim(), ' .!;,');
      budget.spend(trimmed);
      return trimmed ? parseStep(trimmed, tokens) : undefined;
    },
    readSteps: (text) => {
      // "And I add …": filler words can come two in a row (each pass drops one).
      const trimmed = trimTrailing(text.trim(), ' .!;,')
        .replace(GHERKIN_KEYWORD_RE, '')
        .replace(LEADING_FILLER_RE, '')
        .replace(LEADING_FILLER_RE, '');
      budget.spend(trimmed);
      if (!trimmed) return undefined;
      return (
        valueSteps(trimmed, tokens) ??
        startsEndsSteps(trimmed, tokens) ??
        todoSteps(trimmed, tokens) ??
        listOnlySteps(trimmed, tokens) ??
        loginSteps(trimmed, tokens) ??
        signUpSteps(trimmed, tokens) ??
        ordinalListSteps(trimmed, (piece) => parseStep(piece, tokens))
      );
    },
    readPiece: (text) => parseChunk(text, tokens, budget, new Map()),
  };
  const discourse = new Discourse((token) => quotedValue(token, tokens));
  for (const sentence of sentences) {
    discourse.goesOn(sentence.continues);
    const plain = plainTaskSentence(sentence.text);
    if (!plain) continue;
    const items = readSentence(plain, reader, discourse);
    // A sentence said again in plainer words keeps its own words when it is one step.
    const ownWords = plain !== sentence.text && items.length === 1 && !items[0]?.extra?.length;
    for (const item of items) {
      const text = unmask(
        ownWords ? trimTrailing(sentence.text.trim(), ' .!;,') : item.masked,
        tokens,
        'raw',
      ).trim();
      for (const body of item.body ? [item.body, ...(item.extra ?? [])] : [undefined]) {
        const index = steps.length + unknown.length + 1;
        if (index > INSTRUCTION_LIMITS.steps) throw tooManySteps();
        if (body) steps.push({ ...body, index, text } as Step);
        else unknown.push({ index, text });
      }
    }
  }
  return { steps: formLinesAsChecks(steps), unknown };
}

const FORM_LINE_RE = /^\s*([^:=\n]{1,40}?)\s*[:=]\s*(\S.{0,200})$/;

/**
 * "Set Volume to 80" and then "Volume: 80": a form line naming a field an earlier step already
 * set says what the page now shows, as terse notes do ("Total: $30.00" after filling the cart is
 * read the same way by the rules). It becomes a check that the page says that line.
 */
function formLinesAsChecks(steps: Step[]): Step[] {
  const set = new Set<string>();
  return steps.map((step) => {
    const line = FORM_LINE_RE.exec(step.text);
    const label = line?.[1]?.trim().toLowerCase();
    if (step.action === 'type' && line?.[2] && label && set.has(label)) {
      const value = line[2].trim().replace(/^(["“'])(.*)["”']$/, '$2');
      return {
        action: 'assertText',
        expected: `${line[1]?.trim()}: ${value}`,
        negate: false,
        index: step.index,
        text: step.text,
      };
    }
    const target = 'target' in step ? step.target : undefined;
    // Only a field set in other words: "Name: Ada" then "Name: Bob" fills it twice.
    if (target?.name && !line && !isAssertion(step)) set.add(target.name.trim().toLowerCase());
    return step;
  });
}

interface ParsedPiece {
  masked: string;
  body?: StepBody;
}

/** At most this many "and"s and commas of one step are tried as the place where it splits in two. */
const MAX_SPLIT_POINTS = 12;

/**
 * "the title is X and the URL contains Y" reads as one failed step until split at the "and". Each
 * tail is read once (`memo`), and only the first split points are tried, so a step with many "and"s
 * costs a bounded number of readings instead of one per way of splitting it.
 */
function parseChunk(
  chunk: string,
  tokens: readonly MaskToken[],
  budget: ReadBudget,
  memo: Map<string, ParsedPiece[]>,
): ParsedPiece[] {
  const trimmed = trimTrailing(chunk.trim(), ' .!;,');
  if (!trimmed) return [];
  const known = memo.get(trimmed);
  if (known) return known;
  const read = (text: string) => {
    budget.spend(text);
    return parseStep(text, tokens);
  };
  let result: ParsedPiece[] = [{ masked: trimmed }];
  const body = read(trimmed);
  if (body) result = [{ masked: trimmed, body }];
  else {
    let tried = 0;
    for (const match of trimmed.matchAll(CONJUNCTION_RE)) {
      if (++tried > MAX_SPLIT_POINTS) break;
      const left = trimmed.slice(0, match.index).trim();
      const leftBody = left ? read(left) : undefined;
      if (!leftBody) continue;
      const rest = parseChunk(trimmed.slice(match.index + match[0].length), tokens, budget, memo);
      if (rest.length > 0 && rest.every((p) => p.body)) {
        result = [{ masked: left, body: leftBody }, ...rest];
        break;
      }
    }
  }
  memo.set(trimmed, result);
  return result;
}

/** Parses one step (masked text) or returns undefined when no phrase rule understands it. */
export function parseStep(masked: string, tokens: readonly MaskToken[]): StepBody | undefined {
  const canonical = canonicalize(masked);
  if (!canonical) return undefined;
  const body = readCanonical(canonical, tokens);
  if (body) return body;
  // Another way of saying what a rule reads ("Given I am on …", "Username: ada"): read once.
  for (const variant of phraseVariants(tidy(masked), canonical)) {
    const rewritten = canonicalize(variant);
    const read = rewritten ? readCanonical(rewritten, tokens) : undefined;
    if (read) return read;
  }
  return (
    namedControlStep(canonical) ??
    namedControlStep(tidy(masked)) ??
    saidInOtherWordsStep(unmask(tidy(masked), tokens, 'raw'))
  );
}

function readCanonical(canonical: string, tokens: readonly MaskToken[]): StepBody | undefined {
  // A sentence that starts with a verb is an action ("click the link that says 'More'"); anything
  // else is read as an assertion first ("the Submit button is disabled").
  const rules = ACTION_VERB_RE.test(canonical)
    ? [...ACTION_RULES, ASSERTION_RULE]
    : [ASSERTION_RULE, ...ACTION_RULES];
  for (const rule of rules) {
    const body = rule(canonical, tokens);
    if (body) return body;
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Canonical form: polite filler gone, modal verbs and contractions folded, so rules stay small.

// Order words are only filler before a comma or a verb: "Next button is disabled" names a button.
const LEADING_FILLER_RE = new RegExp(
  '^(?:(?:first(?:ly)?|second(?:ly)?|third(?:ly)?|next|finally|lastly|then|now|after)(?=\\s*,|\\s+' +
    VERB_START +
    '|\\s+(?:i|we|you|the user|user|please|the)\\b)|please|pls|kindly|also|and|so|ok(?:ay)?|just|' +
    "afterwards|after that|go ahead and|let'?s|let us|i (?:want|need|would like|'d like) to|" +
    '(?:you|we) (?:should|must|need to|have to|can|will)|try to|(?:the )?user (?:should|must|can|will)|' +
    "i[’']m|i am|we[’']re|we are|i|we|you|the user|user)\\b[,:]?\\s*",
  'i',
);
const TRAILING_FILLER_RE = /\s+(?:please|now|again|as well|too|thanks|thank you)$/i;
const ASSERTION_PREFIX_RE =
  /^(?:verify|assert|check|ensure|confirm|validate|test|make sure|be sure|see|expect|control)\s+(?:that|whether|if)\s+|^(?:verify|assert|expect|ensure|confirm|validate|make sure|be sure)\s+/i;
const THIRD_PERSON_RE =
  /^(opens|visits|navigates|goes|clicks|taps|presses|hits|types|enters|fills|inputs|writes|clears|selects|chooses|picks|checks|unchecks|ticks|hovers|scrolls|waits|reloads|refreshes|submits|focuses|sees)\b/i;

// Gherkin: a Given says where the test starts ("Given I am on <url>" opens it, where "Then I am on
// <url>" asserts it); the keywords themselves are read as filler.
const GHERKIN_GIVEN_ON_RE =
  /^given\s+(?:that\s+)?(?:i am|i'm|we are|the user is|user is)\s+(?:on|at)\s+(?=\S)/i;
const GHERKIN_KEYWORD_RE = /^(?:given|when|then|and|but)\b[,:]?\s+(?=\S)/i;
// "Check the page shows X", "check it lists X", "Control that X" (a checker's word in several
// languages): a check of what follows, never a checkbox named "the page shows X".
const CHECK_CLAUSE_RE =
  /^(?:check|control)\s+(?:that\s+|if\s+|whether\s+)?(?=(?:the page|the screen|it|there|the title|the url|the address)\s+(?:shows?|says|contains?|lists|displays?|reads|has|have|is|are|ends|starts|includes?)\b)|^control\s+(?:that|if|whether)\s+/i;

/** The step on one line, without its closing punctuation. */
function tidy(masked: string): string {
  return masked
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[.!?;,]+$/, '');
}

function canonicalize(masked: string): string {
  let s = tidy(masked)
    .replace(GHERKIN_GIVEN_ON_RE, 'open ')
    .replace(GHERKIN_KEYWORD_RE, '')
    .replace(CHECK_CLAUSE_RE, '');
  for (let previous = ''; previous !== s;) {
    previous = s;
    s = s
      .replace(LEADING_FILLER_RE, '')
      .replace(TRAILING_FILLER_RE, '')
      .replace(ASSERTION_PREFIX_RE, '')
      .replace(/^(?:should|must|can|will)\s+/i, '')
      .trim();
  }
  s = s.replace(THIRD_PERSON_RE, (verb) => singularVerb(verb));
  return (
    s
      // "I should see 2 todos": a count of items, not the text "2 todos"; "first todo is X": the first.
      .replace(
        /^(?:(?:i|we|you)\s+)?(?:should\s+)?see\s+(?:only\s+)?(\d{1,4})\s+(?:todos?|to-dos?|tasks?|items?|entries)$/i,
        'there are $1 items',
      )
      .replace(
        /^(first|second|third|fourth|fifth|last)\s+(?=(?:todo|to-do|item|task|entry|row)\s+(?:is|shows|reads|says|contains)\s)/i,
        'the $1 ',
      )
      // As some write it: "Do click on Login", "make a click in Save", "click two times on Plus",
      // "choose the option Blue of the color".
      .replace(/^(?:do|make|give|perform)\s+(?:a\s+)?click\s+(?:on|in|at)\s+/i, 'click ')
      .replace(/^(click|tap|press)\s+(?:two\s+times|twice)\s+(?:on\s+)?(\S.*)$/i, '$1 $2 twice')
      .replace(
        /^(?:choose|select|pick)\s+the\s+option\s+(\S.{0,40}?)\s+(?:of|for)\s+(?:the\s+)?(\S.{0,40})$/i,
        'select $1 from the $2 dropdown',
      )
      // "Make sure no error is shown": the page shows none.
      .replace(
        /^no\s+((?:validation\s+)?(?:errors?|error\s+messages?|warnings?|alerts?|popups?|dialogs?|toasts?|notifications?))\s+(?:is|are)\s+(?:shown|visible|displayed|present|there)(?:\s+on\s+the\s+page)?$/i,
        'there is no $1',
      )
      // "Wait until the spinner disappears": a spinner that goes away is a loading indicator.
      .replace(
        /\b(?:the\s+)?spinner\s+(?=(?:disappears|is gone|goes away|vanishes|is hidden|is not visible|is no longer visible|stops|finishes|is not shown)\b)/i,
        'the loading spinner ',
      )
      // "Click into the Check-in field", "tap inside the search box": a click on it.
      .replace(/^(click|tap)\s+(?:into|inside)\s+(?=the\s)/i, '$1 ')
      // "Control the title of the page contains …": the title (and "control" as "check").
      .replace(/^control\s+(?:that\s+)?(?=the\s+(?:title|url|address)\b)/i, '')
      .replace(
        /\bthe\s+(title|url|address)\s+of\s+the\s+(?:page|tab|site|window|browser|document)\b/gi,
        'the $1',
      )
      .replace(/\b(is|are|was|does|do|has|have|should|must|can|could|will|would)n[’']t\b/gi, '$1 not')
      .replace(/\bcan[’']t\b|\bcannot\b/gi, 'can not')
      .replace(/\bwon[’']t\b/gi, 'will not')
      // "must to have" (as some write it), "has to show", "needs to contain": "must".
      .replace(
        /\b(?:(?:should|must|will|shall)\s+to|(?:has|have|needs?)\s+to)\s+(?=(?:contain|include|show|display|have|be|equal|match|say|read|appear)\b)/gi,
        'must ',
      )
      .replace(/\b(?:should|must|will|shall|would) no longer be\b/gi, 'is no longer')
      .replace(/\b(is|are|should be|must be|remains?|stays?)\s+still\b/gi, '$1')
      .replace(/\b(?:still|now)\s+(?=(?:is|are|shows?|contains?|says|reads|has|have|there)\b)/gi, '')
      .replace(/\b(should|must|will|would)\s+still\s+be\b/gi, '$1 be')
      .replace(
        /\b(?:should|must|will|shall|would) not be\b|\bnot to be\b|\bto not be\b|\bis not being\b/gi,
        'is not',
      )
      .replace(
        /\b(?:should|must|will|shall|would) be\b|\bto be\b|\bare\b|\bis being\b|\bwas\b|\bbecomes\b|\bstays\b|\bremains\b/gi,
        'is',
      )
      .replace(
        /\b(?:(?:should|must|will|shall|would|do|does) not|not to|to not)\s+(contain|include|show|display|have|equal|match|say|read|start with|begin with|end with|appear|exist)\b/gi,
        (_m, verb: string) => `does not ${verb.toLowerCase()}`,
      )
      .replace(
        /\b(?:should|must|will|shall|would|to)\s+(contain|include|show|display|have|equal|match|say|read|start with|begin with|end with|appear|disappear|exist)\b/gi,
        (_m, verb: string) => thirdPerson(verb.toLowerCase()),
      )
      .replace(/\b(?:do not|does not|can not|should not|must not|will not) see\b/gi, 'not see')
      .replace(/\b(?:should|can|will|must|do) see\b/gi, 'see')
      .replace(/\s+/g, ' ')
      .trim()
  );
}

function singularVerb(verb: string): string {
  const lower = verb.toLowerCase();
  if (lower === 'goes') return 'go';
  if (/(?:sses|shes|ches|xes)$/.test(lower)) return lower.slice(0, -2);
  return lower.slice(0, -1);
}

function thirdPerson(verb: string): string {
  if (verb === 'have') return 'has';
  const [first, ...rest] = verb.split(' ');
  return [`${first}s`, ...rest].join(' ');
}

// ---------------------------------------------------------------------------------------------
// Values and shared pieces.

/** A quoted string, a URL token, or (unquoted) the rest of the phrase. */
function valueOf(text: string, tokens: readonly MaskToken[]): string | undefined {
  const trimmed = text
    .trim()
    .replace(/^(?:the\s+)?(?:text|string|words?|message|phrase|value)\s+(?=\S)/i, '')
    // "the number "6"": what the quoted value is.
    .replace(/^(?:the\s+)?(?:number|digits?|amount)\s+(?=\uE000)/i, '')
    .trim();
  if (!trimmed) return undefined;
  // "Type the text below": text shown on the page, not the word "below" (not read here: an LLM, when
  // one is configured, resolves the step).
  if (/^(?:below|above|here|shown|displayed|on\s+the\s+(?:page|screen|left|right))$/i.test(trimmed))
    return undefined;
  const exact = quotedValue(trimmed, tokens) ?? urlValue(trimmed, tokens);
  if (exact !== undefined) return exact;
  // "'Thanks' and the URL contains 'done'" is two steps, not one long value.
  if (containsQuote(trimmed)) return undefined;
  return unmask(trimmed, tokens).trim();
}

function target(text: string | undefined, tokens: readonly MaskToken[]): Target | undefined {
  return text === undefined ? undefined : parseTarget(text, tokens);
}

/** The subject of an assertion; one holding a verb ("the title is 'A' and the URL") is two clauses. */
function subject(text: string | undefined, tokens: readonly MaskToken[]): Target | undefined {
  if (text === undefined || /\b(?:is|contains|equals|has|does)\b/i.test(text)) return undefined;
  // "…, and it should say X": "it" after another clause is the page, not a subject to look for.
  if (/,\s*(?:and\s+)?(?:it|this|that)$|\s(?:and|then)\s+(?:it|this|that)$/i.test(text.trim()))
    return undefined;
  return target(text, tokens);
}

const BARE_HOST_RE =
  /^(?:localhost|\d{1,3}(?:\.\d{1,3}){3}|\[[0-9a-f:]+\]|(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,24})(?::\d{1,5})?(?:[/?#]\S*)?$/i;

/** Turns what the user wrote into a URL to open: bare hosts get a scheme, paths stay relative. */
export function normalizeUrl(raw: string): string | undefined {
  const text = raw.trim().replace(/^<|>$/g, '');
  if (!text || /\s/.test(text)) return undefined;
  if (/^[a-z][a-z0-9+.-]*:/i.test(text) && !/^(?:localhost|[\w.-]+):\d/i.test(text)) {
    try {
      return new URL(text).href === '' ? undefined : text;
    } catch {
      return undefined;
    }
  }
  if (/^(?:\/|\.\.?\/|\?|#)/.test(text)) return text;
  if (!BARE_HOST_RE.test(text) || FILE_NAME_RE.test(text)) return undefined;
  const local = /^(?:localhost|127\.|10\.|192\.168\.|0\.0\.0\.0|\[)/i.test(text);
  const url = `${local ? 'http' : 'https'}://${text}`;
  try {
    new URL(url);
    return url;
  } catch {
    return undefined;
  }
}

function urlIn(text: string, tokens: readonly MaskToken[]): string | undefined {
  const value = quotedValue(text, tokens) ?? urlValue(text, tokens);
  return value === undefined ? undefined : normalizeUrl(value);
}

const COUNT_NUMBER_WORDS: Readonly<Record<string, number>> = {
  ...NUMBER_WORDS,
  no: 0,
  none: 0,
  a: 1,
  an: 1,
  single: 1,
  couple: 2,
  few: 3,
};

function numberOf(word: string): number | undefined {
  const cleaned = word
    .toLowerCase()
    .replace(/^a\s+(?=few|couple)/, '')
    .trim();
  if (/^\d+(?:\.\d+)?$/.test(cleaned)) return Number(cleaned);
  if (cleaned === 'half a' || cleaned === 'half') return 0.5;
  return COUNT_NUMBER_WORDS[cleaned];
}

const DURATION_RE =
  /^(?:about\s+|around\s+|roughly\s+|for\s+)?(\d+(?:\.\d+)?|a|an|one|two|three|four|five|six|seven|eight|nine|ten|a few|a couple of|half a)\s*(ms|milliseconds?|msecs?|s|secs?|seconds?|minutes?|mins?)$/i;

function durationMs(text: string): number | undefined {
  const match = DURATION_RE.exec(text.trim());
  if (!match?.[1] || !match[2]) return undefined;
  const amount = numberOf(match[1].replace(/\s+of$/, ''));
  if (amount === undefined) return undefined;
  const unit = match[2].toLowerCase();
  const factor = unit.startsWith('m') && !unit.startsWith('mi') ? 1 : unit.startsWith('mi') ? 60_000 : 1000;
  return Math.round(amount * factor);
}

function modeOf(verb: string): { mode: MatchMode; negate: boolean } | undefined {
  const v = verb.toLowerCase().replace(/\s+/g, ' ');
  const negate = /\bnot\b/.test(v);
  const bare = v.replace(/\b(?:does|is|do) not\b|\bnot\b/, '').trim();
  const mode: MatchMode | undefined =
    /^(?:is|equals?|equal to|is equal to|reads|read|says|say|=)$/.test(bare) || bare === ''
      ? 'equals'
      : /^(?:contains?|includes?|has|have|shows?|displays?|mentions?)$/.test(bare)
        ? 'contains'
        : /^(?:starts? with|begins? with)$/.test(bare)
          ? 'startsWith'
          : /^(?:ends? with)$/.test(bare)
            ? 'endsWith'
            : /^(?:matches|match)$/.test(bare)
              ? 'matches'
              : undefined;
  return mode ? { mode, negate } : undefined;
}

const MATCH_VERBS =
  'is not|is|equals|does not equal|does not contain|contains|does not include|includes|does not start with|starts with|begins with|does not end with|ends with|matches|does not match|reads|says';

const STATE_WORDS: ReadonlyArray<readonly [RegExp, ElementState, ElementState?]> = [
  [
    /^(?:visible|shown|displayed|present|showing|on the page|on screen|there|displayed on the page)$/,
    'visible',
    'hidden',
  ],
  [
    /^(?:hidden|invisible|gone|not visible|not shown|not displayed|not present|not there|removed|deleted)$/,
    'hidden',
    'visible',
  ],
  [/^(?:enabled|clickable|active|usable|not disabled|interactive)$/, 'enabled', 'disabled'],
  [/^(?:disabled|greyed out|grayed out|not enabled|inactive|not clickable)$/, 'disabled', 'enabled'],
  [
    /^(?:checked|selected|ticked|on|toggled on|switched on|not unchecked|(?:marked (?:as )?)?(?:done|completed?|finished))$/,
    'checked',
    'unchecked',
  ],
  [
    /^(?:unchecked|unselected|deselected|unticked|off|toggled off|switched off|not checked|not selected|not done|not completed?|not finished|incomplete|unfinished|(?:marked (?:as )?)?(?:not done|incomplete|undone))$/,
    'unchecked',
    'checked',
  ],
  // "Open" and "closed" read here only through a phrase variant, after the dialog readings.
  [/^(?:expanded|unfolded)$/, 'expanded', 'collapsed'],
  [/^(?:collapsed|folded|not expanded)$/, 'collapsed', 'expanded'],
  [
    /^(?:(?:shown|displayed|written|formatted|set|rendered|made)\s+)?(?:in\s+)?(?:bold|bolded|strong)(?:\s+(?:text|type|font))?$/,
    'bold',
  ],
  [
    /^(?:(?:shown|displayed|written|formatted|set|rendered|made)\s+)?(?:in\s+)?(?:italics?|italici[sz]ed|emphasi[sz]ed)(?:\s+(?:text|type|font))?$/,
    'italic',
  ],
  [/^(?:focused|in focus|focussed)$/, 'focused'],
  [/^(?:empty|blank|cleared)$/, 'empty'],
  [/^(?:editable|writable)$/, 'editable', 'readonly'],
  [/^(?:read-?only|not editable)$/, 'readonly', 'editable'],
];

function stateOf(word: string, negated: boolean): ElementState | undefined {
  const text = word.toLowerCase().trim();
  for (const [re, state, opposite] of STATE_WORDS) {
    if (re.test(text)) return negated ? opposite : state;
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Phrase rules, tried in order; the first that understands a step wins.

const navigation: Rule = (s, tokens) => {
  if (
    /^(?:go|navigate|browse|head|move)\s+back(?:\s+(?:to the previous page|a page|one page|in (?:the )?history))?$|^(?:go to )?(?:the )?previous page$|^back$/i.test(
      s,
    )
  ) {
    return { action: 'goBack' };
  }
  if (/^(?:go|navigate|browse|move)\s+forward(?:\s+(?:a page|one page|in (?:the )?history))?$/i.test(s)) {
    return { action: 'goForward' };
  }
  if (/^(?:reload|refresh)(?:\s+(?:the\s+)?(?:current\s+)?(?:page|browser|tab|site|window))?$/i.test(s)) {
    return { action: 'reload' };
  }
  const open =
    /^(?:open(?: up)?|visit|load|launch|browse to|go(?: over)? to|goto|navigate(?: over)? to|navigate|head(?: over)? to|point the browser (?:at|to)|start (?:at|on|from))\s+(?:(?:the|a)\s+)?(?:(?:web\s*)?(?:page|url|site|website|address|link|app|application|homepage)\s+)?(?:at\s+)?(.+?)(?:\s+in (?:the|a|your) (?:browser|new tab))?$/i.exec(
      s,
    );
  if (open?.[1]) {
    const url = urlIn(open[1], tokens) ?? normalizeUrl(unmask(open[1], tokens));
    if (url) return { action: 'navigate', url };
  }
  return undefined;
};

const keyPress: Rule = (s, tokens) => {
  const match =
    /^(?:press|hit|push|strike|tap|type)\s+(?:the\s+)?(?:key\s+)?(.+?)(?:\s+key)?(?:\s+(\d+)\s+times|\s+(once|twice|thrice))?(?:\s+(?:in|on|into|inside|while in|within)\s+(.+))?$/i.exec(
      // "Press Enter to save": the purpose is not part of the key.
      s.replace(
        /^((?:press|hit)\s+(?:the\s+)?\S+(?:\s+key)?)\s+to\s+(?:save|submit|add|confirm|send|search|finish|commit|apply|close|continue|create)\b.*$/i,
        '$1',
      ),
    );
  if (!match?.[1]) return undefined;
  const keyText = quotedValue(match[1], tokens) ?? unmask(match[1], tokens);
  const keys = parseKeys(keyText);
  if (!keys) return undefined;
  const repeat = match[2]
    ? Number(match[2])
    : match[3]
      ? { once: 1, twice: 2, thrice: 3 }[match[3].toLowerCase()]
      : 1;
  const within = match[4] ? target(match[4], tokens) : undefined;
  if (match[4] && !within) return undefined;
  return { action: 'press', keys, repeat: repeat ?? 1, ...(within ? { target: within } : {}) };
};

const typing: Rule = (s, tokens) => {
  const into =
    /^(?:type|enter|input|write|key in|put|insert|paste)\s+(?:in\s+)?(.+?)\s+(?:into|in|inside|to|on)\s+(.+)$/i.exec(
      s,
    );
  if (into?.[1] && into[2]) {
    const value = valueOf(into[1], tokens);
    const where = target(into[2], tokens);
    if (value !== undefined && where) return { action: 'type', value, target: where };
  }
  const fill =
    /^(?:fill(?:\s+in|\s+out)?|complete|populate|set|change|update|edit|rename)\s+(.+?)\s+(?:with|to|as|=)\s+(.+)$/i.exec(
      s,
    );
  if (fill?.[1] && fill[2]) {
    const where = target(fill[1], tokens);
    const value = valueOf(fill[2], tokens);
    if (where && value !== undefined) {
      return where.role === 'combobox'
        ? { action: 'select', option: value, target: where }
        : { action: 'type', value, target: where };
    }
  }
  const use = /^(?:use|enter|type|input|put)\s+(.+?)\s+(?:as|for)\s+(.+)$/i.exec(s);
  if (use?.[1] && use[2]) {
    const value = valueOf(use[1], tokens);
    const where = target(use[2], tokens);
    if (where && value !== undefined) return { action: 'type', value, target: where };
  }
  // "Double-click 'Buy milk', then change it to 'Buy bread'": the field with the caret, its text replaced.
  const replace =
    /^(?:change|set|edit|rename|replace|update)\s+(?:it|the text|its text|the name|its name|the title|the value)\s+(?:to|with|by)\s+(.+)$/i.exec(
      s,
    );
  if (replace?.[1]) {
    const value = quotedValue(replace[1], tokens);
    if (value !== undefined) return { action: 'type', value, replace: true };
  }
  const bare = /^(?:type|write|input|enter|key in)\s+(.+)$/i.exec(s);
  if (bare?.[1]) {
    const value = quotedValue(bare[1], tokens);
    if (value !== undefined) return { action: 'type', value };
  }
  return undefined;
};

const clearing: Rule = (s, tokens) => {
  // "Clear completed todos": the app's "Clear completed" button, not a field.
  if (
    /^clear\s+(?:all\s+)?(?:the\s+)?(?:completed|done|finished)(?:\s+(?:items|todos|tasks|entries))?$/i.test(
      s,
    )
  ) {
    return { action: 'click', target: { name: 'Clear completed' }, clickCount: 1, button: 'left' };
  }
  const match =
    /^(?:clear|empty|erase|wipe)(?:\s+out)?\s+(?:the\s+(?:contents?|text|value)\s+of\s+)?(.+)$/i.exec(s);
  if (!match?.[1]) return undefined;
  const where = target(match[1], tokens);
  if (!where || where.role === 'checkbox' || where.role === 'switch') return undefined;
  return { action: 'clear', target: where };
};

const selecting: Rule = (s, tokens) => {
  const match =
    /^(?:select|choose|pick)\s+(?:the\s+)?(?:option\s+|value\s+)?(.+?)(?:\s+option)?\s+(?:from|in|on|within|inside|for|under)\s+(.+)$/i.exec(
      s,
    );
  if (!match?.[1] || !match[2]) return undefined;
  const option = valueOf(match[1], tokens);
  const named = target(match[2], tokens);
  if (option === undefined || !named) return undefined;
  // "Select Bobine from the list": whichever dropdown or list box offers it.
  const where: Target =
    !named.role && /^(?:list|options|choices|list of (?:options|choices|names|values))$/i.test(named.name)
      ? { name: '', role: 'combobox' }
      : named;
  return { action: 'select', option, target: where };
};

/** "Toggle all", "Mark all as complete", "Check all items": the select-all / toggle-all checkbox. */
const allItems: Rule = (s) => {
  const match =
    /^(toggle|check|select|tick|mark|complete|uncheck|untick|deselect|unmark)\s+all(?:\s+(?:the\s+)?(?:items|todos|tasks|entries|rows))?(?:\s+as\s+(not\s+)?(done|complete|completed|finished|active|incomplete|undone))?$/i.exec(
      s,
    );
  if (!match?.[1]) return undefined;
  const target = { name: 'all', role: 'checkbox' as const };
  if (/^toggle$/i.test(match[1]) && !match[3])
    return { action: 'click', target, clickCount: 1, button: 'left' };
  const off =
    /^(?:uncheck|untick|deselect|unmark)$/i.test(match[1]) !==
    (Boolean(match[2]) !== /^(?:active|incomplete|undone)$/i.test(match[3] ?? ''));
  return { action: off ? 'uncheck' : 'check', target };
};

const checking: Rule = (s, tokens) => {
  // "Mark 'Buy milk' as done": the checkbox in its row.
  const marked =
    /^(?:mark|set|flag)\s+(.+?)\s+as\s+(not\s+)?(done|complete|completed|finished|read|undone|incomplete|active|not done|unread|open)$/i.exec(
      s,
    );
  if (marked?.[1] && marked[3]) {
    const where = target(marked[1], tokens);
    if (!where) return undefined;
    const off = Boolean(marked[2]) !== /^(?:undone|incomplete|active|unread|open)$/i.test(marked[3]);
    return { action: off ? 'uncheck' : 'check', target: where };
  }
  const on =
    /^(check|tick|mark|select|choose|enable|turn on|switch on|toggle on|activate|complete|finish)\s+(.+)$/i.exec(
      s,
    );
  const off =
    /^(uncheck|un-check|untick|unmark|deselect|unselect|clear|disable|turn off|switch off|toggle off)\s+(.+)$/i.exec(
      s,
    );
  const match = on ?? off;
  if (!match?.[1] || !match[2]) return undefined;
  // "Check in: 2024-03-20" is a form line (a label, a colon, a value), not a box to tick.
  if (/^[^\uE000]{0,20}:\s*\S/.test(match[2])) return undefined;
  const where = target(match[2], tokens);
  if (!where) return undefined;
  const verb = match[1].toLowerCase();
  // "Turn on 'Send me news'" names a switch by its quoted label; "select 'Blue'" stays a choice.
  const explicit =
    /^(?:check|tick|mark|uncheck|un-check|untick|unmark)$/.test(verb) ||
    (/^(?:turn|switch|toggle|enable|disable|complete|finish)\b/.test(verb) &&
      containsQuote(match[2]) &&
      !where.role);
  const checkable = where.role === 'checkbox' || where.role === 'radio' || where.role === 'switch';
  if (!explicit && !checkable) return undefined;
  // "Tick the box next to Remember me": a box one ticks is a checkbox.
  if (where.role === 'textbox' && where.near !== undefined && /\bbox\b/i.test(match[2]))
    where.role = 'checkbox';
  if (where.role === 'textbox' && /box$/i.test(match[2])) delete where.role;
  return { action: on ? 'check' : 'uncheck', target: where };
};

/** "… to go home", "… to open the menu": what a click is for, after its target. */
const PURPOSE_RE =
  /^(.+?)\s+(?:in\s+order\s+)?to\s+(?:go|open|see|view|close|return|get|navigate|show|reveal|start|continue|proceed|confirm|submit|finish|expand|collapse|switch|change|log|sign|load|refresh|reset|hide|display|dismiss|accept|mark|flag|star|pin|archive|delete|remove)\b[^\uE000]{0,60}$/i;

const clicking: Rule = (s, tokens) => {
  const match =
    /^(double[- ]?click|dbl[- ]?click|right[- ]?click|click|tap|press|push|hit|select|choose|follow|activate|open|expand|collapse|toggle)(?:\s+(?:on|at))?\s+(.+?)(?:\s+(twice|two times|again))?$/i.exec(
      s,
    );
  if (!match?.[1] || !match[2]) return undefined;
  const verb = match[1].toLowerCase().replace(/[- ]/g, '');
  // "Click the Send button without message": how the form is left is the test's business; "click
  // on the logo to go home": the purpose is left out.
  const phrase =
    PURPOSE_RE.exec(match[2])?.[1] ??
    /^(.+?\b(?:button|link|icon|tab))\s+(?:without|with\s+no|leaving|before\s+filling)\s+[^\uE000]{1,60}$/i.exec(
      match[2],
    )?.[1] ??
    match[2];
  if (
    verb === 'open' &&
    !/\s*\uE000q/.test(phrase) &&
    // "Open the first result": an entry by its position.
    !/^(?:the\s+)?(?:first|second|third|fourth|fifth|last|\d{1,2}(?:st|nd|rd|th))\s+[a-z]+$/i.test(phrase) &&
    !/\b(?:menu|tab|dropdown|drop-down|accordion|dialog|modal|details|panel|section|button|link|picker|datepicker|calendar|options|settings)$/i.test(
      unmask(phrase, tokens),
    )
  ) {
    return undefined;
  }
  // "Open the Gift options": a disclosure named so, not an option called "Gift".
  const disclosure: Target | undefined =
    verb === 'open' && /^(?:the\s+)?[A-Z][^\uE000]{0,40}\s+(?:options|settings)$/.test(phrase)
      ? {
          name: unmask(phrase, tokens)
            .replace(/^the\s+/i, '')
            .trim(),
        }
      : undefined;
  const where = disclosure ?? target(phrase, tokens);
  if (!where) return undefined;
  // "Toggle 'Buy milk'": the checkbox (or switch) in its row, or the one it labels.
  if (verb === 'toggle' && !where.role && where.near === undefined && containsQuote(phrase)) {
    return {
      action: 'click',
      target: { name: '', role: 'checkbox', near: where.name },
      clickCount: 1,
      button: 'left',
    };
  }
  const double = verb === 'doubleclick' || verb === 'dblclick' || match[3] !== undefined;
  const ensure = verb === 'expand' ? 'expanded' : verb === 'collapse' ? 'collapsed' : undefined;
  return {
    action: 'click',
    target: where,
    clickCount: double ? 2 : 1,
    button: verb === 'rightclick' ? 'right' : 'left',
    ...(ensure && !double ? { ensure } : {}),
  };
};

/** "Delete 'Walk the dog'": the delete (remove, ×, trash) button in the row holding the text. */
const removing: Rule = (s, tokens) => {
  const match = new RegExp(
    `^(?:delete|remove|trash|destroy)\\s+(?:the\\s+)?(?:(?:item|todo|task|entry|row|card|line)\\s+)?(${Q})(?:\\s+(?:item|todo|task|entry|row|card|line))?(?:\\s+from\\s+the\\s+(?:list|table|page))?$`,
    'i',
  ).exec(s);
  const near = match?.[1] ? quotedValue(match[1], tokens) : undefined;
  if (!near) return undefined;
  return {
    action: 'click',
    target: { name: 'delete', role: 'button', near },
    clickCount: 1,
    button: 'left',
  };
};

const hovering: Rule = (s, tokens) => {
  const match =
    /^(?:hover|mouse|mouseover|move (?:the )?(?:mouse|cursor|pointer)|point(?: the (?:mouse|cursor))?|put (?:the )?(?:mouse|cursor) )(?:\s*(?:over|on|onto|to|at|above))?\s+(.+)$/i.exec(
      s,
    );
  const where = match?.[1] ? target(match[1], tokens) : undefined;
  return where ? { action: 'hover', target: where } : undefined;
};

const focusing: Rule = (s, tokens) => {
  const match = /^(?:focus|put (?:the )?focus)(?:\s+(?:on|in|into))?\s+(.+)$/i.exec(s);
  const where = match?.[1] ? target(match[1], tokens) : undefined;
  return where ? { action: 'focus', target: where } : undefined;
};

const scrolling: Rule = (s, tokens) => {
  if (!/^scroll\b/i.test(s)) return undefined;
  const rest = s
    .replace(/^scroll\s*/i, '')
    .replace(/^(?:the\s+)?(?:page|window|screen|view)\s*/i, '')
    .trim();
  // "Scroll to the bottom of the text area", "scroll the list up", "scroll the textarea to the top
  // of the text": an element's own content.
  const EDGE = '(?:to|until)\\s+(?:the\\s+)?(?:very\\s+)?(top|bottom|end|beginning|start)';
  const inside =
    new RegExp(
      `^(?:all the way\\s+)?(?:(?:down|up)\\s+)?${EDGE}\\s+of\\s+(?!(?:the\\s+)?(?:page|screen|document|window)$)(.+)$`,
      'i',
    ).exec(rest) ??
    new RegExp(
      `^(?!to\\b|until\\b|down\\b|up\\b)(.+?)\\s+(?:all the way\\s+)?(?:(?:down|up)\\s+)?${EDGE}(?:\\s+of\\s+(?:the\\s+)?(?:text|content|contents|list|it|page))?$`,
      'i',
    ).exec(rest);
  if (inside) {
    const [edgeWord, phrase] =
      inside.length === 3 && /^(?:top|bottom|end|beginning|start)$/i.test(inside[1] ?? '')
        ? [inside[1], inside[2]]
        : [inside[2], inside[1]];
    const where = phrase ? target(phrase, tokens) : undefined;
    if (where && edgeWord)
      return {
        action: 'scroll',
        direction: /^(?:top|beginning|start)$/i.test(edgeWord) ? 'top' : 'bottom',
        target: where,
      };
  }
  const within = /^(?!to\b|until\b|down\b|up\b)(.+?)\s+(down|up)$/i.exec(rest);
  if (within?.[1] && within[2]) {
    const where = target(within[1], tokens);
    if (where)
      return { action: 'scroll', direction: within[2].toLowerCase() === 'up' ? 'up' : 'down', target: where };
  }
  const edge =
    /^(?:(?:all the way\s+)?(?:down|up)\s+)?(?:to|until)\s+(?:the\s+)?(?:very\s+)?(top|bottom|end|beginning|start)(?:\s+of\s+(?:the\s+)?(?:page|screen|document))?$|^(?:all the way\s+)?(?:to\s+the\s+)?(top|bottom)$/i.exec(
      rest,
    );
  if (edge) {
    const where = (edge[1] ?? edge[2] ?? '').toLowerCase();
    return {
      action: 'scroll',
      direction: where === 'top' || where === 'beginning' || where === 'start' ? 'top' : 'bottom',
    };
  }
  const by =
    /^(down|up)(?:\s+(?:by\s+)?(\d+)\s*(?:px|pixels?)?|\s+(?:a bit|a little|a page|one page|one screen|a screen|some|slightly))?$/i.exec(
      rest,
    );
  if (by?.[1]) {
    const direction = by[1].toLowerCase() === 'up' ? 'up' : 'down';
    return by[2] ? { action: 'scroll', direction, pixels: Number(by[2]) } : { action: 'scroll', direction };
  }
  if (rest === '') return { action: 'scroll', direction: 'down' };
  const to =
    /^(?:(?:down|up)\s+)?(?:to|until(?:\s+you\s+see)?)\s+(.+?)(?:\s+is\s+visible)?$|^(.+?)\s+into\s+view$/i.exec(
      rest,
    );
  const where = to ? target((to[1] ?? to[2]) as string, tokens) : undefined;
  return where ? { action: 'scrollTo', target: where } : undefined;
};

const submitting: Rule = (s) =>
  /^submit(?:\s+(?:the\s+)?(?:[\w-]+\s+)?(?:form|search|query|details|data))?$/i.test(s)
    ? { action: 'submit' }
    : undefined;

/**
 * A bare verb that is also what a form's button says ("Set guests to 6 and save", "apply", "then
 * continue"): a click on the control named by it. Its words may follow ("save the changes").
 */
const committing: Rule = (s) => {
  const match =
    /^(save|apply|continue|confirm|send|next|finish|proceed|publish|post|update|register|checkout|check\s+out|done|ok|log\s*out|sign\s*out|log\s*off|sign\s*off)(?:\s+(?:it|them|this|that|(?:the|my|your)\s+(?:form|changes?|settings?|details|order|message|deletion|removal|purchase|payment|booking|action|choice|dialog)|changes?))?[.!]?$/i.exec(
      s.trim(),
    );
  if (!match?.[1]) return undefined;
  const word = match[1].replace(/\s+/g, ' ').toLowerCase();
  const name = word === 'ok' ? 'OK' : `${word.charAt(0).toUpperCase()}${word.slice(1)}`;
  return { action: 'click', target: { name }, clickCount: 1, button: 'left' };
};

const waiting: Rule = (s, tokens) => {
  const wait = /^wait(?:\s+(?:for|up\s+to|at\s+most|maximum))?\s*(.*)$/i.exec(s);
  if (!wait) return undefined;
  const rest = (wait[1] ?? '').trim();
  const plain = durationMs(rest);
  if (plain !== undefined) return { action: 'wait', ms: plain };
  if (/^(?:a\s+)?(?:moment|bit|second|sec|little|little bit|while)$/i.test(rest))
    return { action: 'wait', ms: 1000 };
  if (rest === '') return { action: 'wait', ms: 1000 };

  let timeoutMs: number | undefined;
  let condition = rest;
  const upTo = /^(?:up to\s+|at most\s+|a maximum of\s+)?(.+?)\s+(?:for|until)\s+(.+)$/i.exec(rest);
  const upToMs = upTo?.[1] ? durationMs(upTo[1]) : undefined;
  if (upTo?.[2] && upToMs !== undefined) {
    timeoutMs = upToMs;
    condition = upTo[2];
  }
  condition = condition.replace(/^(?:for|until|till|that)\s+/i, '').trim();
  const within = /^(.+?)\s+(?:for|within|up to)\s+(?:up to\s+)?(.+)$/i.exec(condition);
  const withinMs = within?.[2] ? durationMs(within[2]) : undefined;
  if (within?.[1] && withinMs !== undefined) {
    timeoutMs = withinMs;
    condition = within[1];
  }
  const limit = timeoutMs === undefined ? {} : { timeoutMs };

  if (
    /^(?:the\s+)?(?:page|site|app|document)(?:\s+(?:is\s+)?(?:to\s+)?(?:load|loaded|finish loading|finishes loading|is ready|ready))?$|^(?:the\s+)?(?:page\s+)?(?:load|navigation|network)(?:\s+to\s+(?:finish|complete))?$/i.test(
      condition,
    )
  ) {
    return { action: 'waitForLoad', ...limit };
  }
  const text =
    /^(?:the\s+)?(?:text\s+|message\s+)?(.+?)(?:\s+(appears|shows up|shows|is shown|is displayed|is visible|is present|loads|is loaded|disappears|is gone|goes away|vanishes|is hidden|is not visible|is not shown|is not displayed|is not present|is removed))?(?:\s+on\s+(?:the\s+)?(?:page|screen))?$/i.exec(
      condition,
    );
  if (text?.[1]) {
    const hidden = text[2] !== undefined && /disappear|gone|away|vanish|hidden|not|removed/i.test(text[2]);
    const quoted = quotedValue(text[1], tokens);
    if (quoted !== undefined)
      return { action: 'waitForText', expected: quoted, state: hidden ? 'hidden' : 'visible', ...limit };
  }
  const assertion = assertionRules(condition, tokens);
  if (assertion) return { ...assertion, patient: true, ...limit } as StepBody;
  if (text?.[1]) {
    const where = target(text[1], tokens);
    const hidden = text[2] !== undefined && /disappear|gone|away|vanish|hidden|not|removed/i.test(text[2]);
    if (where)
      return { action: 'waitForElement', target: where, state: hidden ? 'hidden' : 'visible', ...limit };
  }
  return undefined;
};

const titleAssertion: Rule = (s, tokens) => {
  const match = new RegExp(
    `^(?:the\\s+)?(?:(?:page|tab|window|document|browser)(?:'s|’s)?\\s+)?title(?:\\s+of\\s+the\\s+(?:page|tab|window))?\\s+(${MATCH_VERBS})\\s+(.+)$`,
    'i',
  ).exec(s);
  const titled =
    /^(?:the\s+)?(?:page|tab|window|document)\s+is\s+(not\s+)?(?:titled|called|named)\s+(.+)$/i.exec(s);
  if (titled?.[2]) {
    const value = valueOf(titled[2], tokens);
    return value === undefined
      ? undefined
      : { action: 'assertTitle', mode: 'equals', expected: value, negate: Boolean(titled[1]) };
  }
  if (!match?.[1] || !match[2]) return undefined;
  const mode = modeOf(match[1]);
  const value = valueOf(match[2], tokens);
  return mode && value !== undefined ? { action: 'assertTitle', ...mode, expected: value } : undefined;
};

const urlAssertion: Rule = (s, tokens) => {
  const match = new RegExp(
    `^(?:the\\s+)?(?:(?:current|page|browser|page's|browser's)\\s+)?(url|address|web address|location|path|pathname|route)(?:\\s+of\\s+the\\s+page)?\\s+(${MATCH_VERBS})\\s+(.+)$`,
    'i',
  ).exec(s);
  if (match?.[1] && match[2] && match[3]) {
    const mode = modeOf(match[2]);
    const value = valueOf(match[3], tokens);
    if (!mode || value === undefined) return undefined;
    const isPath =
      /^path|route/i.test(match[1]) && mode.mode === 'equals' && !value.startsWith('/') ? `/${value}` : value;
    return { action: 'assertUrl', ...mode, expected: isPath };
  }
  const landed =
    /^(?:(?:i|we|you|the user|user|it|the page|the browser)\s+)?(?:is|am|are|get|gets|got|should be|will be)?\s*(?:now\s+)?(?:redirected|taken|sent|navigated|brought|forwarded|on|at)\s+(?:to\s+)?(?:the\s+)?(.+?)(?:\s+page)?$/i.exec(
      s,
    );
  if (landed?.[1]) {
    const value = quotedValue(landed[1], tokens) ?? urlValue(landed[1], tokens);
    if (value !== undefined && (value.startsWith('/') || normalizeUrl(value))) {
      return { action: 'assertUrl', mode: 'contains', expected: value, negate: false };
    }
  }
  const redirects = /^(?:the\s+)?(?:page|app|site|it)\s+redirects\s+to\s+(.+)$/i.exec(s);
  if (redirects?.[1]) {
    const value = valueOf(redirects[1], tokens);
    if (value !== undefined) return { action: 'assertUrl', mode: 'contains', expected: value, negate: false };
  }
  return undefined;
};

const pageTextAssertion: Rule = (s, tokens) => {
  const page =
    /^(?:the\s+)?(?:page|screen|body|site|website|document|web page|webpage|it|response|result|results)\s+(does not contain|does not show|does not display|does not include|does not have|does not say|does not mention|contains|shows|displays|includes|has|says|mentions|reads)\s+(?:the\s+)?(?:text|message|words?|string|phrase)?\s*(.+)$/i.exec(
      s,
    );
  if (page?.[1] && page[2]) {
    const text = valueOf(page[2], tokens);
    if (text === undefined) return undefined;
    // "The page has only 2 orders" is a count (phrase-variants.ts), not words on the page.
    if (/^(?:only|exactly|just)\s+\d+\s+\p{L}{3,}s\b/iu.test(unmask(page[2], tokens))) return undefined;
    if (
      quotedValue(page[2].replace(/^(?:the\s+)?(?:text|message|words?|string|phrase)\s+/i, ''), tokens) ===
        undefined &&
      /\b(?:button|link|field|checkbox)\b/i.test(text)
    ) {
      return undefined;
    }
    const says = /\b(?:says|say|reads)\b/i.test(page[1]);
    return {
      action: 'assertText',
      expected: text,
      negate: /not/i.test(page[1]),
      ...(says && { whole: true }),
    };
  }
  const see =
    /^(not see|see|notice|observe|not notice|find|not find)\s+(?:the\s+)?(?:text\s+|message\s+|words?\s+)?(.+?)(?:\s+(?:on|in)\s+the\s+(?:page|screen))?$/i.exec(
      s,
    );
  if (see?.[1] && see[2]) {
    const quoted = quotedValue(see[2], tokens);
    const negate = /^not/i.test(see[1]);
    if (quoted !== undefined) return { action: 'assertText', expected: quoted, negate };
    const where = target(see[2], tokens);
    if (where?.role) return { action: 'assertState', target: where, state: negate ? 'hidden' : 'visible' };
    if (where) return { action: 'assertText', expected: unmask(see[2], tokens), negate };
    return undefined;
  }
  const textIs = new RegExp(
    `^(?:the\\s+)?(?:text|message|words?|string|phrase)\\s+(${Q})\\s+(is not|is|appears|does not appear|exists|does not exist)(?:\\s+(visible|shown|displayed|present|on the page|anywhere))?(?:\\s+on\\s+the\\s+page)?$`,
    'i',
  ).exec(s);
  // Groups 2 and 3 are the quote token's own; 4 is the verb.
  if (textIs?.[1] && textIs[4]) {
    const text = quotedValue(textIs[1], tokens) ?? '';
    return { action: 'assertText', expected: text, negate: /not/i.test(textIs[4]) };
  }
  const noText = new RegExp(
    `^there\\s+is\\s+(no|not any|a|an|the)?\\s*(?:text|message)?\\s*(${Q})(?:\\s+(?:on|in)\\s+the\\s+(?:page|screen))?$`,
    'i',
  ).exec(s);
  if (noText?.[2]) {
    const text = quotedValue(noText[2], tokens) ?? '';
    return { action: 'assertText', expected: text, negate: /^no/i.test(noText[1] ?? '') };
  }
  return undefined;
};

const countAssertion: Rule = (s, tokens) => {
  const comparisons: ReadonlyArray<readonly [RegExp, CountComparison]> = [
    [/^exactly\s+/i, 'eq'],
    [/^at\s+least\s+/i, 'gte'],
    [/^at\s+most\s+/i, 'lte'],
    [/^no\s+more\s+than\s+/i, 'lte'],
    [/^more\s+than\s+/i, 'gt'],
    [/^(?:fewer|less)\s+than\s+/i, 'lt'],
  ];
  const countOf =
    /^(?:the\s+)?(?:number|count)\s+of\s+(.+?)\s+(?:is|equals)\s+(.+)$/i.exec(s) ??
    /^(.+?)\s+count\s+(?:is|equals)\s+(.+)$/i.exec(s);
  const match =
    (countOf?.[1] && countOf[2] ? ([s, '', `${countOf[2]} ${countOf[1]}`] as const) : undefined) ??
    /^(?:there\s+is|see|count|the page (?:has|shows|contains)|(?:the\s+)?(?:list|table|page)\s+(?:has|contains|shows))\s+(.+)$/i.exec(
      s,
    ) ??
    /^()(\d+\s+.+?)\s+(?:is\s+)?(?:visible|shown|displayed|present|on the page)$/i.exec(s);
  const phraseText = match?.[2] ?? match?.[1];
  if (!phraseText) return undefined;
  let rest = phraseText.trim();
  let comparison: CountComparison = 'eq';
  for (const [re, cmp] of comparisons) {
    if (re.test(rest)) {
      comparison = cmp;
      rest = rest.replace(re, '');
      break;
    }
  }
  const num =
    /^(\d+|zero|no|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty)\s+(.+)$/i.exec(
      rest,
    );
  if (!num?.[1] || !num[2]) return undefined;
  const count = numberOf(num[1]);
  if (count === undefined) return undefined;
  // "There are 2 items left": a counter's words, not elements to count.
  if (
    comparison === 'eq' &&
    /^\d+$/.test(num[1]) &&
    !containsQuote(num[2]) &&
    /^\w+\s+(?:left|remaining|to do|selected|completed|done|found|in (?:your |the )?(?:cart|basket))$/i.test(
      num[2].trim(),
    )
  ) {
    return { action: 'assertText', expected: unmask(`${num[1]} ${num[2].trim()}`, tokens), negate: false };
  }
  // A count works like an article: "2 items" names list items as "the items" does.
  const counted = num[2].replace(
    /\s+(?:on the page|visible|shown|displayed|in the list|in the table|listed)$/i,
    '',
  );
  const where = target(/^(?:the|a|an)\s/i.test(counted) ? counted : `the ${counted}`, tokens);
  if (!where) return undefined;
  // "there is one 'Welcome'" without a role is about text; counts need something countable.
  if (!where.role && !/^[#.[]|\s*>\s*/.test(where.name) && count !== 0 && !/s$/i.test(num[2]))
    return undefined;
  return { action: 'assertCount', target: where, count, comparison };
};

const valueAssertion: Rule = (s, tokens) => {
  const of =
    /^(?:the\s+)?value\s+of\s+(.+?)\s+(is not|is|equals|does not equal|contains|does not contain|starts with|ends with)\s+(.+)$/i.exec(
      s,
    );
  const has = /^(.+?)\s+(has|does not have)\s+(?:the\s+|a\s+)?value\s+(?:of\s+)?(.+)$/i.exec(s);
  const possessive =
    /^(.+?)(?:'s|’s)?\s+value\s+(is not|is|equals|contains|does not contain|starts with|ends with)\s+(.+)$/i.exec(
      s,
    );
  const filled = /^(.+?)\s+(is not|is)\s+(?:filled (?:in )?with|set to|filled with)\s+(.+)$/i.exec(s);
  const picked = of ?? possessive ?? filled;
  if (has?.[1] && has[2] && has[3]) {
    const where = subject(has[1], tokens);
    const value = valueOf(has[3], tokens);
    if (where && value !== undefined) {
      return {
        action: 'assertValue',
        target: where,
        mode: 'equals',
        expected: value,
        negate: /not/i.test(has[2]),
      };
    }
  }
  if (!picked?.[1] || !picked[2] || !picked[3]) return undefined;
  const where = subject(picked[1], tokens);
  const value = valueOf(picked[3], tokens);
  const mode =
    picked === filled ? { mode: 'equals' as const, negate: /not/i.test(picked[2]) } : modeOf(picked[2]);
  if (!where || value === undefined || !mode) return undefined;
  return { action: 'assertValue', target: where, ...mode, expected: value };
};

const FIELD_ROLES: ReadonlySet<TargetRole> = new Set(['textbox', 'combobox']);

const elementTextAssertion: Rule = (s, tokens) => {
  const textOf =
    /^(?:the\s+)?text\s+(?:of|in|inside)\s+(.+?)\s+(is not|is|equals|contains|does not contain|starts with|ends with)\s+(.+)$/i.exec(
      s,
    );
  const possessive =
    /^(.+?)(?:'s|’s)?\s+text\s+(is not|is|equals|contains|does not contain|starts with|ends with)\s+(.+)$/i.exec(
      s,
    );
  const verb =
    /^(.+?)\s+(does not contain|does not show|does not say|does not include|does not display|does not have text|does not have the text|contains|includes|shows|displays|says|reads|has text|has the text|is labell?ed|is titled|starts with|ends with|matches)\s+(.+)$/i.exec(
      s,
    );
  const fieldIs = new RegExp(`^(.+?)\\s+(is not|is)\\s+(${Q})$`, 'i').exec(s);
  const picked = textOf ?? possessive ?? verb;
  if (picked?.[1] && picked[2] && picked[3]) {
    const where = subject(picked[1], tokens);
    const text = valueOf(picked[3], tokens);
    if (!where || text === undefined) return undefined;
    const phrase = picked[2].toLowerCase();
    const core = phrase.replace(/^does not /, '');
    const whole = /^(?:has (?:the )?text|have (?:the )?text|is labell?ed|is titled|is|equals|reads)$/.test(
      core,
    );
    const partial = modeOf(core)?.mode;
    return {
      action: 'assertElementText',
      target: where,
      expected: text,
      mode: whole ? 'equals' : partial && partial !== 'equals' ? partial : 'contains',
      negate: /\bnot\b/.test(phrase),
    };
  }
  if (fieldIs?.[1] && fieldIs[2] && fieldIs[3]) {
    const where = subject(fieldIs[1], tokens);
    const value = quotedValue(fieldIs[3], tokens);
    if (!where?.role && where?.near === undefined) return undefined;
    if (value === undefined) return undefined;
    // "The email field is 'x'" is about its value; "the second item is 'Write tests'" and "the price
    // of 'Blue mug' is '€12'" are about the element's text.
    const field = where.role !== undefined && FIELD_ROLES.has(where.role);
    return {
      action: field ? 'assertValue' : 'assertElementText',
      target: where,
      mode: 'equals',
      expected: value,
      negate: /not/i.test(fieldIs[2]),
    };
  }
  return undefined;
};

const stateAssertion: Rule = (s, tokens) => {
  const exists =
    /^(.+?)\s+(exists|does not exist|appears|does not appear|shows up|disappears|is gone|is on the page|is not on the page|is (?:not )?(?:in|on) the (?:list|page|screen|table)(?: anymore| any more)?|is no longer (?:there|visible|shown|listed|in the list|on the page)|no longer (?:exists|appears|shows))(?:\s+on\s+the\s+(?:page|screen)|\s+anywhere(?:\s+on\s+the\s+(?:page|screen))?)?$/i.exec(
      s,
    );
  if (exists?.[1] && exists[2]) {
    const where = subject(exists[1], tokens);
    const hidden = /not|disappears|gone|no longer/i.test(exists[2]);
    return where ? { action: 'assertState', target: where, state: hidden ? 'hidden' : 'visible' } : undefined;
  }
  const there = /^there\s+is\s+(no|not any|a|an|one)\s+(.+)$/i.exec(s);
  if (there?.[1] && there[2]) {
    const where = target(there[2], tokens);
    return where
      ? { action: 'assertState', target: where, state: /^no|not/i.test(there[1]) ? 'hidden' : 'visible' }
      : undefined;
  }
  const match =
    /^(.+?)\s+(is not|is|looks|appears|seems)\s+(?:to\s+be\s+)?(not\s+)?(.+?)(?:\s+on\s+the\s+(?:page|screen))?$/i.exec(
      s,
    );
  if (!match?.[1] || !match[2] || !match[4]) return undefined;
  const negated = /not/i.test(match[2]) || Boolean(match[3]);
  const state = stateOf(match[4], negated);
  if (!state) return undefined;
  const where = subject(match[1], tokens);
  if (!where || /^(?:it|this|that|the page|page)$/i.test(where.name)) return undefined;
  // An open dialog is one on screen; a closed one is gone.
  if (where.role === 'dialog' && (state === 'expanded' || state === 'collapsed'))
    return { action: 'assertState', target: where, state: state === 'expanded' ? 'visible' : 'hidden' };
  // "The box is ticked": a box that is ticked or not is a checkbox.
  if ((state === 'checked' || state === 'unchecked') && where.role === 'textbox')
    return { action: 'assertState', target: { ...where, role: 'checkbox' }, state };
  return { action: 'assertState', target: where, state };
};

function assertionRules(s: string, tokens: readonly MaskToken[]): StepBody | undefined {
  for (const rule of [
    tableAssertion,
    titleAssertion,
    urlAssertion,
    pageTextAssertion,
    countAssertion,
    valueAssertion,
    stateAssertion,
    elementTextAssertion,
  ]) {
    const body = rule(s, tokens);
    if (body) return body;
  }
  return undefined;
}

const ACTION_RULES: readonly Rule[] = [
  // Widgets, means and purpose (widget-rules.ts): narrow rules, read before the general ones.
  ...WIDGET_RULES,
  (s, tokens) => meansAndPurpose((text) => parseStep(text, tokens))(s, tokens),
  ...EARLY_RULES,
  allItems,
  navigation,
  waiting,
  scrolling,
  keyPress,
  selecting,
  typing,
  clearing,
  checking,
  hovering,
  focusing,
  submitting,
  committing,
  removing,
  clicking,
  ...LATE_RULES,
];
const ASSERTION_RULE: Rule = (s, tokens) => assertionRules(s, tokens);
const ACTION_VERB_RE = new RegExp(`^${VERB_START}`, 'i');
