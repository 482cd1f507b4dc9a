import { NUMBER_WORDS } from './text-match.js';
import { type MaskToken, quotedValue, unmask } from './masked-text.js';
import type { StepBody, Target } from './step-types.js';
import { parseTarget } from './target-phrase.js';

/**
 * Phrase rules for widgets and for steps that say a means or a purpose: "Open File > Export > PDF",
 * "Sort by Name descending", "Search for 'Hello'", "Replace 'A' with 'B'", "Select -3 with the
 * spinner", "Close the dialog by clicking the x". They run before the general rules, so each is
 * narrow: a sentence none of them reads exactly falls through unchanged.
 */
export type WidgetRule = (s: string, tokens: readonly MaskToken[]) => StepBody | undefined;

/** Reads one step with all the rules (the means of "… by clicking the x" is a step of its own). */
export type StepReader = (s: string) => StepBody | undefined;

/** A quoted value, or the unquoted text as written. */
function plainValue(text: string, tokens: readonly MaskToken[]): string | undefined {
  const quoted = quotedValue(text, tokens);
  if (quoted !== undefined) return quoted;
  const raw = unmask(text, tokens).trim();
  return raw && !/\uE000/.test(raw) ? raw : undefined;
}

const click = (
  target: Target,
  extra: { menuPath?: string[]; sort?: 'ascending' | 'descending'; ensure?: 'expanded' | 'collapsed' } = {},
): StepBody => ({
  action: 'click',
  target,
  clickCount: 1,
  button: 'left',
  ...extra,
});

