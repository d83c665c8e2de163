import { useTranslation } from 'react-i18next';
import { LOCALES, type Locale } from '../i18n/messages';

/** Chinese or English for the whole page; i18next remembers the choice (LANGUAGE_STORAGE_KEY). */
export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  return (
    <label className="language-switch">
      <span className="visually-hidden">{t('language.label')}</span>
      <select data-testid="language-switch" value={i18n.resolvedLanguage} onChange={(event) => void i18n.changeLanguage(event.target.value as Locale)}>
        {LOCALES.map((locale) => (
          <option key={locale} value={locale} lang={locale}>
            {t(`language.${locale}`)}
          </option>
        ))}
      </select>
    </label>
  );
}
