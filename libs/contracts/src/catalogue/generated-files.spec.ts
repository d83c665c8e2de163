import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { REPO_ROOT } from './generate';
import { GENERATED_FILES } from './generated-files';

describe('the files generated from the catalogue', () => {
  it.each(GENERATED_FILES.map((file) => [file.path, file] as const))('%s is as `npm run generate` writes it (run it after changing an entry)', (_path, file) => {
    expect(readFileSync(resolve(REPO_ROOT, file.path), 'utf8')).toBe(file.content());
  });
});
