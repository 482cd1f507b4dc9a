import { TOKEN_PATTERN } from './masked-text.js';

/**
 * Sentences written as one task for someone else to do ("For the user @ada, click on the Reply
 * button", "Expand the sections below, to find and click on the link X", "Use the textbox to enter
 * X"), as public web-task benchmarks and people handing a chore over write them. Each is said again
 * as the plain steps the clause grammar reads; a sentence that only says where to look ("Navigate
 * through the file tree") holds no step, since the click that follows reveals what it needs.
 *
 * Works on masked text (quotes and URLs are single tokens), one sentence at a time.
 */

const Q = TOKEN_PATTERN.replace('[qu]', 'q');
/** Where to look, said before what to do there. */
const SEARCH_VERBS =
  '(?:expand|open|switch\\s+between|switch\\s+through|navigate\\s+(?:through|in|around)|browse(?:\\s+through)?|go\\s+through|look\\s+(?:through|in|around)|scroll\\s+(?:through|down|up)|search(?:\\s+through)?|check|explore|use)';
const LOOK_THEN_ACT_RE = new RegExp(
  `^${SEARCH_VERBS}\\s+[^\\uE000,.]{1,60}?,?\\s+(?:in\\s+order\\s+)?to\\s+find\\s+and\\s+(click|select|choose|open|tap|press)\\b`,
  'i',
);
const FIND_AND_RE = /\bfind\s+and\s+(click|select|choose|open|tap|press)\b/gi;
/** Verbs that only say where to look: "expand" and "open" are steps of their own. */
const LOOK_VERBS =
  '(?:switch\\s+between|switch\\s+through|navigate\\s+(?:through|in|around)|browse(?:\\s+through)?|go\\s+through|look\\s+(?:through|in|around)|scroll\\s+through|search\\s+through|explore)';
const LOOK_ONLY_RE = new RegExp(
  `^${LOOK_VERBS}\\s+(?:the\\s+)?[\\w\\s-]{1,40}?(?:tree|tabs|sections|list|menu|pages|results|folders|files)(?:\\s+below|\\s+above)?$`,
  'i',
);
const FOR_SOMEONE_RE = new RegExp(
  `^for\\s+(?:(?:the\\s+)?(?:user|post|account|author|profile|tweet|person|sender)\\s+(?<who>@?[\\w.-]+|${Q})|(?<handle>@[\\w.-]+|${Q})),\\s+(?<rest>.+)$`,
  'i',
);
const USE_TO_RE = new RegExp(
  `^use\\s+(the\\s+[^,\\uE000]{1,40}?)\\s+to\\s+(enter|type|write|input|search\\s+for)\\s+(${Q})`,
  'i',
);
const FIND_WORD_RE =
  /^(?:find|locate|look\s+for|read)\s+the\s+(\S+)\s+word\s+((?:in|of|from|inside)\s+[^,\uE000]{1,60}?),?\s+(?:and\s+|then\s+)*(?:type|enter|write|put|input|paste)\s+(?:that|it|this|the\s+word|that\s+word|this\s+word)\s+(?:into|in|to)\s+/i;
const GHERKIN_ACTION_RE =
  /^(?:given|when|and|but|then)\s+(?:I|we|the\s+user)\s+(?=(?:click|select|choose|pick|type|enter|fill|check|uncheck|tick|press|tap|drag|expand|collapse|hover|clear|add|remove|delete)\b)/i;
const DAY_RE =
  /\b(choose|pick|select|click(?:\s+on)?|tap)\s+the\s+(\d{1,2})(?:st|nd|rd|th)(?:\s+day)?(?=$|\s*[,;]|\s+(?:and|then|of\s+the\s+month)\b)/gi;
const FIND_EMAIL_RE =
  /^(?:find|open|locate|look\s+for)\s+the\s+(?:e-?mail|message|mail)\s+(?:by|from|sent\s+by|of)\s+([^,\uE000]{1,40}?)(?:,\s*|\s+)(?:and|then)\s+(.+)$/i;
