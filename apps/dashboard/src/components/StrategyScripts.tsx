import type { StrategyDescription } from '@oversell/contracts';

/** The scripts a strategy sends (its Lua or SQL), as the service loaded them; collapsed unless `open`. */
export function StrategyScripts({ strategy, open = false }: { strategy: StrategyDescription; open?: boolean }) {
  return strategy.scripts.map((script) => (
    // Collapsed by default: a section reads as its steps first; the script is one click away.
    <details key={script.name} className="script-block" open={open}>
      <summary>
        <code>{script.name}</code> <span className="tag">{script.language.toUpperCase()}</span>
      </summary>
      <pre className="script">
        <code className={`language-${script.language}`}>{script.source}</code>
      </pre>
    </details>
  ));
}
