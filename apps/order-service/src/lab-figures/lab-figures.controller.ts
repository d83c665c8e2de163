import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { choosingALock, describeStrategy, STRATEGY_NAMES, type ChoosingALock } from '@oversell/contracts';
import { ApiError } from '@oversell/lab';
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
  @ApiOperation({ summary: "Which lock to choose, with this lab's latest bench, lock-bench and pitfalls figures; 404 not_found while it has measured none" })
  async choosingALock(): Promise<ChoosingALock> {
    const dir = this.config.labResultsDir;
    const inputs = dir ? await readLabReports(dir) : { bench: null, locks: null, pitfalls: null };
    if (!inputs.bench && !inputs.locks && !inputs.pitfalls) {
      throw new ApiError(
        404,
        'not_found',
        dir
          ? {
              en: `this lab has no bench, lock-bench or pitfalls report in ${dir} yet: run npm run bench, npm run bench:locks or npm run pitfalls`,
              'zh-CN': `本实验室在 ${dir} 中还没有 bench、lock-bench 或 pitfalls 报告：请运行 npm run bench、npm run bench:locks 或 npm run pitfalls`,
            }
          : { en: 'this instance keeps no reports (LAB_RESULTS_DIR is not set)', 'zh-CN': '该实例不保存报告（未设置 LAB_RESULTS_DIR）' },
      );
    }
    // Whichever report is newest says when the figures were measured; each source keeps its own date.
    const newest = [inputs.bench, inputs.locks, inputs.pitfalls].flatMap((loaded) => (loaded ? [loaded.report.startedAt] : [])).sort().at(-1)!;
    return choosingALock(STRATEGY_NAMES.map((name) => describeStrategy(name)), inputs, 'GET /api/lab-figures/choosing-a-lock', new Date(newest));
  }
}
