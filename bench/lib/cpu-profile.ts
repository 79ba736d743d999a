import { existsSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where a server's CPU went, from the `.cpuprofile` that `node --cpu-prof` writes at exit, counted
 * over a window of the run only (the measured load, not sign-ups or the warm-up). Profile timestamps
 * are microseconds of the monotonic clock that `process.hrtime` reads too, so the benchmark marks its
 * window with hrtime and the samples inside it are kept.
 */

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileLine {
  name: string;
  ms: number;
  share: number;
}

export interface ProfileSummary {
  /** Milliseconds of samples in the window, idle included. */
  windowMs: number;
  /** Milliseconds the main thread was busy (all samples but idle). */
  busyMs: number;
  /** Self time by where the code lives: a package, a module of ours, Node's own, GC. */
  byPlace: ProfileLine[];
  /** Self time by function. */
  selfTop: ProfileLine[];
  /** Time with the function (or the place) anywhere on the stack, counted once per sample. */
  inclusiveTop: ProfileLine[];
  inclusiveByPlace: ProfileLine[];
}

/** Microseconds of the monotonic clock, as the profile counts them. */
export function monotonicMicros(): number {
  return Number(process.hrtime.bigint() / 1000n);
}

const sourceMaps = new Map<string, SourceMap | null>();

function sourceMapOf(file: string): SourceMap | null {
  if (!sourceMaps.has(file)) {
    const mapFile = `${file}.map`;
    sourceMaps.set(file, existsSync(mapFile) ? new SourceMap(JSON.parse(readFileSync(mapFile, 'utf8')) as ConstructorParameters<typeof SourceMap>[0]) : null);
  }
  return sourceMaps.get(file) ?? null;
}

/**
 * A compiled frame of ours mapped back to its TypeScript file (the bundle keeps a source map). A
 * dependency's frame keeps its own path: its package is what the summary groups by.
 */
function originalFile(frame: CallFrame): string {
  const file = frame.url.startsWith('file://') ? fileURLToPath(frame.url) : frame.url;
  if (file.includes(`${path.sep}node_modules${path.sep}`)) return file;
  const map = sourceMapOf(file);
  const entry = map?.findEntry(frame.lineNumber, frame.columnNumber);
  if (entry && 'originalSource' in entry && entry.originalSource) {
    const source = entry.originalSource.startsWith('file://') ? fileURLToPath(entry.originalSource) : entry.originalSource;
    return path.resolve(path.dirname(file), source);
  }
  return file;
}

/** The place a frame belongs to, or null for a builtin without a script (charged to its caller). */
function placeOf(frame: CallFrame, resolvedFile: string): string | null {
  const name = frame.functionName;
  if (frame.url === '') {
    if (name === '(garbage collector)' || name === '(program)' || name === '(idle)') return name;
    return null;
  }
  if (frame.url.startsWith('node:')) return 'node (internal)';
  const modules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(resolvedFile);
  if (modules?.[1]) return modules[1];
  const ours = /(apps\/server\/src|packages\/contracts\/src)\/(?:(modules|plugins|lib|db)\/)?([^/]+)/.exec(resolvedFile);
  if (ours)
    return ours[2]
      ? `ours: ${ours[2]}/${ours[3]?.replace(/\.ts$/, '')}`
      : `ours: ${ours[1] === 'packages/contracts/src' ? 'contracts' : ours[3]?.replace(/\.ts$/, '')}`;
  return path.basename(resolvedFile);
}

function top(totals: Map<string, number>, windowBusyMicros: number, limit: number): ProfileLine[] {
  return [...totals.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([name, micros]) => ({ name, ms: micros / 1000, share: micros / windowBusyMicros }));
}

export interface ProfileWindow {
  fromMicros?: number;
  toMicros?: number;
}

/** Sums a profile over windows of the monotonic clock (the whole profile without one). */
export function summarizeCpuProfile(file: string, window: ProfileWindow | ProfileWindow[] = {}, limit = 25): ProfileSummary {
  const windows = (Array.isArray(window) ? window : [window]).map((w) => ({ from: w.fromMicros ?? -Infinity, to: w.toMicros ?? Infinity }));
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

  const described = new Map<number, { fn: string; place: string | null }>();
  const describe = (id: number) => {
    let found = described.get(id);
    if (!found) {
      const frame = (byId.get(id) as ProfileNode).callFrame;
      const resolved = frame.url ? originalFile(frame) : '';
      const place = placeOf(frame, resolved);
      const where = resolved ? `${path.relative(process.cwd(), resolved).replace(/^(\.\.\/)+/, '')}:${frame.lineNumber + 1}` : 'native';
      found = { fn: `${frame.functionName || '(anonymous)'} ${where}`, place };
      described.set(id, found);
    }
    return found;
  };

  const selfByFn = new Map<string, number>();
  const selfByPlace = new Map<string, number>();
  const inclusiveByFn = new Map<string, number>();
  const inclusiveByPlace = new Map<string, number>();
  const add = (map: Map<string, number>, key: string, micros: number) => map.set(key, (map.get(key) ?? 0) + micros);

  let time = profile.startTime;
  let windowMicros = 0;
  let busyMicros = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    time += profile.timeDeltas[i] ?? 0;
    if (!windows.some((w) => time >= w.from && time <= w.to)) continue;
    // A sample stands for the time until the next one.
    const micros = profile.timeDeltas[i + 1] ?? 0;
    const id = profile.samples[i] as number;
    windowMicros += micros;
    const leaf = describe(id);
    if (leaf.fn.startsWith('(idle)')) continue;
    busyMicros += micros;
    add(selfByFn, leaf.fn, micros);
    // A builtin is charged to the nearest caller that has a place.
    let owner: number | undefined = id;
    while (owner !== undefined && describe(owner).place === null) owner = parent.get(owner);
    add(selfByPlace, owner === undefined ? '(native)' : (describe(owner).place as string), micros);
    const seenFns = new Set<string>();
    const seenPlaces = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const { fn, place } = describe(at);
      if (!seenFns.has(fn)) {
        seenFns.add(fn);
        add(inclusiveByFn, fn, micros);
      }
      if (place && !seenPlaces.has(place)) {
        seenPlaces.add(place);
        add(inclusiveByPlace, place, micros);
      }
    }
  }
  for (const root of ['(root) native']) inclusiveByFn.delete(root);
  return {
    windowMs: windowMicros / 1000,
    busyMs: busyMicros / 1000,
    byPlace: top(selfByPlace, busyMicros, limit),
    selfTop: top(selfByFn, busyMicros, limit),
    inclusiveTop: top(inclusiveByFn, busyMicros, limit),
    inclusiveByPlace: top(inclusiveByPlace, busyMicros, limit),
  };
}

/** `node --import tsx bench/lib/cpu-profile.ts FILE.cpuprofile`: the summary of a whole profile. */
if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const file = process.argv[2];
  if (!file) throw new Error('usage: cpu-profile.ts FILE.cpuprofile');
  console.log(JSON.stringify(summarizeCpuProfile(file), null, 2));
}
