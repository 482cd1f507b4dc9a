import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { useBrowserTab } from '../testing/browser-tab.js';
import { type LocalSite, serveLocalSite } from '../testing/local-site.js';
import { packageRoutes } from '../testing/package-files.js';
import {
  CUSTOM_PAGE,
  FLATPICKR_PAGE,
  JQUERY_UI_PAGE,
  NATIVE_PAGE,
  PLAIN_PAGE,
  TOM_SELECT_PAGE,
} from '../testing/widget-pages.js';
import { AgentLog } from './agent-log.js';
import { interpretQuery, runInterpreter, type RunResult } from './interpreter-agent.js';

describe('widgets of native controls and component libraries (real Chromium)', () => {
  const tab = useBrowserTab();
  let site: LocalSite;
  beforeAll(async () => {
    site = await serveLocalSite({
      '/native': NATIVE_PAGE,
      '/custom': CUSTOM_PAGE,
      '/tom': TOM_SELECT_PAGE,
      '/jqui': JQUERY_UI_PAGE,
      '/plain': PLAIN_PAGE,
      '/flatpickr': FLATPICKR_PAGE,
      ...packageRoutes([
        'tom-select/dist/css/tom-select.css',
        'tom-select/dist/js/tom-select.complete.min.js',
        'jquery/dist/jquery.min.js',
        'jquery-ui/dist/jquery-ui.min.js',
        'jquery-ui/dist/themes/base/jquery-ui.css',
        'flatpickr/dist/flatpickr.min.css',
        'flatpickr/dist/flatpickr.min.js',
      ]),
    });
  });
  afterAll(async () => {
    await site?.close();
  });

  const run = async (path: string, steps: string): Promise<RunResult> => {
    const interpreted = interpretQuery(`Open ${site.url}${path}\n${steps}`);
    if (!interpreted.ok) throw new Error(interpreted.summary);
    return runInterpreter({
      page: tab.page,
      steps: interpreted.steps,
      log: new AgentLog(),
      limits: { navigationTimeoutMs: 5000, actionTimeoutMs: 2500, assertionTimeoutMs: 1500 },
    });
  };
  const failures = (result: RunResult) => result.steps.filter((s) => s.status !== 'passed');
  /** The step (the first after opening the page) must fail, saying what the page had instead. */
  const mustFail = async (path: string, steps: string, ...said: string[]) => {
    const result = await run(path, steps);
    expect(result.verdict).toBe('failed');
    const error = result.steps.find((s) => s.status === 'failed')?.error ?? '';
    for (const text of said) expect(error).toContain(text);
  };

  it('native select, date, time and range inputs take what a person writes', async () => {
    const result = await run(
      '/native',
      `Select Bobine from the list\nThe page shows "Fabric: Bobine"
      Enter 10/11/2011 as the date\nThe page shows "Date 2011-10-11"
      Enter 8:04 PM as the time\nThe page shows "Time 20:04"
      Set the slider to 30\nThe page shows "Volume 30"`,
    );
    expect(failures(result)).toEqual([]);
    await mustFail('/native', 'Select Zebra from the list', 'no option "Zebra"', '"Bobine"');
    await mustFail('/native', 'Enter 31/31/2011 as the date', 'is not a date');
    await mustFail('/native', 'Set the slider to 35', 'did not take "35"');
  });

  it('custom dropdown of plain list items, ARIA slider and spinner moved by keys', async () => {
    const result = await run(
      '/custom',
      `Choose 5ft 9in from the dropdown\nThe page shows "Height 5ft 9in"
      Set the slider to 30\nThe page shows "Brightness 30"
      Select -3 with the spinner\nThe page shows "Quantity -3"`,
    );
    expect(failures(result)).toEqual([]);
    await mustFail('/custom', 'Choose 7ft from the dropdown', 'no option "7ft"', '"5ft 8in"');
    await mustFail('/custom', 'Set the slider to 33', 'cannot be set to 33');
    await mustFail('/custom', 'Select -9 with the spinner', 'outside that range');
  });

  it('menus, sorting, trees, disclosures, search and replace', async () => {
    const result = await run(
      '/custom',
      `Open File > Export > PDF\nThe page shows "Exported as PDF"
      Sort the table by Orders descending\nThe first row contains "Bea"
      Sort by Name\nThe first row contains "Ada"
      Expand Documents in the tree\nThe page shows "Report.pdf"
      Expand the section below\nThe page shows "Ships in 2 days"
      Search for "mug"\nThe page shows "Results for mug"
      Replace "Hello World" with "Hi"\nThe page shows "Editor: Hi, hello all"`,
    );
    expect(failures(result)).toEqual([]);
    await mustFail('/custom', 'Open File > Export > Word', '"Word"');
    await mustFail('/plain', 'Sort the table by Name descending', 'never sorted it descending');
    await mustFail('/custom', 'Expand Music in the tree', '"Music"');
    await mustFail('/plain', 'Search for "mug"', 'search');
    await mustFail('/custom', 'Replace "Goodbye" with "Hi"', 'does not contain "Goodbye"');
  });

  it('Tom Select: opens the control and picks the option', async () => {
    const result = await run(
      '/tom',
      `Select Bobine from the Fabric dropdown\nThe page shows "Fabric: bobine"\nSelect Linen from the list\nThe page shows "Fabric: linen"`,
    );
    expect(failures(result)).toEqual([]);
    await mustFail('/tom', 'Select Zebra from the Fabric dropdown', '"Zebra"');
  });

  it('jQuery UI: autocomplete suggestions, selectmenu, spinner and tabs', async () => {
    const result = await run(
      '/jqui',
      `Type "Ber" into the City field\nPick "Bern" from the suggestions\nThe page shows "City: Bern"
      Select Fast from the Speed dropdown\nThe page shows "Speed: Fast"
      Open the Billing tab\nThe page shows "Pay by card"\nThe page does not show "Ship to your door"`,
    );
    expect(failures(result)).toEqual([]);
    await mustFail(
      '/jqui',
      'Type "Ber" into the City field\nPick "Paris" from the suggestions',
      'no option "Paris"',
      '"Berlin"',
    );
  });

  it('jQuery UI: a slider without ARIA is set and focused by its handle; a spinner steps by its arrows', async () => {
    const result = await run(
      '/jqui',
      `Move the Brightness slider to 60\nThe page shows "Brightness 60"
      Focus the Brightness slider handle\nPress End\nThe page shows "Brightness 100"
      Click the up arrow of the Temperature spinner twice\nThe page shows "Temperature 2"
      Decrease the Temperature by 3\nThe page shows "Temperature -1"`,
    );
    expect(failures(result)).toEqual([]);
    await mustFail('/jqui', 'Set the Brightness slider to 65', 'cannot be set to 65');
    await mustFail('/jqui', 'Set the Brightness slider to 120', 'goes from 0 to 100');
  });

  it('jQuery UI accordion: its header is clicked (not the hidden panel it labels); a closing panel is not read as shown', async () => {
    const result = await run(
      '/jqui',
      `Click "Do you ship abroad?"\nVerify that "Only within the EU." is visible\nVerify that "By card or bank transfer." is hidden`,
    );
    expect(failures(result)).toEqual([]);
    await mustFail(
      '/jqui',
      'Click "Do you ship abroad?"\nVerify that "By card or bank transfer." is visible',
      'By card or bank transfer.',
    );
  });

  it('flatpickr: a picker input that allows typing takes the typed date; a readonly one is driven through its calendar', async () => {
    const result = await run(
      '/flatpickr',
      `Pick 2024-03-15 in the Start date picker\nPress Enter\nThe page shows "Start 2024-03-15"
      Pick June 3, 2025 in the End date picker\nThe "End date" field has value "2025-06-03"
      Click into the End date field and pick 1 February 2025 from the calendar\nThe "End date" field has value "2025-02-01"`,
    );
    expect(failures(result)).toEqual([]);
    await mustFail('/flatpickr', 'Pick 2024-13-45 in the End date picker', 'read-only');
    await mustFail('/flatpickr', 'Pick June 3, 2025 from the calendar', 'no calendar is open');
  });
});
