import { containsQuote, type MaskToken, unmask, TOKEN_PATTERN } from './masked-text.js';
import type { Target, TargetRole } from './step-types.js';

/**
 * Words people use for kinds of elements. `undefined` marks nouns that say nothing about the role
 * ("element", "text") and are simply dropped from the name. Longer phrases come first so "radio
 * button" wins over "button".
 */
const ROLE_WORDS: ReadonlyArray<readonly [string, TargetRole | undefined]> = [
  ['column headers', 'columnheader'],
  ['column header', 'columnheader'],
  ['column headings', 'columnheader'],
  ['column heading', 'columnheader'],
  ['spin buttons', 'spinbutton'],
  ['spin button', 'spinbutton'],
  ['spinbutton', 'spinbutton'],
  ['spinners', 'spinbutton'],
  ['spinner', 'spinbutton'],
  ['steppers', 'spinbutton'],
  ['stepper', 'spinbutton'],
  ['slider handles', 'slider'],
  ['slider handle', 'slider'],
  ['slider thumb', 'slider'],
  ['range sliders', 'slider'],
  ['range slider', 'slider'],
  ['sliders', 'slider'],
  ['slider', 'slider'],
  ['searchbox', 'searchbox'],
  ['tree items', 'treeitem'],
  ['tree item', 'treeitem'],
  ['treeitem', 'treeitem'],
  ['rich text editor', 'editor'],
  ['text editors', 'editor'],
  ['text editor', 'editor'],
  ['editors', 'editor'],
  ['editor', 'editor'],
  ['tables', 'table'],
  ['table', 'table'],
  ['radio buttons', 'radio'],
  ['radio button', 'radio'],
  ['radio options', 'radio'],
  ['radio option', 'radio'],
  ['radios', 'radio'],
  ['radio', 'radio'],
  ['check boxes', 'checkbox'],
  ['check box', 'checkbox'],
  ['checkboxes', 'checkbox'],
  ['checkbox', 'checkbox'],
  ['tick boxes', 'checkbox'],
  ['tick box', 'checkbox'],
  ['tickbox', 'checkbox'],
  ['menu items', 'menuitem'],
  ['menu item', 'menuitem'],
  ['menuitem', 'menuitem'],
  ['list items', 'listitem'],
  ['list item', 'listitem'],
  ['items', 'listitem'],
  ['item', 'listitem'],
  ['entries', 'listitem'],
  ['todos', 'listitem'],
  ['todo', 'listitem'],
  ['tasks', 'listitem'],
  ['task', 'listitem'],
  ['text fields', 'textbox'],
  ['text field', 'textbox'],
  ['text boxes', 'textbox'],
  ['text box', 'textbox'],
  ['textboxes', 'textbox'],
  ['textbox', 'textbox'],
  ['text areas', 'textbox'],
  ['text area', 'textbox'],
  ['textarea', 'textbox'],
  ['text inputs', 'textbox'],
  ['text input', 'textbox'],
  ['input fields', 'textbox'],
  ['input field', 'textbox'],
  ['input boxes', 'textbox'],
  ['input box', 'textbox'],
  ['fields', 'textbox'],
  ['field', 'textbox'],
  ['inputs', 'textbox'],
  ['input', 'textbox'],
  ['box', 'textbox'],
  ['bar', 'textbox'],
  ['drop-downs', 'combobox'],
  ['drop-down', 'combobox'],
  ['drop downs', 'combobox'],
  ['drop down', 'combobox'],
  ['dropdowns', 'combobox'],
  ['dropdown', 'combobox'],
  ['select boxes', 'combobox'],
  ['select box', 'combobox'],
  ['select', 'combobox'],
  ['combo boxes', 'combobox'],
  ['combo box', 'combobox'],
  ['comboboxes', 'combobox'],
  ['combobox', 'combobox'],
  ['list box', 'combobox'],
  ['listbox', 'combobox'],
  ['picker', 'combobox'],
  ['buttons', 'button'],
  ['button', 'button'],
  ['btn', 'button'],
  ['hyperlinks', 'link'],
  ['hyperlink', 'link'],
  ['links', 'link'],
  ['link', 'link'],
  ['headings', 'heading'],
  ['heading', 'heading'],
  ['headline', 'heading'],
  ['header', 'heading'],
  ['images', 'img'],
  ['image', 'img'],
  ['img', 'img'],
  ['pictures', 'img'],
  ['picture', 'img'],
  ['photo', 'img'],
  ['tabs', 'tab'],
  ['tab', 'tab'],
  ['toggles', 'switch'],
  ['toggle', 'switch'],
  ['switches', 'switch'],
  ['switch', 'switch'],
  ['options', 'option'],
  ['option', 'option'],
  ['rows', 'row'],
  ['row', 'row'],
  ['cells', 'cell'],
  ['cell', 'cell'],
  ['dialog', 'dialog'],
  ['modal', 'dialog'],
  ['popup', 'dialog'],
  ['filters', undefined],
  ['filter', undefined],
  ['menu', undefined],
  ['section', undefined],
  ['panel', undefined],
  ['area', undefined],
  ['region', undefined],
  ['messages', undefined],
  ['message', undefined],
  ['elements', undefined],
  ['element', undefined],
  ['text', undefined],
  ['label', undefined],
  ['icon', undefined],
];

