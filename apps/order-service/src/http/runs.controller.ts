import { Body, Controller, Get, HttpCode, MessageEvent, Param, Post, Query, Sse } from '@nestjs/common';
import { ApiTags, ApiTooManyRequestsResponse } from '@nestjs/swagger';
import type { RunBatchView, RunEvent, RunView, Scenario } from '@oversell/contracts';
import { listScenarios, loadScenario } from '@oversell/loadtests';
import { Observable } from 'rxjs';
import { ApiError, RunBatchDto, RunEventsBus, RunIdParam, RunParamsDto, RunsService } from '@oversell/lab';
import { AdminOnly } from './admin-token.guard';

const MAX_LIST = 200;
const DEFAULT_LIST = 50;

@ApiTags('runs')
@Controller('api')
export class RunsController {
  constructor(
    private readonly runs: RunsService,
    private readonly bus: RunEventsBus,
  ) {}

  /** Queues one run; runs execute one at a time, in order. */
  @Post('runs')
  @AdminOnly()
  @ApiTooManyRequestsResponse({ description: 'run_queue_full: RUN_QUEUE_LIMIT runs are already waiting; nothing was queued.' })
  @HttpCode(201)
  create(@Body() params: RunParamsDto): Promise<RunView> {
    return this.runs.create(params);
  }

  /** Queues the no-op ceiling and then every strategy (or the chosen ones) with one scenario. */
  @Post('runs/batch')
  @AdminOnly()
  @ApiTooManyRequestsResponse({ description: 'run_queue_full: the batch does not fit under RUN_QUEUE_LIMIT waiting runs; none of it was queued.' })
  @HttpCode(201)
  createBatch(@Body() request: RunBatchDto): Promise<RunBatchView> {
    return this.runs.createBatch(request);
  }

  @Get('runs')
  list(@Query('limit') limit?: string): Promise<RunView[]> {
    return this.runs.list(listLimit(limit));
  }

  @Get('runs/:id')
  get(@Param() { id }: RunIdParam): Promise<RunView> {
    return this.runs.get(id);
  }

  /**
   * Server-sent events: the run's status now, then progress, lock events and the final result as they
   * happen. The subscription is live before the current state is read, so nothing falls in between.
   */
  @Sse('runs/:id/events')
  async events(@Param() { id }: RunIdParam): Promise<Observable<MessageEvent>> {
    const toMessage = (event: RunEvent): MessageEvent => ({ type: event.type, data: event });
    const buffered: RunEvent[] = [];
    let forward: ((event: RunEvent) => void) | null = null;
    const unsubscribe = await this.bus.subscribe(id, (event) => (forward ? forward(event) : buffered.push(event)));
    let run: RunView;
    try {
      run = await this.runs.get(id);
    } catch (error) {
      await unsubscribe();
      throw error;
    }
    return new Observable<MessageEvent>((subscriber) => {
      const emit = (event: RunEvent) => {
        subscriber.next(toMessage(event));
        if (event.type === 'result') subscriber.complete();
      };
      emit({ type: 'status', runId: id, status: run.status, failure: run.failure });
      if (run.status === 'completed' || run.status === 'failed') {
        emit({ type: 'result', runId: id, run });
      } else {
        for (const event of buffered) emit(event);
        forward = emit;
      }
      return () => void unsubscribe();
    });
  }

  /** The scenarios in loadtests/scenarios, for the dashboard's picker. */
  @Get('scenarios')
  scenarios(): Scenario[] {
    return listScenarios().map((name) => loadScenario(name));
  }
}

/**
 * ?limit=: whole digits from 1 to MAX_LIST, DEFAULT_LIST when absent. Read from the text itself: Nest's
 * number pipes took "abc" for the default (the global pipe made it NaN first), "0x10" for 16 and "1e1"
 * for 10, and answered "1.5" without naming the field.
 */
function listLimit(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_LIST;
  const limit = typeof raw === 'string' && /^\d{1,4}$/.test(raw) ? Number(raw) : NaN;
  if (!(limit >= 1 && limit <= MAX_LIST)) {
    throw new ApiError(400, 'validation_failed', { en: `limit must be a whole number from 1 to ${MAX_LIST}`, 'zh-CN': `limit 必须是 1 到 ${MAX_LIST} 之间的整数` }, { field: 'limit' });
  }
  return limit;
}
