/**
 * The default branch of an exhaustive `switch`: the compiler rejects the call when a code is left
 * out, and a value from outside the enum (a bad cast, a newer peer) fails loudly at run time.
 */
export function unreachable(value: never): never {
  throw new Error(`Unhandled case: ${String(value)}`);
}
