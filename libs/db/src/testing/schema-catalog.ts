import type pg from 'pg';
import type { Datamodel, DmmfField, DmmfModel } from './prisma-dmmf.js';

// Test support only. Both sides of the schema/SQL agreement test, rendered as the same sorted
// lines so a mismatch shows up as a readable diff: what Prisma expects from its schema (following
// its naming conventions) and what the migrated database holds (from the Postgres catalog).

const CLIENT_SIDE_DEFAULTS = new Set(['uuid', 'cuid', 'nanoid', 'ulid']);
const FK_ACTIONS: Record<string, string> = {
  a: 'NoAction',
  r: 'Restrict',
  c: 'Cascade',
  n: 'SetNull',
  d: 'SetDefault',
};

/** The structure the Prisma schema asks for, one line per table, column, key, index and enum. */
export function expectedStructure(datamodel: Datamodel): string[] {
  const lines: string[] = [];
  const modelsByName = new Map(datamodel.models.map((model) => [model.name, model]));
  const enumsByName = new Map(datamodel.enums.map((e) => [e.name, e]));
  const column = (model: DmmfModel, fieldName: string): string => {
    const field = model.fields.find((f) => f.name === fieldName);
    if (!field) throw new Error(`${model.name}.${fieldName} not found`);
    return field.dbName ?? field.name;
  };

  for (const e of datamodel.enums) {
    const schema = enumSchema(datamodel, e.name);
    lines.push(
      `enum ${schema}.${e.dbName ?? e.name} (${e.values.map((v) => v.dbName ?? v.name).join(', ')})`,
    );
  }

  for (const model of datamodel.models) {
    const table = qualified(model);
    lines.push(`table ${table}`);
    for (const field of model.fields) {
      if (field.kind !== 'scalar' && field.kind !== 'enum') continue;
      const type =
        field.kind === 'enum'
          ? `${model.schema ?? 'public'}.${enumsByName.get(field.type)?.dbName ?? field.type}`
          : scalarType(field);
      const nullability = field.isRequired ? 'NOT NULL' : 'NULL';
      const def = expectedDefault(field);
      lines.push(
        `column ${table}.${field.dbName ?? field.name} ${type}${field.isList ? '[]' : ''} ${nullability}${def ? ` DEFAULT ${def}` : ''}`,
      );
    }

    const idFields = model.primaryKey?.fields ?? model.fields.filter((f) => f.isId).map((f) => f.name);
    lines.push(
      `primary key ${table} ${model.primaryKey?.name ?? `${tableName(model)}_pkey`} (${idFields.map((f) => column(model, f)).join(', ')})`,
    );

    for (const field of model.fields) {
      if (field.kind !== 'object' || !field.relationFromFields?.length) continue;
      const target = modelsByName.get(field.type)!;
      const from = field.relationFromFields.map((f) => column(model, f));
      const to = (field.relationToFields ?? []).map((f) => column(target, f));
      const required = field.relationFromFields.every(
        (f) => model.fields.find((candidate) => candidate.name === f)?.isRequired,
      );
      const onDelete = field.relationOnDelete ?? (required ? 'Restrict' : 'SetNull');
      const onUpdate = field.relationOnUpdate ?? 'Cascade';
      lines.push(
        `foreign key ${table} ${tableName(model)}_${from.join('_')}_fkey (${from.join(', ')}) -> ${qualified(target)} (${to.join(', ')}) ON DELETE ${onDelete} ON UPDATE ${onUpdate}`,
      );
    }
  }

  for (const index of datamodel.indexes) {
    if (index.type === 'id') continue;
    const model = modelsByName.get(index.model)!;
    const columns = index.fields.map((f) => column(model, f.name));
    const suffix = index.type === 'unique' ? 'key' : 'idx';
    const name = index.dbName ?? `${tableName(model)}_${columns.join('_')}_${suffix}`;
    const rendered = index.fields.map((f, i) => `${columns[i]}${f.sortOrder === 'desc' ? ' DESC' : ''}`);
    lines.push(
      `${index.type === 'unique' ? 'unique index' : 'index'} ${qualified(model)} ${name} (${rendered.join(', ')})`,
    );
  }
  return lines.sort();
}