const FORWARD_RE =
  /^forward\s+(?:that|this|the|it)(?:\s+(?:e-?mail|message|mail))?\s+to\s+([^,\s]+|\uE000q\d+\uE001)$/i;
const REPLY_RE = new RegExp(
  `^reply\\s+(?:to\\s+(?:them|him|her|it|that\\s+e-?mail|the\\s+sender|the\\s+e-?mail)\\s+)?with\\s+(?:the\\s+(?:text|message)\\s+)?(${Q})$`,
  'i',
);
/** Who a mail is from or to: a name, a handle, or a quote. */
const PERSON = `(?:${Q}|@[\\w.-]+|[\\p{Lu}][\\p{L}'-]*(?:\\s+[\\p{Lu}][\\p{L}'-]*)?)`;
const MAIL = '(?:e-?mail|message|mail|information|info|note)';
/**
 * An inbox chore said in other words: "Please forward the information from Ada to Bob", "Send Bob
 * the email from Ada", "Reply to Ida with "Noon"", "Delete this email from Bob", "Mark the email
 * from Ada as important": the mail opened by its sender, then the one action.
 */
const INBOX_RULES: readonly [RegExp, (g: Record<string, string>) => string][] = [
  [
    new RegExp(
      `^(?:please\\s+)?(?:forward|send)\\s+(?:the\\s+${MAIL}\\s+(?:from|by|of|in)\\s+(?<from>${PERSON})(?:'s\\s+${MAIL})?|(?<from2>${PERSON})'s\\s+${MAIL})\\s+to\\s+(?<to>${PERSON})$`,
      'iu',
    ),
    (g) => `click on ${g.from ?? g.from2}, click Forward, type ${g.to} into the To field and click Send`,
  ],
  [
    new RegExp(
      `^(?:please\\s+)?(?:forward|send)\\s+(?<to>${PERSON})\\s+the\\s+${MAIL}\\s+(?:from|by|of)\\s+(?<from>${PERSON})$`,
      'iu',
    ),
    (g) => `click on ${g.from}, click Forward, type ${g.to} into the To field and click Send`,
  ],
  [
    new RegExp(
      `^(?:please\\s+)?(?:reply|respond|answer|write\\s+back)\\s+to\\s+(?!(?:them|him|her|it|the|that|this)\\b)(?<to>${PERSON})(?:'s\\s+${MAIL})?\\s+(?:with|saying)\\s+(?:the\\s+(?:text|message)\\s+)?(?<text>${Q})$`,
      'iu',
    ),
    (g) => `click on ${g.to}, click Reply, type ${g.text} into the textarea and click Send`,
  ],
  [
    new RegExp(
      `^(?:please\\s+)?(?:delete|trash|remove|discard)\\s+(?:(?:this|that|the)\\s+${MAIL}\\s+(?:from|by|of)\\s+(?<from>${PERSON})|(?<from2>${PERSON})'s\\s+${MAIL})$`,
      'iu',
    ),
    (g) => `click on ${g.from ?? g.from2} and click the trash icon`,
  ],
  [
    new RegExp(
      `^(?:please\\s+)?(?:mark|star|flag)\\s+(?:(?:this|that|the)\\s+${MAIL}\\s+(?:from|by|of)\\s+(?<from>${PERSON})|(?<from2>${PERSON})'s\\s+${MAIL})(?:\\s+as\\s+(?:important|starred|a\\s+favou?rite)|\\s+with\\s+a\\s+star)?$`,
      'iu',
    ),
    (g) => `click on ${g.from ?? g.from2} and click the star icon`,
  ],
];
/** "Find Ada Byron in the contact book and click on their phone number": on whichever page holds them. */
const FIND_IN_THEN_RE = new RegExp(
  `^(?:find|locate|look\\s+(?:up|for)|search\\s+for)\\s+(?<who>${PERSON})\\s+(?:in|on|among)\\s+the\\s+[\\p{L} -]{1,30}?(?:,\\s*|\\s+)(?:and\\s+|then\\s+)+(?<verb>click|tap|press|select|open|copy)(?:\\s+on)?\\s+(?:their|his|her|its|the)\\s+(?<what>[\\p{L} -]{1,30}?)$`,
  'iu',
);
/** "Select the following color #3d8e4f with the color picker": the colour typed into the colour field. */
const COLOR_PICK_RE = new RegExp(
  `^(?:select|choose|pick|set|enter|type)\\s+(?:the\\s+(?:following\\s+)?)?colou?r\\s+(#[0-9a-f]{6}|#[0-9a-f]{3}|${Q})\\s+(?:with|in|using|on|into)\\s+the\\s+colou?r(?:\\s*(?:picker|wheel|input|field|chooser|selector))?(?=$|,|\\s+and\\s)`,
  'i',
);
/** "Set the sliders to the combination [4,5,9]": each one, in order, to its value. */
const EACH_TO_RE =
  /^(?:set|move|drag|put|turn)\s+the\s+(sliders|spinners|dials|knobs|number\s+fields)\s+to\s+(?:the\s+(?:combination|values?|numbers?|positions?)\s+)?(?:of\s+)?\[?\s*(-?\d+(?:\.\d+)?(?:\s*(?:,|and|,\s*and)\s*-?\d+(?:\.\d+)?){1,9})\s*\]?(?=$|,|\s+and\s+(?!-?\d))/i;
