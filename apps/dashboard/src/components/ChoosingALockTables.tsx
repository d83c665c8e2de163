import { Trans, useTranslation } from 'react-i18next';
import { faultOutcomesText, figureText, LOCK_FAULT_TITLES, LOCK_FAULTS, type ChoiceRow, type ChoiceSource, type ChoosingALock } from '@oversell/contracts';
import { useStrategyTexts } from '../i18n/strategy-texts';
import { useLocale } from '../i18n/use-locale';

function SourceLine({ label, source }: { label: string; source: ChoiceSource | null }) {
  const { t } = useTranslation();
  if (!source) return <li>{t('choosing.noReport', { label })}</li>;
  const load = source.machine.loadAverage ? t('choosing.load', { average: source.machine.loadAverage.join(' / ') }) : t('choosing.loadNotRecorded');
  return (
    <li>
      <Trans
        i18nKey="choosing.sourceLine"
        values={{ label, command: source.command, startedAt: source.startedAt, cpus: source.machine.cpus, load }}
        components={{ code: <code /> }}
      />
    </li>
  );
}

/** When and where the figures were measured: by this lab (its latest reports), or recorded on a maintainer's machine. */
function MeasuredOn({ data, here }: { data: ChoosingALock; here: boolean }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const { machine } = data.sources.bench ?? data.sources.locks ?? data.sources.pitfalls ?? {};
  const date = new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeStyle: here ? 'short' : undefined, timeZone: 'UTC' }).format(new Date(data.generatedAt));
  const on = machine ? t('choosing.machine', { cpus: machine.cpus, memoryGb: machine.memoryGb, node: machine.node }) : '?';
  return (
    <p className="notice" data-testid={here ? 'choosing-a-lock-measured-here' : 'choosing-a-lock-recorded'}>
      {here ? t('choosing.measuredHere', { date, machine: on }) : t('choosing.recorded', { date, machine: on })}
    </p>
  );
}

/**
 * The articles' comparison with the lab's figures, this lab's own (GET /api/lab-figures/choosing-a-lock) or
 * as `npm run choosing-a-lock` recorded them: what each
 * strategy needs and guarantees, its throughput and p99, and what it did under each fault. The words of
 * each strategy's choice (runs on, complexity, reliability, under each fault) are its catalogue entry's in
 * the page's language. Number cells never wrap; on a phone the tables scroll sideways under a fixed first column.
 */
export function ChoosingALockTables({ data, measuredHere = false }: { data: ChoosingALock; measuredHere?: boolean }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const texts = useStrategyTexts();
  const figure = (value: number | null, digits?: number) => figureText(value, digits, locale);
  // The generated file carries the English words too: they stand only if the catalogue has dropped the choice.
  const choice = (row: ChoiceRow) => texts(row.strategy).choice ?? row.choice;
  return (
    <section className="panel" data-testid="choosing-a-lock">
      <h2>{t('choosing.title')}</h2>
      <MeasuredOn data={data} here={measuredHere} />
      <p>
        <Trans i18nKey="choosing.generated" values={{ command: data.command, at: data.generatedAt }} components={{ code: <code /> }} />
      </p>
      <ul className="sources">
        <SourceLine label={t('choosing.source.bench')} source={data.sources.bench} />
        <SourceLine label={t('choosing.source.locks')} source={data.sources.locks} />
        <SourceLine label={t('choosing.source.pitfalls')} source={data.sources.pitfalls} />
      </ul>
      <div className="table-scroll">
        <table className="runs-table choice-table" data-testid="choosing-a-lock-figures">
          <thead>
            <tr>
              <th>{t('choosing.column.strategy')}</th>
              <th>{t('choosing.column.runsOn')}</th>
              <th>{t('choosing.column.complexity')}</th>
              <th>{t('choosing.column.reliability')}</th>
              <th>{t('choosing.column.ordersPerSec')}</th>
              <th>{t('choosing.column.p99')}</th>
              <th>{t('choosing.column.lockSections')}</th>
              <th>{t('choosing.column.lockWait')}</th>
              <th>{t('choosing.column.lockFailures')}</th>
            </tr>
          </thead>
          <tbody>
            {data.rows.map((row) => (
              <tr key={row.strategy} data-testid={`choice-${row.strategy}`}>
                <th scope="row">
                  {texts(row.strategy).title} <code className="strategy-name">{row.strategy}</code>
                </th>
                <td>{choice(row).runsOn}</td>
                <td>{choice(row).complexity}</td>
                <td>{choice(row).reliability}</td>
                <td className="num">{figure(row.ordersPerSec)}</td>
                <td className="num">{figure(row.p99Ms, 1)}</td>
                <td className="num">{figure(row.lockSectionsPerSec)}</td>
                <td className="num">{figure(row.lockWaitP99Ms, 1)}</td>
                <td className="num">
                  {figure(row.lockTimeouts)} / {figure(row.lockErrors)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <h3>{t('choosing.underEachFault')}</h3>
      <div className="table-scroll">
        <table className="runs-table choice-table choice-table--faults" data-testid="choosing-a-lock-faults">
          <thead>
            <tr>
              <th>{t('choosing.column.strategy')}</th>
              {LOCK_FAULTS.map((fault) => (
                <th key={fault}>{LOCK_FAULT_TITLES[fault][locale]}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {data.rows.map((row) => (
              <tr key={row.strategy} data-testid={`choice-faults-${row.strategy}`}>
                <th scope="row">
                  <code className="strategy-name">{row.strategy}</code>
                </th>
                {LOCK_FAULTS.map((fault) => (
                  <td key={fault} data-testid={`choice-${row.strategy}-${fault}`}>
                    {choice(row).underFault[fault]}
                    <br />
                    <small>{t('choosing.measured', { outcomes: faultOutcomesText(row.underFault[fault], locale) })}</small>
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
