// Copies non-TypeScript assets (the strategies' .lua files) from src to dist, keeping their folders,
// so the built library loads its scripts by name exactly as the sources do.
import { cpSync, statSync } from 'node:fs';

const [from, to, ...extensions] = process.argv.slice(2);
if (!from || !to || extensions.length === 0) {
  console.error('usage: copy-assets.mjs <from> <to> <.ext> [...]');
  process.exit(2);
}
cpSync(from, to, {
  recursive: true,
  filter: (path) => statSync(path).isDirectory() || extensions.some((ext) => path.endsWith(ext)),
});