const nthWord = (n: number) =>
  `${n}${n % 10 === 1 && n !== 11 ? 'st' : n % 10 === 2 && n !== 12 ? 'nd' : n % 10 === 3 && n !== 13 ? 'rd' : 'th'}`;
const SIGN_UP_RE = new RegExp(
  `^(?:create|open|register|make|set\\s+up)\\s+(?:an?\\s+|the\\s+)?(?:new\\s+)?(?:user\\s+)?account\\s+for\\s+(?<who>(?:${Q}|[\\p{Lu}][\\p{L}'-]*(?:\\s+[\\p{Lu}][\\p{L}'-]*){0,3}))` +
    `(?:,?\\s+with\\s+(?:the\\s+)?e-?mail(?:\\s+address)?\\s+(?<email>${Q}|[^\\s,]+@[^\\s,]+))?` +
    `(?:,?\\s+(?:and\\s+)?(?:with\\s+)?(?:the\\s+)?password\\s+(?<password>${Q}|[^\\s,]+))?` +
    `(?:,?\\s+(?:on|with|using|choosing)\\s+the\\s+(?<plan>[\\p{L}]+)\\s+plan)?` +
    `(?<terms>,?\\s+(?:and\\s+)?(?:accepting|agreeing\\s+to|accept)\\s+the\\s+terms(?:\\s+and\\s+conditions)?)?$`,
  'iu',
);
const PUT_OPTION_RE =
  /(^|,\s*|\s+and\s+)put\s+(?:the\s+|a\s+)([a-z][\w -]{1,30}?)(?=$|,|\s+and\s+)(?![^,]*\s(?:in|into|on|to)\s)/gi;
const WRITTEN_RE = new RegExp(
  `^(?:it\\s+|there\\s+)?(?:should|must|has\\s+to|needs\\s+to)\\s+(?:be\\s+)?(?:written|displayed|shown|visible|appear(?:ed)?|be\\s+seen)\\s+(?:the\\s+(?:text|message)\\s+)?(${Q})$`,
  'i',
);
const FORM_FILL_RE =
  /^(?:fill(?:\s+in|\s+out)?|complete|populate)\s+(?:in\s+)?(?:the\s+|a\s+)?(?:[\w-]+\s+){0,2}?form\s*(?::|with|using)\s+(.+)$/i;
