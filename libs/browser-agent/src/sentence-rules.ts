import { FILE_NAME_RE, type MaskToken, quotedValue, TOKEN_PATTERN, unmask } from './masked-text.js';
import type { StepBody, Target, TargetRole, TextTransform } from './step-types.js';
import { parseTarget, POSITION_WORDS, positionOf } from './target-phrase.js';

/**
 * Phrase rules for clauses people write inside longer sentences (see clause-grammar.ts). They sit
 * in their own file and are hooked into the parser's rule list in two places: `EARLY_RULES` before
 * the parser's own (they claim wordings the general click rule would misread), `LATE_RULES` after
 * them (only what nothing else reads).
 */
type Rule = (s: string, tokens: readonly MaskToken[]) => StepBody | undefined;

const Q = TOKEN_PATTERN.replace('[qu]', 'q');
const VALUE_CONTROLS: ReadonlySet<TargetRole> = new Set(['spinbutton', 'slider']);

/** "Select -3 with the spinner", "set 40 on the volume slider": a value for a number control. */
const controlValue: Rule = (s, tokens) => {
  const match =
    /^(?:select|set|choose|pick|enter|type|put|input)\s+(.+?)\s+(?:with|on|in|using|via|into)\s+(.+)$/i.exec(
      s,
    );
  if (!match?.[1] || !match[2]) return undefined;
  const where = parseTarget(match[2], tokens);
  if (!where?.role || !VALUE_CONTROLS.has(where.role)) return undefined;
  const value = quotedValue(match[1], tokens) ?? unmask(match[1], tokens).trim();
  if (!/^[-+]?\d+(?:[.,]\d+)?$/.test(value)) return undefined;
  return { action: 'type', value, target: where };
};

const NAMED_VALUE_RE = new RegExp(
  `^(?:type|enter|input|write|put|fill\\s+in)\\s+(?:the\\s+|your\\s+|my\\s+|a\\s+)?([a-z][a-z-]*(?:\\s[a-z][a-z-]*){0,2})\\s+(${Q})(?:\\s+(?:into|in|inside|on)\\s+(.+))?$`,
  'i',
);

/** "Enter the email ada@x.io", "type the zip code 10115": an unquoted one-word value after a field's usual name. */
const NAMED_PLAIN_VALUE_RE =
  /^(?:type|enter|input|write|put|fill\s+in)\s+(?:the\s+|your\s+|my\s+)(e-?mail(?:\s+address)?|user\s*name|password|first\s+name|last\s+name|phone(?:\s+number)?|zip(?:\s+code)?|post\s*code|postal\s+code|coupon(?:\s+code)?|promo\s+code|quantity|age|amount)\s+([^\s\uE000]+)$/i;

const namedPlainValue: Rule = (s) => {
  const match = NAMED_PLAIN_VALUE_RE.exec(s);
  if (!match?.[1] || !match[2]) return undefined;
  return { action: 'type', value: match[2], target: { name: match[1], role: 'textbox' } };
};

/**
 * "Enter the username "ada" (into the text fields)": the field named by what the value is. A
 * container ("the text fields", "the form") only tells the kind of field.
 */
const namedValue: Rule = (s, tokens) => {
  const match = NAMED_VALUE_RE.exec(s);
  if (!match?.[1] || !match[2]) return undefined;
  const value = quotedValue(match[2], tokens);
  if (value === undefined || /^(?:text|value|string|words?|phrase|message)$/i.test(match[1]))
    return undefined;
  // Groups 3 and 4 are the quote token's own; 5 is the container.
  const container = match[5] ? parseTarget(match[5], tokens) : undefined;
  if (match[5] && !container) return undefined;
  // "Enter the number "6" into the 2nd textbox": a container picked by its position is the field;
  // the word before the value only says what the value is.
  if (container && !container.all && container.nth !== undefined)
    return { action: 'type', value, target: container };
  const role = container?.role ?? 'textbox';
  // "Enter the password "x" into both text fields": every password field (the password and its
  // confirmation), or every field of the kind when the value is not a password.
  if (container?.all) {
    const every = /^pass(?:word|code|phrase)$/i.test(match[1].trim())
      ? { name: 'input[type="password"]' }
      : { name: '', role };
    return {
      action: 'type',
      value,
      target: { ...every, all: true, ...(container.count !== undefined ? { count: container.count } : {}) },
    };
  }
  return { action: 'type', value, target: { name: match[1], role } };
};

