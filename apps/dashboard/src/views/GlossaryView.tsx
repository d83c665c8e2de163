import { useTranslation } from 'react-i18next';
import { GLOSSARY } from '../i18n/glossary';
import { useLocale } from '../i18n/use-locale';

/** The articles' terms side by side in English and Chinese, each explained in the page's language. */
export function GlossaryView() {
  const { t } = useTranslation();
  const locale = useLocale();
  return (
    <div className="view glossary" data-testid="glossary-view">
      <section className="panel">
        <h2>{t('glossary.title')}</h2>
        <p>{t('glossary.intro')}</p>
        <div className="table-scroll">
          <table className="runs-table glossary-table" data-testid="glossary-table">
            <caption className="visually-hidden">{t('glossary.caption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('glossary.term')}</th>
                <th scope="col">{t('glossary.termZh')}</th>
                <th scope="col">{t('glossary.meaning')}</th>
              </tr>
            </thead>
            <tbody>
              {GLOSSARY.map((entry) => (
                <tr key={entry.term.en} data-testid="glossary-entry">
                  <th scope="row" lang="en">
                    {entry.term.en}
                  </th>
                  <td lang="zh-CN">{entry.term['zh-CN']}</td>
                  <td>{entry.explanation[locale]}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
    </div>
  );
}