/** Words that join a role to a name: "the button labelled Save", "the link with text Docs". */
const CONNECTOR_RE =
  /^(?:(?:that|which)\s+(?:says|reads|is\s+called|is\s+named|is\s+labell?ed)|named|called|labell?ed|titled|saying|reading|marked|with\s+(?:the\s+)?(?:text|label|name|title|caption|placeholder|aria-label|alt(?:\s+text)?)(?:\s+of)?|for)\s+/i;

const ORDINALS: Readonly<Record<string, number>> = {
  first: 1,
  second: 2,
  third: 3,
  fourth: 4,
  fifth: 5,
  sixth: 6,
  seventh: 7,
  eighth: 8,
  ninth: 9,
  tenth: 10,
  eleventh: 11,
  twelfth: 12,
  thirteenth: 13,
  fourteenth: 14,
  fifteenth: 15,
  sixteenth: 16,
  seventeenth: 17,
  eighteenth: 18,
  nineteenth: 19,
  twentieth: 20,
  last: -1,
};

const ORDINAL_WORD =
  '(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|thirteenth|fourteenth|fifteenth|sixteenth|seventeenth|eighteenth|nineteenth|twentieth|\\d{1,3}(?:st|nd|rd|th))';
/**
 * A position: "second", "2nd", "last", and from the end "second-to-last", "next to last",
 * "penultimate", "last but one", "third from last". Group 1 is the whole position.
 */
export const POSITION_WORDS = `(?:(?:${ORDINAL_WORD}|next)[- ](?:to|from)[- ]last|${ORDINAL_WORD}[- ]last|penultimate|last[- ]but[- ](?:one|two|three)|${ORDINAL_WORD}|last)`;
const POSITION = `(${POSITION_WORDS})`;
const POSITION_START_RE = new RegExp(`^${POSITION}\\s+`, 'i');
const FROM_END_RE = /\s+(?:from|counting from)\s+the\s+(?:end|bottom|last)$/i;

/** 1-based position, negative from the end (-1 the last, -2 the one before it), of a position phrase. */
export function positionOf(phrase: string): number | undefined {
  const text = phrase
    .toLowerCase()
    .replace(/[-\s]+/g, ' ')
    .trim();
  const ordinal = (word: string): number | undefined =>
    /^\d/.test(word) ? Number.parseInt(word, 10) || undefined : ORDINALS[word];
  if (text === 'penultimate') return -2;
  const butLast = /^last but (one|two|three)$/.exec(text);
  if (butLast?.[1]) return -1 - ({ one: 1, two: 2, three: 3 } as Record<string, number>)[butLast[1]]!;
  const fromEnd = /^(\S+) (?:(?:to|from) )?last$/.exec(text);
  if (fromEnd?.[1]) {
    const n = fromEnd[1] === 'next' ? 2 : ordinal(fromEnd[1]);
    return n === undefined ? undefined : n === 1 ? -1 : -n;
  }
  return ordinal(text);
}

