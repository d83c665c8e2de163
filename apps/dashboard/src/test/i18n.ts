import { createI18n } from '../i18n/i18n';

/** The English instance every test renders with (test/setup.ts); its `t` for the pure functions of lib/. */
export const i18n = createI18n({ language: 'en' });
export const t = i18n.t;
