/**
 * `npm run bench -- --taskset`: on a 2-core machine the load tool and the system under test take each
 * other's CPU, so the bench can pin each to cores of its own. The cores travel in the environment
 * (every process of the lab inherits it): LOAD_CPUS for the load tool (the Node runner's child, k6),
 * LAB_CPUS for the lab's instances, nginx and the bare Fastify no-op; taskset(1)'s -c list syntax.
 * taskset execs the command, so the pid a caller holds is the command's own.
 */
export const CPU_PINNING_VARIABLES = { load: 'LOAD_CPUS', lab: 'LAB_CPUS' } as const;
export type CpuSide = keyof typeof CPU_PINNING_VARIABLES;

export function cpusOf(side: CpuSide, env: NodeJS.ProcessEnv = process.env): string | undefined {
  return env[CPU_PINNING_VARIABLES[side]] || undefined;
}

/** spawn's command and arguments, run under `taskset -c <cpus>` when the side has cores of its own. */
export function pinnedCommand(side: CpuSide, command: string, args: readonly string[], env: NodeJS.ProcessEnv = process.env): [string, string[]] {
  const cpus = cpusOf(side, env);
  return cpus ? ['taskset', ['-c', cpus, command, ...args]] : [command, [...args]];
}

/** fork's options for the same (fork runs `execPath ...execArgv module`, keeping its IPC channel across taskset's exec). */
export function pinnedFork(side: CpuSide, execArgv: readonly string[] = process.execArgv, env: NodeJS.ProcessEnv = process.env): { execPath?: string; execArgv: string[] } {
  const cpus = cpusOf(side, env);
  return cpus ? { execPath: 'taskset', execArgv: ['-c', cpus, process.execPath, ...execArgv] } : { execArgv: [...execArgv] };
}
