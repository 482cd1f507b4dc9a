/** The dev command's terminal output: a tag per source, coloured on a terminal, plain when piped. */
export type Tag = 'platform' | 'mail' | 'project' | 'host' | 'deploy';

const colours: Record<Tag, number> = { platform: 36, mail: 35, project: 32, host: 33, deploy: 34 };

export function say(tag: Tag, message: string): void {
  const label = `[${tag}]`.padEnd(10);
  const prefix = process.stdout.isTTY ? `\x1b[${colours[tag]}m${label}\x1b[0m` : label;
  for (const line of message.split('\n')) process.stdout.write(`${prefix} ${line}\n`);
}

export function warn(tag: Tag, message: string): void {
  const label = `[${tag}]`.padEnd(10);
  const prefix = process.stderr.isTTY ? `\x1b[31m${label}\x1b[0m` : label;
  for (const line of message.split('\n')) process.stderr.write(`${prefix} ${line}\n`);
}
