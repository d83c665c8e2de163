import { describe, expect, it } from 'vitest';
import { en } from './en';
import { createI18n, missingKeys, supportedLocale } from './i18n';
import { zhCN } from './zh-CN';

/** Every leaf key of a message tree, dotted. */
function keys(tree: object, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([key, value]) => (typeof value === 'string' ? [`${prefix}${key}`] : keys(value as object, `${prefix}${key}.`)));
}

describe('translations', () => {
  it('zh-CN has every key of en and no other, none of them empty', () => {
    expect(keys(zhCN).sort()).toEqual(keys(en).sort());
    for (const key of keys(zhCN)) expect(key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], zhCN)).not.toBe('');
  });

  it('resolves every key in both languages without reporting one missing', () => {
    for (const language of ['en', 'zh-CN'] as const) {
      const i18n = createI18n({ language });
      for (const key of keys(en)) expect(i18n.t(key as never, { count: 2, sold: 1, remaining: 1, initial: 1, oversold: 1 })).not.toBe(key);
    }
    expect(missingKeys.splice(0)).toEqual([]);
  });

  it('reports a key that does not exist, in the language asked for', () => {
    const i18n = createI18n({ language: 'zh-CN' });
    i18n.t('headline.nonexistent' as never);
    expect(missingKeys.splice(0)).toEqual(['zh-CN:headline.nonexistent']);
  });

  it('reads any Chinese the browser asks for as Simplified, anything else as English', () => {
    expect(['zh', 'zh-CN', 'zh-TW', 'zh-Hans'].map(supportedLocale)).toEqual(['zh-CN', 'zh-CN', 'zh-CN', 'zh-CN']);
    expect(['en-US', 'fr', 'de-DE'].map(supportedLocale)).toEqual(['en', 'en', 'en']);
  });

  it('sets lang on the document', () => {
    createI18n({ language: 'zh-CN' });
    expect(document.documentElement.lang).toBe('zh-CN');
  });
});