/** The same lines, read from the catalog of a migrated database. */
export async function actualStructure(client: pg.Client, schemas: string[]): Promise<string[]> {
  const lines: string[] = [];
  const enums = await client.query<{ schema: string; name: string; labels: string[] }>(
    `SELECT n.nspname AS schema, t.typname AS name, array_agg(e.enumlabel::text ORDER BY e.enumsortorder) AS labels
       FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace JOIN pg_enum e ON e.enumtypid = t.oid
      WHERE n.nspname = ANY($1) GROUP BY 1, 2`,
    [schemas],
  );
  for (const e of enums.rows) lines.push(`enum ${e.schema}.${e.name} (${e.labels.join(', ')})`);

  const tables = await client.query<{ schema: string; name: string }>(
    `SELECT n.nspname AS schema, c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE c.relkind = 'r' AND n.nspname = ANY($1) AND c.relname <> '_prisma_migrations'`,
    [schemas],
  );
  for (const t of tables.rows) lines.push(`table ${t.schema}.${t.name}`);

  const columns = await client.query<{
    table: string;
    name: string;
    type: string;
    enum_schema: string | null;
    enum_name: string | null;
    not_null: boolean;
    default: string | null;
  }>(
    `SELECT n.nspname || '.' || c.relname AS table, a.attname AS name,
            format_type(a.atttypid, a.atttypmod) AS type,
            CASE WHEN et.typtype = 'e' THEN en.nspname END AS enum_schema,
            CASE WHEN et.typtype = 'e' THEN et.typname END AS enum_name,
            a.attnotnull AS not_null, pg_get_expr(d.adbin, d.adrelid) AS default
       FROM pg_attribute a
       JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
       JOIN pg_type t ON t.oid = a.atttypid
       JOIN pg_type et ON et.oid = CASE WHEN t.typelem <> 0 AND t.typcategory = 'A' THEN t.typelem ELSE t.oid END
       JOIN pg_namespace en ON en.oid = et.typnamespace
       LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
      WHERE c.relkind = 'r' AND n.nspname = ANY($1) AND c.relname <> '_prisma_migrations'
        AND a.attnum > 0 AND NOT a.attisdropped`,
    [schemas],
  );
  for (const c of columns.rows) {
    const isArray = c.type.endsWith('[]');
    const type = c.enum_name ? `${c.enum_schema}.${c.enum_name}${isArray ? '[]' : ''}` : c.type;
    const def = c.default === null ? '' : ` DEFAULT ${normalizeDefault(c.default)}`;
    lines.push(`column ${c.table}.${c.name} ${type} ${c.not_null ? 'NOT NULL' : 'NULL'}${def}`);
  }

  const constraints = await client.query<{
    table: string;
    name: string;
    type: string;
    columns: string[];
    ref_table: string | null;
    ref_columns: string[] | null;
    on_delete: string;
    on_update: string;
  }>(
    `SELECT n.nspname || '.' || c.relname AS table, k.conname AS name, k.contype AS type,
            ARRAY(SELECT a.attname::text FROM unnest(k.conkey) WITH ORDINALITY AS u(attnum, i)
                  JOIN pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = u.attnum ORDER BY u.i) AS columns,
            rn.nspname || '.' || rc.relname AS ref_table,
            ARRAY(SELECT a.attname::text FROM unnest(k.confkey) WITH ORDINALITY AS u(attnum, i)
                  JOIN pg_attribute a ON a.attrelid = k.confrelid AND a.attnum = u.attnum ORDER BY u.i) AS ref_columns,
            k.confdeltype AS on_delete, k.confupdtype AS on_update
       FROM pg_constraint k
       JOIN pg_class c ON c.oid = k.conrelid JOIN pg_namespace n ON n.oid = c.relnamespace
       LEFT JOIN pg_class rc ON rc.oid = k.confrelid LEFT JOIN pg_namespace rn ON rn.oid = rc.relnamespace
      WHERE k.contype IN ('p', 'f', 'u') AND n.nspname = ANY($1) AND c.relname <> '_prisma_migrations'`,
    [schemas],
  );
  for (const k of constraints.rows) {
    if (k.type === 'p') lines.push(`primary key ${k.table} ${k.name} (${k.columns.join(', ')})`);
    // Prisma makes unique indexes, never UNIQUE constraints: one would show up here as a mismatch.
    if (k.type === 'u') lines.push(`unique constraint ${k.table} ${k.name} (${k.columns.join(', ')})`);
    if (k.type === 'f') {
      lines.push(
        `foreign key ${k.table} ${k.name} (${k.columns.join(', ')}) -> ${k.ref_table} (${(k.ref_columns ?? []).join(', ')}) ON DELETE ${FK_ACTIONS[k.on_delete]} ON UPDATE ${FK_ACTIONS[k.on_update]}`,
      );
    }
  }

  const indexes = await client.query<{ table: string; name: string; unique: boolean; columns: string[] }>(
    `SELECT n.nspname || '.' || c.relname AS table, ic.relname::text AS name, i.indisunique AS unique,
            ARRAY(SELECT pg_get_indexdef(i.indexrelid, k, true) ||
                         CASE WHEN i.indoption[k - 1] & 1 = 1 THEN ' DESC' ELSE '' END
                    FROM generate_series(1, i.indnkeyatts) AS k ORDER BY k) AS columns
       FROM pg_index i
       JOIN pg_class ic ON ic.oid = i.indexrelid
       JOIN pg_class c ON c.oid = i.indrelid JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE NOT i.indisprimary AND n.nspname = ANY($1) AND c.relname <> '_prisma_migrations'`,
    [schemas],
  );
  for (const i of indexes.rows) {
    lines.push(`${i.unique ? 'unique index' : 'index'} ${i.table} ${i.name} (${i.columns.join(', ')})`);
  }
  return lines.sort();
}

