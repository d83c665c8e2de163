/** The languages every text a user reads is written in, side by side at its source. */
export const LOCALES = ['en', 'zh-CN'] as const;
export type Locale = (typeof LOCALES)[number];
