/**
 * GitHub's heading anchors (github-slugger's rule: lower case, every character that is not a letter, a
 * digit, a mark, `_`, `-` or a space dropped, spaces to `-`), so that `page.md#a-heading` lands on the
 * same heading on GitHub and on the docs site. VitePress's own rule turns `'` and `(` into `-` instead.
 */
export function slug(heading) {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-');
}
