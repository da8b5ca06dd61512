// Bundles the viewer (src/main.js with three.js from node_modules) into dist/viewer.js, one
// classic script with no imports, and copies src/index.html beside it. `leapnav view` copies both
// into the folder it writes.
import { build } from 'esbuild';
import { copyFileSync, mkdirSync } from 'node:fs';

mkdirSync('dist', { recursive: true });
await build({
  entryPoints: ['src/main.js'],
  bundle: true,
  minify: true,
  format: 'iife',
  target: 'es2020',
  legalComments: 'eof',
  outfile: 'dist/viewer.js',
  logLevel: 'warning',
});
copyFileSync('src/index.html', 'dist/index.html');
console.log('viewer: dist/viewer.js and dist/index.html written');