const MENU_SEPARATOR_RE = /\s*(?:>|→|->|»|›)\s*/;
const CSS_PART_RE = /^[a-z][a-z0-9-]*(?:[#.:[]\S*)?$|^[#.[]\S+$/;

/** "Open File > Export > PDF", "choose Edit → Paste", "click the menu File > Save as". */
const menuPath: WidgetRule = (s, tokens) => {
  const match =
    /^(?:open|click(?: on)?|choose|select|pick|go to|navigate to|use)\s+(?:the\s+)?(?:menu(?:\s+item)?\s+)?(.+)$/i.exec(
      s,
    );
  // "Open the Billing page from the Settings menu": the path said the other way round.
  const from =
    /^(?:open|click(?:\s+on)?|choose|select|pick)\s+(?:the\s+)?(.{1,40}?)(?:\s+(?:page|item|option|entry|link))?\s+(?:from|in|under)\s+(?:the\s+)?(?!the\s)(.{1,40}?)\s+menu$/i.exec(
      s,
    );
  if (from?.[1] && from[2]) {
    const item = plainValue(from[1], tokens);
    const menu = plainValue(from[2], tokens);
    if (item && menu) return click({ name: item }, { menuPath: [menu] });
  }
  if (!match?.[1] || !MENU_SEPARATOR_RE.test(match[1])) return undefined;
  const parts = match[1].split(MENU_SEPARATOR_RE).map((part) => part.trim());
  if (parts.length < 2 || parts.some((part) => !part)) return undefined;
  const names = parts.map((part) => plainValue(part.replace(/^the\s+/i, ''), tokens));
  // "click div > button" is a CSS selector, not a menu.
  if (names.every((name) => name !== undefined && CSS_PART_RE.test(name))) return undefined;
  if (names.some((name) => name === undefined)) return undefined;
  const path = names as string[];
  return click({ name: path[path.length - 1] as string }, { menuPath: path.slice(0, -1) });
};

const ORDER_WORDS: Readonly<Record<string, 'ascending' | 'descending'>> = {
  ascending: 'ascending',
  asc: 'ascending',
  'a-z': 'ascending',
  'a to z': 'ascending',
  increasing: 'ascending',
  'low to high': 'ascending',
  'lowest to highest': 'ascending',
  'smallest to largest': 'ascending',
  'lowest first': 'ascending',
  'oldest first': 'ascending',
  descending: 'descending',
  desc: 'descending',
  'z-a': 'descending',
  'z to a': 'descending',
  'highest to lowest': 'descending',
  'largest to smallest': 'descending',
  decreasing: 'descending',
  'high to low': 'descending',
  'highest first': 'descending',
  'newest first': 'descending',
};

/** "Sort by Orders", "sort the table by Name descending", "sort the Price column from high to low". */
const sorting: WidgetRule = (s, tokens) => {
  const match =
    /^sort\s+(?:the\s+(?:table|list|grid|results|data|rows|items|[a-z]+s)\s+(?=by\s|on\s))?(?:by\s+|on\s+)?(?:the\s+)?(.+?)(?:\s+column)?(?:,?\s+(?:in\s+|from\s+)?(ascending|descending|asc|desc|a-z|z-a|a to z|z to a|increasing|decreasing|low to high|high to low|lowest to highest|highest to lowest|smallest to largest|largest to smallest|lowest first|highest first|oldest first|newest first)(?:\s+order)?)?$/i.exec(
      s,
    );
  if (!match?.[1]) return undefined;
  const name = plainValue(match[1], tokens);
  if (!name || /^(?:it|them|this|the table|table)$/i.test(name)) return undefined;
  const order = match[2] ? ORDER_WORDS[match[2].toLowerCase()] : undefined;
  return click({ name, role: 'columnheader' }, order ? { sort: order } : {});
};

/** "Search for 'Hello'", "search for Hello in the products search box": type it, then Enter. */
const searching: WidgetRule = (s, tokens) => {
  const match = /^search(?:\s+for)?\s+(.+?)(?:\s+(?:in|using|with)\s+(.+))?$/i.exec(s);
  if (!match?.[1]) return undefined;
  const value = plainValue(match[1], tokens);
  // "Search for the cheapest flight" is not a text to type; a quoted "an" is.
  const quoted = quotedValue(match[1].trim(), tokens) !== undefined;
  if (value === undefined || (!quoted && /^(?:the|a|an)\b/i.test(value))) return undefined;
  const where = match[2] ? parseTarget(match[2], tokens) : { name: 'search', role: 'searchbox' as const };
  if (!where) return undefined;
  return { action: 'type', value, target: where, submit: true };
};

/** "Replace 'Hello World' with 'Hi'" (in the field named, the one with the caret, or the editor). */
const replacing: WidgetRule = (s, tokens) => {
  const match =
    /^replace\s+(?:the\s+(?:text|word|words)\s+)?(.+?)\s+(?:with|by)\s+(.+?)(?:\s+in\s+(.+))?$/i.exec(s);
  if (!match?.[1] || !match[2]) return undefined;
  // Quoted, or one bare word or number each ("replace 1815 with 1816").
  const bare = (text: string) => (/^[\w.,:/-]{1,40}$/.test(text.trim()) ? text.trim() : undefined);
  const find = quotedValue(match[1], tokens) ?? bare(match[1]);
  const value = quotedValue(match[2], tokens) ?? bare(match[2]);
  if (find === undefined || value === undefined) return undefined;
  const where = match[3] ? parseTarget(match[3], tokens) : undefined;
  if (match[3] && !where) return undefined;
  return { action: 'type', value, find, ...(where ? { target: where } : {}) };
};

/** "Select all the text (Ctrl+A)", "select everything in the editor": the select-all chord. */
const selectAll: WidgetRule = (s, tokens) => {
  const match =
    /^select\s+(?:all(?:\s+(?:of\s+)?the)?\s+(?:text|content|contents|words)|everything|the\s+whole\s+text)(?:\s+in\s+(.+?))?(?:\s*\((?:ctrl|control|cmd|command)\s*\+\s*a\))?$/i.exec(
      s,
    );
  if (!match) return undefined;
  const where = match[1] ? parseTarget(match[1], tokens) : undefined;
  if (match[1] && !where) return undefined;
  return { action: 'press', keys: ['Control', 'a'], repeat: 1, ...(where ? { target: where } : {}) };
};

const RANGE_NOUNS = '(?:spinner|spin\\s?button|stepper|slider|range slider|number picker)';

const STEP_COUNTS: Readonly<Record<string, number>> = { ...NUMBER_WORDS, once: 1, twice: 2, thrice: 3 };

function stepCount(word: string | undefined): number | undefined {
  if (word === undefined) return 1;
  const lower = word.toLowerCase().replace(/\s+times?$/, '');
  const count = /^\d{1,3}$/.test(lower) ? Number(lower) : STEP_COUNTS[lower];
  return count !== undefined && count >= 1 && count <= 100 ? count : undefined;
}

const TIMES =
  '(\\d{1,3}\\s+times|once|twice|thrice|(?:one|two|three|four|five|six|seven|eight|nine|ten)\\s+times)';
const STEPS_BY = '(\\d{1,3}|one|two|three|four|five|six|seven|eight|nine|ten)';
const ARROW_MEANS =
  '(?:\\s+(?:with|using|via|by\\s+(?:clicking|pressing))\\s+(?:the\\s+|its\\s+)?(?:(?:up|down)\\s+arrow|arrow\\s+(?:up|down)|(?:up|down|plus|minus|\\+|-)\\s+button|arrows?(?:\\s+keys?)?|keyboard))?';

/**
 * "Increase the quantity by 2 with the arrow up", "decrease Guests", "click the up arrow of the
 * Guests spinner twice": the value steps up or down, as the arrow keys of a spinner or slider (and
 * of a number field) step it, once per step.
 */
const stepping: WidgetRule = (s, tokens) => {
  const said = new RegExp(
    `^(increase|increment|raise|bump(?:\\s+up)?|decrease|decrement|lower|reduce)\\s+(the\\s+)?(.+?)(?:\\s+(?:by|of)\\s+${STEPS_BY}(?:\\s+(?:steps?|units?))?)?${ARROW_MEANS}(?:\\s+${TIMES})?$`,
    'i',
  ).exec(s);
  const arrow = new RegExp(
    `^(?:click|press|tap|hit|use)\\s+(?:on\\s+)?the\\s+(up|down|increase|decrease|increment|decrement|plus|minus|\\+|-)(?:\\s+(?:arrow|button|control))?\\s+(?:of|on|in|next to|beside)\\s+(the\\s+)?(.+?)(?:\\s+${TIMES})?$`,
    'i',
  ).exec(s);
  const match = said ?? arrow;
  if (!match?.[1] || !match[3]) return undefined;
  const up = /^(?:increase|increment|raise|bump|up|plus|\+)/i.test(match[1]);
  const count = said ? stepCount(said[4] ?? said[5]) : stepCount(arrow?.[4]);
  // "Increase the quantity to 4" is rangeSetting's; a name with "to" or a value in it is not ours.
  if (count === undefined || /\s(?:to|from)\s/i.test(match[3])) return undefined;
  const where = parseTarget(`${match[2] ?? ''}${match[3]}`, tokens);
  if (!where) return undefined;
  return { action: 'press', keys: [up ? 'ArrowUp' : 'ArrowDown'], repeat: count, target: where };
};

/** "Select -3 with the spinner", "set 30 on the slider", "increase the quantity to 4". */
const rangeSetting: WidgetRule = (s, tokens) => {
  const withWidget = new RegExp(
    `^(?:select|choose|pick|set|enter|put|move(?: it)? to|dial in)\\s+(.+?)\\s+(?:with|using|on|in|via)\\s+(?:the\\s+)?((?:.+?\\s+)?${RANGE_NOUNS})$`,
    'i',
  ).exec(s);
  if (withWidget?.[1] && withWidget[2]) {
    const value = plainValue(withWidget[1], tokens);
    const where = parseTarget(withWidget[2], tokens);
    if (value !== undefined && where) return { action: 'type', value, target: where };
  }
  const moved =
    /^(?:increase|decrease|raise|lower|reduce|bump(?:\s+up)?|drop|slide|move|drag)\s+(the\s+)?(.+?)\s+to\s+(-?\d+(?:[.,]\d+)?)$/i.exec(
      s,
    );
  if (moved?.[2] && moved[3]) {
    // The article stays: "the brightness slider" is the slider named Brightness.
    const where = parseTarget(`${moved[1] ?? ''}${moved[2]}`, tokens);
    if (where) return { action: 'type', value: moved[3].replace(',', '.'), target: where };
  }
  return undefined;
};

/** "Pick 15 March 2024 in the date picker", "set 8:04 PM in the start time field". */
const datePicking: WidgetRule = (s, tokens) => {
  const match =
    /^(?:pick|choose|select|set|enter|put)\s+(.+?)\s+(?:in|on|from|with|using|as|for|into)\s+(?:the\s+)?((?:.+?\s+)?(?:date|time|day|calendar))(?:\s*picker|\s+field|\s+input|\s+box)?$/i.exec(
      s,
    );
  if (!match?.[1] || !match[2]) return undefined;
  const value = plainValue(match[1], tokens);
  const where = parseTarget(match[2], tokens);
  if (value === undefined || !where) return undefined;
  return { action: 'type', value, target: where };
};

/** "Expand Documents in the tree": the tree item of that name. */
const treeItems: WidgetRule = (s, tokens) => {
  const match =
    /^(expand|collapse|open|close|select|click(?: on)?)\s+(?:the\s+)?(.+?)\s+(?:folder\s+|node\s+)?in\s+the\s+(?:[\w-]+\s+)?(?:tree|tree view|treeview|folder tree|file tree)$/i.exec(
      s,
    );
  if (!match?.[2]) return undefined;
  const name = plainValue(match[2].replace(/\s+(?:folder|node|item)$/i, ''), tokens);
  const verb = match[1]?.toLowerCase();
  const ensure = verb === 'expand' ? 'expanded' : verb === 'collapse' ? 'collapsed' : undefined;
  return name ? click({ name, role: 'treeitem' }, ensure ? { ensure } : {}) : undefined;
};

/** "Expand the section below": the first collapsed disclosure on the page. */
const expandSection: WidgetRule = (s) =>
  /^(?:expand|open|unfold)\s+the\s+(?:collapsed\s+|hidden\s+)?(?:section|panel|accordion|details|group|disclosure)(?:\s+(?:below|above|underneath|beneath|here))?$/i.test(
    s,
  )
    ? click({ name: 'details:not([open]) > summary, [aria-expanded="false"]' })
    : undefined;

/** "Close the dialog", "dismiss the 'Cookies' banner": its close control. */
const closeDialog: WidgetRule = (s) =>
  /^(?:close|dismiss|exit)\s+(?:the\s+|this\s+)?(?:\uE000q\d+\uE001\s+)?(?:dialog|modal|popup|pop-up|overlay|lightbox|banner|notification|toast|alert|drawer|panel)(?:\s+window)?$/i.test(
    s,
  )
    ? click({ name: 'close', role: 'button' })
    : undefined;

const MEANS_VERBS: Readonly<Record<string, string>> = {
  clicking: 'click',
  pressing: 'press',
  tapping: 'tap',
  hitting: 'hit',
  selecting: 'select',
  choosing: 'choose',
  typing: 'type',
  entering: 'enter',
  'double-clicking': 'double-click',
  checking: 'check',
  using: 'click',
};

const PURPOSE_VERBS =
  '(?:close|open|expand|collapse|dismiss|submit|save|show|hide|reveal|confirm|cancel|sort|search|add|delete|remove|clear|reset|continue|proceed|log in|sign in|sign out|log out|go back|finish|accept|apply)';

/**
 * "Close the dialog by clicking the x" (the means is the step), "click the x to close the dialog"
 * (the purpose is not): the part that says what to do is read as a step of its own.
 */
export function meansAndPurpose(read: StepReader): WidgetRule {
  return (s) => {
    const means =
      /^(.+?),?\s+by\s+(clicking|pressing|tapping|hitting|selecting|choosing|typing|entering|double-clicking|checking|using)\s+(.+)$/i.exec(
        s,
      );
    if (means?.[2] && means[3]) {
      const verb = MEANS_VERBS[means[2].toLowerCase()] ?? 'click';
      const body = read(`${verb} ${means[3]}`);
      if (body) return body;
    }
    const purpose = new RegExp(`^(.+?),?\\s+(?:in order\\s+)?to\\s+${PURPOSE_VERBS}\\b.*$`, 'i').exec(s);
    if (purpose?.[1] && /^(?:click|tap|press|hit|select|choose|double-click|use)\b/i.test(purpose[1]))
      return read(purpose[1]);
    return undefined;
  };
}

/** The widget rules, tried in this order before the general ones. */
export const WIDGET_RULES: readonly WidgetRule[] = [
  menuPath,
  sorting,
  searching,
  replacing,
  selectAll,
  rangeSetting,
  stepping,
  datePicking,
  treeItems,
  expandSection,
  closeDialog,
];