// ---------------------------------------------------------------------------------------------
// Values read from the page: remember, copy and paste, "the value of Color from the table".

/** "the value of Color from the table" (a heading), "the text in the textarea" (an element). */
function sourceOf(
  phrase: string,
  tokens: readonly MaskToken[],
): { label: string } | { target: Target; transforms?: TextTransform[] } | undefined {
  // "The 3rd word in the paragraph", "the last word of the text area".
  const word = new RegExp(
    `^(?:the\\s+)?(${POSITION_WORDS})\\s+word\\s+(?:of|in|from|inside)\\s+(.+)$`,
    'i',
  ).exec(phrase.trim());
  if (word?.[1] && word[2]) {
    const n = positionOf(word[1]);
    const target = parseTarget(word[2], tokens);
    return n !== undefined && target ? { target, transforms: [`word:${n}`] } : undefined;
  }
  const rest = phrase
    .trim()
    .replace(
      /^(?:the\s+)?(?:value|text|contents?|content|number|string)\s+(?:of|in|from|inside|shown in|written in)\s+/i,
      '',
    );
  const table = /^(.+?)\s+(?:from|in|of|on)\s+the\s+(?:[\w-]+\s+)?(?:table|grid|list|details)$/i.exec(rest);
  if (table?.[1]) {
    // "the Code value", "the Size shown": the column's name.
    const label = (quotedValue(table[1], tokens) ?? unmask(table[1], tokens))
      .replace(/^the\s+/i, '')
      .replace(/\s+(?:value|shown|listed|given|written|displayed)$/i, '')
      .trim();
    return label ? { label } : undefined;
  }
  const target = parseTarget(rest, tokens);
  return target ? { target } : undefined;
}

const NAME_RE = new RegExp(`^(?:[A-Za-z_][\\w-]{0,40}|${Q})$`);

function nameOf(raw: string | undefined, tokens: readonly MaskToken[]): string | undefined {
  if (raw === undefined || !NAME_RE.test(raw)) return undefined;
  return quotedValue(raw, tokens) ?? raw;
}

/** "Remember the order number as ORDER", "copy the text in the textarea", "store the total as T". */
const remembering: Rule = (s, tokens) => {
  const named =
    /^(?:remember|store|save|note(?:\s+down)?|keep|read|copy|grab|capture|memori[sz]e)\s+(.+?)\s+as\s+(\S+)$/i.exec(
      s,
    );
  const plain = /^(?:remember|copy|note(?:\s+down)?|memori[sz]e|keep track of)\s+(.+)$/i.exec(s);
  const phrase = named?.[1] ?? plain?.[1];
  if (!phrase) return undefined;
  const source = sourceOf(phrase, tokens);
  if (!source) return undefined;
  const explicit = nameOf(named?.[2], tokens);
  if (named && !explicit) return undefined;
  const name =
    explicit ??
    (/^copy\b/i.test(s)
      ? 'clipboard'
      : 'label' in source
        ? source.label.toLowerCase()
        : source.target.name.toLowerCase() || 'value');
  return { action: 'readValue', ...source, name };
};

/** "Paste it into the box": what was copied, typed into the field. */
const pasting: Rule = (s, tokens) => {
  const match =
    /^paste(?:\s+(?:it|that|this|them|the\s+(?:copied\s+)?(?:text|value)))?(?:\s+(?:into|in|to|on)\s+(.+))?$/i.exec(
      s,
    );
  if (!match) return undefined;
  const where = match[1] ? parseTarget(match[1], tokens) : undefined;
  if (match[1] && !where) return undefined;
  return { action: 'type', value: '', valueFrom: 'clipboard', ...(where ? { target: where } : {}) };
};

