// Builds the web app once, so `npm start` works on a fresh clone; later starts reuse the build.
import { existsSync } from 'node:fs';
import { execSync } from 'node:child_process';

if (!existsSync(new URL('../apps/web/dist/index.html', import.meta.url))) {
  console.log('Building the web app (first start)…');
  execSync('npm run build -w apps/web', { stdio: 'inherit' });
}
