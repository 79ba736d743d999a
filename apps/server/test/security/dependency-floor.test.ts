import { readdirSync, readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * `npm audit` does not work against this registry (docs/stack.md), so this test holds the line instead:
 * every installed copy of a security-relevant package must be at or above the version that fixed its
 * last published advisory. Raise a floor when a new advisory is published.
 */
const FLOORS: Array<{ name: string; min: string; advisory: string }> = [
  { name: 'better-auth', min: '1.6.22', advisory: 'GHSA-qq9h-g4jm-xgf3 (account takeover via pre-account hijacking)' },
  { name: 'fastify', min: '5.8.5', advisory: 'CVE-2026-33806 (input type validation bypass); also CVE-2026-25223 fixed in 5.7.2' },
  { name: 'drizzle-orm', min: '0.45.2', advisory: 'GHSA-gpj5-g38j-94v9 / CVE-2026-39356 (SQL injection via escaped identifiers)' },
  { name: 'fast-uri', min: '3.1.7', advisory: 'CVE-2026-84292 (fastify URI parsing, transitive)' },
];

const root = fileURLToPath(new URL('../../../../', import.meta.url));

function compare(a: string, b: string): number {
  const pa = a.split(/[.-]/).map((n) => Number.parseInt(n, 10) || 0);
  const pb = b.split(/[.-]/).map((n) => Number.parseInt(n, 10) || 0);
  for (let i = 0; i < 3; i++) if ((pa[i] ?? 0) !== (pb[i] ?? 0)) return (pa[i] ?? 0) - (pb[i] ?? 0);
  return 0;
}

/** Every installed copy of `name`, including nested ones, below the repository's node_modules. */
function installedVersions(name: string): Array<{ where: string; version: string }> {
  const found: Array<{ where: string; version: string }> = [];
  const visit = (dir: string, depth: number) => {
    if (depth > 8 || !existsSync(dir)) return;
    const candidate = path.join(dir, name, 'package.json');
    if (existsSync(candidate)) {
      found.push({ where: path.relative(root, candidate), version: JSON.parse(readFileSync(candidate, 'utf8')).version });
    }
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
      const scoped = entry.name.startsWith('@') ? readdirSync(path.join(dir, entry.name)).map((n) => path.join(entry.name, n)) : [entry.name];
      for (const pkg of scoped) visit(path.join(dir, pkg, 'node_modules'), depth + 1);
    }
  };
  for (const workspace of ['', 'apps/server', 'apps/web', 'packages/contracts', 'e2e', 'bench']) visit(path.join(root, workspace, 'node_modules'), 0);
  return found;
}

describe('dependency floor', () => {
  it.each(FLOORS)('$name is at least $min ($advisory)', ({ name, min }) => {
    const copies = installedVersions(name);
    expect(copies.length, `${name} is not installed`).toBeGreaterThan(0);
    const tooOld = copies.filter((c) => compare(c.version, min) < 0);
    expect(tooOld, `copies below ${min}`).toEqual([]);
  });

  it('compares versions numerically', () => {
    expect(compare('5.10.0', '5.8.5')).toBeGreaterThan(0);
    expect(compare('0.45.1', '0.45.2')).toBeLessThan(0);
    expect(compare('7.18.2', '7.18.2')).toBe(0);
  });
});
