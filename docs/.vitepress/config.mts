import { defineConfig } from 'vitepress';
import { slug } from './slug.mjs';

/** The docs site: `npm run docs:dev`, `npm run docs:build` (the docs project's test builds it, failing on a dead link). */
export default defineConfig({
  title: 'Oversell Lab',
  description: 'Which stock-deduction strategy oversells, deadlocks or stays correct under real concurrency, and how fast each is.',
  lang: 'en',
  // A link to a page that does not exist fails the build (and so the docs project's test); only the
  // lab's own addresses (http://localhost:8080, Grafana's :3000, …) are links to no page, by design.
  ignoreDeadLinks: 'localhostLinks',
  lastUpdated: false,
  markdown: {
    anchor: { slugify: slug },
    config(md) {
      // ```mermaid blocks become the <Mermaid> component (theme/Mermaid.vue), drawn in the browser by
      // mermaid itself; GitHub draws the same blocks natively.
      const fence = md.renderer.rules.fence!;
      md.renderer.rules.fence = (tokens, index, options, env, self) => {
        const token = tokens[index];
        if (token.info.trim() !== 'mermaid') return fence(tokens, index, options, env, self);
        return `<Mermaid code="${encodeURIComponent(token.content)}" />`;
      };
    },
  },
  themeConfig: {
    search: { provider: 'local' },
    outline: [2, 3],
    nav: [
      { text: 'Guide', link: '/' },
      { text: 'Strategies', link: '/strategies' },
      { text: '策略（中文）', link: '/strategies#zh-cn' },
    ],
    sidebar: [
      { text: 'Start', items: [{ text: 'Index', link: '/' }, { text: 'Concepts', link: '/concepts' }, { text: 'Lessons (generated)', link: '/lessons' }, { text: 'Architecture', link: '/architecture' }] },
      {
        text: 'Reference',
        items: [
          { text: 'Strategies (generated)', link: '/strategies' },
          { text: 'Runs, faults and the API', link: '/api' },
          { text: 'Configuration', link: '/configuration' },
          { text: 'Choosing a lock (generated)', link: '/choosing-a-lock' },
        ],
      },
      { text: 'Guides', items: [{ text: 'Add a strategy', link: '/add-a-strategy' }, { text: 'Add a lock service', link: '/add-a-lock-service' }, { text: 'Operations', link: '/operations' }] },
      {
        text: 'Measurements',
        items: [
          { text: 'Benchmarks', link: '/benchmarks' },
          { text: 'Performance', link: '/performance' },
          { text: 'Pitfalls on demand', link: '/pitfalls' },
          { text: 'Model check', link: '/model-check' },
        ],
      },
    ],
  },
});
