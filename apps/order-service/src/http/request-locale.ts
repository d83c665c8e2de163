import { LOCALES, type Locale } from '@oversell/contracts';
import type { FastifyRequest } from 'fastify';
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
    throw new ApiError(400, 'validation_failed', { en: `lang must be one of ${LOCALES.join(', ')}`, 'zh-CN': `lang 必须是 ${LOCALES.join('、')} 之一` }, { field: 'lang' });
  }
  const preferred = new Negotiator({ headers: { 'accept-language': acceptLanguage } }).language([...OFFERED]);
  return preferred === 'zh' ? 'zh-CN' : ((preferred as Locale | undefined) ?? 'en');
}

/** The language of an error's answer: as requestLocale reads it, a `?lang=` it has no texts in aside (the answer says so in the header's language). */
export function errorLocale(request: Pick<FastifyRequest, 'query' | 'headers'>): Locale {
  const lang = (request.query as Record<string, unknown> | undefined)?.lang;
  const acceptLanguage = request.headers['accept-language'];
  // The load tools ask for neither: a sold-out answer, most of a flash sale's, skips the negotiation.
  if (lang === undefined && acceptLanguage === undefined) return 'en';
  try {
    return requestLocale(typeof lang === 'string' ? lang : undefined, acceptLanguage);
  } catch {
    return requestLocale(undefined, acceptLanguage);
  }
}