const QUOTE_TOKEN_RE = new RegExp(TOKEN_PATTERN.replace('[qu]', 'q'));
const CSS_LIKE_RE = /^(?:[#.[][^\s]|[a-z][a-z0-9-]*(?:[#.[:]|\s*>\s*)|\*)/i;
const ARTICLE_RE = /^(?:the|a|an|this|that|my|our|your|its|some|any)\s+/i;

const SCOPE_RE =
  /\s+(?:inside|within|in|on|under)\s+the\s+[\w\s-]*?(?:dialog|modal|form|header|footer|section|panel|sidebar|menu|navigation|nav|toolbar|page|screen|list|table|popup|card)$/i;

/** Role words that are also common in names ("Add item", "Select all"), so they need an article. */
const WEAK_ROLE_WORDS = new Set([
  'tables',
  'table',
  'editors',
  'editor',
  'sliders',
  'slider',
  'spinners',
  'spinner',
  'steppers',
  'stepper',
  'filters',
  'filter',
  'todos',
  'todo',
  'tasks',
  'task',
  'items',
  'item',
  'entries',
  'box',
  'bar',
  'text',
  'label',
  'icon',
  'select',
  'options',
  'option',
  'header',
  'headline',
  'cell',
  'cells',
  'row',
  'rows',
  'picture',
  'pictures',
  'photo',
  'element',
  'elements',
  'message',
  'messages',
  'menu',
  'section',
  'panel',
  'area',
  'region',
  'tab',
  'tabs',
  'toggle',
  'switch',
]);

// "Next to", "beside", "in the row with", and (before a quoted text) "for" and "of": the element is
// named by what sits beside it.
const NEAR_CORE =
  '(?:(?:that\\s+is\\s+|which\\s+is\\s+)?(?:right\\s+|just\\s+|directly\\s+)?(?:next\\s+to(?!\\s+last\\b)|beside|besides|alongside|near)|(?:in|on|inside|within|from|at)\\s+(?:the\\s+)?(?:same\\s+)?(?:table\\s+row|list\\s+item|row|line|item|entry|card|tile|record|listing|task|todo)(?:\\s+(?:of|for|with|containing|that\\s+(?:has|contains|says|shows|reads)|which\\s+(?:has|contains|says|shows)|saying|reading|showing|labell?ed|named|called))?)';
const NEAR_NOUNS = '(?:(?:item|row|entry|task|todo|text|one|user|product|person|card|line|label)\\s+)?';
const NEAR_RE = new RegExp(`^(.+?)\\s+${NEAR_CORE}\\s+(?:the\\s+)?${NEAR_NOUNS}(.+)$`, 'i');
const NEAR_QUOTED_RE = new RegExp(
  `^(.+?)\\s+(?:for|of)\\s+(?:the\\s+)?${NEAR_NOUNS}(${TOKEN_PATTERN.replace('[qu]', 'q')})(?:\\s+(?:item|row|entry|task|todo|card|line))?$`,
  'i',
);

const NEAR_ROW_RE = new RegExp(
  `^(.+?)\\s+(?:in|on|inside|within|from)\\s+(?:the\\s+)?(${TOKEN_PATTERN.replace('[qu]', 'q')})\\s+(?:row|item|entry|card|line|task|todo|list item|table row|tile|record)$`,
  'i',
);

// "The archive button in the last row", "Edit on the second card": the row named by its position.
const IN_NTH_ROW_RE = new RegExp(
  `^(.+?)\\s+(?:in|on|inside|within|from|of|for)\\s+the\\s+${POSITION}\\s+(?:row|item|entry|card|line|task|todo|list\\s+item|table\\s+row|record|tile)$`,
  'i',
);

/** Splits "the checkbox next to 'Buy milk'" into the element phrase and the text it sits next to. */
function splitNear(text: string, tokens: readonly MaskToken[]): { rest: string; near?: string } {
  const match = NEAR_ROW_RE.exec(text) ?? NEAR_QUOTED_RE.exec(text) ?? NEAR_RE.exec(text);
  if (!match?.[1] || !match[2]) return { rest: text };
  const anchorPhrase = match[2].trim();
  const quoted = QUOTE_TOKEN_RE.exec(anchorPhrase);
  const near = quoted
    ? unmask(quoted[0], tokens)
    : unmask(anchorPhrase.replace(/\s+(?:item|row|entry|task|todo|card|line|text)$/i, ''), tokens).trim();
  if (!near) return { rest: text };
  return { rest: match[1].trim(), near };
}

/**
 * Reads an element description: "the Submit button", "the 'Remember me' checkbox", "the link Learn
 * more", "the second 'Delete' button", "#login .submit". Returns undefined for an empty phrase.
 * A trailing "in the dialog" scope is dropped: the locator searches the whole page.
 */
/** What shows a page is busy ("wait until the loading spinner disappears"). */
export const LOADING_INDICATOR =
  '[role="progressbar"], [aria-busy="true"], .spinner, .loader, .loading, [class*="spinner"], [class*="loader"]';
const LOADING_RE =
  /^(?:the\s+|a\s+)?(?:loading\s+(?:spinner|indicator|icon|bar|animation|overlay|wheel)|loader|throbber|busy\s+indicator)$/i;

const ANY_PAGE_RE = /^(.+?)\s+(?:on|in)\s+(?:any|whichever|whatever)\s+page(?:\s+it\s+is\s+on)?$/i;

export function parseTarget(phrase: string, tokens: readonly MaskToken[]): Target | undefined {
  if (LOADING_RE.test(phrase.trim().replace(/[.,;:!?]+$/, ''))) return { name: LOADING_INDICATOR };
  // "The color picker": the page's colour input.
  if (/^(?:the\s+|a\s+)?colou?r[- ]?(?:picker|wheel|chooser|selector|input|field|well)$/i.test(phrase.trim()))
    return { name: 'input[type="color"]' };
  // "Edit next to "Bob" on any page": the pager is followed until the page shows it.
  const anyPage = ANY_PAGE_RE.exec(phrase.trim().replace(/[.,;:!?]+$/, ''));
  if (anyPage?.[1]) {
    const inner = parseTarget(anyPage[1], tokens);
    return inner && !inner.all ? { ...inner, paged: true } : undefined;
  }
  const every = everyTarget(phrase.trim().replace(/[.,;:!?]+$/, ''), tokens);
  if (every) return every;
  let text = phrase
    .trim()
    .replace(/[.,;:!?]+$/, '')
    .replace(SCOPE_RE, '')
    .trim();
  // "The text area below", "the paragraph above": where it sits on screen, not part of its name.
  text = text.replace(/\s+(?:below|above|underneath|beneath|down\s+below|up\s+above)$/i, '').trim();
  if (!text) return undefined;
  // "The red box", "the green Save button", "a blue circle": the colour is how it is told apart.
  const colored = new RegExp(
    `^(?:the\\s+|a\\s+|an\\s+)?(?:(${POSITION_WORDS})\\s+)?(?:(large|big|small|tiny)\\s+)?(${COLOR_WORDS})(?:[- ]colou?red)?\\s+(?:(.+?)\\s+)?(box|square|circle|shape|rectangle|triangle|block|tile|one|area|button|link|item)$`,
    'i',
  ).exec(text);
  // "The Red Sox link": a capitalised colour before a capitalised word is part of a name.
  const [, position, size, colorWord, named, nounWord] = colored ?? [];
  const nameLike = colorWord && named && /^[A-Z]/.test(colorWord) && /^[A-Z\uE000]/.test(named);
  if (
    colorWord &&
    nounWord &&
    !nameLike &&
    (!size || /^(?:square|circle|rectangle|triangle|box|shape)$/i.test(nounWord))
  ) {
    const noun = nounWord.toLowerCase();
    const name = named
      ? unmask(named, tokens)
          .trim()
          .replace(/^["'“]|["'”]$/g, '')
      : '';
    const role = noun === 'button' ? 'button' : noun === 'link' ? 'link' : undefined;
    const n = position ? positionOf(position) : undefined;
    // "A large red circle": a drawn shape of that colour (the locator's shape strategy).
    const shape =
      !name && /^(?:square|circle|rectangle|triangle)$/.test(noun)
        ? `${size ? `${size.toLowerCase()} ` : ''}${noun}`
        : name;
    return {
      name: shape,
      ...(role ? { role } : {}),
      color: colorWord.toLowerCase(),
      ...(n !== undefined ? { nth: n } : {}),
    } as Target;
  }
  // "The paragraph", "the second paragraph": a <p>.
  const paragraph = new RegExp(`^(?:the\\s+)?(?:(${POSITION_WORDS})\\s+)?paragraph$`, 'i').exec(text);
  if (paragraph) {
    const n = paragraph[1] ? positionOf(paragraph[1]) : undefined;
    return n === undefined ? { name: 'p' } : { name: 'p', nth: n };
  }
  // "The date picker", "the appointment date picker": the date field it belongs to
  // (the locator finds it as a date input or a field that says it holds a date).
  const datePicker = /^(?:the\s+)?(?:(.+?)\s+)?(?:date\s*picker|date)$/i.exec(text);
  if (datePicker && !containsQuote(text)) {
    const qualifier = datePicker[1] ? unmask(datePicker[1], tokens).trim() : '';
    if (!/\b(?:the|a|an)\b/i.test(qualifier)) return { name: qualifier ? `${qualifier} date` : 'date' };
  }
  // "Tab #2": the second tab (tabs are often numbered by their place).
  const numberedTab = /^(?:the\s+)?tab\s*(?:#|no\.?|number)\s*(\d{1,2})$/i.exec(text);
  if (numberedTab?.[1]) return { name: '', role: 'tab', nth: Number(numberedTab[1]) };
  // 'A "checkbox" widget': any element of that kind.
  const widget = new RegExp(
    `^(?:the\\s+|a\\s+|an\\s+|any\\s+)?(${QUOTE_TOKEN_RE.source})\\s+(?:widget|element|control)$`,
    'i',
  ).exec(text);
  if (widget?.[1]) {
    const kind = unmask(widget[1], tokens).trim().toLowerCase();
    const role = /^(?:text|input|textbox|text ?field|text ?input)$/.test(kind)
      ? 'textbox'
      : roleOf(kind).role;
    if (role)
      return kind.replace(/\s+/g, '') === 'textarea'
        ? { name: 'textarea', role: 'textbox' }
        : { name: '', role };
  }
  const inRow = IN_NTH_ROW_RE.exec(phrase.trim().replace(/[.,;:!?]+$/, ''));
  if (inRow?.[1] && inRow[2]) {
    const inner = parseTarget(inRow[1], tokens);
    const position = positionOf(inRow[2]);
    return inner && position ? { ...inner, inRow: position } : undefined;
  }
  const { rest, near } = splitNear(text, tokens);
  if (near !== undefined) {
    const inner = parseTarget(rest, tokens);
    return inner ? { ...inner, near } : undefined;
  }

  const raw = unmask(text, tokens).trim();
  if (!containsQuote(text) && CSS_LIKE_RE.test(raw) && !/\s[a-z]+\s[a-z]+/i.test(raw)) {
    return { name: raw };
  }

  const article = ARTICLE_RE.exec(text);
  const hadArticle = article !== null;
  if (article) text = text.slice(article[0].length);
  let nth: number | undefined;
  const ordinal = POSITION_START_RE.exec(text);
  // "Last name" is a name; "the last link" is a position; "the Last name field" a name again.
  // "the first name" of a form is its First name field, not the first of the "name" fields.
  if (
    ordinal?.[1] &&
    hadArticle &&
    !/^[A-Z][a-z]/.test(ordinal[1]) &&
    !/^(?:first|last|middle)\s+name(?:\s+(?:field|box|input|text\s*box))?$/i.test(text)
  ) {
    nth = positionOf(ordinal[1]);
    text = text.slice(ordinal[0].length);
    // "The second text box from the end".
    const fromEnd = FROM_END_RE.exec(text);
    if (fromEnd && nth !== undefined && nth > 0) {
      nth = nth === 1 ? -1 : -nth;
      text = text.slice(0, fromEnd.index);
    }
  }
  const strong = hadArticle || nth !== undefined;

  const quote = QUOTE_TOKEN_RE.exec(text);
  if (quote) {
    const name = unmask(quote[0], tokens);
    const rest = `${text.slice(0, quote.index)} ${text.slice(quote.index + quote[0].length)}`;
    // "The item labeled "b"": an item of any kind (a menu's, a pie menu's, a list's).
    const word = firstRoleWord(rest);
    return withNth({ name, ...(word && /^items?$/i.test(word) ? {} : roleOf(word)) }, nth, undefined, true);
  }

  // "Paste it into the Box": a role word written as a name (capitalised after "the") is the
  // control's name, of that role.
  if (hadArticle && nth === undefined && /^[A-Z][a-z]+$/.test(text.trim())) {
    const role = roleOf(text.trim()).role;
    if (role && role !== 'listitem') return { name: text.trim(), role };
  }
  // Role first: "the button Submit", "link labelled Learn more".
  const leading = leadingRoleWord(text, strong);
  if (leading) {
    const name = text.slice(leading.length).trim().replace(CONNECTOR_RE, '').trim();
    return withNth({ name: unmask(name, tokens), ...roleOf(leading) }, nth, leading);
  }
  // Role last: "Submit button", "email field".
  const trailing = trailingRoleWord(text, strong);
  if (trailing) {
    const name = text
      .slice(0, text.length - trailing.length)
      .trim()
      .replace(/\s+(?:named|called|labell?ed)$/i, '');
    return withNth({ name: unmask(name, tokens).trim(), ...roleOf(trailing) }, nth);
  }
  const name = unmask(text, tokens).trim();
  return name ? withNth({ name }, nth) : undefined;
}

const ANCHOR_WORDS =
  '(?:by|from|with|containing|that\\s+(?:has|have|contains?|mentions?|says?)|which\\s+(?:has|contains?|mentions?)|mentioning|saying|showing|written\\s+by|posted\\s+by)';
/** "Reply on every post by @ada": the element in each row (post) holding the text. */
const ON_EVERY_RE = new RegExp(
  `^(.+?)\\s+(?:on|in|of|for|from|inside|within|under)\\s+(?:every|each|all(?:\\s+of)?(?:\\s+the)?)\\s+[a-z][\\w-]*?(?:\\s+${ANCHOR_WORDS}\\s+(.+))?$`,
  'i',
);
const COLOR_WORDS =
  'red|orange|yellow|green|blue|purple|violet|pink|magenta|brown|gr[ae]y|black|white|cyan|teal|turquoise|aqua|navy|lime|gold|silver|maroon';
/** "Retweet on 2 posts by @ada": that many of the rows holding the text. */
const ON_SOME_RE = new RegExp(
  `^(.+?)\\s+(?:on|in|of|for|from)\\s+(\\d{1,2}|two|three|four|five|six|seven|eight|nine|ten)\\s+(?:of\\s+the\\s+)?[a-z][\\w-]*?s(?:\\s+${ANCHOR_WORDS}\\s+(.+))?$`,
  'i',
);
const NUMBER_WORDS = ['two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];
/** "All the checkboxes", "every item", "both fields", "each post by @ada". */
const ALL_RE =
  /^(?:all\s+(?:of\s+)?(?:the\s+)?|every\s+(?:single\s+)?|each\s+|both\s+(?:of\s+)?(?:the\s+)?)(.+)$/i;
const NOUN_BY_RE = new RegExp(`^([a-z][\\w-]*)\\s+${ANCHOR_WORDS}\\s+(.+)$`, 'i');

/** A target that means every match ("all the checkboxes", "Reply on every post"), or undefined. */
function everyTarget(text: string, tokens: readonly MaskToken[]): Target | undefined {
  const anchor = (raw: string | undefined): string | undefined => {
    if (raw === undefined) return undefined;
    const near = unmask(raw, tokens).trim();
    return near || undefined;
  };
  const some = ON_SOME_RE.exec(text);
  if (some?.[1] && some[2]) {
    const inner = parseTarget(some[1], tokens);
    const near = anchor(some[3]);
    const first = Number(some[2]) || NUMBER_WORDS.indexOf(some[2].toLowerCase()) + 2;
    if (inner && inner.near === undefined && first > 0)
      return { ...withoutPosition(inner), ...(near !== undefined ? { near } : {}), all: true, first };
  }
  const on = ON_EVERY_RE.exec(text);
  if (on?.[1]) {
    const inner = parseTarget(on[1], tokens);
    const near = anchor(on[2]);
    if (inner && inner.near === undefined)
      return { ...withoutPosition(inner), ...(near !== undefined ? { near } : {}), all: true };
  }
  const all = ALL_RE.exec(text);
  if (!all?.[1]) return undefined;
  const by = NOUN_BY_RE.exec(all[1]);
  if (by?.[1] && by[2]) {
    const near = anchor(by[2]);
    const role = roleOf(by[1]).role;
    return near === undefined ? undefined : { name: '', ...(role ? { role } : {}), near, all: true };
  }
  // "All 5 checkboxes", "all three fields": every one, and that many of them.
  const numbered = /^(\d{1,3}|two|three|four|five|six|seven|eight|nine|ten)\s+(\S.*)$/i.exec(all[1]);
  const promised = numbered?.[1]
    ? Number(numbered[1]) ||
      ['two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'].indexOf(
        numbered[1].toLowerCase(),
      ) + 2
    : /^both\b/i.test(text)
      ? 2
      : undefined;
  const inner = parseTarget(`the ${numbered?.[2] ?? all[1]}`, tokens);
  if (!inner || (!inner.role && !inner.name)) return undefined;
  return { ...withoutPosition(inner), all: true, ...(promised !== undefined ? { count: promised } : {}) };
}

function withoutPosition(target: Target): Target {
  const { nth: _nth, ...rest } = target;
  return rest;
}

// "wait for it", "select from the list": no element is named, so the step is not understood.
const NOT_A_NAME_RE =
  /^(?:it|this|that|them|they|these|those|something|anything|everything|nothing|one|stuff)$|^(?:from|to|in|into|on|onto|with|at|by|of|for)\b/i;

function withNth(
  target: Target,
  nth: number | undefined,
  roleWord?: string,
  quoted = false,
): Target | undefined {
  if (!target.name && !target.role) return undefined;
  // "The textarea" is that element, not the first field of any kind (the CSS strategy finds it).
  if (!target.name && roleWord && /^text ?areas?$/i.test(roleWord.replace(/-/g, ' ')))
    return withNth({ ...target, name: 'textarea' }, nth);
  // "Click button ONE": a capitalised word next to a role is a name, not a pronoun.
  // A quoted name ("By its words") is a name whatever its first word.
  if (!quoted && NOT_A_NAME_RE.test(target.name) && !(target.role && /[A-Z]/.test(target.name)))
    return undefined;
  return nth === undefined ? target : { ...target, nth };
}

function roleOf(word: string | undefined): { role?: TargetRole } {
  if (!word) return {};
  const normalized = word.toLowerCase().replace(/[-\s]+/g, ' ');
  const entry = ROLE_WORDS.find(([w]) => w.replace(/-/g, ' ') === normalized);
  return entry?.[1] ? { role: entry[1] } : {};
}

function wordPattern(word: string): string {
  return word.replace(/[-\s]/g, '[-\\s]?');
}

function leadingRoleWord(text: string, strong: boolean): string | undefined {
  for (const [word] of ROLE_WORDS) {
    const match = new RegExp(`^${wordPattern(word)}(?=\\s|$)`, 'i').exec(text);
    if (!match) continue;
    const rest = text.slice(match[0].length).trim();
    if (rest === '' || CONNECTOR_RE.test(`${rest} `)) return match[0];
    // "Click button ONE": few names start with "button", many with "link" ("Link account").
    if (/^(?:buttons?|btn|check ?box(?:es)?|radio buttons?)$/i.test(word)) return match[0];
    // Without "the", "Link account" is more likely a name than a link called "account".
    if (strong && !WEAK_ROLE_WORDS.has(word)) return match[0];
    return undefined;
  }
  return undefined;
}

function trailingRoleWord(text: string, strong: boolean): string | undefined {
  for (const [word] of ROLE_WORDS) {
    const match = new RegExp(`(?:^|\\s)(${wordPattern(word)})$`, 'i').exec(text);
    if (!match?.[1]) continue;
    if (WEAK_ROLE_WORDS.has(word) && !strong) return undefined;
    return match[1];
  }
  return undefined;
}

/** The role word nearest the start of `rest`, ignoring a scope such as "in the dialog". */
function firstRoleWord(rest: string): string | undefined {
  const cleaned =
    ` ${rest.replace(/\s+/g, ' ').trim()} `.split(
      /\s(?:in|inside|within|under|on|of|from|next to|near)\s/i,
    )[0] ?? '';
  let best: { index: number; word: string } | undefined;
  for (const [word] of ROLE_WORDS) {
    const match = new RegExp(`(?:^|\\s)(${wordPattern(word)})(?=\\s|$)`, 'i').exec(cleaned);
    if (!match?.[1]) continue;
    if (
      !best ||
      match.index < best.index ||
      (match.index === best.index && match[1].length > best.word.length)
    ) {
      best = { index: match.index, word: match[1] };
    }
  }
  return best?.word;
}