/** Field names of two or three words people write before a value without a colon. */
const LONG_FIELD_RE =
  /^((?:first|last|full|user|middle|company|display|nick)\s+name|e-?mail\s+address|phone\s+number|mobile\s+number|zip\s+code|postal\s+code|post\s+code|date\s+of\s+birth|street\s+address|card\s+number|confirm\s+password)\s+(.+)$/i;

function fieldAndValue(piece: string): { field: string; value: string } | undefined {
  const said =
    /^([^:=]{1,30}?)\s*[:=]\s*(.+)$/.exec(piece) ?? LONG_FIELD_RE.exec(piece) ?? /^(\S+)\s+(.+)$/.exec(piece);
  const field = said?.[1]?.trim();
  const value = said?.[2]?.trim();
  return field && value && /^[\p{L}][\p{L} -]*$/u.test(field) ? { field, value } : undefined;
}
const AS_THE_FIELD_RE =
  /^(select|choose|pick)\s+([^,\s][^,]{0,40}?)\s+as\s+(?:the|your|my)\s+([a-z][\w -]{1,30}?)(?=$|,|\s+and\s)/i;
const FILTER_BY_RE =
  /^(?:filter|search)\s+(?:the\s+)?(?:table|grid|list|results|rows|entries)\s+(?:by|for|on)\s+([^,]+?)(?=$|,|\s+and\s)/i;
const PAGE_OF_RE =
  /^((?:go|navigate|move|switch|jump)\s+to\s+page\s+\d{1,3})\s+of\s+the\s+[a-z ]{1,30}?(?=$|,|\s+and\s)/i;
const REMOVE_NTH_RE = new RegExp(
  `^(remove|delete|erase)\\s+the\\s+(first|second|third|fourth|fifth|last|\\d{1,2}(?:st|nd|rd|th))\\s+(?:item|row|entry|todo|task|line|record)(?=$|,|\\s+and\\s)`,
  'i',
);
const CLEAR_COMPLETED_RE =
  /^(?:delete|remove|clear)\s+(?:all\s+)?(?:the\s+)?(?:completed|done|finished)\s+(?:todos|items|tasks|entries|ones)(?=$|,|\s+and\s)/i;
const COUPON_RE = new RegExp(
  `^(?:apply|use|redeem|enter)\\s+(?:the\\s+|a\\s+)?(?<kind>coupon|promo|discount|voucher)(?:\\s+code)?\\s+(?<code>${Q}|[A-Z0-9][A-Z0-9-]{2,30})(?=$|,|\\s+and\\s)`,
  'i',
);
const CHECKOUT_RE = /^(?:proceed|go|continue)\s+to\s+(?:the\s+)?check-?out(?=$|,|\s+and\s)/i;
const TWO_VALUES_IN_RE =
  /^(enter|type|put|write|input)\s+([^\s\uE000,]+)\s+(in|into)\s+([^\s\uE000,]+(?:\s+[^\s\uE000,]+)?)\s+and\s+([^\s\uE000,]+)\s+(in|into)\s+([^\uE000,]+)$/i;
const TWO_FIELDS_WITH_RE =
  /^(fill(?:\s+in)?|set)\s+([a-z][\w-]*(?:\s+[a-z][\w-]*)?)\s+with\s+([^\s\uE000,]+)\s+and\s+([a-z][\w-]*(?:\s+[a-z][\w-]*)?)\s+with\s+([^\s\uE000,]+)$/i;
const OPEN_MENU_RE =
  /(^|,\s*|\s+and\s+)open\s+the\s+(?:main\s+|navigation\s+|nav\s+|hamburger\s+|side\s+)?menu(?=$|,|\s+and\s|\s+then\s)/gi;
const CHECK_IS_RE =
  /^check\s+(?!that\b|if\b|whether\b)(.+?)\s+(is|are)\s+((?:not\s+)?(?:checked|selected|ticked|unchecked|unselected|enabled|disabled|visible|hidden|shown|empty|displayed|active|expanded|collapsed|open|closed|focused))$/i;
