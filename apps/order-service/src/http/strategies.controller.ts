import { Controller, Get, Headers, Inject, Query, Res } from '@nestjs/common';
import { ApiHeader, ApiQuery, ApiTags } from '@nestjs/swagger';
import { LOCALES, type StrategyDescription } from '@oversell/contracts';
import { STOCK_STRATEGIES, type StrategyRegistry } from '@oversell/stock';
import type { FastifyReply } from 'fastify';
import { requestLocale } from './request-locale';

@ApiTags('strategies')
@Controller('api/strategies')
export class StrategiesController {
  constructor(@Inject(STOCK_STRATEGIES) private readonly registry: StrategyRegistry) {}

  /** Every strategy, its texts in the language asked for (the scripts are code: the same in every language). */
  @Get()
  @ApiQuery({ name: 'lang', required: false, enum: LOCALES, description: 'The language of the texts; wins over Accept-Language. Anything else is a 400.' })
  @ApiHeader({ name: 'Accept-Language', required: false, description: 'Used when there is no `lang`: its most preferred of en, zh-CN (a bare zh reads zh-CN); otherwise English.' })
  list(
    @Query('lang') lang: string | undefined,
    @Headers('accept-language') acceptLanguage: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): StrategyDescription[] {
    const locale = requestLocale(lang, acceptLanguage);
    // Caches keep one answer per language asked for.
    void reply.header('content-language', locale).header('vary', 'Accept-Language');
    return this.registry.describeAll(locale);
  }
}
