import type { DomElement } from './page-dom.js';

// Evaluated inside the page.
declare const document: {
  querySelectorAll(selector: string): ArrayLike<DomElement>;
};

/** What an open calendar shows: the day asked for, or which way to page to reach it. */
export type CalendarRead = { found: DomElement } | { move: DomElement; shown: string } | { problem: string };

/**
 * In the page: the open calendar of a date picker (flatpickr, jQuery UI, react-datepicker, any
 * grid of days), the day `iso` (YYYY-MM-DD) in it, else the control that pages toward it. A day is
 * found by its aria-label, title or data-date, or by its number in the month the calendar shows.
 */
export function readCalendar(iso: string): CalendarRead {
  const [year, month, day] = iso.split('-').map(Number) as [number, number, number];
  const MONTHS = [
    'january',
    'february',
    'march',
    'april',
    'may',
    'june',
    'july',
    'august',
    'september',
    'october',
    'november',
    'december',
  ];
  const shown = (el: DomElement): boolean => !el.checkVisibility || el.checkVisibility();
  const calendars = Array.from(
    document.querySelectorAll(
      '.flatpickr-calendar.open, .ui-datepicker, .react-datepicker, .datepicker, [class*="calendar"], [class*="datepicker"], [role="dialog"], [role="grid"]',
    ),
  ).filter(
    (el) =>
      shown(el) &&
      el.querySelectorAll('td, [role="gridcell"], .flatpickr-day, [class*="day"], [class*="cell"]').length >=
        28,
  );
  // The innermost one that holds days (a dialog around a grid: the grid's box is enough).
  const calendar = calendars.find((el) => !calendars.some((other) => other !== el && el.contains(other)));
  if (!calendar) return { problem: 'no calendar is open (open the date field or its picker first)' };
  const name = MONTHS[month - 1] ?? '';
  const label = (el: DomElement) =>
    `${el.getAttribute('aria-label') ?? ''} ${el.getAttribute('title') ?? ''}`.toLowerCase();
  const dayRe = new RegExp(
    `\\b${name}\\s+${day}(?:st|nd|rd|th)?\\b.*\\b${year}\\b|\\b${day}(?:st|nd|rd|th)?\\s+${name}\\b.*\\b${year}\\b`,
  );
  const days = Array.from(calendar.querySelectorAll('*')).filter(shown);
  const outside = (el: DomElement) =>
    /\b(?:prevMonthDay|nextMonthDay|ui-datepicker-other-month|outside-month|day--outside-month|disabled)\b/i.test(
      el.getAttribute('class') ?? '',
    ) ||
    /-other-month-/.test(el.getAttribute('class') ?? '') ||
    el.getAttribute('aria-disabled') === 'true';
  const byLabel = days.find(
    (el) => !outside(el) && (dayRe.test(label(el)) || el.getAttribute('data-date') === iso),
  );
  if (byLabel) return { found: byLabel };
  // The picker around the grid of days: its header and paging arrows may sit outside the grid
  // (jQuery UI's header is outside its table, Air Datepicker's above its cells).
  const picker =
    calendars
      .filter((el) => el.contains(calendar))
      .find((el) => !calendars.some((other) => other !== el && other.contains(el))) ?? calendar;
  // Which month it shows: its header's words ("March 2024"), or jQuery UI's data on its cells.
  const header = (picker.innerText ?? picker.textContent ?? '').toLowerCase();
  const yearInput = calendar.querySelector('input.cur-year, .numInput.cur-year') as { value?: string } | null;
  const monthSelect = calendar.querySelector('select.flatpickr-monthDropdown-months') as {
    value?: string;
  } | null;
  let shownMonth = -1;
  let shownYear = Number(yearInput?.value ?? NaN);
  if (monthSelect?.value !== undefined && monthSelect.value !== '')
    shownMonth = Number(monthSelect.value) + 1;
  const cell = calendar.querySelector('td[data-month][data-year]');
  if (cell) {
    shownMonth = Number(cell.getAttribute('data-month')) + 1;
    shownYear = Number(cell.getAttribute('data-year'));
  }
  if (shownMonth < 0) {
    const words = new RegExp(`\\b(${MONTHS.join('|')})\\b\\s*,?\\s*(\\d{4})?`).exec(header);
    if (words?.[1]) shownMonth = MONTHS.indexOf(words[1]) + 1;
    if (words?.[2] && Number.isNaN(shownYear)) shownYear = Number(words[2]);
  }
  if (Number.isNaN(shownYear)) {
    const anyYear = /\b(\d{4})\b/.exec(header);
    if (anyYear?.[1]) shownYear = Number(anyYear[1]);
  }
  if (shownMonth < 1 || Number.isNaN(shownYear))
    return { problem: 'the open calendar does not say which month it shows' };
  if (shownMonth === month && shownYear === year) {
    // The month is shown: its day by number, among the days of this month.
    const numbered = days.find(
      (el) =>
        !outside(el) &&
        el.children.length <= 1 &&
        (el.innerText ?? el.textContent ?? '').trim() === String(day) &&
        /^(?:TD|A|BUTTON|SPAN|DIV)$/.test(el.tagName) &&
        el.closest('thead') === null,
    );
    return numbered ? { found: numbered } : { problem: `the calendar shows no day ${day}` };
  }
  const forward = shownYear * 12 + shownMonth < year * 12 + month;
  const controls = Array.from(
    picker.querySelectorAll('a, button, span, [role="button"], [data-action], svg'),
  );
  const way = forward ? /\bnext\b|›|»|→|>/i : /\bprev(?:ious)?\b|‹|«|←|</i;
  const move = controls.find((el) => {
    const words = `${el.getAttribute('class') ?? ''} ${el.getAttribute('data-action') ?? ''} ${label(el)} ${(el.textContent ?? '').trim().slice(0, 12)}`;
    return shown(el) && way.test(words) && !/year/i.test(el.getAttribute('class') ?? '');
  });
  const now = `${MONTHS[shownMonth - 1]} ${shownYear}`;
  return move
    ? { move, shown: now }
    : { problem: `the calendar shows ${now} and has no control to page to another month` };
}
