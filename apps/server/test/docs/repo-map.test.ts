import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * The README's map and docs/architecture.md name every server module and every web feature that the
 * tree holds, and nothing the tree no longer holds: a newcomer reads them before the code, so a
 * folder added or removed without them fails here, naming it.
 */

const root = new URL('../../../../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), 'utf8');
const foldersIn = (path: string) =>
  readdirSync(new URL(path, root), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();

const modules = foldersIn('apps/server/src/modules/');
const features = foldersIn('apps/web/src/features/');

/** The text under `## heading`, up to the next heading of that level. */
function section(markdown: string, heading: string): string {
  const start = markdown.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`no "## ${heading}" section`);
  const end = markdown.indexOf('\n## ', start + 1);
  return markdown.slice(start, end < 0 ? undefined : end);
}

/** The names of `prefix{a,b,c}` (a brace list, as a shell would expand it). */
function braceList(text: string, prefix: string): string[] {
  const match = new RegExp(`${prefix.replace(/[/.]/g, '\\$&')}\\{([^}]*)\\}`).exec(text);
  if (!match) throw new Error(`no "${prefix}{…}" list`);
  return match[1]!.split(',').map((name) => name.trim());
}

/** What the tree has that the page does not name, and what the page names that the tree lacks. */
function differences(named: string[], actual: string[]) {
  return { missing: actual.filter((name) => !named.includes(name)), stale: named.filter((name) => !actual.includes(name)).sort() };
}

const nothingDiffers = { missing: [], stale: [] };

describe('README, "Where things are"', () => {
  const map = section(read('README.md'), 'Where things are');

  it('names every server module, and only those', () => {
    expect(differences(braceList(map, 'src/modules/'), modules), 'src/modules/{…} in README.md').toEqual(nothingDiffers);
  });

  it('names every web feature, and only those', () => {
    expect(differences(braceList(map, 'src/features/'), features), 'src/features/{…} in README.md').toEqual(nothingDiffers);
  });
});

describe('docs/architecture.md', () => {
  const page = read('docs/architecture.md');
  const layout = section(page, 'Layout');

  it('gives every server module a line of its own in the layout, and only those', () => {
    const lines = layout.split('\n');
    const from = lines.indexOf('  modules/');
    const to = lines.findIndex((line, index) => index > from && /^ {2}\S/.test(line));
    expect(from, 'a "  modules/" line in the layout').toBeGreaterThan(0);
    const named = lines
      .slice(from + 1, to)
      .map((line) => /^ {4}([a-z][a-z0-9-]*)\/(?:\s|$)/.exec(line)?.[1])
      .filter((name) => name !== undefined);
    expect(differences(named, modules), 'module lines under "  modules/" in docs/architecture.md').toEqual(nothingDiffers);
  });

  it('names every web feature in the layout, and only those', () => {
    expect(differences(braceList(layout, 'features/'), features), 'features/{…} in docs/architecture.md').toEqual(nothingDiffers);
  });

  it('names every module and feature in the parts table', () => {
    const row = (part: string) => {
      const line = section(page, 'Parts')
        .split('\n')
        .find((text) => text.startsWith(`| ${part} |`));
      if (!line) throw new Error(`no "${part}" row in the parts table`);
      return line;
    };
    const unnamed = (line: string, names: string[]) => names.filter((name) => !new RegExp(`\\b${name}\\b`).test(line));
    expect({ modules: unnamed(row('modules'), modules), features: unnamed(row('web'), features) }, 'names missing from the parts table').toEqual({
      modules: [],
      features: [],
    });
  });
});
