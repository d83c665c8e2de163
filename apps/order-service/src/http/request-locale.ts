import { LOCALES, type Locale } from '@oversell/contracts';
import Negotiator from 'negotiator';
import { ApiError } from '@oversell/lab';

// A bare `zh` (or `zh;q=…`) reads the Simplified texts too; Negotiator matches a range to a tag or its prefix.
const OFFERED = [...LOCALES, 'zh'] as const;

/**
 * The language a request asks for: `?lang=` when given (exactly one of LOCALES, else a 400 naming the
 * field), else the most preferred of the Accept-Language header that the texts exist in, else English.
 */
export function requestLocale(lang: string | undefined, acceptLanguage: string | undefined): Locale {
  if (lang !== undefined) {
    if ((LOCALES as readonly string[]).includes(lang)) return lang as Locale;
    throw new ApiError(400, 'validation_failed', `lang must be one of ${LOCALES.join(', ')}`, { field: 'lang' });
  }
  const preferred = new Negotiator({ headers: { 'accept-language': acceptLanguage } }).language([...OFFERED]);
  return preferred === 'zh' ? 'zh-CN' : ((preferred as Locale | undefined) ?? 'en');
}
