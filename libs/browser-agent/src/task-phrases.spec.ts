import { describe, expect, it } from '@jest/globals';
import { parseInstructions } from './instruction-parser.js';
import type { Step, StepBody } from './step-types.js';

function read(query: string): StepBody[] {
  const { steps, unknown } = parseInstructions(query);
  expect(unknown).toEqual([]);
  return steps.map((step) => {
    const { index: _index, text: _text, ...body } = step as Step;
    return body as StepBody;
  });
}

const click = (target: Record<string, unknown>): StepBody =>
  ({ action: 'click', target, clickCount: 1, button: 'left' }) as unknown as StepBody;

describe('one-sentence tasks said as plain steps (task-phrases.ts and the rules they lead to)', () => {
  it.each([
    [
      'For the user @ada, click on the "Reply" button.',
      [click({ name: 'Reply', role: 'button', near: '@ada' })],
    ],
    [
      'Expand the sections below, to find and click on the link "vitae".',
      [click({ name: 'vitae', role: 'link' })],
    ],
    [
      'Switch between the tabs to find and click on the link "lorem".',
      [click({ name: 'lorem', role: 'link' })],
    ],
    [
      'Navigate through the file tree. Find and click on the folder or file named "Kasie".',
      [click({ name: 'Kasie' })],
    ],
    [
      'Select nothing and click Submit.',
      [{ action: 'uncheck', target: { name: '', role: 'checkbox', all: true } }, click({ name: 'Submit' })],
    ],
    ['Click on Tab #2.', [click({ name: '', role: 'tab', nth: 2 })]],
    ['Click on a "checkbox" widget.', [click({ name: '', role: 'checkbox' })]],
    [
      'Click the "Retweet" button on 2 posts by @ada.',
      [click({ name: 'Retweet', role: 'button', near: '@ada', all: true, first: 2 })],
    ],
    [
      'Find the 3rd word in the paragraph, type that into the textbox.',
      [
        { action: 'readValue', target: { name: 'p' }, transforms: ['word:3'], name: 'clipboard' },
        { action: 'type', value: '', valueFrom: 'clipboard', target: { name: '', role: 'textbox' } },
      ],
    ],
    [
      'Find the last word in the text area, enter it into the text field.',
      [
        {
          action: 'readValue',
          target: { name: 'textarea', role: 'textbox' },
          transforms: ['word:-1'],
          name: 'clipboard',
        },
        { action: 'type', value: '', valueFrom: 'clipboard', target: { name: '', role: 'textbox' } },
      ],
    ],
    [
      'Using the text editor, make the text "ipsum" underlined.',
      [
        { action: 'select', option: 'ipsum', target: { name: '', role: 'editor' } },
        click({ name: 'Underline', role: 'button' }),
      ],
    ],
    ['Highlight the text in the paragraph below.', [{ action: 'select', option: '', target: { name: 'p' } }]],
    ['Drag Item 3 to the 1st position.', [{ action: 'drag', target: { name: 'Item 3' }, toPosition: 1 }]],
    ['Drag "Buy" onto "Done".', [{ action: 'drag', target: { name: 'Buy' }, to: { name: 'Done' } }]],
    [
      'Enter an item that starts with "Ant" and ends with "ua".',
      [
        { action: 'type', value: 'Ant', target: { name: '', role: 'textbox' } },
        { action: 'select', option: 'Ant…ua', target: { name: 'suggestions' } },
      ],
    ],
    [
      'Enter the password "x3Kp" into both text fields.',
      [{ action: 'type', value: 'x3Kp', target: { name: 'input[type="password"]', all: true, count: 2 } }],
    ],
    [
      'Use the textbox to enter "Velma" and press "Search".',
      [{ action: 'type', value: 'Velma', target: { name: '', role: 'textbox' } }, click({ name: 'Search' })],
    ],
    [
      'Find the email by Ada and forward that email to Bob.',
      [
        click({ name: 'Ada' }),
        click({ name: 'Forward' }),
        { action: 'type', value: 'Bob', target: { name: 'To', role: 'textbox' } },
        click({ name: 'Send' }),
      ],
    ],
    [
      'Find the email by Ida and reply to them with the text "Hi".',
      [
        click({ name: 'Ida' }),
        click({ name: 'Reply' }),
        { action: 'type', value: 'Hi', target: { name: 'textarea', role: 'textbox' } },
        click({ name: 'Send' }),
      ],
    ],
    [
      'Create an account for Tom Baker with the email tom@example.com on the Free plan, accepting the terms.',
      [
        { action: 'type', value: 'Tom Baker', target: { name: 'name', role: 'textbox' } },
        { action: 'type', value: 'tom@example.com', target: { name: 'email', role: 'textbox' } },
        { action: 'check', target: { name: 'Free' } },
        { action: 'check', target: { name: 'terms' } },
        { action: 'submit' },
      ],
    ],
    [
      'Open the Gift options and put the gift wrap',
      [click({ name: 'Gift options' }), { action: 'check', target: { name: 'gift wrap' } }],
    ],
    [
      'Fill out the form with first name Ada and zip code 10115',
      [
        { action: 'type', value: 'Ada', target: { name: 'First name', role: 'textbox' } },
        { action: 'type', value: '10115', target: { name: 'Zip code', role: 'textbox' } },
      ],
    ],
    [
      'Pick Japan as the country',
      [{ action: 'select', option: 'Japan', target: { name: 'country', role: 'textbox' } }],
    ],
    [
      "Filter the table by 'Fruit'",
      [{ action: 'type', value: 'Fruit', target: { name: 'search', role: 'textbox' } }],
    ],
    [
      'Tick the box next to Remember me',
      [{ action: 'check', target: { name: '', role: 'checkbox', near: 'Remember me' } }],
    ],
    ['Remove the second item', [click({ name: 'delete', role: 'button', inRow: 2 })]],
    ['Delete all completed todos', [click({ name: 'Clear completed' })]],
    [
      'Apply the coupon SAVE10',
      [
        { action: 'type', value: 'SAVE10', target: { name: 'coupon', role: 'textbox' } },
        click({ name: 'Apply' }),
      ],
    ],
    ['Proceed to checkout', [click({ name: 'checkout' })]],
    [
      'Enter 5 in quantity and 10115 in zip',
      [
        { action: 'type', value: '5', target: { name: 'quantity' } },
        { action: 'type', value: '10115', target: { name: 'zip' } },
      ],
    ],
    [
      'Fill name with Ada and email with ada@x.io',
      [
        { action: 'type', value: 'Ada', target: { name: 'name' } },
        { action: 'type', value: 'ada@x.io', target: { name: 'email' } },
      ],
    ],
    ['Open the menu, choose Settings', [click({ name: 'menu' }), click({ name: 'Settings' })]],
    ['Tab to the next field', [{ action: 'press', keys: ['Tab'], repeat: 1 }]],
    ['Toggle dark mode on', [{ action: 'check', target: { name: 'dark mode' } }]],
    ['Switch notifications off', [{ action: 'uncheck', target: { name: 'notifications' } }]],
    [
      'Check the checkbox is checked',
      [{ action: 'assertState', target: { name: '', role: 'checkbox' }, state: 'checked' }],
    ],
    [
      'Check that the box is ticked',
      [{ action: 'assertState', target: { name: '', role: 'checkbox' }, state: 'checked' }],
    ],
    [
      'At least 3 results are shown',
      [{ action: 'assertCount', target: { name: 'results' }, count: 3, comparison: 'gte' }],
    ],
    ['Open the link in the footer called Privacy', [click({ name: 'Privacy', role: 'link' })]],
    ['Take a screenshot. Click Save.', [click({ name: 'Save' })]],
    ['Should be written "Order placed"', [{ action: 'assertText', expected: 'Order placed', negate: false }]],
    ['Click on the red colored box.', [click({ name: '', color: 'red' })]],
    ['Click the green Save button.', [click({ name: 'Save', role: 'button', color: 'green' })]],
    ['Click the Red Sox link.', [click({ name: 'Red Sox', role: 'link' })]],
    ['Click ONE and THREE.', [click({ name: 'ONE and THREE' })]],
    ...(
      [
        'Please forward the information from Ada to Bob.',
        'Send Bob the email from Ada.',
        "Forward Ada's email to Bob.",
      ] as const
    ).map((query): [string, StepBody[]] => [
      query,
      [
        click({ name: 'Ada' }),
        click({ name: 'Forward' }),
        { action: 'type', value: 'Bob', target: { name: 'To', role: 'textbox' } } as StepBody,
        click({ name: 'Send' }),
      ],
    ]),
    [
      'Reply to Ida with "See you at noon".',
      [
        click({ name: 'Ida' }),
        click({ name: 'Reply' }),
        {
          action: 'type',
          value: 'See you at noon',
          target: { name: 'textarea', role: 'textbox' },
        } as StepBody,
        click({ name: 'Send' }),
      ],
    ],
    ['Delete this email from Bob.', [click({ name: 'Bob' }), click({ name: 'trash' })]],
    ['Mark the email from Ada as important.', [click({ name: 'Ada' }), click({ name: 'star' })]],
    [
      'Find the email by Ada and click the star icon to mark it as important.',
      [click({ name: 'Ada' }), click({ name: 'star' })],
    ],
    [
      'Check the 3rd radio button and enter the number "6" into the 2nd textbox, then press Submit.',
      [
        { action: 'check', target: { name: '', role: 'radio', nth: 3 } } as StepBody,
        { action: 'type', value: '6', target: { name: '', role: 'textbox', nth: 2 } } as StepBody,
        click({ name: 'Submit' }),
      ],
    ],
    [
      'Enter "Ada" as the first name and "Byron" as the last name.',
      [
        { action: 'type', value: 'Ada', target: { name: 'first name' } } as StepBody,
        { action: 'type', value: 'Byron', target: { name: 'last name' } } as StepBody,
      ],
    ],
    ['Click on the item labeled "b".', [click({ name: 'b' })]],
    [
      'Select the following color #3d8e4f with the color picker and hit Submit.',
      [
        { action: 'type', value: '#3d8e4f', target: { name: 'input[type="color"]' } } as StepBody,
        click({ name: 'Submit' }),
      ],
    ],
    [
      'Find Ada Byron in the contact book and click on their phone number.',
      [click({ name: 'phone number', near: 'Ada Byron', paged: true })],
    ],
    [
      'Set the sliders to the combination [4,5,9] and submit.',
      (['4', '5', '9'] as const)
        .map(
          (value, i) =>
            ({
              action: 'type',
              value,
              target: { name: '', role: 'slider', nth: i + 1 },
            }) as unknown as StepBody,
        )
        .concat([{ action: 'submit' } as StepBody]),
    ],
    [
      'Using the text editor, give the text "tempus" the color red.',
      [
        { action: 'select', option: 'tempus', target: { name: '', role: 'editor' } } as StepBody,
        click({ name: 'color', role: 'button' }),
        click({ name: '', color: 'red' }),
      ],
    ],
    ['Click Edit next to "Bob" on any page.', [click({ name: 'Edit', near: 'Bob', paged: true })]],
    [
      'Scroll the textarea to the bottom of the text hit submit.',
      [
        { action: 'scroll', direction: 'bottom', target: { name: 'textarea', role: 'textbox' } } as StepBody,
        click({ name: 'submit' }),
      ],
    ],
  ])('%s', (query, steps) => {
    expect(read(query)).toEqual(steps);
  });

  it('leaves sentences that only look alike as they were', () => {
    // "For example" names no one; "move to the next page" is no drag.
    expect(parseInstructions('For example, click Save.').unknown).toHaveLength(1);
    // "Put" with a place is not a tick; a sentence said again keeps its words when it is one step.
    expect(parseInstructions('put the milk in the fridge').unknown).toHaveLength(1);
    // '… and "Call mum" too' adds it; it is no check that the page shows it.
    expect(read('Add "Buy milk" and "Call mum" too').map((s) => s.action)).toEqual(['type', 'type']);
    expect(parseInstructions('For the user @ada, click Reply.').steps[0]?.text).toBe(
      'For the user @ada, click Reply',
    );
    // "The text below" is text shown on the page, never the word "below".
    expect(parseInstructions('Type the text below into the text field').unknown).toHaveLength(1);
    expect(read('Move to the next page')).toEqual([click({ name: 'Next' })]);
    // "Select all the text in the editor" keeps its keyboard select-all.
    expect(read('Select all the text in the editor')[0]).toMatchObject({
      action: 'press',
      keys: ['Control', 'a'],
    });
  });
});
