/**
 * A server's own count of the answers it sent, as an instance counts a run's: how many, from the first
 * request's arrival to the last answer. The bench's yardsticks beside the service (the bare Fastify
 * no-op, the service's no-op through the gateway) are counted this way, by the server, never by the
 * load tool.
 */
export interface AnswerFigures {
  answers: number;
  /** Epoch ms; Infinity before the first request. */
  firstRequestAt: number;
  lastAnswerAt: number;
}

const noAnswers = (): AnswerFigures => ({ answers: 0, firstRequestAt: Infinity, lastAnswerAt: 0 });

export class AnswerCount {
  private figures = noAnswers();

  /** One answer sent, elapsedMs after its request arrived. */
  answered(elapsedMs: number): void {
    const now = Date.now();
    this.figures.answers++;
    this.figures.firstRequestAt = Math.min(this.figures.firstRequestAt, now - elapsedMs);
    this.figures.lastAnswerAt = now;
  }

  /** The answers counted since the last take; a new count starts. */
  take(): AnswerFigures {
    const figures = this.figures;
    this.figures = noAnswers();
    return figures;
  }
}

/** Answers a second over the time they were answered in (0 with none), to one decimal. */
export function answeringThroughput({ answers, firstRequestAt, lastAnswerAt }: AnswerFigures): number {
  const answeringSec = Math.max(0.001, (lastAnswerAt - firstRequestAt) / 1000);
  return answers ? Math.round((answers / answeringSec) * 10) / 10 : 0;
}
