import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { ControlPlaneClient, Project } from './control-plane.client.js';

/**
 * Which local project a directory is: `<dir>/.platform/project.json` remembers its id, so users,
 * settings and deployments survive a restart. The folder ignores itself in git.
 */
export interface ProjectLink {
  projectId: string;
  slug: string;
  /** The database the project lives in: another database means another project. */
  database: string;
}

const LINK_DIR = '.platform';
const LINK_FILE = 'project.json';

export function readProjectLink(dir: string): ProjectLink | null {
  const file = join(dir, LINK_DIR, LINK_FILE);
  if (!existsSync(file)) return null;
  try {
    const link = JSON.parse(readFileSync(file, 'utf8')) as Partial<ProjectLink>;
    return link.projectId && link.slug && link.database ? (link as ProjectLink) : null;
  } catch {
    return null;
  }
}

export function writeProjectLink(dir: string, link: ProjectLink): void {
  const folder = join(dir, LINK_DIR);
  mkdirSync(folder, { recursive: true });
  writeFileSync(
    join(folder, '.gitignore'),
    '# Written by `platform dev`: local state, never committed.\n*\n',
  );
  writeFileSync(join(folder, LINK_FILE), `${JSON.stringify(link, null, 2)}\n`);
}

/** A slug the control plane accepts: the directory's name, made unique on this machine. */
export function slugFor(dir: string): string {
  const base =
    basename(dir)
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40) || 'project';
  return `${base}-${randomBytes(3).toString('hex')}`;
}

/** The directory's project: the remembered one when the database still has it, else a new one. */
export async function linkProject(
  client: ControlPlaneClient,
  dir: string,
  database: string,
): Promise<{ project: Project; created: boolean }> {
  const link = readProjectLink(dir);
  if (link && link.database === database) {
    const project = await client.findProject(link.projectId);
    if (project) return { project, created: false };
  }
  const project = await client.createProject(slugFor(dir), basename(dir) || 'project');
  writeProjectLink(dir, { projectId: project.id, slug: project.slug, database });
  return { project, created: true };
}
