import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

// Test support only. Prisma's full data model (DMMF: nullability, native types, defaults, indexes,
// relations) is handed to generators, and the CLI runs generators offline; so a throwaway
// generator that writes what it receives gives the tests Prisma's own reading of a schema.

export interface DmmfField {
  name: string;
  dbName?: string | null;
  kind: 'scalar' | 'enum' | 'object' | 'unsupported';
  type: string;
  isList: boolean;
  isRequired: boolean;
  isId: boolean;
  hasDefaultValue: boolean;
  default?: unknown;
  nativeType?: [string, string[]] | null;
  relationFromFields?: string[];
  relationToFields?: string[];
  relationOnDelete?: string;
  relationOnUpdate?: string;
}

export interface DmmfModel {
  name: string;
  dbName: string | null;
  schema: string | null;
  fields: DmmfField[];
  primaryKey: { name: string | null; fields: string[] } | null;
}

export interface DmmfIndex {
  model: string;
  type: 'id' | 'unique' | 'normal' | 'fulltext';
  dbName?: string | null;
  fields: { name: string; sortOrder?: 'asc' | 'desc' }[];
}

export interface Datamodel {
  models: DmmfModel[];
  enums: { name: string; dbName: string | null; values: { name: string; dbName: string | null }[] }[];
  indexes: DmmfIndex[];
}

const GENERATOR = `
import { createInterface } from 'node:readline';
import { writeFileSync } from 'node:fs';
const reply = (id, result) => process.stderr.write(JSON.stringify({ jsonrpc: '2.0', id, result }) + '\\n');
createInterface({ input: process.stdin }).on('line', (line) => {
  const message = JSON.parse(line);
  if (message.method === 'getManifest') reply(message.id, { manifest: { prettyName: 'datamodel dump', requiresEngines: [] } });
  if (message.method === 'generate') {
    writeFileSync(message.params.generator.output.value, JSON.stringify(message.params.dmmf.datamodel));
    reply(message.id, null);
  }
});
`;

export async function readDatamodel(schemaPath: string): Promise<Datamodel> {
  const dir = mkdtempSync(join(tmpdir(), 'db-dmmf-'));
  try {
    const generator = join(dir, 'dump-generator.mjs');
    const output = join(dir, 'datamodel.json');
    writeFileSync(generator, GENERATOR);
    const schema = readFileSync(schemaPath, 'utf8').replace(
      /generator client \{[^}]*\}/,
      `generator dump {\n  provider = ${JSON.stringify(`${process.execPath} ${generator}`)}\n  output = ${JSON.stringify(output)}\n}`,
    );
    writeFileSync(join(dir, 'schema.prisma'), schema);
    const require = createRequire(import.meta.url);
    const cli = join(dirname(require.resolve('prisma/package.json')), 'build', 'index.js');
    await promisify(execFile)(process.execPath, [cli, 'generate', '--schema', join(dir, 'schema.prisma')], {
      cwd: dir,
      env: { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: '/bin/false', PRISMA_HIDE_UPDATE_MESSAGE: '1' },
    });
    return JSON.parse(readFileSync(output, 'utf8')) as Datamodel;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
