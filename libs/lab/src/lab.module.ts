import { Module, type DynamicModule, type FactoryProvider, type ModuleMetadata } from '@nestjs/common';
import { CourseModule } from './course/course.module';
import { FiguresModule } from './figures/figures.module';
import { LAB_OPTIONS, type LabOptions } from './lab.options';
import { RunsModule } from './runs/runs.module';

export interface LabModuleAsyncOptions extends Pick<ModuleMetadata, 'imports'>, Pick<FactoryProvider<LabOptions>, 'inject'> {
  useFactory: (...args: never[]) => LabOptions | Promise<LabOptions>;
}

/**
 * The control plane, for a host that already has the stock library (its connections and options): the
 * run queue and worker, the run figures, the instance registry, the course followers follow. The host
 * adds the HTTP routes.
 */
@Module({})
export class LabModule {
  static forRootAsync(options: LabModuleAsyncOptions): DynamicModule {
    return {
      module: LabModule,
      global: true,
      imports: [...(options.imports ?? []), FiguresModule, RunsModule, CourseModule],
      providers: [{ provide: LAB_OPTIONS, useFactory: options.useFactory, inject: options.inject ?? [] }],
      exports: [LAB_OPTIONS, FiguresModule, RunsModule, CourseModule],
    };
  }
}
