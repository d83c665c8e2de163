/**
 * The dashboard's English texts. zh-CN.ts has the same keys (its type is this file's shape, so a key
 * missing there does not compile); strategy and preset texts come with the catalogue, not from here.
 */
export const en = {
  app: {
    title: 'Oversell Lab',
    views: 'Views',
  },
  nav: {
    lab: 'Lab',
    compare: 'Compare',
    pitfalls: 'Pitfalls',
    explain: 'Explain',
    history: 'History',
  },
  language: {
    label: 'Language',
    en: 'English',
    'zh-CN': '中文',
  },
  headline: {
    label: 'Units sold twice',
    soldTwice_one: 'unit sold twice',
    soldTwice_other: 'units sold twice',
    soldTwiceSoFar_one: 'unit sold twice so far',
    soldTwiceSoFar_other: 'units sold twice so far',
    stockLeft: '{{sold}} sold, yet {{remaining}} of {{initial}} still in stock',
    beyondStock: '{{sold}} sold of {{initial}} in stock: {{oversold}} beyond it',
    held: 'every unit sold at most once',
    heldLive: 'none so far',
    lost_one: '{{count}} unit taken with no order (stranded by a crash)',
    lost_other: '{{count}} units taken with no order (stranded by a crash)',
    storeLost: 'the stock store lost its keys (Redis restarted or was flushed): its figures are not measurements',
  },
} as const;