const COUNT_FIRST_RE =
  /^((?:at\s+least|at\s+most|more\s+than|fewer\s+than|less\s+than|exactly|only)\s+\d{1,4})\s+([a-z][\w -]{0,30}?)(?:\s+(?:are|is)\s+(?:shown|displayed|listed|visible|present|there))?$/i;
const TOGGLE_ON_OFF_RE =
  /^(toggle|switch|turn|set)\s+(?!on\b|off\b)([^,\uE000]{1,40}?|\uE000q\d+\uE001)\s+(on|off)$/i;
const NOTHING_RE = /^(?:select|check|tick|choose)\s+nothing\b/i;
const EDITOR_PREFIX_RE =
  /^(?:using|with|in)\s+the\s+(?:rich[- ]?text\s+|text\s+)?editor,\s+(?:(?:please|then)\s+)?/i;
const STYLE_WORDS = '(bold|italic|italics|underlined?|strikethrough|struck\\s+through)';
const EVERYTHING_STYLE_RE = new RegExp(
  `^(?:give|make|set|style|format|turn)\\s+(?:everything|all(?:\\s+(?:of\\s+)?the)?\\s+text|the\\s+whole\\s+text|all)(?:\\s+(?:the\\s+style|in|as|to))?\\s+${STYLE_WORDS}\\b`,
  'i',
);
const QUOTED_STYLE_RE = new RegExp(
  `^(?:give|make|set|style|format|turn)\\s+(?:the\\s+(?:text|word|words)\\s+)?(${Q})(?:\\s+(?:the\\s+style|in|as|to))?\\s+${STYLE_WORDS}\\b`,
  'i',
);

/** "give the text "tempus" the color red": the editor's colour picker. */
const QUOTED_COLOR_RE = new RegExp(
  `^(?:give|make|set|color|colour|paint|turn)\\s+(?:the\\s+(?:text|word|words)\\s+)?(${Q})\\s+(?:the\\s+colou?r\\s+|colou?red\\s+|in\\s+)?(red|green|blue|yellow|orange|purple|violet|pink|black|white|gr[ae]y|brown|cyan|magenta)(?:\\s+colou?r)?\\b`,
  'i',
);

const BUTTON_FOR_STYLE: Record<string, string> = {
  bold: 'Bold',
  italic: 'Italic',
  italics: 'Italic',
  underline: 'Underline',
  underlined: 'Underline',
  strikethrough: 'Strikethrough',
  'struck through': 'Strikethrough',
};

const styleButton = (word: string) => BUTTON_FOR_STYLE[word.toLowerCase().replace(/\s+/g, ' ')] ?? word;

