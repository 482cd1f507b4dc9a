/**
 * Dates and times as people write them ("10/11/2011", "15 March 2024", "8:04 PM"), turned into the
 * value a native date or time input holds (2011-10-11, 20:04). A slashed date with both parts up to
 * 12 is read in the browser's own order (month first in en-US), as typing it into the field would.
 */

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

function monthOf(word: string): number | undefined {
  const index = MONTHS.indexOf(word.slice(0, 3).toLowerCase());
  return index === -1 ? undefined : index + 1;
}

function validDate(year: number, month: number, day: number): string | undefined {
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day)
    return undefined;
  return `${pad(year, 4)}-${pad(month)}-${pad(day)}`;
}

/** "2011-10-11", "10/11/2011", "11.10.2011", "15 March 2024", "March 15, 2024" → "YYYY-MM-DD". */
export function isoDate(text: string, monthFirst: boolean): string | undefined {
  const s = text.trim().replace(/\s+/g, ' ');
  let m = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(s);
  if (m) return validDate(Number(m[1]), Number(m[2]), Number(m[3]));
  m = /^(\d{1,2})([/.-])(\d{1,2})\2(\d{2}|\d{4})$/.exec(s);
  if (m) {
    const a = Number(m[1]);
    const b = Number(m[3]);
    const year = m[4]?.length === 2 ? 2000 + Number(m[4]) : Number(m[4]);
    const dayFirst = m[2] === '.' || a > 12 || (b <= 12 && !monthFirst);
    return dayFirst ? validDate(year, b, a) : validDate(year, a, b);
  }
  m = /^(\d{1,2})(?:st|nd|rd|th)?(?: of)? ([a-z]+)\.?,? (\d{4})$/i.exec(s);
  if (m) {
    const month = monthOf(m[2] ?? '');
    return month ? validDate(Number(m[3]), month, Number(m[1])) : undefined;
  }
  m = /^([a-z]+)\.? (\d{1,2})(?:st|nd|rd|th)?,? (\d{4})$/i.exec(s);
  if (m) {
    const month = monthOf(m[1] ?? '');
    return month ? validDate(Number(m[3]), month, Number(m[2])) : undefined;
  }
  return undefined;
}

/** "8:04 PM", "8 pm", "20:04", "20:04:30" → "20:04" (or "20:04:30"). */
export function isoTime(text: string): string | undefined {
  const s = text.trim().toLowerCase().replace(/\s+/g, ' ');
  const twelve = /^(\d{1,2})(?::(\d{2}))?(?::(\d{2}))? ?([ap])\.?m\.?$/.exec(s);
  const plain = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(s);
  const m = twelve ?? plain;
  if (!m) return undefined;
  let hours = Number(m[1]);
  const minutes = Number(m[2] ?? 0);
  const seconds = m[3];
  if (twelve) {
    if (hours < 1 || hours > 12) return undefined;
    hours = (hours % 12) + (m[4] === 'p' ? 12 : 0);
  }
  if (hours > 23 || minutes > 59 || (seconds !== undefined && Number(seconds) > 59)) return undefined;
  return `${pad(hours)}:${pad(minutes)}${seconds !== undefined ? `:${seconds}` : ''}`;
}

/**
 * The value a native input of `type` takes for what the person wrote, or undefined when it is not
 * one (the step then fails instead of leaving the field empty). Other types keep the text.
 */
export function nativeInputValue(type: string, text: string, monthFirst: boolean): string | undefined {
  switch (type) {
    case 'date':
      return isoDate(text, monthFirst);
    case 'time':
      return isoTime(text);
    case 'datetime-local': {
      const iso = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}(?::\d{2})?)$/.exec(text.trim());
      if (iso) return isoDate(iso[1] ?? '', monthFirst) && isoTime(iso[2] ?? '') ? text.trim() : undefined;
      const split = /^(.+?)(?:,| at)? (\d{1,2}(?::\d{2}){0,2} ?(?:[ap]\.?m\.?)?)$/i.exec(text.trim());
      const date = split ? isoDate(split[1] ?? '', monthFirst) : undefined;
      const time = split ? isoTime(split[2] ?? '') : undefined;
      return date && time ? `${date}T${time}` : undefined;
    }
    case 'month': {
      const plain = /^(\d{4})-(\d{1,2})$/.exec(text.trim());
      if (plain) return `${plain[1]}-${pad(Number(plain[2]))}`;
      const named = /^([a-z]+)\.?,? (\d{4})$/i.exec(text.trim());
      const month = named ? monthOf(named[1] ?? '') : undefined;
      return named && month ? `${named[2]}-${pad(month)}` : undefined;
    }
    default:
      return text;
  }
}