/**
 * "Enter the value of Color from the table into the field", "copy the email into the Confirm
 * field": read, then type. Two steps from one clause.
 */
export function valueSteps(s: string, tokens: readonly MaskToken[]): StepBody[] | undefined {
  const match =
    /^(type|enter|input|put|write|paste|fill\s+in|copy)\s+(the\s+(?:value|text|contents?|content)\s+(?:of|in|from|inside)\s+.+?|the\s+[A-Za-z][\w-]*(?:\s+[A-Za-z][\w-]*)?\s+(?:shown|listed|given|written|displayed)\s+in\s+the\s+(?:table|grid))\s+(?:into|in|to)\s+(.+)$/i.exec(
      s,
    ) ?? /^(copy)\s+(.+?)\s+(?:into|to)\s+(.+)$/i.exec(s);
  if (!match?.[2] || !match[3]) return undefined;
  const source = sourceOf(match[2], tokens);
  const where = parseTarget(match[3], tokens);
  if (!source || !where) return undefined;
  const name = 'label' in source ? source.label : /^copy$/i.test(match[1] ?? '') ? 'clipboard' : 'value';
  return [
    { action: 'readValue', ...source, name },
    { action: 'type', value: '', valueFrom: name, target: where },
  ];
}

/**
 * "Highlight the text in the paragraph below", "highlight "nec" in the paragraph", "select the
 * whole text of the note": text selected as a person drags over it.
 */
const HIGHLIGHT_RE = new RegExp(
  `^(highlight|mark|select)\\s+(?:(${Q})|(?:all\\s+(?:of\\s+)?)?(?:the\\s+)?(?:whole\\s+|entire\\s+)?(?:text|words|sentence|contents?))\\s+(?:in|of|inside|within)\\s+(.+)$`,
  'i',
);
const highlighting: Rule = (s, tokens) => {
  const match = HIGHLIGHT_RE.exec(s);
  const phrase = match?.[5];
  if (!match?.[1] || !phrase) return undefined;
  const where = parseTarget(phrase, tokens);
  if (!where) return undefined;
  const quoted = match[2] ? quotedValue(match[2], tokens) : undefined;
  // "Select "Blue" in the Color list" is a choice; only text holders take a selected text.
  if (/^select$/i.test(match[1]) && (quoted !== undefined || where.role === 'editor')) {
    if (where.role !== 'editor' && where.name !== 'p') return undefined;
    if (quoted === undefined) return undefined;
  }
  return { action: 'select', option: quoted ?? '', target: where };
};

/** "Drag Item 3 to the 1st position", "move "Milk" to the top", "drag the card onto "Done"". */
const DRAG_RE = new RegExp(
  `^(?:drag(?:\\s+and\\s+drop)?|move|reorder)\\s+(.+?)\\s+(?:to|onto|into|on|over|in|up\\s+to|down\\s+to)\\s+(?:the\\s+)?(?:(${POSITION_WORDS})\\s+(?:position|place|spot|slot)|(top|bottom|start|end|beginning)(?:\\s+of\\s+the\\s+list)?|(.+))$`,
  'i',
);
const dragging: Rule = (s, tokens) => {
  const match = DRAG_RE.exec(s);
  if (!match?.[1]) return undefined;
  const what = parseTarget(match[1], tokens);
  if (!what) return undefined;
  if (match[2]) {
    const n = positionOf(match[2]);
    return n === undefined ? undefined : { action: 'drag', target: what, toPosition: n };
  }
  if (match[3])
    return { action: 'drag', target: what, toPosition: /^(?:top|start|beginning)$/i.test(match[3]) ? 1 : -1 };
  // "Move to the cart page" is not a drag: the drop place must be an element a rule can name.
  if (/^move$/i.test(s.split(/\s/)[0] ?? '') && !containsQuoteToken(match[1])) return undefined;
  const onto = match[4] ? parseTarget(match[4], tokens) : undefined;
  if (!onto) return undefined;
  // "to the Done column", "onto the Archive lane": the place may be named without its noun.
  const zone = DROP_ZONE_RE.exec(onto.name);
  return { action: 'drag', target: what, to: zone?.[1] ? { ...onto, alsoNamed: [zone[1]] } : onto };
};
const DROP_ZONE_RE =
  /^(.+?)\s+(?:column|lane|list|section|panel|area|zone|bucket|group|stage|box|folder|bin|pile|category)$/i;
