import type { MatchMode, Step } from '@suite/browser-agent';

/** Words the instruction parser reads as each role ("the "Email" field"). */
const ROLE_WORD: Readonly<Record<string, string>> = {
  button: 'button',
  link: 'link',
  textbox: 'field',
  searchbox: 'field',
  spinbutton: 'field',
  checkbox: 'checkbox',
  radio: 'radio button',
  combobox: 'dropdown',
  listbox: 'dropdown',
  heading: 'heading',
  img: 'image',
  menuitem: 'menu item',
};

const MODE_WORD: Partial<Record<MatchMode, string>> = {
  equals: 'is',
  contains: 'contains',
  startsWith: 'starts with',
  endsWith: 'ends with',
};

export interface ScriptElement {
  role: string;
  name: string;
}

/** A text the parser reads back as one quoted value, or undefined when no quote style fits. */
function quote(text: string): string | undefined {
  if (text.includes('\n')) return undefined;
  if (!text.includes('"')) return `"${text}"`;
  if (!text.includes("'")) return `'${text}'`;
  return undefined;
}

function element(target: ScriptElement | undefined): string | undefined {
  if (!target?.name) return undefined;
  const word = ROLE_WORD[target.role];
  const name = quote(target.name);
  return word && name ? `the ${name} ${word}` : undefined;
}

/**
 * One passed step as a line the built-in instruction interpreter understands, so a passed LLM run
 * can be replayed without a model. Undefined when the step cannot be said that way.
 */
export function instructionFor(step: Step, target?: ScriptElement): string | undefined {
  const el = element(target);
  switch (step.action) {
    case 'navigate':
      return `open ${step.url}`;
    case 'goBack':
      return 'go back';
    case 'click':
      return el && step.button === 'left'
        ? `${step.clickCount === 2 ? 'double-click' : 'click'} ${el}`
        : undefined;
    case 'type': {
      const value = quote(step.value);
      return el && value ? `type ${value} into ${el}` : undefined;
    }
    case 'press': {
      const keys = step.keys.join('+');
      if (!step.target) return `press ${keys}`;
      return el ? `press ${keys} in ${el}` : undefined;
    }
    case 'select': {
      const option = quote(step.option);
      return el && option ? `select ${option} from ${el}` : undefined;
    }
    case 'check':
    case 'uncheck':
      return el ? `${step.action} ${el}` : undefined;
    case 'hover':
      return el ? `hover over ${el}` : undefined;
    case 'scroll':
      if (step.target) {
        if (!el) return undefined;
        return step.direction === 'top' || step.direction === 'bottom'
          ? `scroll ${el} to the ${step.direction}`
          : `scroll ${el} ${step.direction}`;
      }
      if (step.direction === 'top' || step.direction === 'bottom') return `scroll to the ${step.direction}`;
      return step.pixels
        ? `scroll ${step.direction} ${Math.round(step.pixels)} pixels`
        : `scroll ${step.direction}`;
    case 'waitForText': {
      const text = quote(step.expected);
      return text ? `wait for ${text} to ${step.state === 'visible' ? 'appear' : 'disappear'}` : undefined;
    }
    case 'assertText': {
      const text = quote(step.expected);
      return text ? `verify the page ${step.negate ? 'does not contain' : 'contains'} ${text}` : undefined;
    }
    case 'assertTitle':
    case 'assertUrl': {
      const text = quote(step.expected);
      const verb = MODE_WORD[step.mode];
      if (!text || !verb || step.negate) return undefined;
      return `the ${step.action === 'assertTitle' ? 'title' : 'URL'} ${verb} ${text}`;
    }
    case 'assertElementText': {
      const text = quote(step.expected);
      return el && text && step.mode === 'contains' && !step.negate ? `${el} contains ${text}` : undefined;
    }
    case 'assertValue': {
      const text = quote(step.expected);
      return el && text && step.mode === 'equals' && !step.negate ? `${el} has value ${text}` : undefined;
    }
    case 'assertState':
      return el ? `${el} is ${step.state}` : undefined;
    default:
      return undefined;
  }
}
