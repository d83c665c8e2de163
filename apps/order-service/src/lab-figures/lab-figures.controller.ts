import { Controller, Get, Inject, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { choosingALock, describeStrategy, STRATEGY_NAMES, type ChoosingALock } from '@oversell/contracts';
import type { FastifyReply } from 'fastify';
import { appConfig, type AppConfig } from '../config/configuration';
import { readLabReports } from './lab-reports';

/**
 * This lab's own figures, from the reports its benches and pitfall runs left under LAB_RESULTS_DIR (the
 * launcher sets it to bench-results/ for the instances it starts): the Explain view shows them instead
 * of the figures recorded on a maintainer's machine whenever this lab has measured any.
 */
@ApiTags('lab-figures')
@Controller('api/lab-figures')
export class LabFiguresController {
  constructor(@Inject(appConfig.KEY) private readonly config: AppConfig) {}

  @Get('choosing-a-lock')
  @ApiOperation({ summary: "Which lock to choose, with this lab's latest bench, lock-bench and pitfalls figures; 204 No Content while it has measured none (or keeps no reports: LAB_RESULTS_DIR unset)" })
  async choosingALock(@Res({ passthrough: true }) reply: FastifyReply): Promise<ChoosingALock | undefined> {
    const dir = this.config.labResultsDir;
    const inputs = dir ? await readLabReports(dir) : { bench: null, locks: null, pitfalls: null };
    // Having measured nothing yet is the lab's normal first state, not an error: the recorded figures are shown instead.
    if (!inputs.bench && !inputs.locks && !inputs.pitfalls) {
      reply.status(204);
      return undefined;
    }
    // Whichever report is newest says when the figures were measured; each source keeps its own date.
    const newest = [inputs.bench, inputs.locks, inputs.pitfalls].flatMap((loaded) => (loaded ? [loaded.report.startedAt] : [])).sort().at(-1)!;
    return choosingALock(STRATEGY_NAMES.map((name) => describeStrategy(name)), inputs, 'GET /api/lab-figures/choosing-a-lock', new Date(newest));
  }
}