const containsQuoteToken = (text: string) => new RegExp(Q).test(text);

/**
 * "Upload a file named "cv.pdf" to "Attach your CV"", "attach a text file called notes.txt as the
 * CV", "Upload "photo.png"": the file's name, and where it goes when said.
 */
/** An unquoted file name ("notes.txt"): a word, a dot, a known extension. */
const FILE_NAME_WORD = '[\\w-]+(?:\\.[\\w-]+)*\\.[a-z0-9]{2,5}';
const FILE_NOUN =
  '(?:(?:a|an|the|one)\\s+)?(?:(?:text|pdf|image|word|csv|json|zip|small|sample|test|dummy)\\s+)?(?:file|document|attachment|image|photo|picture)\\s+(?:named|called|with the name)\\s+';
const UPLOAD_RE = new RegExp(
  `^(?:(?:upload|attach)\\s+(?:${FILE_NOUN})?|(?:choose|select|add|pick)\\s+${FILE_NOUN})(?<file>${Q}|${FILE_NAME_WORD})(?:\\s+(?:to|into|in|as|for|using|with|via|on)\\s+(?<place>.+))?$`,
  'i',
);
const uploading: Rule = (s, tokens) => {
  const { file, place: written } = UPLOAD_RE.exec(s)?.groups ?? {};
  if (!file) return undefined;
  const fileName = (quotedValue(file, tokens) ?? file).trim();
  if (!FILE_NAME_RE.test(fileName)) return undefined;
  const place = written?.replace(/^(?:the\s+)?(?:file\s+)?(?:field|input|picker)\s+/i, '');
  const where = place ? parseTarget(place, tokens) : undefined;
  if (place && !where) return undefined;
  return { action: 'upload', fileName, ...(where ? { target: where } : {}) };
};

const GROW_WORDS: Readonly<Record<string, ['width' | 'height' | 'both', boolean]>> = {
  taller: ['height', true],
  higher: ['height', true],
  shorter: ['height', false],
  lower: ['height', false],
  wider: ['width', true],
  broader: ['width', true],
  narrower: ['width', false],
  thinner: ['width', false],
  bigger: ['both', true],
  larger: ['both', true],
  greater: ['both', true],
  smaller: ['both', false],
  less: ['both', false],
};
const GROW = Object.keys(GROW_WORDS).join('|');

/**
 * "Resize the textarea so that the width is smaller than its initial width", "make the Notes box
 * taller by dragging its corner down", "resize the editor to be wider".
 */
const RESIZE_RE = new RegExp(
  `^(?:resize\\s+(?<a>.+?)\\s+(?:so\\s+(?:that\\s+)?(?:(?:its|the)\\s+(?<dim>width|height|size)\\s+is|it\\s+is)|to\\s+(?:be|make\\s+it)|making\\s+it)\\s+(?<grow>${GROW})(?:\\s+than\\s+.{1,40})?|make\\s+(?<b>.+?)\\s+(?<grow2>${GROW})(?:\\s+than\\s+.{1,40})?(?:\\s+by\\s+(?:dragging|pulling)\\s+(?:its|the)\\s+(?:(?:bottom(?:-|\\s)right\\s+)?corner|handle|edge|resize\\s+handle|grip)(?:\\s+(?:down|up|right|left|outwards?|inwards?))?)?)$`,
  'i',
);
const resizing: Rule = (s, tokens) => {
  const groups = RESIZE_RE.exec(s)?.groups;
  const written = groups?.a ?? groups?.b;
  const grow = (groups?.grow ?? groups?.grow2)?.toLowerCase();
  if (!written || !grow) return undefined;
  const target = parseTarget(written, tokens);
  const [dimension, larger] = GROW_WORDS[grow] ?? ['both', true];
  const said = groups?.dim?.toLowerCase();
  if (!target) return undefined;
  return {
    action: 'resize',
    target,
    dimension: said === 'width' || said === 'height' ? said : dimension,
    grow: larger,
  };
};

