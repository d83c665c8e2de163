/**
 * `npm run generate`: writes the files that come from the strategy catalogue (GENERATED_FILES). Their
 * tests fail while a checked-in copy differs from what this would write.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { GENERATED_FILES } from './generated-files';

/** From this file in src/catalogue or dist/catalogue. */
export const REPO_ROOT = resolve(__dirname, '..', '..', '..', '..');

if (require.main === module) {
  for (const file of GENERATED_FILES) {
    const path = resolve(REPO_ROOT, file.path);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, file.content());
    console.log(`written: ${file.path}`);
  }
}