/** Every schema the data model uses. */
export function modelSchemas(datamodel: Datamodel): string[] {
  return [...new Set(datamodel.models.map((model) => model.schema ?? 'public'))];
}

function tableName(model: DmmfModel): string {
  return model.dbName ?? model.name;
}

function qualified(model: DmmfModel): string {
  return `${model.schema ?? 'public'}.${tableName(model)}`;
}

function enumSchema(datamodel: Datamodel, enumName: string): string {
  const user = datamodel.models.find((model) =>
    model.fields.some((f) => f.kind === 'enum' && f.type === enumName),
  );
  return user?.schema ?? 'public';
}

function scalarType(field: DmmfField): string {
  const [native, args = []] = field.nativeType ?? [];
  switch (field.type) {
    case 'String':
      if (native === 'Uuid') return 'uuid';
      if (native === 'VarChar') return args.length ? `character varying(${args[0]})` : 'character varying';
      if (native === 'Char') return `character(${args[0] ?? 1})`;
      if (native === 'Citext') return 'citext';
      return 'text';
    case 'Int':
      return 'integer';
    case 'BigInt':
      return 'bigint';
    case 'Boolean':
      return 'boolean';
    case 'Float':
      return 'double precision';
    case 'Decimal':
      return `numeric(${args[0] ?? 65},${args[1] ?? 30})`;
    case 'Bytes':
      return 'bytea';
    case 'Json':
      return native === 'Json' ? 'json' : 'jsonb';
    case 'DateTime': {
      const precision = args[0] ?? '3';
      if (native === 'Timestamptz') return `timestamp(${precision}) with time zone`;
      if (native === 'Date') return 'date';
      return `timestamp(${precision}) without time zone`;
    }
    default:
      throw new Error(`no Postgres type known for Prisma type ${field.type}`);
  }
}

function expectedDefault(field: DmmfField): string | undefined {
  if (!field.hasDefaultValue) return undefined;
  const value = field.default;
  if (typeof value === 'object' && value !== null && 'name' in value) {
    const fn = value as { name: string; args: unknown[] };
    if (CLIENT_SIDE_DEFAULTS.has(fn.name)) return undefined;
    if (fn.name === 'now') return 'CURRENT_TIMESTAMP';
    if (fn.name === 'autoincrement') return 'nextval(...)';
    if (fn.name === 'dbgenerated') return String(fn.args[0]);
    throw new Error(`default ${fn.name}() not handled by the agreement test`);
  }
  if (typeof value === 'string') return `'${value.replaceAll("'", "''")}'`;
  return String(value);
}

// Postgres renders defaults with casts ('[]'::jsonb, 'queued'::job_status); Prisma's schema
// carries the value alone. Sequences are named after their table and column: any nextval will do.
function normalizeDefault(expression: string): string {
  if (expression.startsWith('nextval(')) return 'nextval(...)';
  const literal = /^('(?:[^']|'')*')::[\w." ]+(\[\])?$/.exec(expression);
  return literal ? literal[1]! : expression;
}
