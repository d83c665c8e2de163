/**
 * Every relative link and image of README.md, loadtests/README.md and docs/*.md must land: the file exists, and an anchor
 * names a heading (GitHub's slugs, as the site's, see slug.mjs) or an `id="…"` of the page it points to.
 * The site's build checks only that linked pages exist, and nothing outside docs/.
 * External links are not fetched: this machine cannot reach them.
 *   node docs/.vitepress/check-links.mjs [file.md …]   (default: those files)
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { slug } from './slug.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The text with code blocks and code spans blanked: a `[x](y)` there is code, not a link. */
function prose(markdown) {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[ \t]*$/gm, '').replace(/`[^`\n]*`/g, '``');
}

/** The anchors a page offers: its headings' slugs (a repeated one gets -1, -2, …) and its explicit ids. */
function anchorsOf(file) {
  const markdown = readFileSync(file, 'utf8');
  const anchors = new Set([...markdown.matchAll(/\bid="([^"]+)"/g)].map((m) => m[1]));
  const seen = new Map();
  for (const [, text] of prose(markdown.replace(/`([^`\n]*)`/g, '$1')).matchAll(/^#{1,6}[ \t]+(.+?)[ \t#]*$/gm)) {
    const base = slug(text.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/\*/g, ''));
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count ? `${base}-${count}` : base);
  }
  return anchors;
}

export function deadLinks(files) {
  const dead = [];
  for (const file of files) {
    const text = prose(readFileSync(file, 'utf8'));
    const targets = [...text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g), ...text.matchAll(/\b(?:href|src)="([^"]+)"/g)].map((m) => m[1]);
    for (const target of targets) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) continue; // external
      const [path, anchor] = target.split('#');
      const to = path ? resolve(dirname(file), decodeURIComponent(path)) : file;
      const why = !existsSync(to)
        ? 'no such file'
        : anchor && to.endsWith('.md') && !anchorsOf(to).has(decodeURIComponent(anchor))
          ? `no heading or id "${anchor}" in ${relative(ROOT, to)}`
          : undefined;
      if (why) dead.push(`${relative(ROOT, file)}: ${target} (${why})`);
    }
  }
  return dead;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const docs = join(ROOT, 'docs');
  const files = process.argv.length > 2
    ? process.argv.slice(2).map((file) => resolve(file))
    : [join(ROOT, 'README.md'), join(ROOT, 'loadtests', 'README.md'), ...readdirSync(docs).filter((name) => name.endsWith('.md') && statSync(join(docs, name)).isFile()).map((name) => join(docs, name))];
  const dead = deadLinks(files);
  for (const line of dead) console.error(`dead link: ${line}`);
  console.log(`${files.length} files, ${dead.length} dead links`);
  process.exit(dead.length ? 1 : 0);
}
