import { v7 as uuidv7 } from 'uuid';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Whether a string can be an id of this database. Ids are uuid columns, and Prisma answers a
 * malformed uuid with an error rather than "not found": check ids from requests first.
 */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/**
 * A new row id as Prisma's `@default(uuid(7))` makes them (time-ordered UUIDv7), for rows written
 * with SQL rather than through the client.
 */
export function newId(): string {
  return uuidv7();
}
