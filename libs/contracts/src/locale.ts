/** The languages every text a user reads is written in, side by side at its source. */
export const LOCALES = ['en', 'zh-CN'] as const;
export type Locale = (typeof LOCALES)[number];

/** One text in every language, written once at its source (not translated at render time). */
export type Localized = Record<Locale, string>;

/** Several texts as one, language by language, each language with its own separator. */
export function joinedLocalized(texts: readonly Localized[], separator: Localized): Localized {
  return Object.fromEntries(LOCALES.map((locale) => [locale, texts.map((text) => text[locale]).join(separator[locale])])) as Localized;
}

/** The separator of a list of problems in one message. */
export const PROBLEM_SEPARATOR: Localized = { en: '; ', 'zh-CN': '；' };
