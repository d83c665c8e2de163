import { useTranslation } from 'react-i18next';
import type { Locale } from '@oversell/contracts';
import { supportedLocale } from './i18n';

/** The page's language, to pick a text Localized at its source (presets, glossary) and to follow the switch. */
export function useLocale(): Locale {
  const { i18n } = useTranslation();
  return supportedLocale(i18n.resolvedLanguage ?? i18n.language);
}