export const EARLY_RULES: readonly Rule[] = [
  resizing,
  controlValue,
  pasting,
  remembering,
  highlighting,
  dragging,
  uploading,
];
export const LATE_RULES: readonly Rule[] = [namedValue, namedPlainValue];

// ---------------------------------------------------------------------------------------------
// "Tick the second and the fourth checkboxes": one verb, several ordinals, one kind named once.

const ORDINAL_LIST_RE = new RegExp(
  `^(check|uncheck|tick|untick|click|tap|select|clear|open|expand|collapse)\\s+(?:on\\s+)?the\\s+(${POSITION_WORDS}(?:\\s*,\\s*(?:the\\s+)?${POSITION_WORDS})*)\\s*,?\\s+and\\s+(?:the\\s+)?(${POSITION_WORDS})\\s+([a-z][a-z -]{1,30}?)$`,
  'i',
);

/** The singular of a kind written in the plural ("checkboxes", "boxes", "links", "radio buttons"). */
function singular(noun: string): string {
  const word = noun.trim();
  if (/(?:x|ch|sh|ss)es$/i.test(word)) return word.slice(0, -2);
  return /[^s]s$/i.test(word) ? word.slice(0, -1) : word;
}

/**
 * One step per ordinal, each read by `read` as "<verb> the <ordinal> <kind>": "tick the second and
 * the fourth checkboxes" is "tick the second checkbox" then "tick the fourth checkbox".
 */
export function ordinalListSteps(
  s: string,
  read: (text: string) => StepBody | undefined,
): StepBody[] | undefined {
  const match = ORDINAL_LIST_RE.exec(s);
  if (!match?.[1] || !match[2] || !match[3] || !match[4]) return undefined;
  const ordinals = [...match[2].split(/\s*,\s*(?:the\s+)?/i), match[3]];
  const kind = singular(match[4]);
  const steps = ordinals.map((ordinal) => read(`${match[1]} the ${ordinal} ${kind}`));
  return steps.every(
    (step): step is StepBody => step !== undefined && 'target' in step && step.target?.nth !== undefined,
  )
    ? steps
    : undefined;
}

const STARTS_ENDS_RE = new RegExp(
  `^(?:enter|type|choose|select|pick|input|find)\\s+an?\\s+(?:item|entry|option|value|word|name|country|city|suggestion|tag)\\s+(?:that|which)\\s+(?:starts|begins)\\s+with\\s+(${Q})\\s+and\\s+ends\\s+with\\s+(${Q})(?:\\s+(?:in|into)\\s+(.+))?$`,
  'i',
);

/**
 * "Enter an item that starts with "Ant" and ends with "ua"": type the start into the field, then
 * pick the suggestion that ends so. Two steps from one clause.
 */
export function startsEndsSteps(s: string, tokens: readonly MaskToken[]): StepBody[] | undefined {
  const match = STARTS_ENDS_RE.exec(s);
  if (!match?.[1] || !match[4]) return undefined;
  const head = quotedValue(match[1], tokens);
  const tail = quotedValue(match[4], tokens);
  const where = match[7] ? parseTarget(match[7], tokens) : { name: '', role: 'textbox' as const };
  if (!head || tail === undefined || !where) return undefined;
  return [
    { action: 'type', value: head, target: where },
    { action: 'select', option: `${head}…${tail}`, target: { name: 'suggestions' } },
  ];
}