/** The sentence said as plain steps (masked), or '' when it holds none. */
export function plainTaskSentence(masked: string): string {
  let text = masked.trim();
  const trailing = /[.!;]+$/.exec(text)?.[0] ?? '';
  text = text.slice(0, text.length - trailing.length);
  // "When I select "Food" and "Hiking" in Interests": the clause grammar reads the actions after
  // the Gherkin keyword and the "I".
  text = text.replace(GHERKIN_ACTION_RE, '');
  if (LOOK_ONLY_RE.test(text)) return '';
  // "Scroll the textarea to the bottom of the text hit submit": a last "hit submit" with its
  // "and" left out is a step of its own.
  text = text.replace(/(?<!\b(?:and|then|or|to|,))\s+((?:hit|press|click)\s+submit(?:\s+button)?)$/i, ', $1');
  // "Check the checkbox is checked", "check Remember me is selected": a check that it is, not a tick.
  text = text.replace(CHECK_IS_RE, 'verify that $1 $2 $3');
  // "At least 3 results are shown", "more than 2 rows": a count.
  text = text.replace(COUNT_FIRST_RE, 'there should be $1 $2');
  // "Toggle dark mode on", "switch notifications off": turned on or off, not a control named "… on".
  text = text.replace(TOGGLE_ON_OFF_RE, 'turn $3 $2');
  // "Take a screenshot": every run is recorded (video, and a screenshot when a step fails).
  if (
    /^(?:take|capture|grab|make)\s+(?:a\s+)?(?:screenshot|screen\s*shot|snapshot)(?:\s+of\s+the\s+(?:page|screen))?$/i.test(
      text,
    )
  )
    return '';
  // "Tab to the next field": the Tab key.
  text = text.replace(
    /^(?:tab|press\s+tab)\s+(?:to|into)\s+the\s+next\s+(?:field|input|box|control)(?=$|,|\s+and\s)/i,
    'press Tab',
  );
  // "Open the link in the footer called Privacy": the link by its name.
  text = text.replace(
    /^(open|click(?:\s+on)?|follow)\s+the\s+(link|button|tab)\s+in\s+the\s+(?:footer|header|sidebar|menu|navigation|nav|top\s+bar|toolbar)\s+(?:called|named|labell?ed|saying)\s+/i,
    'click the $2 ',
  );
  // "… and "Call mum" too": the last object of the verb, not a check that the page shows it.
  text = text.replace(/(\uE001)\s+(?:too|as\s+well|also)(?=$|\s*[,;]|\s+(?:and|then)\s)/gi, '$1');
  // "Should be written "Order placed"" (word order of other languages): the page shows it.
  text = text.replace(WRITTEN_RE, 'the page shows $1');
  const forSomeone = FOR_SOMEONE_RE.exec(text)?.groups;
  const who = forSomeone?.who ?? forSomeone?.handle;
  if (who && forSomeone?.rest && !/\bnext\s+to\b/i.test(forSomeone.rest))
    text = `${forSomeone.rest} next to ${who}`;
  text = text.replace(LOOK_THEN_ACT_RE, '$1').replace(FIND_AND_RE, '$1');
  text = text.replace(USE_TO_RE, (_all, where: string, verb: string, value: string) =>
    /^search/i.test(verb) ? `type ${value} into ${where}` : `${verb} ${value} into ${where}`,
  );
  text = text.replace(NOTHING_RE, 'uncheck all the checkboxes');
  // "Remove the second item": its row's delete control; "delete all completed todos": the list's
  // Clear completed; "apply the coupon SAVE10": typed, then applied; "proceed to checkout".
  text = text
    .replace(REMOVE_NTH_RE, 'click the delete button in the $2 row')
    .replace(CLEAR_COMPLETED_RE, 'click Clear completed')
    .replace(COUPON_RE, (...args: unknown[]) => {
      const { kind = 'coupon', code = '' } = (args.at(-1) ?? {}) as Record<string, string>;
      return `type ${code} into the ${kind} field and click Apply`;
    })
    .replace(CHECKOUT_RE, 'click checkout');
  // "Enter 5 in quantity and 10115 in zip", "fill name with Ada and email with ada@x.io": two values,
  // two fields, one verb (unquoted values hide where the first one ends).
  text = text
    .replace(TWO_VALUES_IN_RE, '$1 $2 $3 $4, $1 $5 $6 $7')
    .replace(TWO_FIELDS_WITH_RE, '$1 $2 with $3, $1 $4 with $5');
  // "Open the menu": the control that opens the page's menu (☰, "Menu").
  text = text.replace(OPEN_MENU_RE, '$1click the menu icon');
  // "Pick Japan as the country": the option in that field.
  text = text.replace(AS_THE_FIELD_RE, '$1 $2 in the $3 field');
  // "Filter the table by Fruit", "search the list for Kiwi": typed into its search box.
  text = text.replace(FILTER_BY_RE, 'type $1 into the search box');
  // "Go to page 2 of the results": the pager's page.
  text = text.replace(PAGE_OF_RE, '$1');
  // "Fill the form with name Ada, email ada@x.io and country Canada" (no quotes): a field and its
  // value per piece.
  const form = FORM_FILL_RE.exec(text);
  if (form?.[1] && !form[1].includes('\uE000')) {
    const pieces = form[1].split(/\s*,\s*(?:and\s+)?|\s+and\s+/).map(fieldAndValue);
    if (pieces.length > 0 && pieces.every((p) => p !== undefined))
      // Capitalised, as a field's label is: "the First name field", not the first "name" field.
      text = pieces
        .map(
          (p) =>
            `type ${p?.value} into the ${(p?.field ?? '').replace(/^\p{L}/u, (c) => c.toUpperCase())} field`,
        )
        .join(', ');
  }
  // "Put the gift wrap" (a speaker of another language): tick it.
  text = text.replace(PUT_OPTION_RE, (all, before: string, what: string) =>
    /\s(?:in|into|on|onto|to|at|inside)\s/i.test(` ${what} `) ? all : `${before}check the ${what}`,
  );
  // "Create an account for Tom Baker with the email tom@example.com on the Free plan, accepting the
  // terms": the form's fields one by one, then the form sent.
  const signup = SIGN_UP_RE.exec(text)?.groups;
  if (signup?.who) {
    const steps = [`type ${signup.who.trim()} into the name field`];
    if (signup.email) steps.push(`type ${signup.email} into the email field`);
    if (signup.password) steps.push(`type ${signup.password} into the password field`);
    if (signup.plan) steps.push(`check ${signup.plan}`);
    if (signup.terms) steps.push('check the terms');
    text = `${steps.join(', ')} and submit the form`;
  }
  text = text.replace(COLOR_PICK_RE, 'type $1 into the color picker');
  text = text.replace(EACH_TO_RE, (_all, kind: string, list: string) =>
    list
      .split(/\s*(?:,\s*and|,|and)\s*/i)
      .map((value, i) => `set the ${nthWord(i + 1)} ${kind.replace(/s$/i, '')} to ${value}`)
      .join(', '),
  );
  const findIn = FIND_IN_THEN_RE.exec(text)?.groups;
  if (findIn?.who && findIn.verb && findIn.what)
    text = `${findIn.verb} the ${findIn.what} next to ${findIn.who} on any page`;
  for (const [pattern, steps] of INBOX_RULES) {
    const said = pattern.exec(text)?.groups;
    if (said) {
      text = steps(said);
      break;
    }
  }
  // "Find the email by Ada and forward that email to Bob": open it by its sender, then the rest.
  const email = FIND_EMAIL_RE.exec(text);
  if (email?.[1] && email[2]) {
    const rest = email[2]
      .replace(FORWARD_RE, 'click Forward, type $1 into the To field and click Send')
      .replace(REPLY_RE, 'click Reply, type $1 into the textarea and click Send');
    text = `click on ${email[1].trim()}, ${rest}`;
  }
  // "Choose the 3rd" in an open calendar: the day by its number.
  text = text.replace(DAY_RE, (all, verb: string, day: string) =>
    Number(day) <= 31 ? `${verb} ${day}` : all,
  );
  // "Find the 3rd word in the paragraph, type that into the textbox": copy it, then paste it.
  text = text.replace(FIND_WORD_RE, 'copy the $1 word $2 and paste it into ');
  const editor = EDITOR_PREFIX_RE.exec(text);
  if (editor) {
    const rest = text.slice(editor[0].length);
    const everything = EVERYTHING_STYLE_RE.exec(rest);
    const quoted = QUOTED_STYLE_RE.exec(rest);
    const colored = QUOTED_COLOR_RE.exec(rest);
    if (colored?.[1] && colored[4])
      text = `select the text ${colored[1]} in the editor, click the color button and click the ${colored[4]} colored box${rest.slice(colored[0].length)}`;
    else if (everything?.[1])
      text = `select all the text in the editor and click the ${styleButton(everything[1])} button${rest.slice(everything[0].length)}`;
    else if (quoted?.[1] && quoted[4])
      text = `select the text ${quoted[1]} in the editor and click the ${styleButton(quoted[4])} button${rest.slice(quoted[0].length)}`;
  }
  return text === masked.trim().slice(0, masked.trim().length - trailing.length) ? masked : text + trailing;
}
