import { useTranslation } from 'react-i18next';
import type { PitfallExplanation as Explanation } from '@oversell/contracts';
import { useLocale } from '../i18n/use-locale';

/** What happens, at which step, and why the fix holds, in the page's language. */
export function PitfallExplanation({ explanation }: { explanation: Explanation }) {
  const { t } = useTranslation();
  const locale = useLocale();
  return (
    <dl>
      <dt>{t('pitfalls.whatHappens')}</dt>
      <dd>{explanation.whatHappens[locale]}</dd>
      <dt>{t('pitfalls.atWhichStep')}</dt>
      <dd>{explanation.atWhichStep[locale]}</dd>
      <dt>{t('pitfalls.whyTheFixHolds')}</dt>
      <dd>{explanation.whyTheFixHolds[locale]}</dd>
    </dl>
  );
}
