import 'i18next';
import type { en } from './en';

// Keys are checked at compile time: t('headline.typo') does not build.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof en };
  }
}
