import { afterEach, vi } from 'vitest';

/**
 * A test that makes the code log an error fails, so swallowed failures cannot hide (epic-stack).
 * Test files share their process and modules (vitest.config.ts: isolate false) and this file runs
 * before each of them: the spy is installed once, on the real console.error, and each file's
 * afterEach reads what it caught.
 */
const shared = globalThis as typeof globalThis & { consoleErrorsSeen?: unknown[][] };
if (!shared.consoleErrorsSeen) {
  const seenByAll: unknown[][] = [];
  shared.consoleErrorsSeen = seenByAll;
  const original = console.error.bind(console);
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    seenByAll.push(args);
    original(...args);
  });
}
const errors = shared.consoleErrorsSeen;

afterEach(() => {
  const seen = errors.splice(0);
  if (seen.length > 0) throw new Error(`console.error was called:\n${seen.map((a) => a.map(String).join(' ')).join('\n')}`);
});
