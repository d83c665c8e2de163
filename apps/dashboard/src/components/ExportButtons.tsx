import { useTranslation } from 'react-i18next';
import { download, toCsv, toJsonRows, type ExportTable } from '../lib/export';

interface ExportButtonsProps {
  /** Names the buttons for tests (data-testid="<name>-csv"), and the file unless `filename` does. */
  name: string;
  /** The file name without extension. */
  filename?: string;
  /** A table, downloadable as CSV and as JSON rows; or any value, downloadable as JSON only. */
  table?: ExportTable;
  value?: unknown;
}

/** Download buttons for what a view shows; the data is serialised at the click, as it is then. */
export function ExportButtons({ name, filename = name, table, value }: ExportButtonsProps) {
  const { t } = useTranslation();
  const json = () => JSON.stringify(table ? toJsonRows(table) : value, null, 2);
  return (
    <div className="export-buttons" role="group" aria-label={t('export.label')}>
      {table && (
        <button type="button" className="button button--small" data-testid={`${name}-csv`} onClick={() => download(`${filename}.csv`, toCsv(table), 'text/csv')}>
          {t('export.csv')}
        </button>
      )}
      <button type="button" className="button button--small" data-testid={`${name}-json`} onClick={() => download(`${filename}.json`, json(), 'application/json')}>
        {t('export.json')}
      </button>
    </div>
  );
}
