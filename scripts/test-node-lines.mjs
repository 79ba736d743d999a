// Picks the two Node binaries `npm test` runs on, one per supported line (`engines` in package.json):
// the whole suite on the first, the server's API tests again on the other. The machine's own Node is
// used when it is on a supported line; any line it does not cover comes from the npm registry's
// `node-linux-<arch>` package (scripts/registry-node.sh), pinned in package.json `bulkcart.testNodes`.
// Prints `full <path>` and `api <path>`, one a line.
//   node scripts/test-node-lines.mjs
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const { bulkcart } = JSON.parse(readFileSync(`${root}package.json`, 'utf8'));
/** The newest of each supported line first, then the floor of `engines`: e.g. ["24.21.0", "22.12.0"]. */
const pinned = bulkcart.testNodes;

const major = (version) => Number(version.split('.')[0]);
/** `engines`: ^22.12.0 || >=24.0.0. */
function isSupported(version) {
  const [maj, min] = version.split('.').map(Number);
  return (maj === 22 && min >= 12) || maj >= 24;
}

function registryNode(version) {
  return execFileSync('bash', [`${root}scripts/registry-node.sh`, version], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();
}

const machine = process.versions.node;
let full;
if (isSupported(machine)) full = { version: machine, path: process.execPath };
else full = { version: pinned[0], path: registryNode(pinned[0]) };
const other = pinned.find((version) => major(version) !== major(full.version));
if (!other) throw new Error(`bulkcart.testNodes holds no line other than Node ${major(full.version)}`);
const api = { version: other, path: registryNode(other) };

console.log(`full ${full.path}`);
console.log(`api ${api.path}`);
