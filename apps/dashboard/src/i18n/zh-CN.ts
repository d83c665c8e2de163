import type { Messages } from './messages';

/** 仪表盘的简体中文文本：键与 en.ts 相同（类型来自 en.ts，缺一个键就编译不过）。 */
export const zhCN: Messages = {
  app: {
    title: 'Oversell Lab 超卖实验室',
    views: '视图',
  },
  nav: {
    lab: '实验',
    compare: '对比',
    pitfalls: '陷阱',
    explain: '原理',
    history: '历史',
  },
  language: {
    label: '语言',
    en: 'English',
    'zh-CN': '中文',
  },
  headline: {
    label: '重复卖出的件数',
    soldTwice_one: '件被卖了两次',
    soldTwice_other: '件被卖了两次',
    soldTwiceSoFar_one: '件已被卖了两次',
    soldTwiceSoFar_other: '件已被卖了两次',
    stockLeft: '卖出 {{sold}} 件，库存 {{initial}} 件中却还剩 {{remaining}} 件',
    beyondStock: '库存 {{initial}} 件，卖出 {{sold}} 件：超出 {{oversold}} 件',
    held: '每件商品最多只卖出一次',
    heldLive: '目前没有',
    lost_one: '{{count}} 件库存被扣减却没有订单（进程崩溃所致）',
    lost_other: '{{count}} 件库存被扣减却没有订单（进程崩溃所致）',
    storeLost: '库存存储丢失了数据（Redis 重启或被清空）：其数字不是测量值',
  },
};
