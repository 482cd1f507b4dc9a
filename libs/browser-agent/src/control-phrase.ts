import type { StepBody } from './step-types.js';

/**
 * The last reading of a step no rule understood: a short imperative whose words are the name of
 * the control that does it ("Create account", "delete the account", "Save the changes", "cancel
 * the confirmation", "Open Warranty"). People name buttons by what they do, so the step is a click
 * on the control the words name: first verb and object together ("Delete account"), then the
 * object alone when the verb only opens it ("Open Warranty" → "Warranty"), then the verb alone when
 * the object is the dialog or form it acts on ("cancel the confirmation" → "Cancel"). Only a verb
 * from the list below starts such a step, the object is at most four plain words, and the click
 * still has to find a control of that name on the page, so a sentence that means something else
 * fails as "no element matches" instead of doing something unasked.
 */

const VERBS = [
  'accept',
  'activate',
  'add',
  'apply',
  'approve',
  'archive',
  'book',
  'buy',
  'cancel',
  'checkout',
  'close',
  'complete',
  'confirm',
  'continue',
  'create',
  'deactivate',
  'decline',
  'delete',
  'disable',
  'discard',
  'dismiss',
  'download',
  'duplicate',
  'edit',
  'enable',
  'expand',
  'finish',
  'follow',
  'join',
  'like',
  'open',
  'order',
  'pay',
  'place',
  'proceed',
  'publish',
  'register',
  'reject',
  'remove',
  'rename',
  'reset',
  'restore',
  'retry',
  'save',
  'send',
  'share',
  'show',
  'start',
  'stop',
  'submit',
  'subscribe',
  'undo',
  'unfollow',
  'unsubscribe',
  'update',
  'upgrade',
  'view',
];

/** Verbs that only bring the named thing into view: "Open Warranty" is the control "Warranty". */
const OPENING_VERBS = new Set(['open', 'expand', 'show', 'view']);

/** Objects that are what the control acts on, not part of its name: "cancel the confirmation". */
const GENERIC_OBJECT_RE =
  /^(?:confirmation|dialog|popup|pop-up|modal|prompt|form|changes?|deletion|action|request|window|message|alert|banner|notice|order|selection)$/;

/** "Delete it", "delete everything": what the words point at is not a control's name. */
const POINTING_RE = /^(?:it|this|that|them|these|those|one|everything|all|anything|something)$/i;

const ARTICLE_RE = /^(?:the|a|an|my|your|our|their|his|her|its|this|that)$/;

/** "… in the popup", "… on the dialog": where the control is, not its name. */
const WHERE_RE =
  /\s+(?:in|on|from|of|inside|within)\s+(?:the\s+)?(?:popup|pop-up|dialog|modal|window|form|page|prompt|confirmation|banner|menu|toolbar|panel)$/i;

const STEP_RE = new RegExp(`^(${VERBS.join('|')})(?:\\s+(.+))?$`, 'i');

/** A word of a control's name: letters, digits, apostrophes and hyphens only (no quoted values). */
const PLAIN_WORD_RE = /^[\p{L}\p{N}][\p{L}\p{N}'’-]*$/u;

/** "Go to page 3 of the table": the pager's control for that page, a link or a button. */
const PAGE_RE =
  /^(?:go|move|navigate|skip|turn|switch|jump)\s+to\s+page\s+(\d{1,4})(?:\s+(?:of|in|on)\s+(?:the\s+)?(?:table|grid|list|results|search results))?$/i;

export function namedControlStep(canonical: string): StepBody | undefined {
  const page = PAGE_RE.exec(canonical.trim())?.[1];
  if (page)
    return {
      action: 'click',
      target: { name: page, alsoNamed: [`page ${page}`], control: true },
      clickCount: 1,
      button: 'left',
    };
  const trimmed = canonical.trim();
  const inDialog = WHERE_RE.test(trimmed);
  const match = STEP_RE.exec(trimmed.replace(WHERE_RE, ''));
  if (!match?.[1]) return undefined;
  const verb = match[1].toLowerCase();
  const words = (match[2] ?? '').split(/\s+/).filter(Boolean);
  if (words.length > 5 || !words.every((w) => PLAIN_WORD_RE.test(w))) return undefined;
  let object = words.filter((w) => !ARTICLE_RE.test(w.toLowerCase()));
  // "Confirm it in the popup": the popup's own button; elsewhere "delete it" points at an item.
  if (object.some((w) => POINTING_RE.test(w))) {
    if (!inDialog || object.length > 1) return undefined;
    object = [];
  }
  // A bare "open" or "show" names nothing; a bare "Save" or "Continue" is the button.
  if (object.length === 0 && OPENING_VERBS.has(verb)) return undefined;
  if (object.length > 4 || object.some((w) => /^(?:and|or|then|to|with|for|by|into)$/i.test(w)))
    return undefined;
  const objectText = object.join(' ');
  const generic =
    object.length === 0 || (object.length === 1 && GENERIC_OBJECT_RE.test(objectText.toLowerCase()));
  const names: string[] = [];
  if (object.length > 0) names.push(`${match[1]} ${objectText}`);
  if (object.length > 0 && !generic && OPENING_VERBS.has(verb)) names.push(objectText);
  if (generic) names.push(match[1]);
  const [name, ...alsoNamed] = names;
  if (!name) return undefined;
  return {
    action: 'click',
    target: { name, ...(alsoNamed.length > 0 ? { alsoNamed } : {}), control: true },
    clickCount: 1,
    button: 'left',
  };
}

/** Words a check in other words drops: the frame around what is said. */
const FRAME_WORD_RE =
  /^(?:a|an|the|me|us|you|to|for|on|in|at|of|and|or|with|that|it|is|are|be|my|your|our|their|his|her|its)$/i;
/** Verbs that only frame what is said ("it tells me to write to X"): the rest is what is said. */
const SAYING_VERBS = new Set(['tell', 'ask', 'show', 'say', 'display', 'mention', 'list', 'confirm', 'read']);

const SAID_RE =
  /^(?:and\s+)?(?:it|the page|the site|the app|the screen)\s+(?:should|must|will|does|shall)?\s*(?:now\s+|then\s+|also\s+)?(welcome|thank|greet|congratulate|tell|ask|show|say|display|mention|list|confirm|read)s?\s+(.{2,160})$/i;

/**
 * "It should thank Grace for notes.txt", "it should welcome Tom Baker (tom@example.com) on the Free
 * plan", "check that it tells me to write to help@example.com": what the page says, in the
 * writer's words. Read as a check that one element of the page says every word that matters, in
 * any order (see AssertTextStep.words); `plain` is the step with its quotes put back.
 */
export function saidInOtherWordsStep(plain: string): StepBody | undefined {
  const match = SAID_RE.exec(plain.trim().replace(/^(?:check|verify|make sure|ensure)\s+(?:that\s+)?/i, ''));
  if (!match?.[1] || !match[2]) return undefined;
  const verb = match[1].toLowerCase();
  const words = match[2]
    .replace(/["“”'‘’()[\]{},;:!?]/g, ' ')
    .replace(/\.(?=\s|$)/g, ' ')
    .split(/\s+/)
    .filter((w) => w && !FRAME_WORD_RE.test(w));
  if (!SAYING_VERBS.has(verb)) words.unshift(verb);
  if (words.length === 0 || words.length > 12) return undefined;
  return { action: 'assertText', expected: words.join(' '), negate: false, words: true };
}
