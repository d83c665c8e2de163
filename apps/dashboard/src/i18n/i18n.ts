import i18next, { type i18n as I18n } from 'i18next';
import LanguageDetector from 'i18next-browser-languagedetector';
import { initReactI18next } from 'react-i18next';
import { en } from './en';
import { LOCALES, type Locale } from './messages';
import { zhCN } from './zh-CN';

/** Where the language switch remembers its choice. */
export const LANGUAGE_STORAGE_KEY = 'oversell-lab.language';

/** Any Chinese the browser asks for reads the Simplified texts; any other language the English ones. */
export function supportedLocale(language: string): Locale {
  return language.toLowerCase().startsWith('zh') ? 'zh-CN' : 'en';
}

/**
 * Every key a view asked for that a language lacks. Tests fail on it (unit tests through `onMissingKey`,
 * the browser test by reading `window.__missingTranslationKeys`), so a text never shows as its key.
 */
export const missingKeys: string[] = [];

/**
 * One i18next instance for the page: the language from the switch (remembered), else the browser's,
 * else English; `lang` on the document follows it.
 */
export function createI18n(options: { language?: Locale; onMissingKey?: (key: string, language: string) => void } = {}): I18n {
  const instance = i18next.createInstance();
  if (!options.language) instance.use(LanguageDetector);
  instance.use(initReactI18next);
  instance.on('languageChanged', (language) => {
    if (typeof document !== 'undefined') document.documentElement.lang = language;
  });
  void instance.init({
    resources: { en: { translation: en }, 'zh-CN': { translation: zhCN } },
    lng: options.language,
    supportedLngs: [...LOCALES],
    fallbackLng: false,
    interpolation: { escapeValue: false },
    returnNull: false,
    saveMissing: true,
    missingKeyHandler: (languages, _namespace, key) => {
      for (const language of languages) {
        missingKeys.push(`${language}:${key}`);
        options.onMissingKey?.(key, language);
      }
    },
    detection: {
      order: ['localStorage', 'navigator'],
      lookupLocalStorage: LANGUAGE_STORAGE_KEY,
      caches: ['localStorage'],
      convertDetectedLanguage: supportedLocale,
    },
    initAsync: false,
  });
  if (typeof window !== 'undefined') (window as { __missingTranslationKeys?: string[] }).__missingTranslationKeys = missingKeys;
  return instance;
}
