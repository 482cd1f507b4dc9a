const colors = [36, 35, 33, 32, 34, 91, 92, 93];

/** `[name]` prefixed, coloured lines on a terminal; plain prefixes when piped (CI logs). */
export function prefixer(name: string, index: number): (line: string) => string {
  const tty = process.stdout.isTTY;
  const tag = `[${name}]`.padEnd(18);
  const color = colors[index % colors.length];
  return (line) => (tty ? `\x1b[${color}m${tag}\x1b[0m ${line}` : `${tag} ${line}`);
}

export const devLog = (message: string): void => {
  process.stdout.write(`${prefixer('devstack', 7)(message)}\n`);
};
