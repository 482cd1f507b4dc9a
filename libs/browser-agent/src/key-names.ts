/**
 * Key names as people write them ("esc", "the down arrow", "Ctrl+A") mapped to Puppeteer's names.
 * Anything not recognised here is not a key, so "press Sign in" becomes a click instead.
 */
const NAMED_KEYS: Readonly<Record<string, string>> = {
  enter: 'Enter',
  return: 'Enter',
  tab: 'Tab',
  escape: 'Escape',
  esc: 'Escape',
  space: 'Space',
  spacebar: 'Space',
  'space bar': 'Space',
  backspace: 'Backspace',
  'back space': 'Backspace',
  delete: 'Delete',
  del: 'Delete',
  insert: 'Insert',
  home: 'Home',
  end: 'End',
  pageup: 'PageUp',
  'page up': 'PageUp',
  pagedown: 'PageDown',
  'page down': 'PageDown',
  arrowup: 'ArrowUp',
  arrowdown: 'ArrowDown',
  arrowleft: 'ArrowLeft',
  arrowright: 'ArrowRight',
  'arrow up': 'ArrowUp',
  'arrow down': 'ArrowDown',
  'arrow left': 'ArrowLeft',
  'arrow right': 'ArrowRight',
  'up arrow': 'ArrowUp',
  'down arrow': 'ArrowDown',
  'left arrow': 'ArrowLeft',
  'right arrow': 'ArrowRight',
  up: 'ArrowUp',
  down: 'ArrowDown',
  left: 'ArrowLeft',
  right: 'ArrowRight',
  ctrl: 'Control',
  control: 'Control',
  shift: 'Shift',
  alt: 'Alt',
  option: 'Alt',
  meta: 'Meta',
  cmd: 'Meta',
  command: 'Meta',
  win: 'Meta',
  windows: 'Meta',
  super: 'Meta',
};

const MODIFIERS = new Set(['Control', 'Shift', 'Alt', 'Meta']);

function singleKey(word: string): string | undefined {
  const normalized = word.trim().toLowerCase().replace(/\s+/g, ' ');
  const named = NAMED_KEYS[normalized];
  if (named) return named;
  if (/^f([1-9]|1[0-2])$/.test(normalized)) return normalized.toUpperCase();
  return undefined;
}

/**
 * Parses "Enter", "the Enter key", "Ctrl+A", "Control + Shift + K", "ctrl-c". Single characters are
 * only keys inside a chord (so "press a" is not silently a key press of "a").
 */
export function parseKeys(phrase: string): string[] | undefined {
  const text = phrase
    .trim()
    .replace(/^the\s+/i, '')
    .replace(/\s+(?:key|keys|button)$/i, (suffix) => (/button/i.test(suffix) ? '\u0000' : ''))
    .trim();
  if (text.includes('\u0000') || text.length === 0) return undefined;
  const whole = singleKey(text);
  if (whole) return [whole];
  const parts = text.split(/\s*\+\s*|(?<=\S)-(?=\S)/);
  if (parts.length < 2) return undefined;
  const keys: string[] = [];
  for (const [i, part] of parts.entries()) {
    const isLast = i === parts.length - 1;
    const key = singleKey(part) ?? (isLast && /^[a-z0-9]$/i.test(part) ? part.toLowerCase() : undefined);
    if (!key) return undefined;
    if (!isLast && !MODIFIERS.has(key)) return undefined;
    keys.push(key);
  }
  return keys;
}

export function describeKeys(keys: readonly string[]): string {
  return keys.map((k) => (k.length === 1 ? k.toUpperCase() : k)).join('+');
}
