import { TOKEN_PATTERN } from './masked-text.js';

/**
 * Other ways people say what a phrase rule already reads, rewritten into the form the rules know.
 * Tried only when no rule understood a step as written, so a step that reads today keeps its
 * meaning. Each rewrite is one anchored pattern over a step of bounded length (no nested
 * quantifiers), and a rewritten step is read once, never rewritten again.
 *
 * Kept apart from the rules on purpose: these are styles of writing ("Field:
 * value" lines, "Expect ..." lines, "In X write Y"), not new things the interpreter can do.
 */

const Q = TOKEN_PATTERN.replace('[qu]', 'q');
const U = TOKEN_PATTERN.replace('[qu]', 'u');

interface Variant {
  pattern: RegExp;
  rewrite: (match: RegExpExecArray) => string;
  /** Not applied when the step also matches this. */
  unless?: RegExp;
}

/** A line that only looks like "Label: value". */
const NOT_A_FORM_LINE =
  /^(?:(?:step\s+\d|note|tip|hint|comment|todo|given|when|then|and|but)\b|(?:count|check|verify|expect|assert|ensure|confirm)(?:\s+(?:the|that|all|if|whether)\b|\s*:))/i;

const VARIANTS: readonly Variant[] = [
  // "I am on <url>", "Go on <url>", "Be at <url>": being on a page is opening it.
  {
    pattern: new RegExp(
      `^(?:(?:i am|i'm|we are|be|go|stay)\\s+)?(?:on|at)\\s+(?:the\\s+page\\s+)?(${U}.*)$`,
      'i',
    ),
    rewrite: (m) => `open ${m[1]}`,
  },
  // "Expect "Saved"", "Expect the text "Saved"", "Must appear "Saved"", "You should read "Saved"",
  // "The page should now say "Saved"": the page shows that text.
  {
    pattern: new RegExp(
      `^(?:expect(?:ed)?|must appear|should appear|(?:you|we|i) should (?:now )?(?:read|see)|(?:the )?(?:page|screen) (?:should |must )?(?:now )?(says?|shows?|reads?|displays?))\\s*:?\\s+(?:the\\s+)?(?:(?:text|message|words?)\\s+)?(${Q})(?:\\s+(?:to )?(?:appear|be (?:shown|visible|displayed)))?$`,
      'i',
    ),
    // "The page should say X": a whole message, as "the page says X" (see AssertTextStep.whole).
    rewrite: (m) => `the page ${/^(?:say|read)/i.test(m[1] ?? '') ? 'says' : 'contains'} ${m[2]}`,
  },
  // "Verify appears "City: Oslo"", "appear "Saved"": the page shows it.
  {
    pattern: new RegExp(
      `^(?:(?:verify|check|see|confirm)\\s+(?:that\\s+)?)?(?:it\\s+)?appears?\\s*:?\\s+(${Q})$`,
      'i',
    ),
    rewrite: (m) => `the page contains ${m[1]}`,
  },
  // What is left of "Expect the text "Saved"" once "expect" is read as an assertion's prefix.
  {
    pattern: new RegExp(
      `^(?:the\\s+)?(?:text|message|words?)\\s+(${Q})(?:\\s+(?:appears|is (?:shown|visible|displayed)))?$`,
      'i',
    ),
    rewrite: (m) => `the page contains ${m[1]}`,
  },
  // "The page has only 2 orders": as many of them as said.
  {
    pattern:
      /^(?:the\s+)?(?:page|screen|site)\s+(?:has|shows|contains|lists|displays)\s+(?:only|exactly|just)\s+(\d{1,4})\s+(\p{L}{3,}s)$/iu,
    rewrite: (m) => `there are exactly ${m[1]} ${m[2]}`,
  },
  // "… only 2 orders and one of them is Dan Wu": that one is on the page.
  {
    pattern:
      /^(?:and\s+)?(?:one|1)\s+of\s+(?:them|these|those|the(?:se)?\s+\w+)\s+(?:is|says|shows|reads|has|contains|includes|mentions)\s+(?:by\s+|from\s+)?(\S.{0,80})$/i,
    rewrite: (m) => `the page contains ${m[1]}`,
  },
  // "The title should now be "Contact"": the adverb aside.
  {
    pattern: /^(.+?)\s+(?:now|then|already|finally)\s+(\S.*)$/i,
    rewrite: (m) => `${m[1]} ${m[2]}`,
  },
  // ""Saved" is shown", "Check that "Saved" is displayed", ""Saved" shown": the page shows that text.
  {
    pattern: new RegExp(
      `^(?:(?:check|verify|see|confirm|ensure)\\s+(?:that\\s+)?)?(${Q})\\s+(?:(?:is|are)\\s+)?(?:shown|displayed|visible|present|there|on the page|on screen|written)$`,
      'i',
    ),
    rewrite: (m) => `the page contains ${m[1]}`,
  },
  // "It lists "Ada"", "the screen reads "Done"": the page shows that text.
  {
    pattern: new RegExp(`^(?:it|the page|the screen)\\s+(?:lists|shows|says|displays|reads)\\s+(${Q})$`, 'i'),
    rewrite: (m) => `the page contains ${m[1]}`,
  },
  // ""Cobol" should be suggested", ""Java" appears in the suggestions", ""Perl" is not offered": an
  // option of the open list, never the text typed into the field.
  {
    pattern: new RegExp(
      `^(${Q})\\s+(?:(?:should|must|will)\\s+(?:not\\s+)?be|is\\s+(?:not\\s+)?|are\\s+(?:not\\s+)?|(?:(?:does|do|should|must)\\s+not\\s+)?(?:appears?|shows? up|comes? up)\\s+(?:in|among)\\s+the)\\s*(?:suggested|offered|proposed|suggestions|options|completions|autocomplete(?: list| results)?|results)$`,
      'i',
    ),
    // The quoted text is masked, so a "not" in the step is one of the step's own words.
    rewrite: (m) => `the ${m[1]} option is ${/\bnot\b/i.test(m[0]) ? 'not ' : ''}visible`,
  },
  // ""Saved" is hidden", ""Error" is gone": the page does not show that text.
  {
    pattern: new RegExp(
      `^(?:(?:check|verify|see|confirm|ensure)\\s+(?:that\\s+)?)?(${Q})\\s+(?:is|are)\\s+(?:hidden|gone|not (?:shown|displayed|visible|there|on the page))$`,
      'i',
    ),
    rewrite: (m) => `the page does not contain ${m[1]}`,
  },
  // "The output is "x"", "the greeting reads "Hi"", "the total shows "€3"": that element's text.
  {
    pattern: new RegExp(
      `^((?:the\\s+)?[a-z][\\w'-]*(?:\\s+[a-z][\\w'-]*){0,4})\\s+(?:is|reads|says|shows|displays|equals)\\s+(${Q})$`,
      'i',
    ),
    rewrite: (m) => `${m[1]} has text ${m[2]}`,
  },
  // "In the field Your name write Olga", "In City write Oslo", "Into the search box type cats".
  {
    pattern:
      /^in(?:to)?\s+(?:the\s+)?(?:(?:field|box|input|textbox|text box)\s+)?(\S.{0,60}?)\s+(?:write|type|enter|put|input|fill in)\s+(\S.*)$/i,
    // "In the first box write A": the box is the field already.
    rewrite: (m) =>
      /(?:^|\s)(?:box|field|input|text ?box|text ?area|editor|search box)$/i.test(m[1] ?? '')
        ? `type ${m[2]} into the ${m[1]}`
        : `type ${m[2]} into the ${m[1]} field`,
  },
  // "Click in the menu on Books", "In the menu, click Books": that item, in that container.
  {
    pattern:
      /^(?:(click|tap|press|select|choose)\s+in\s+the\s+(menu|menu ?bar|navigation|nav|sidebar|toolbar)\s+on\s+(\S.{0,60})|in\s+the\s+(menu|menu ?bar|navigation|nav|sidebar|toolbar)\s*,?\s+(click|tap|press|select|choose)\s+(?:on\s+)?(\S.{0,60}))$/i,
    rewrite: (m) => `${m[1] ?? m[5]} ${m[3] ?? m[6]} in the ${m[2] ?? m[4]}`,
  },
  // "Add the first product to the cart", "add "Mug" to the basket": that item's Add to cart button.
  {
    pattern: new RegExp(
      `^add\\s+(?:the\\s+)?(?:(first|second|third|last|\\d{1,2}(?:st|nd|rd|th))\\s+(?:product|item|book|article|one|result)|(${Q}))\\s+to\\s+(?:the\\s+|my\\s+)?(cart|basket|bag)$`,
      'i',
    ),
    rewrite: (m) =>
      m[1] ? `click the ${m[1]} Add to ${m[5]} button` : `click Add to ${m[5]} next to ${m[2]}`,
  },
  // "Accept the cookies", "accept the cookie banner": the banner's Accept button.
  {
    pattern:
      /^accept\s+(?:all\s+)?(?:the\s+)?cookies?(?:\s+(?:banner|notice|consent|bar|popup|dialog|message))?$/i,
    rewrite: () => 'click Accept',
  },
  // "Verify the error "Email is required" appears under the email field": the page shows it.
  {
    pattern: new RegExp(
      `^(?:(?:verify|check|confirm|ensure)\\s+(?:that\\s+)?)?(?:the\\s+|an?\\s+)?(?:error|message|warning|hint|validation(?:\\s+(?:error|message))?|text)(?:\\s+message)?\\s+(${Q})\\s+(?:appears|is\\s+(?:shown|displayed|visible)|shows(?:\\s+up)?)\\s+(?:under|below|above|next\\s+to|beside|near|by|on)\\s+(?:the\\s+)?\\S.{0,40}$`,
      'i',
    ),
    rewrite: (m) => `the page contains ${m[1]}`,
  },
  // "Check: the title is "X"", "Expect: 3 rows": the check after the colon.
  {
    pattern: /^(?:check|verify|expect|assert|ensure|confirm|then)\s*:\s*(\S.*)$/i,
    rewrite: (m) => `verify that ${m[1]}`,
  },
  // "Fill in the registration form with name "Ada", email "a@b.io" and …": each field named.
  {
    pattern: /^fill\s+(?:in|out)?\s*(?:the\s+)?(?:[\w-]+\s+)?form\s+with\s+(?:the\s+)?(\S.*)$/i,
    rewrite: (m) => `fill in ${m[1]}`,
  },
  // "Leave the email empty": nothing typed in it (cleared, if it holds something).
  {
    pattern: /^leave\s+(?:the\s+)?(\S.{0,40}?)\s+(?:field\s+|box\s+)?(?:empty|blank|unfilled)$/i,
    rewrite: (m) => `clear the ${m[1]} field`,
  },
  // "Navigate back to the home page", "go to the homepage": the site's root.
  {
    pattern:
      /^(?:navigate|go|get|return|head)\s+(?:back\s+)?to\s+the\s+(?:home\s*page|start\s+page|main\s+page|front\s+page|landing\s+page)$/i,
    rewrite: () => 'open /',
  },
  // "Delete the row with "Bob"", "remove the entry for "Milk"": its delete button.
  {
    pattern: new RegExp(
      `^(?:delete|remove|trash)\\s+the\\s+(?:row|item|entry|record|line|card|user|task|todo)\\s+(?:with|for|containing|that\\s+(?:says|shows|has))\\s+(${Q})$`,
      'i',
    ),
    rewrite: (m) => `delete ${m[1]}`,
  },
  // "Read the terms", "review the privacy policy": open them (their link or button).
  {
    pattern:
      /^(?:read|review|open|view)\s+the\s+(terms(?:\s+(?:of\s+(?:service|use)|and\s+conditions))?|conditions|privacy\s+policy|policy|agreement|licen[cs]e(?:\s+agreement)?)$/i,
    rewrite: (m) => `click ${m[1]}`,
  },
  // "… and agree to them": the control that says so (an "I agree" button or box); "accept the
  // terms" is the terms checkbox (below).
  {
    pattern: /^(?:agree|consent)(?:\s+to)?\s+(?:them|it|this|these|those)$/i,
    rewrite: () => 'click agree',
  },
  // "We should be on the pricing page with "#team" at the end of the address": the URL ends so.
  {
    pattern: new RegExp(
      `^(?:(?:we|i|you)\\s+(?:should\\s+|must\\s+)?(?:be|are|am)\\s+on\\s+(?:the\\s+)?\\S.{0,40}?\\s+with\\s+|the\\s+(?:url|address)\\s+(?:has|shows|should\\s+have)\\s+)(${Q})\\s+at\\s+the\\s+end(?:\\s+of\\s+the\\s+(?:address|url))?$`,
      'i',
    ),
    rewrite: (m) => `the URL ends with ${m[1]}`,
  },
  // Word orders of other languages: "Write in the Name the text Ada", "Insert the email a@b.io",
  // "Verify if appears the message "Saved"", "Go in the page /about", "Select in Country the
  // Norway", "Mark the checkbox of terms", "the list has 3 elements", "Open the page of contacts".
  {
    pattern:
      /^(?:write|type|put|insert|enter)\s+in(?:to|side)?\s+(?:the\s+)?(\S.{0,40}?)\s+the\s+(?:text|value|word|words|number)\s+(\S.{0,200})$/i,
    rewrite: (m) => `type ${m[2]} into the ${m[1]}`,
  },
  {
    pattern: /^insert\s+(\S.{0,200})$/i,
    rewrite: (m) => `enter ${m[1]}`,
  },
  {
    pattern: new RegExp(
      `^(?:(?:verify|check|control|see)\\s+)?(?:if|that|whether)?\\s*(?:appears?|is\\s+(?:visible|shown|displayed|present)|(?:must|should)\\s+(?:appear|be\\s+(?:visible|shown|displayed)))\\s+(?:the\\s+)?(?:text|message|error|warning|label|title|notice)?\\s*(${Q})$`,
      'i',
    ),
    rewrite: (m) => `the page contains ${m[1]}`,
  },
  {
    pattern: new RegExp(
      `^(?:go|navigate|enter)\\s+(?:in|into|inside|at)\\s+(?:the\\s+)?(?:page\\s+)?(${U}|\\/\\S*)$`,
      'i',
    ),
    rewrite: (m) => `open ${m[1]}`,
  },
  {
    pattern: /^(?:select|choose|pick)\s+in\s+(?:the\s+)?(\S.{0,40}?)\s+the\s+(\S.{0,60})$/i,
    rewrite: (m) => `select ${m[2]} from the ${m[1]} dropdown`,
  },
  {
    pattern:
      /^(?:mark|tick|check|select)\s+the\s+(?:checkbox|check\s+box|box)\s+(?:of|for)\s+(?:the\s+)?(\S.{0,60})$/i,
    rewrite: (m) => `check the ${m[1]} checkbox`,
  },
  {
    pattern:
      /^(?:the\s+)?list\s+(?:has|contains|shows|have)\s+(\d{1,4})\s+(?:elements|entries|items|lines|things)$/i,
    rewrite: (m) => `there are ${m[1]} items`,
  },
  {
    pattern: /^(?:open|go\s+to|visit)\s+the\s+page\s+(?:of|for|about)\s+(?:the\s+)?([a-z][\w -]{0,40})$/i,
    rewrite: (m) => `click the ${m[1]} link`,
  },
  // "Confirm the deletion": the dialog's Confirm button (or its OK, Yes).
  {
    pattern:
      /^confirm\s+(?:the\s+)?(?:deletion|removal|purchase|payment|booking|order|action|choice|dialog)$/i,
    rewrite: () => 'click Confirm',
  },
  // "Count the rows: there should be 5": that many of them.
  {
    pattern:
      /^count\s+(?:the\s+|all\s+(?:the\s+)?)?([a-z][\w-]*s)\s*:\s*there\s+(?:should|must|will)\s+be\s+(\d{1,4})$|^count\s+(?:the\s+)?([a-z][\w-]*s)\s*:\s*(\d{1,4})$/i,
    rewrite: (m) => `there are ${m[2] ?? m[4]} ${m[1] ?? m[3]}`,
  },
  // "Results: "2 results for an"", "Total: "$30"": a line naming what the page outputs, then
  // what it should say, is a check (no one types into results).
  {
    pattern: new RegExp(
      `^(?:the\\s+)?(?:results?|output|message|total|score|count|greeting|summary|response|status\\s+message|error(?:\\s+message)?)\\s*:\\s*(${Q})$`,
      'i',
    ),
    rewrite: (m) => `the page contains ${m[1]}`,
  },
  // "Username: ada", "full name = Li Wei": a form line, label then value.
  {
    pattern: new RegExp(
      `^([a-z][\\w-]*(?:\\s+[a-z][\\w-]*){0,3})\\s*(?::|=)\\s*(${Q}|[^\\s:=].{0,200})$`,
      'i',
    ),
    rewrite: (m) => `set the ${m[1]} to ${m[2]}`,
    unless: NOT_A_FORM_LINE,
  },
  // "Go to the next page", "next page", "the previous page": the pager's control by its word.
  {
    pattern:
      /^(?:(?:go|move|navigate|skip|turn|switch)\s+(?:on\s+)?to\s+)?(?:the\s+)?(next|previous|prev|last|first)\s+page$/i,
    rewrite: (m) =>
      `click ${/^prev/i.test(m[1] ?? '') ? 'Previous' : (m[1] ?? '').replace(/^./, (c) => c.toUpperCase())}`,
  },
  // "Go to the Pricing page", "navigate to the About Us page": the link that names it.
  {
    pattern:
      /^(?:go|navigate|move|head|click\s+through)\s+(?:over\s+)?to\s+the\s+([A-Za-z][\w&' -]{0,40}?)\s+(?:page|section|screen)$/i,
    rewrite: (m) => `click the ${m[1]} link`,
    unless: /^\S+\s+(?:over\s+)?to\s+the\s+(?:next|previous|prev|same|home\s+page\s+of)\b/i,
  },
  // "The dialog is closed", "dialog hidden", "the popup is open", "the modal should be gone".
  {
    pattern:
      /^(?:the\s+)?(?:dialog|modal|popup|pop-up|dialog box|dialogue|overlay)(?:\s+(?:window|box))?\s+(?:(?:is|should be|must be|has been|gets?)\s+)?(closed|hidden|gone|dismissed|not visible|not shown|visible|shown|open|opened|displayed|showing)$/i,
    rewrite: (m) =>
      `the dialog is ${/^(?:closed|hidden|gone|dismissed|not)/i.test(m[1] ?? '') ? 'hidden' : 'visible'}`,
  },
  // "The window "Join our newsletter" is open", "the "Delete account?" popup is shown": a dialog by its title.
  {
    pattern: new RegExp(
      `^(?:the\\s+)?(?:(?:dialog|modal|popup|pop-up|window)\\s+(${Q})|(${Q})\\s+(?:dialog|modal|popup|pop-up|window))\\s+(?:is|should be|must be)\\s+(open|opened|visible|shown|displayed|closed|hidden|gone|not visible)$`,
      'i',
    ),
    rewrite: (m) =>
      `the ${m[1] ?? m[4]} dialog is ${/^(?:closed|hidden|gone|not)/i.test(m[7] ?? '') ? 'hidden' : 'visible'}`,
  },
  // "3 rows in the table", "4 rows are shown in the grid", "there must be 3 rows": data rows.
  {
    pattern:
      /^(?:there\s+(?:are|must be|should be|will be)\s+)?(\d{1,5})\s+rows?(?:\s+(?:are|is|should be|must be))?(?:\s+(?:shown|visible|displayed|listed|left|remaining))?(?:\s+(?:in|on)\s+(?:the\s+)?(?:table|grid|list|results))?$/i,
    rewrite: (m) => `the table has ${m[1]} rows`,
  },
  // "The message reads "Saved"", "the notice says …": a message on the page, said whole.
  {
    pattern: new RegExp(
      `^(?:the\\s+)?(?:message|notice|notification|toast|banner|alert|confirmation|text)\\s+(?:reads|says|shows|displays|should (?:read|say|show))\\s*:?\\s+(${Q})$`,
      'i',
    ),
    rewrite: (m) => `the page says ${m[1]}`,
  },
  // "The input has the placeholder "What needs to be done?"": the field that placeholder names.
  {
    pattern: new RegExp(
      `^(?:the\\s+)?(?:input|field|text\\s*box|text field|search box)\\s+(?:has|shows|displays|should have|should show)\\s+(?:the\\s+|a\\s+)?(?:placeholder|hint)(?:\\s+text)?\\s+(${Q})$`,
      'i',
    ),
    rewrite: (m) => `the ${m[1]} field is visible`,
  },
  // "The suggestions include "JavaScript"", "the list offers "Ruby"": an option of the open list.
  {
    pattern: new RegExp(
      `^(?:the\\s+)?(?:suggestions|suggestion list|autocomplete(?: list)?|options|results|dropdown)\\s+(?:include|includes|contain|contains|show|shows|list|lists|offer|offers)\\s+(${Q})$`,
      'i',
    ),
    rewrite: (m) => `the ${m[1]} option is visible`,
  },
  // "3 Reply buttons", "2 links": a count of controls.
  {
    pattern: /^(\d{1,4})\s+(\S.{0,40}?)\s+(buttons|links|checkboxes|items|rows|fields|tabs|images)$/i,
    rewrite: (m) => `there are ${m[1]} ${m[2]} ${m[3]}`,
  },
  // "Accept the terms", "agree to the terms and conditions": its checkbox.
  {
    pattern:
      /^(?:accept|agree\s+to|consent\s+to)\s+(?:the\s+)?(terms(?:\s+and\s+conditions|\s+of\s+(?:service|use))?|conditions|privacy policy|policy)$/i,
    rewrite: (m) => `check the ${m[1]} checkbox`,
  },
  // "Open the date picker", "show the calendar": the date field's picker.
  {
    pattern:
      /^(?:open|show|bring up|display)\s+(?:the\s+)?(date\s*picker|calendar|time\s*picker|colou?r\s*picker)$/i,
    rewrite: (m) => `click the ${m[1]}`,
  },
  // "Edit menu -> Undo", "Actions > Delete", "File → Export": a menu path.
  {
    pattern: /^(?:the\s+)?([A-Za-z][\w ]{0,30}?)(?:\s+menu)?\s*(?:->|>|→|»)\s*(\S.*)$/i,
    rewrite: (m) => `open ${m[1]} > ${m[2]}`,
    unless: /^(?:open|click|choose|select|go|navigate)\b/i,
  },
  // "Check it is written "Please write a message"", ""Done" is written": the page shows it.
  {
    pattern: new RegExp(
      `^(?:(?:it|there)\\s+is\\s+written\\s+(${Q})|(${Q})\\s+is\\s+written(?:\\s+(?:on the page|somewhere))?)$`,
      'i',
    ),
    rewrite: (m) => `the page contains ${m[1] ?? m[4]}`,
  },
  // "Pick Ruby", "choose it": the item by its name, as "select Ruby" reads.
  {
    pattern: /^(?:pick|choose)\s+(\S.{0,60})$/i,
    rewrite: (m) => `select ${m[1]}`,
    unless: /\s(?:from|in|on|with|into|using|as)\s/i,
  },
  // "Click into the editor", "click inside the search box": click it.
  {
    pattern: /^(?:click|tap)\s+(?:into|inside|in)\s+(the\s+\S.{0,60})$/i,
    rewrite: (m) => `click ${m[1]}`,
  },
  // "The editor is empty at first", "the Name field is empty initially": the state as it is now.
  {
    pattern:
      /^(\S.*?)\s*,?\s+(?:at first|initially|at the start|to begin with|by default|at the beginning)$/i,
    rewrite: (m) => m[1] ?? '',
  },
  // "quantity 4", "guests 6": a labelled number field and its value (terse notes).
  {
    pattern: /^([a-z][a-z-]*(?:\s+[a-z][a-z-]*){0,2})\s+(-?\d{1,9}(?:[.,]\d+)?)$/i,
    rewrite: (m) => `set the ${m[1]} to ${m[2]}`,
    unless:
      /^(?:wait|sleep|pause|scroll|open|go|visit|click|tap|press|hit|type|enter|select|choose|pick|check|uncheck|tick|hover|reload|refresh|zoom|step|page|row|item|option|tab|line|chapter|section|level|version|top|bottom|up|down|verify|assert|expect|ensure|confirm|control|make|see|the|a|an)\b|\b(?:is|are|was|equals?|shows?|reads?|says?|has|have|contains?|should|must|becomes?|remains?|stays?)\s/i,
  },
  // "Go to the next month" in a date picker: its Next / Prev control.
  {
    pattern:
      /^(?:go|move|switch|skip|navigate)\s+(?:on\s+)?to\s+the\s+(next|previous|prev)\s+(?:month|year|week)$/i,
    rewrite: (m) => `click ${/^prev/i.test(m[1] ?? '') ? 'Prev' : 'Next'}`,
  },
  // "The field contains "JavaScript" exactly": the same text, nothing more.
  {
    pattern: new RegExp(`^(.+?)\\s+(?:contains|shows|reads|has|says|displays)\\s+(${Q})\\s+exactly$`, 'i'),
    rewrite: (m) => `${m[1]} is ${m[2]}`,
  },
  // "Remove the "Go to gym" item with the x button": that control in the item's row.
  {
    pattern: new RegExp(
      `^(?:remove|delete|close|dismiss)\\s+the\\s+(${Q})\\s+(?:item|todo|to-do|entry|row|task|card|line)\\s+(?:with|using|by clicking(?:\\s+on)?|via)\\s+(?:the\\s+)?(\\S.{0,40})$`,
      'i',
    ),
    rewrite: (m) => `click the ${m[4]} next to ${m[1]}`,
  },
  // "Confirm by clicking "Delete" in the dialog", "close it with the Close button": the click.
  {
    pattern:
      /^(?:(?:and\s+|then\s+)?(?:i|we|you)\s+)?(?:confirm|accept|agree|cancel|close|dismiss|exit|leave|finish|submit|save)(?:\s+(?:it|this|that|the\s+(?:dialog|popup|pop-up|modal|window|form)))?\s+(?:by\s+(?:clicking|pressing|tapping|hitting)(?:\s+on)?|with|using|via)\s+(\S.{0,60}?)(?:\s+(?:in|on|of)\s+the\s+(?:dialog|popup|pop-up|modal|window|form))?$/i,
    rewrite: (m) => `click ${m[1]}`,
  },
  // "Enable two-factor authentication", "turn on the newsletter": its switch or checkbox.
  {
    pattern: /^(enable|turn on|switch on|activate|disable|turn off|switch off|deactivate)\s+(\S.{0,60})$/i,
    rewrite: (m) =>
      `${/^(?:disable|turn off|switch off|deactivate)/i.test(m[1] ?? '') ? 'uncheck' : 'check'} ${m[2]}`,
  },
  // "Write in the comment editor "Very good article"": the text into that editor or field.
  {
    pattern: new RegExp(
      `^(?:write|type|enter|put)\\s+(?:in|into|inside|on)\\s+(the\\s+.{1,60}?)\\s*:?\\s+(${Q})$`,
      'i',
    ),
    rewrite: (m) => `type ${m[2]} into ${m[1]}`,
  },
  // "Change the value 1815 in 1816", "change 1815 to 1816": replace one text with another.
  {
    pattern: /^change\s+(?:the\s+(?:value|text|number|word)\s+)?(\S{1,40})\s+(?:in|into|to)\s+(\S{1,40})$/i,
    rewrite: (m) => `replace ${m[1]} with ${m[2]}`,
  },
  // "The status of order 1004 is "Cancelled"": the Status cell in the row that names 1004.
  {
    pattern: new RegExp(
      `^(?:(?:verify|check|control|confirm|ensure|make sure)\\s+(?:that\\s+)?)?(?:the\\s+)?([A-Za-z][\\w -]{0,30}?)\\s+of\\s+(?:the\\s+)?(?:order|row|item|user|person|product|entry|record|invoice|customer)\\s+(${Q}|[\\w-]{1,30})\\s+(is|equals|reads|shows|says)\\s+(${Q}|\\S.{0,60})$`,
      'i',
    ),
    rewrite: (m) => `the ${m[1]} in the row with ${m[2]} is ${m[6]}`,
  },
  // "I should see 2 todos", "there should be 3 tasks", "is remaining only 1 item": a count of items.
  {
    pattern:
      /^(?:(?:(?:i|we|you)\s+(?:should\s+)?see|there\s+(?:should\s+be|must\s+be|are|is)|(?:is|are)\s+remaining)\s+)?(?:only\s+)?(\d{1,4})\s+(?:todos?|to-dos?|items?|tasks?|entries|entry)(?:\s+(?:in the list|remaining|listed|shown|remain|are left|left in the list))?$/i,
    rewrite: (m) => `there are ${m[1]} items`,
    unless: /\bleft$/i,
  },
  // "Go to the Members tab", "switch to the Billing tab": a tab by name.
  {
    pattern: /^(?:go|navigate|switch|move)\s+to\s+(?:the\s+)?(\S.{0,60}?)\s+tab$/i,
    rewrite: (m) => `click the ${m[1]} tab`,
  },
  // "Billing tab" alone.
  {
    pattern: /^(?:the\s+)?(\S.{0,60}?)\s+tab$/i,
    rewrite: (m) => `click the ${m[1]} tab`,
  },
  // "Open Dialog.tsx", "open the docs folder", "open "Q3 report"": a file, a folder or a quoted
  // name is an item to click ("open the pod bay doors" stays unread).
  {
    pattern: new RegExp(
      `^open\\s+(?:up\\s+)?(?:the\\s+)?(${Q}|[\\w-]+(?:\\.[\\w-]+)*\\.[a-z0-9]{1,5}|\\S.{0,60}?\\s+(?:file|folder|directory|item|node|entry|document))$`,
      'i',
    ),
    rewrite: (m) => `click ${m[1]?.replace(/\s+(?:file|folder|directory|item|node|entry|document)$/i, '')}`,
  },
  // "The cheapest product, Banana, should come first", "Caesar Vance should be in the first row now",
  // "the first row is Banana": the first data row holds that name.
  {
    pattern:
      /^(?:the\s+[\w -]{1,40},\s+)?(\S.{0,60}?),?\s+(?:should|must|will|is|are|comes|appears)?\s*(?:now\s+)?(?:be\s+)?(?:come\s+|appear\s+|shown\s+|listed\s+)?(?:first|at the top|on top|in the first row|the first row|in row 1)(?:\s+(?:of|in)\s+the\s+(?:table|grid|list))?(?:\s+now)?$/i,
    rewrite: (m) => `the first row of the table contains ${m[1]}`,
    unless: /^(?:the\s+)?(?:first|second|third|last)\b|\b(?:row|column)\s+(?:should|must|is)/i,
  },
  {
    pattern: /^(?:the\s+)?(first|second|third|last)\s+row\s+(?:is|should be|must be)\s+(\S.{0,60})$/i,
    rewrite: (m) => `the ${m[1]} row of the table contains ${m[2]}`,
  },
  // "The first name is Bradley Greer": the Name of the first row.
  {
    pattern: /^(?:the\s+)?(first|second|third|last)\s+([a-z]+)\s+(?:is|should be|must be)\s+(\S.{0,60})$/i,
    rewrite: (m) => `the ${m[2]} of the ${m[1]} row is ${m[3]}`,
    unless: /^(?:the\s+)?\S+\s+(?:row|column|item|link|button|field|box|option|entry|tab|result)\s/i,
  },
  // "Must be 3 rows": there must be.
  {
    pattern: /^(?:must|should|will)\s+be\s+(\d{1,5})\s+(rows?|results?|entries|items?)$/i,
    rewrite: (m) => `there must be ${m[1]} ${m[2]}`,
  },
  // "The Size dropdown has "Large" selected", ""Large" is selected in the Size dropdown": its value.
  {
    pattern: new RegExp(
      `^(?:the\\s+)?([A-Za-z][\\w-]*(?:\\s+[A-Za-z][\\w-]*){0,2})\\s+(dropdown|drop-down|select|selector|list|combobox|picker|menu)\\s+(?:has|shows)\\s+(${Q})\\s+(?:selected|chosen|picked)$`,
      'i',
    ),
    rewrite: (m) => `the ${m[1]} ${m[2]} is ${m[3]}`,
  },
  {
    pattern: new RegExp(
      `^(${Q})\\s+is\\s+(?:selected|chosen|picked)\\s+(?:in|from|on)\\s+(?:the\\s+)?(\\S.{0,40}?)\\s+(dropdown|drop-down|select|selector|list|combobox|picker|menu)$`,
      'i',
    ),
    rewrite: (m) => `the ${m[4]} ${m[5]} is ${m[1]}`, // m[2], m[3]: the quote token's own groups
  },
  // "The "src" folder is open", "the Billing section should be closed": expanded or collapsed
  // (after the dialog readings above: an open dialog is one on screen).
  {
    pattern: /^(\S.{0,60}?)\s+(?:is|should be|must be|is now|should now be)\s+(open|opened|closed)$/i,
    rewrite: (m) => `${m[1]} is ${/^clos/i.test(m[2] ?? '') ? 'collapsed' : 'expanded'}`,
  },
  // "Check-in is 2024-03-20", "the Total field is 42", "the total is $30.00": a value that is a
  // number (an amount), date or time is
  // what the labelled field (or element) holds.
  {
    pattern:
      /^(?:the\s+)?([A-Za-z][\w-]*(?:\s+[A-Za-z][\w-]*){0,2}?)(?:\s+(?:field|box|input|value))?\s+(?:is|equals|shows|reads)\s+((?:[$€£¥]\s?)?-?\d(?:[\d\-/.:,]{0,18}\d)?(?:\s*(?:am|pm|[$€£¥]|eur|usd|gbp|%))?)$/i,
    rewrite: (m) => `${m[1]} has value ${m[2]}`,
  },
  // "In the Status choose Cancelled", "in Country select Norway": that option in that dropdown.
  {
    pattern:
      /^in\s+(?:the\s+)?(\S.{0,40}?)(?:\s+(?:dropdown|list|select|field|menu))?\s*,?\s+(?:choose|select|pick)\s+(\S.{0,60})$/i,
    rewrite: (m) => `select ${m[2]} from the ${m[1]} dropdown`,
  },
  // "Show 25 entries per page", "display 50 rows": the page-size dropdown that offers that number.
  {
    pattern:
      /^(?:show|display|list|view)\s+(\d{1,4})\s+(?:entries|rows|items|results|records|lines)(?:\s+(?:per|a|on\s+each|on\s+a)\s+page)?$/i,
    rewrite: (m) => `select ${m[1]} from the dropdown`,
  },
  // "Read the Code value from the table", "read the value of Code in the table": keep it.
  {
    pattern:
      /^(?:read|get|take|note|copy|look up)\s+(?:the\s+)?(?:value\s+of\s+(?:the\s+)?)?([A-Za-z][\w-]*(?:\s+(?!value\b)[A-Za-z][\w-]*)?)(?:\s+value)?\s+(?:from|in|of)\s+the\s+(table|grid|list)$/i,
    rewrite: (m) => `remember the ${m[1]} from the ${m[2]}`,
  },
  // "It should show the placeholder "Write something..."", "the editor shows the placeholder …".
  {
    pattern: new RegExp(
      `^(?:it|the\\s+(?:editor|field|input|box|text\\s*box|text\\s*area))\\s+(?:shows?|has|displays?)\\s+(?:the\\s+)?placeholder\\s+(?:text\\s+)?(${Q})$`,
      'i',
    ),
    rewrite: (m) => `the ${m[1]} field is visible`,
  },
  // "In the page there is 1816", "on the screen there is "Saved"": the page shows it.
  {
    pattern:
      /^(?:in|on)\s+the\s+(?:page|screen)\s*,?\s+there\s+(?:is|are)\s+(?:the\s+(?:text|value|number)\s+)?(\S.{0,80})$/i,
    rewrite: (m) => `the page shows ${m[1]}`,
  },
  // ""Selected Pine"", "'Saved'": a line that is only quoted text is text the page shows.
  {
    pattern: new RegExp(`^(${Q})$`),
    rewrite: (m) => `the page shows ${m[1]}`,
  },
  // Tried last: descriptions of what the page says, and menus and pages named in passing.
  // "A little notification saying "Saved" should pop up", "a toast with "Saved" appears": the page
  // shows that text.
  {
    pattern: new RegExp(
      `^(?:an?|the)\\s+(?:(?:little|small|short|green|red|new|success|error)\\s+)?(?:notification|toast|message|alert|banner|popup|pop-up|snackbar|notice|confirmation|text|label|tooltip|hint)\\s+(?:saying|that says|which says|reading|with(?: the text)?|stating)\\s+(${Q})\\s+(?:should\\s+|must\\s+|will\\s+)?(?:pop(?:s)? up|appears?|shows? up|be (?:shown|displayed|visible)|is (?:shown|displayed|visible)|comes? up)$`,
      'i',
    ),
    rewrite: (m) => `the page contains ${m[1]}`,
  },
  // "The answer mentions "30 days"", "the label reads "From $100 to $500"", "the message tells
  // "Done"": a thing the page says, named by what it is rather than where it is.
  {
    pattern: new RegExp(
      `^(?:the\\s+)?(?:answer|reply|response|label|caption|message|notice|banner|status|description|explanation|info|information|summary|note|hint|tooltip|text)\\s+(?:should\\s+|must\\s+)?(?:mentions?|reads?|says?|tells?(?: me)?|states?|shows?|displays?|contains?|includes?|talks about|be|is)\\s+(${Q})$`,
      'i',
    ),
    rewrite: (m) => `the page contains ${m[1]}`,
  },
  // "Open the help center at <url>", "visit our shop on <url>": the page by its address.
  {
    pattern: new RegExp(
      `^(?:open|visit|go to|navigate to|load|browse to)\\s+(?:the\\s+|a\\s+|our\\s+|my\\s+)?[\\p{L}\\d' -]{1,40}?\\s+(?:at|on|via|under)\\s+(${U}\\S*)$`,
      'iu',
    ),
    rewrite: (m) => `open ${m[1]}`,
  },
  // "From the Settings menu click on Sign out", "in the File menu choose Export": a menu path.
  {
    pattern:
      /^(?:from|in|on|under|via)\s+(?:the\s+)?(?!the\s)(.{1,40}?)\s+(?:menu|dropdown|drop-down)\s*,?\s+(?:(?:do\s+)?click(?:\s+on)?|select|choose|pick|tap(?:\s+on)?|press)\s+(?:the\s+)?(.{1,60}?)(?:\s+(?:item|option|entry|link))?$/i,
    rewrite: (m) => `open ${m[1]} > ${m[2]}`,
  },
  // "Donald Knuth is listed there", "Ada is shown on the page": the page shows that name.
  {
    pattern:
      /^(\p{Lu}[\p{L}'’.-]*(?:\s+\p{Lu}[\p{L}'’.-]*){0,3})\s+(?:is|are)\s+(?:listed|shown|displayed|present|there)(?:\s+(?:there|here|on (?:the|this) page|in the (?:table|list|results)))?$/u,
    rewrite: (m) => `the page contains ${m[1]}`,
  },
  // "… has a bulleted item "first point"", "the list shows an item "Milk"": a list item with that text.
  {
    pattern: new RegExp(
      `^(?:.{1,60}?)\\s+(?:should\\s+|must\\s+)?(?:has|have|contains?|shows?|includes?)\\s+(?:a|an|the)\\s+(?:bulleted|bullet|numbered|list)\\s+(?:item|point|entry|line)\\s+(${Q})$`,
      'i',
    ),
    rewrite: (m) => `the list item ${m[1]} is visible`,
  },
  // "Search the country list for "swe"": typed into that list's search (a searchable select's box).
  {
    pattern: new RegExp(
      `^search\\s+(?:the\\s+|in\\s+the\\s+)?(.{1,40}?)\\s+(?:list|dropdown|drop-down|select|options|menu|field|box)\\s+for\\s+(${Q})$`,
      'i',
    ),
    rewrite: (m) => `type ${m[2]} into the ${m[1]} dropdown`,
  },
];

/**
 * The rewrites of a masked step, in order; empty when none applies. Each pattern is tried on the
 * step as written and on its canonical form (the rules' own, with filler and prefixes gone).
 */
export function phraseVariants(written: string, canonical: string): string[] {
  const variants: string[] = [];
  const forms = written === canonical ? [canonical] : [written, canonical];
  for (const variant of VARIANTS) {
    for (const form of forms) {
      const match = variant.pattern.exec(form);
      if (!match || variant.unless?.test(form)) continue;
      const rewritten = variant.rewrite(match).trim();
      if (rewritten && rewritten !== form && !variants.includes(rewritten)) variants.push(rewritten);
    }
  }
  return variants;
}
